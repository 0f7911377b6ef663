import Foundation

extension AdsLoader {
    /// Registers a pod-serving stream; the result goes to ``delegate``:
    /// `adsLoader(_:adsLoadedWith:)` with ``AdsLoadedData/streamManager``,
    /// or `adsLoader(_:failedWith:)` (see ``loadStream(with:)`` for the
    /// errors). IMA's `requestStreamWithRequest:`.
    public func requestStream(with request: StreamRequest) {
        Task { @MainActor in
            do throws(AdError) {
                let data = try await self.loadStream(with: request)
                self.delegate?.adsLoader(self, adsLoadedWith: data)
            } catch {
                self.delegate?.adsLoader(
                    self, failedWith: AdLoadingErrorData(adError: error, userContext: request.userContext))
            }
        }
    }

    /// Registers a pod-serving stream with the API at the request's
    /// `serverURL` (DAI.md §2) and hands back its ``StreamManager``. Throws
    /// ``AdError``: 1101 for a request missing its network code, custom
    /// asset key or server URL (nothing is sent); 301 when the API does not
    /// answer within `registrationTimeout`; 1020 for any other failure, with
    /// the server's own message when it gave one. On a failure the request's
    /// backup stream plays if it asked for that. The `async` form of
    /// ``requestStream(with:)``: Interlude's own (IMA has only the
    /// delegate form, `requestStreamWithRequest:`).
    public func loadStream(with request: StreamRequest) async throws(AdError) -> AdsLoadedData {
        do throws(AdError) {
            let registration = try await register(request)
            let manager = StreamManager(registration: registration, request: request, services: services)
            return AdsLoadedData(streamManager: manager, userContext: request.userContext)
        } catch {
            services.logger.log(.error, "stream registration: \(error)")
            if request.playsBackupStreamOnFailure, let backup = request.backupStreamURL {
                request.videoDisplay.loadStream(backup, subtitles: nil)
                request.videoDisplay.play()
            }
            throw error
        }
    }

    private func register(_ request: StreamRequest) async throws(AdError) -> StreamRegistration {
        let values = try StreamRegistrationRequest(request)
        let settings = services.resolver.settings
        let httpRequest = values.httpRequest(userAgent: settings.userAgent, language: settings.language)
        let response: HTTPResponse
        do {
            response = try await services.resolver.http.send(httpRequest, deadlineOn: services.resolver.clock)
        } catch HTTPClientError.timedOut {
            throw AdError(
                type: .loadingFailed, code: .vastLoadTimeout,
                message: "stream registration at \(values.url.absoluteString) did not answer within \(values.timeout) s"
            )
        } catch {
            throw AdError(
                type: .loadingFailed, code: .streamInitializationFailed,
                message: "stream registration at \(values.url.absoluteString) failed: \(error)")
        }
        return try StreamRegistration(response: response, requestURL: values.url)
    }
}
