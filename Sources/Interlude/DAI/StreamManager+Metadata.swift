import Foundation

/// Why a metadata download failed, for a log line or an error message.
struct StreamFetchFailure: Error, Sendable, CustomStringConvertible {
    var description: String
}

extension StreamManager {
    /// Seconds allowed for one metadata request.
    nonisolated static let metadataTimeout: TimeInterval = 8
    /// An unknown event ID starts a metadata fetch at most this often.
    static let unknownIDFetchInterval: TimeInterval = 2
    /// Unknown IDs held back for their fetch at most.
    static let maxHeldIDs = 64
    /// Tries for the VOD timeline before the stream fails with 1020.
    static let timelineAttempts = 2

    // MARK: - Live metadata

    /// Polls the metadata every `polling_frequency` seconds while the stream plays.
    func startPolling() {
        let clock = services.resolver.clock
        let frequency = registration.pollingFrequency
        pollTask = Task { [weak self] in
            while !Task.isCancelled {
                do { try await clock.sleep(for: frequency) } catch { return }
                self?.pollTick()
            }
        }
    }

    private func pollTick() {
        guard !destroyed, !playingBackup, isStreamPlaying else { return }
        fetchMetadata()
    }

    /// An event ID the metadata does not name yet: fetch the metadata rather
    /// than drop the event, and hold the event until the answer is in.
    func fetchForUnknownID(_ eventID: String) {
        if fetchTask == nil {
            let now = services.resolver.clock.now
            if let last = lastUnknownIDFetch, now - last < Self.unknownIDFetchInterval { return }
            lastUnknownIDFetch = now
            fetchMetadata()
        }
        if heldEventIDs.count < Self.maxHeldIDs { heldEventIDs.insert(eventID) }
    }

    /// Fetches the live metadata once (unless a fetch is under way), with
    /// any parameters from ``replaceAdTagParameters(_:)``.
    func fetchMetadata() {
        guard fetchTask == nil, !destroyed else { return }
        let parameters = pendingAdTagParameters
        let url = Self.metadataURL(registration.metadataURL, adding: parameters)
        let (http, clock, agent) = (
            services.resolver.http, services.resolver.clock, services.resolver.settings.userAgent
        )
        fetchTask = Task { [weak self] in
            let result = await Self.download(url, http: http, clock: clock, userAgent: agent)
            self?.liveMetadataArrived(result, sentParameters: parameters)
        }
    }

    private func liveMetadataArrived(_ result: Result<Data, StreamFetchFailure>, sentParameters: [String: String]?) {
        fetchTask = nil
        guard !destroyed else { return }
        switch result {
        case .success(let body):
            do {
                metadata = try PodMetadata(parsing: body)
                if metadata.skippedEntries > 0 {
                    emitLog("metadata: \(metadata.skippedEntries) malformed entries left out")
                }
                if let sentParameters, pendingAdTagParameters == sentParameters { pendingAdTagParameters = nil }
            } catch {
                emitLog("metadata ignored, the previous kept: \(error)")
            }
        case .failure(let failure):
            emitLog("metadata fetch failed, the previous kept: \(failure)")
        }
        // Held events go now, resolved or not (an unknown one is logged and verified).
        heldEventIDs.removeAll()
        guard let playhead = timeline.playhead else { return }
        effects.removeAll(keepingCapacity: true)
        fireDueEvents(upTo: playhead)
        perform()
    }

    // MARK: - VOD timeline

    /// Fetches the VOD break timeline, then loads the stream given to
    /// ``loadThirdPartyStream(_:streamSubtitles:)``.
    func fetchTimeline() {
        let url = registration.metadataURL
        let (http, clock, agent) = (
            services.resolver.http, services.resolver.clock, services.resolver.settings.userAgent
        )
        fetchTask = Task { [weak self] in
            var result: Result<Data, StreamFetchFailure> = .failure(StreamFetchFailure(description: "not fetched"))
            for attempt in 1...Self.timelineAttempts {
                result = await Self.download(url, http: http, clock: clock, userAgent: agent)
                guard case .failure = result, attempt < Self.timelineAttempts, !Task.isCancelled else { break }
                do { try await clock.sleep(for: 1) } catch { return }
            }
            self?.timelineArrived(result)
        }
    }

    private func timelineArrived(_ result: Result<Data, StreamFetchFailure>) {
        fetchTask = nil
        guard !destroyed, let pending = pendingStream else { return }
        let parsed: PodMetadata
        do {
            parsed = try PodMetadata(parsing: result.get())
        } catch {
            pendingStream = nil
            report(
                AdError(
                    type: .loadingFailed, code: .streamInitializationFailed,
                    message: "the stream's ad timeline could not be loaded: \(error)"))
            return playBackupIfAsked()
        }
        metadata = parsed
        var built = StreamTimeline(vod: parsed)
        built.disableUi = rendering.disableUi
        built.strings = timeline.strings
        built.snapback = isSnapbackEnabled
        timeline = built
        for reason in built.skippedOnLoad { emitLog("timeline: \(reason)") }
        emit(AdEvent(type: .cuepointsChanged, adData: ["cuepoints": Cuepoint.adDataValue(built.cuepoints)]))
        guard !destroyed else { return }
        pendingStream = nil
        display?.loadStream(pending.url, subtitles: pending.subtitles)
    }

    // MARK: - Verification

    /// The media verification ping of one event: `{media_verification_url}{event ID}`,
    /// in one lane per stream (in order), keyed so a repeat is never sent twice.
    func verificationBeacon(for eventID: String) -> Beacon {
        let streamID = registration.streamID
        return Beacon(
            url: registration.mediaVerificationURL + StreamRegistrationRequest.percentEncoded(eventID),
            event: "verification", adID: "stream:\(streamID)", idempotencyKey: "\(streamID)/\(eventID)",
            createdAt: services.resolver.macros.now())
    }

    func enqueue(_ beacons: [Beacon]) {
        guard !beacons.isEmpty else { return }
        let queue = services.beaconQueue
        Task { await queue.enqueue(beacons) }
    }

    // MARK: - HTTP

    /// The metadata URL with `parameters` added to its query.
    static func metadataURL(_ base: URL, adding parameters: [String: String]?) -> URL {
        guard let parameters, !parameters.isEmpty else { return base }
        let text = base.absoluteString
        let separator = base.query == nil ? "?" : "&"
        return URL(string: text + separator + StreamRegistrationRequest.formEncoded(parameters)) ?? base
    }

    nonisolated static func download(
        _ url: URL, http: any HTTPClient, clock: any AdClock, userAgent: String
    ) async -> Result<Data, StreamFetchFailure> {
        let request = HTTPRequest(
            url: url, headers: ["User-Agent": userAgent, "Accept": "application/json"], timeout: metadataTimeout)
        do {
            let response = try await http.send(request, deadlineOn: clock)
            guard (200..<300).contains(response.statusCode) else {
                return .failure(
                    StreamFetchFailure(description: "HTTP \(response.statusCode) from \(url.absoluteString)"))
            }
            return .success(response.body)
        } catch HTTPClientError.timedOut {
            return .failure(StreamFetchFailure(description: "no answer within \(Int(metadataTimeout)) s"))
        } catch {
            return .failure(StreamFetchFailure(description: "\(error)"))
        }
    }
}
