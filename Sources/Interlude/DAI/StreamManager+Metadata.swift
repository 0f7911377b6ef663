import Foundation

/// Why a metadata download failed, for a log line or an error message.
struct StreamFetchFailure: Error, Sendable, CustomStringConvertible {
    var description: String
}

/// What one metadata request came back with.
enum MetadataAnswer: Sendable {
    case document(Data)
    /// 202: not ready yet (a VOD timeline before the VTP has asked for its
    /// pods); ask again after this many seconds.
    case pending(TimeInterval)
    case failed(StreamFetchFailure)
}

/// What one live metadata request came to, the document already parsed:
/// parsing (`JSONDecoder`, every poll of a live stream) is done off the
/// main actor, and only the parsed value is handed back to the manager.
enum LiveMetadataAnswer: Sendable {
    case parsed(PodMetadata)
    /// The document could not be read; the error's description.
    case unreadable(String)
    case pending
    case failed(StreamFetchFailure)

    /// `answer` with its document parsed (called from `downloadLive`, off the main actor).
    nonisolated static func parsing(_ answer: MetadataAnswer) -> LiveMetadataAnswer {
        switch answer {
        case .document(let body):
            do { return .parsed(try PodMetadata(parsing: body)) } catch { return .unreadable("\(error)") }
        case .pending: return .pending
        case .failed(let failure): return .failed(failure)
        }
    }
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
    /// Seconds a VOD timeline may stay pending (202) before the stream fails with 1020.
    static let timelineWait: TimeInterval = 30

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
            let answer = await Self.downloadLive(url, http: http, clock: clock, userAgent: agent)
            self?.liveMetadataArrived(answer, sentParameters: parameters)
        }
    }

    /// One live metadata request, its document parsed before the answer
    /// comes back to the main actor.
    nonisolated static func downloadLive(
        _ url: URL, http: any HTTPClient, clock: any AdClock, userAgent: String
    ) async -> LiveMetadataAnswer {
        LiveMetadataAnswer.parsing(await download(url, http: http, clock: clock, userAgent: userAgent))
    }

    private func liveMetadataArrived(_ answer: LiveMetadataAnswer, sentParameters: [String: String]?) {
        fetchTask = nil
        guard !destroyed else { return }
        switch answer {
        case .parsed(let parsed):
            metadata = parsed
            if metadata.skippedEntries > 0 {
                emitLog("metadata: \(metadata.skippedEntries) malformed entries left out")
            }
            if let sentParameters, pendingAdTagParameters == sentParameters { pendingAdTagParameters = nil }
        case .unreadable(let error):
            breakFetchFailed(.failedLoadingAd, "metadata ignored, the previous kept: \(error)")
        case .pending:
            services.logger.log(.debug, "stream \(registration.streamID): metadata not ready yet")
        case .failed(let failure):
            breakFetchFailed(.failedToRequestAds, "metadata fetch failed, the previous kept: \(failure)")
        }
        // Held events go now, resolved or not (an unknown one is logged and verified).
        let released = heldEventIDs
        heldEventIDs.removeAll()
        guard let playhead = timeline.playhead else { return }
        effects.removeAll(keepingCapacity: true)
        fireDueEvents(upTo: playhead, released: released)
        perform()
    }

    /// `adBreakFetchError` (IMA's `AD_BREAK_FETCH_ERROR`): the live breaks'
    /// data could not be had this time; `adData` has `errorCode` and `message`.
    /// Playback goes on, and so does polling.
    private func breakFetchFailed(_ code: AdError.Code, _ message: String) {
        services.logger.log(.warning, "stream \(registration.streamID): \(message)")
        emit(AdEvent(type: .adBreakFetchError, adData: ["errorCode": String(code.rawValue), "message": message]))
    }

    // MARK: - VOD timeline

    /// Fetches the VOD break timeline. While the API answers 202 (the VTP
    /// has not asked for the stream's pods, which it does when the player
    /// asks it for the manifest) the stream is loaded, not played, and the
    /// timeline asked for again; `streamLoaded` waits for both.
    func fetchTimeline() {
        let url = registration.metadataURL
        let (http, clock, agent) = (
            services.resolver.http, services.resolver.clock, services.resolver.settings.userAgent
        )
        let (attempts, wait) = (Self.timelineAttempts, Self.timelineWait)
        fetchTask = Task { [weak self] in
            let deadline = clock.now + wait
            var failuresLeft = attempts
            while !Task.isCancelled {
                switch await Self.download(url, http: http, clock: clock, userAgent: agent) {
                case .document(let body):
                    self?.timelineArrived(.success(body))
                    return
                case .pending(let after):
                    self?.sendStreamToDisplay()
                    guard clock.now + after <= deadline else {
                        let failure = StreamFetchFailure(description: "still pending after \(Int(wait)) s")
                        self?.timelineArrived(.failure(failure))
                        return
                    }
                    do { try await clock.sleep(for: after) } catch { return }
                case .failed(let failure):
                    failuresLeft -= 1
                    guard failuresLeft > 0 else {
                        self?.timelineArrived(.failure(failure))
                        return
                    }
                    do { try await clock.sleep(for: 1) } catch { return }
                }
            }
        }
    }

    private func timelineArrived(_ result: Result<Data, StreamFetchFailure>) {
        fetchTask = nil
        guard !destroyed, pendingStream != nil else { return }
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
        if parsed.vodBreaks == nil {
            // Google's VOD metadata has no timeline: its ads are told by timed metadata, as live ones are.
            usesTimedMetadata = true
            var built = StreamTimeline()
            built.disableUi = rendering.disableUi
            built.uiElements = rendering.uiElements
            built.strings = timeline.strings
            timeline = built
            emitLog("the metadata has no VOD timeline: ad events come from the stream's timed metadata")
        } else {
            var built = StreamTimeline(vod: parsed, disableUi: rendering.disableUi, uiElements: rendering.uiElements)
            built.strings = timeline.strings
            built.snapback = isSnapbackEnabled
            timeline = built
            if parsed.skippedEntries > 0 { emitLog("timeline: \(parsed.skippedEntries) malformed entries left out") }
            for reason in built.skippedOnLoad { emitLog("timeline: \(reason)") }
            emit(AdEvent(type: .cuepointsChanged, adData: ["cuepoints": Cuepoint.adDataValue(built.cuepoints)]))
        }
        guard !destroyed else { return }
        timelineReady = true
        if displayHasLoaded {
            finishStreamLoad()
        } else {
            sendStreamToDisplay()
        }
    }

    /// Hands the stream to the display, once.
    func sendStreamToDisplay() {
        guard !destroyed, !streamSentToDisplay, let pending = pendingStream else { return }
        streamSentToDisplay = true
        display?.loadStream(pending.url, subtitles: pending.subtitles)
    }

    // MARK: - Verification

    /// The click-tracking pings of a click-through, in the stream's lane.
    func clickBeacons(_ urls: [String]) -> [Beacon] {
        urls.map { url in
            Beacon(
                url: url, event: "click", adID: "stream:\(registration.streamID)",
                createdAt: services.resolver.macros.now())
        }
    }

    /// The media verification ping of one event: `{media_verification_url}{event ID}`,
    /// in one lane per stream (in order), keyed so a repeat is never sent twice.
    func verificationBeacon(for eventID: String) -> Beacon {
        let streamID = registration.streamID
        return Beacon(
            url: registration.mediaVerificationURL + StreamRegistrationRequest.percentEncoded(eventID),
            event: "verification", adID: "stream:\(streamID)", idempotencyKey: "\(streamID)/\(eventID)",
            createdAt: services.resolver.macros.now())
    }

    /// Journaled before this returns (an app killed right after the event loses none), sent in the background.
    func enqueue(_ beacons: [Beacon]) {
        guard !beacons.isEmpty else { return }
        services.beaconQueue.enqueue(beacons)
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
    ) async -> MetadataAnswer {
        let request = HTTPRequest(
            url: url, headers: ["User-Agent": userAgent, "Accept": "application/json"], timeout: metadataTimeout)
        do {
            let response = try await http.send(request, deadlineOn: clock)
            if response.statusCode == 202 { return .pending(retryAfter(response)) }
            guard (200..<300).contains(response.statusCode) else {
                let failure = "HTTP \(response.statusCode) from \(url.absoluteString)"
                return .failed(StreamFetchFailure(description: failure))
            }
            return .document(response.body)
        } catch HTTPClientError.timedOut {
            return .failed(StreamFetchFailure(description: "no answer within \(Int(metadataTimeout)) s"))
        } catch {
            return .failed(StreamFetchFailure(description: "\(error)"))
        }
    }

    /// `Retry-After` in seconds (0.5 to 5; 1 when absent or a date).
    nonisolated static func retryAfter(_ response: HTTPResponse) -> TimeInterval {
        let value = response.headers.first { $0.key.lowercased() == "retry-after" }?.value
        guard let seconds = value.flatMap({ Double($0.trimmingWhitespace) }), seconds.isFinite else { return 1 }
        return min(max(seconds, 0.5), 5)
    }
}
