import Foundation
import Interlude
import InterludePlayer

/// One pod-serving stream played through the SDK's public API, as the
/// seed's app does it: `AdsLoader.loadStream` registers it, the custom VTP
/// handler fills the template, an ``HLSStreamDisplay`` plays it (live: the
/// app loads and plays; VOD: `loadThirdPartyStream`), and the manager's
/// events, UI and verifications are drawn (or written as JSON lines).
/// `interlude stream` drives it with keys, the demo with an ``Autopilot``.
@MainActor
final class StreamSession: StreamManagerDelegate {
    /// What the demo does in place of a person.
    struct Autopilot {
        /// Ends the session once this many breaks have ended (a livestream has no end).
        var stopAfterBreaks: Int?
        /// One seek: once the pre-roll has played and content reaches
        /// `from` (content seconds), seek to content time `to`.
        var seek: (from: TimeInterval, to: TimeInterval)?
        /// Wall seconds after which the session gives up (exit 1).
        var timeout: TimeInterval?
    }

    /// An event as the app received it, with the stream time it came at.
    struct ReceivedEvent {
        var event: AdEvent
        var streamTime: TimeInterval
    }

    /// The autopilot's seek and what came of it.
    struct SeekRecord: Equatable {
        var fromContent: TimeInterval
        var toContent: TimeInterval
        var accepted: Bool
        /// The first break that started after the seek (the one snapped back to).
        var snappedBreakID: String?
        /// Content time once that break had ended.
        var resumedContent: TimeInterval?
    }

    let options: StreamCommand.Options
    let output: TerminalOutput
    let autopilot: Autopilot
    let clock = SystemClock()
    let display: HLSStreamDisplay
    let loader: AdsLoader
    /// Verification and click-tracking pings as the loader's queue settled them.
    let pings = PingLog()
    private(set) var manager: StreamManager?
    private(set) var streamID: String?
    /// Every event the manager emitted, in order.
    private(set) var received: [ReceivedEvent] = []
    private(set) var errors: [AdError] = []
    private(set) var seekRecord: SeekRecord?
    /// The cuepoints as they stood at the end (VOD).
    private(set) var finalCuepoints: [Cuepoint] = []
    private var keys = KeyReader()
    private var decoder = KeyDecoder()
    private var finish: CheckedContinuation<Int32, Never>?
    private var ticker: Task<Void, Never>?
    private var startedAt: TimeInterval = 0
    private var lastEvent = "registering the stream"
    private var inBreak = false
    private var liveBreaks: [Cuepoint] = []
    private var breaksEnded = 0
    private var awaitingResume = false
    private var exitCode: Int32 = 0

    /// SIGINT and SIGTERM end the session as `q` does (the terminal's mode
    /// is restored, pending verifications are sent), with status 128 + the
    /// signal: `interlude stream` sets it; the demo leaves signals alone.
    let endsOnSignals: Bool
    private var signalSources: [any DispatchSourceSignal] = []

    init(
        options: StreamCommand.Options, output: TerminalOutput, autopilot: Autopilot = Autopilot(),
        endsOnSignals: Bool = false
    ) {
        self.options = options
        self.output = output
        self.autopilot = autopilot
        self.endsOnSignals = endsOnSignals
        display = HLSStreamDisplay(clock: clock, configuration: .init(speed: options.speed))
        var settings = Settings()
        settings.language = options.language
        settings.playerType = "interlude-stream"
        settings.beaconJournalDirectory = FileManager.default.temporaryDirectory
            .appendingPathComponent("interlude-stream-\(ProcessInfo.processInfo.processIdentifier)")
        loader = AdsLoader(settings: settings, httpClient: nil, clock: clock)
    }

    /// Registers, plays until the stream ends (VOD), the autopilot stops it
    /// or `q`; returns the exit status (1 when registration or playback failed).
    func run() async -> Int32 {
        let container = AdDisplayContainer(videoDisplay: display)
        let request: StreamRequest
        switch options.kind {
        case .live(let key):
            request = PodStreamRequest(
                networkCode: options.networkCode, customAssetKey: key, adDisplayContainer: container,
                videoDisplay: display, pictureInPictureProxy: nil, userContext: nil)
        case .vod:
            request = PodVODStreamRequest(
                networkCode: options.networkCode, adDisplayContainer: container, videoDisplay: display,
                pictureInPictureProxy: nil, userContext: nil)
        }
        request.serverURL = options.serverURL
        request.apiKey = options.apiKey
        let pings = self.pings
        let output = self.output
        let json = options.json
        await loader.beaconQueue.setObserver { beacon, delivery in
            let eventID = pings.record(beacon, delivery)
            guard json else { return }
            if let eventID {
                output.jsonLine([
                    "type": "verification", "eventId": eventID, "url": beacon.url, "delivery": delivery.rawValue,
                ])
            } else {
                output.jsonLine([
                    "type": "beacon", "event": beacon.event, "ad": beacon.adID, "url": beacon.url,
                    "delivery": delivery.rawValue,
                ])
            }
        }
        startedAt = clock.now
        output.begin(title: "interlude stream — \(options.isLive ? "live" : "VOD") \(options.template)")
        let manager: StreamManager
        do throws(AdError) {
            guard let loaded = try await loader.loadStream(with: request).streamManager else { return 1 }
            manager = loaded
        } catch {
            report(error)
            output.failure(
                "could not register the stream: error \(error.code.rawValue): \(error.message ?? "no message")")
            return 1
        }
        self.manager = manager
        streamID = manager.streamId
        guard let streamID = manager.streamId, let url = options.manifestURL(streamID: streamID) else {
            output.failure("the template gave no URL for stream \(manager.streamId ?? "?")")
            return 1
        }
        if options.json { output.jsonLine(["type": "stream", "streamId": streamID, "url": url.absoluteString]) }
        manager.delegate = self
        manager.isSnapbackEnabled = options.snapback && !manager.isLive
        manager.linkOpener = { [weak self] url in self?.opened(url) }
        var rendering = AdsRenderingSettings()
        rendering.disableUi = true  // the seed's custom UI: countdown and Learn More
        manager.initialize(with: rendering)
        if manager.isLive {
            display.loadStream(url, subtitles: [])
            display.play()
        } else {
            manager.loadThirdPartyStream(url, streamSubtitles: [])
        }
        lastEvent = "stream \(streamID)"
        keys.start { [weak self] key in self?.handleKey(key) }
        if endsOnSignals { watchSignals() }
        ticker = Task { @MainActor [weak self] in
            while !Task.isCancelled {
                try? await Task.sleep(nanoseconds: 100_000_000)
                self?.tick()
            }
        }
        let code = await withCheckedContinuation { finish = $0 }
        keys.stop()
        for source in signalSources { source.cancel() }
        signalSources = []
        await loader.beaconQueue.waitUntilIdle()
        output.end()
        return code
    }

    private func done(_ code: Int32) {
        guard let finish else { return }
        self.finish = nil
        ticker?.cancel()
        ticker = nil
        redraw()
        finalCuepoints = manager?.cuepoints ?? []
        manager?.destroy()
        finish.resume(returning: code)
    }

    private func watchSignals() {
        signalSources = SessionSignals.watch { [weak self] number in
            self?.lastEvent = "signal \(number)"
            self?.done(128 + number)
        }
    }

    private func opened(_ url: URL) {
        lastEvent = "Learn More: \(url.absoluteString)"
        if options.json { output.jsonLine(["type": "clickThrough", "url": url.absoluteString]) }
        redraw()
    }

    // MARK: - Ticks and keys

    private func tick() {
        guard let manager else { return }
        if let timeout = autopilot.timeout, clock.now - startedAt > timeout {
            lastEvent = "gave up after \(Int(timeout)) s"
            output.failure("the stream did not finish within \(Int(timeout)) s")
            return done(1)
        }
        let status = display.status
        if let seek = autopilot.seek, seekRecord == nil, !inBreak, manager.cuepoints.first?.isPlayed == true {
            let content = manager.contentTime(forStreamTime: status.playhead)
            if content >= seek.from {
                let accepted = manager.seekStream(to: manager.streamTime(forContentTime: seek.to))
                seekRecord = SeekRecord(fromContent: content, toContent: seek.to, accepted: accepted)
                lastEvent =
                    "autopilot seeks \(StreamFrame.clock(content)) → \(StreamFrame.clock(seek.to)) (content)"
            }
        }
        if awaitingResume, !inBreak, status.phase == .playing {
            awaitingResume = false
            seekRecord?.resumedContent = manager.contentTime(forStreamTime: status.playhead)
        }
        switch status.phase {
        case .ended: return done(exitCode)
        case .failed:
            lastEvent = "playback failed: \(status.error.map { "\($0)" } ?? "unknown")"
            return done(1)
        default: break
        }
        redraw()
    }

    private func handleKey(_ key: Character) {
        guard let action = decoder.feed(key), let manager else { return }
        switch action {
        case .seek(let delta):
            var target = max(0, display.currentMediaTime + delta)
            if !manager.isLive, display.totalMediaTime > 0 { target = min(target, display.totalMediaTime) }
            if manager.isLive {
                display.seekStream(to: target)
                lastEvent = "seek to \(StreamFrame.clock(target))"
            } else if manager.seekStream(to: target) {
                lastEvent = "seek to \(StreamFrame.clock(target))"
            } else {
                lastEvent = "seek refused: the break plays first"
            }
        case .togglePause:
            if display.isPlaying {
                display.pause()
                lastEvent = "paused"
            } else {
                display.play()
                lastEvent = "playing"
            }
        case .learnMore:
            manager.clicked()
        case .quit:
            lastEvent = "quit"
            return done(exitCode)
        }
        redraw()
    }

    // MARK: - StreamManagerDelegate

    func streamManager(_ streamManager: StreamManager, didReceive event: AdEvent) {
        let streamTime = display.currentMediaTime
        received.append(ReceivedEvent(event: event, streamTime: streamTime))
        if options.json {
            var line: [String: String] = [
                "type": "event", "event": event.typeString, "streamTime": String(format: "%.3f", streamTime),
            ]
            if let ad = event.ad {
                line["ad"] = ad.adID
                line["position"] = "\(ad.adPodInfo.adPosition)/\(ad.adPodInfo.totalAds)"
                line["podIndex"] = String(ad.adPodInfo.podIndex)
            }
            for (key, value) in event.adData where line[key] == nil { line[key] = value }
            output.jsonLine(line)
        }
        switch event.type {
        case .adPeriodStarted: inBreak = true
        case .adPeriodEnded: inBreak = false
        case .adBreakStarted:
            liveBreaks.append(Cuepoint(startTime: streamTime, endTime: streamTime, isPlayed: true))
            if var record = seekRecord, record.snappedBreakID == nil {
                record.snappedBreakID = event.adData["breakId"] ?? "?"
                seekRecord = record
            }
        case .adBreakEnded:
            if !liveBreaks.isEmpty { liveBreaks[liveBreaks.count - 1].endTime = streamTime }
            breaksEnded += 1
            if let record = seekRecord, record.resumedContent == nil, record.snappedBreakID != nil,
                record.snappedBreakID == event.adData["breakId"]
            {
                awaitingResume = true
            }
        default: break
        }
        if event.type != .log || lastEvent.isEmpty {
            lastEvent = event.typeString + (event.ad.map { " \($0.adID)" } ?? "")
        }
        if let stop = autopilot.stopAfterBreaks, breaksEnded >= stop {
            // Let the manager finish its turn (period end, verifications) first.
            Task { @MainActor [weak self] in self?.done(self?.exitCode ?? 0) }
        }
        redraw()
    }

    func streamManager(_ streamManager: StreamManager, didReceive error: AdError) {
        report(error)
        lastEvent = "error \(error.code.rawValue): \(error.message ?? "no message")"
        // The stream itself cannot play (400) or its timeline cannot be had (1020): nothing more will come.
        if error.code == .videoPlayError || error.code == .streamInitializationFailed {
            exitCode = 1
            done(1)
        }
        redraw()
    }

    func streamManager(
        _ streamManager: StreamManager, adDidProgressToTime time: TimeInterval, adDuration: TimeInterval,
        adPosition: Int, totalAds: Int, adBreakDuration: TimeInterval, adPeriodDuration: TimeInterval
    ) {
        redraw()
    }

    func streamManager(_ streamManager: StreamManager, didUpdate uiState: AdUIState) { redraw() }

    private func report(_ error: AdError) {
        errors.append(error)
        if options.json {
            output.jsonLine(["type": "error", "code": String(error.code.rawValue), "message": error.message ?? ""])
        }
    }

    // MARK: - Drawing

    private func redraw() {
        guard !options.json, let manager else { return }
        let status = display.status
        let streamTime = status.playhead
        let total = display.totalMediaTime
        let phase: StreamFrame.Phase =
            switch status.phase {
            case .idle, .loading, .ready: .loading
            case .playing: status.isBuffering ? .buffering : .playing
            case .paused: .paused
            case .ended, .failed: .ended
            }
        var cuepoints = manager.isLive ? liveBreaks : manager.cuepoints
        if manager.isLive, inBreak, let open = cuepoints.indices.last { cuepoints[open].endTime = streamTime }
        let frame = StreamFrame(
            isLive: manager.isLive, phase: phase, streamTime: streamTime, streamDuration: total,
            contentTime: manager.contentTime(forStreamTime: streamTime),
            contentDuration: total > 0 ? manager.contentTime(forStreamTime: total) : 0, speed: options.speed,
            cuepoints: cuepoints, inBreak: inBreak, ui: manager.uiState, lastEvent: lastEvent)
        output.draw(lines: frame.lines(), pipeLine: frame.pipeLine, pipeKey: frame.pipeKey)
    }
}
