import Foundation
import Interlude
import InterludePlayer

/// One playback: content and ads on the simulated displays, keys in, the
/// screen (or JSON lines) out.
@MainActor
final class PlaySession: AdsManagerDelegate {
    let options: PlayCommand.Options
    let output: TerminalOutput
    let clock = SystemClock()
    let display: SimulatedVideoDisplay
    let content: SimulatedContentPlayer
    let loader: AdsLoader
    private var manager: AdsManager?
    private var keys = KeyReader()
    private var finish: CheckedContinuation<Int32, Never>?
    private var mediaDurations: [String: TimeInterval] = [:]
    private var inBreak = false
    private var breakLabel = ""
    private var lastEvent = ""
    private var isVMAP = false
    private var allAdsCompleted = false
    private var adPaused = false
    private var autoSkipped = false
    /// Every event the manager emitted, in order (the demo's report reads it).
    private(set) var emitted: [AdEvent] = []
    private var exitCode: Int32 = 0
    /// SIGINT and SIGTERM end the playback as `q` does (the terminal leaves
    /// raw mode, owed beacons are sent), with status 128 + the signal:
    /// `interlude play` sets it; the demo leaves signals alone.
    let endsOnSignals: Bool
    private var signalSources: [any DispatchSourceSignal] = []

    init(
        options: PlayCommand.Options, output: TerminalOutput, httpClient: (any HTTPClient)?,
        endsOnSignals: Bool = false
    ) {
        self.options = options
        self.output = output
        self.endsOnSignals = endsOnSignals
        display = SimulatedVideoDisplay(clock: clock, speed: options.speed)
        content = SimulatedContentPlayer(duration: options.contentDuration, clock: clock, speed: options.speed)
        var settings = Settings()
        settings.language = options.language
        settings.playerType = "interlude-play"
        settings.sessionID = options.sessionID
        settings.beaconJournalDirectory = FileManager.default.temporaryDirectory
            .appendingPathComponent("interlude-play-\(ProcessInfo.processInfo.processIdentifier)")
        loader = AdsLoader(settings: settings, httpClient: httpClient, clock: clock)
    }

    func run() async -> Int32 {
        let request = AdsRequest(
            adTagURL: options.tag!, adDisplayContainer: AdDisplayContainer(videoDisplay: display),
            contentPlayhead: content)
        request.contentDuration = options.contentDuration
        if options.json {
            let output = self.output
            await loader.beaconQueue.setObserver { beacon, delivery in
                output.jsonLine([
                    "type": "beacon", "event": beacon.event, "ad": beacon.adID, "url": beacon.url,
                    "delivery": delivery.rawValue,
                ])
            }
        }
        let manager: AdsManager
        do throws(AdError) {
            // An ads load always hands back an ads manager (a stream load, a stream manager).
            guard let loaded = try await loader.loadAds(with: request).adsManager else {
                await finishBeacons()
                return 1
            }
            manager = loaded
        } catch {
            output.failure("could not load ads: error \(error.code.rawValue): \(error.message ?? "no message")")
            // A failed load still owes the Error URLs of its chain their pings.
            await finishBeacons()
            return 1
        }
        self.manager = manager
        isVMAP = !manager.adCuePoints.isEmpty
        display.durationForURL = { [weak self] url in self?.mediaDurations[url.absoluteString] ?? 10 }
        for ad in manager.ads { noteDuration(of: ad) }
        content.onTick = { [weak self] in self?.redraw() }
        content.onEnd = { [weak self] in self?.contentEnded() }
        manager.delegate = self
        manager.linkOpener = { [weak self] url in self?.lastEvent = "opened \(url.absoluteString)" }
        var rendering = AdsRenderingSettings()
        rendering.disableUi = true
        keys.start { [weak self] key in self?.handleKey(key) }
        if endsOnSignals { watchSignals() }
        output.begin(title: "interlude play — \(options.tag!.absoluteString)")
        manager.initialize(with: rendering)
        if manager.ads.isEmpty && !hasPreroll(manager) { content.play() }
        let code = await withCheckedContinuation { finish = $0 }
        keys.stop()
        for source in signalSources { source.cancel() }
        signalSources = []
        await finishBeacons()
        output.end()
        return code
    }

    /// Seconds the session waits at its end for owed beacons: a tracking
    /// server that keeps failing would otherwise hold the command for the
    /// queue's whole retry schedule (minutes).
    static let beaconGrace: TimeInterval = 20

    /// Waits until every owed beacon is sent or given up, for at most
    /// ``beaconGrace`` seconds, then says what was left unsent.
    private func finishBeacons() async {
        let queue = loader.beaconQueue
        let finished = await withTaskGroup(of: Bool.self) { group in
            group.addTask {
                await queue.waitUntilIdle()
                return true
            }
            group.addTask {
                try? await Task.sleep(nanoseconds: UInt64(Self.beaconGrace * 1_000_000_000))
                return false
            }
            let first = await group.next() ?? true
            group.cancelAll()
            return first
        }
        guard !finished else { return }
        let pending = await queue.statistics.pending
        await queue.shutDown()
        output.failure("\(pending) beacon(s) still unsent after \(Int(Self.beaconGrace)) s; left unsent")
    }

    private func hasPreroll(_ manager: AdsManager) -> Bool { manager.adCuePoints.first == 0 }

    /// A Ctrl-C ends the playback like `q` (killed in raw mode, the process
    /// would leave the terminal without echo).
    private func watchSignals() {
        signalSources = SessionSignals.watch { [weak self] number in
            self?.lastEvent = "signal \(number)"
            self?.done(128 + number)
        }
    }

    /// The simulated media lasts what the ad says (10 s when it has no `<Duration>`).
    private func noteDuration(of ad: Ad) {
        guard let media = ad.mediaURL else { return }
        mediaDurations[media] = ad.duration > 0 ? ad.duration : 10
    }

    private func done(_ code: Int32) {
        guard let finish else { return }
        self.finish = nil
        content.stop()
        manager?.destroy()
        finish.resume(returning: code)
    }

    private func contentEnded() {
        redraw()
        if isVMAP {
            loader.contentComplete()
            if allAdsCompleted { done(exitCode) }
        } else {
            done(exitCode)
        }
    }

    // MARK: - Keys

    private func handleKey(_ key: Character) {
        guard let manager else { return }
        switch key {
        case "s": manager.skip()
        case "l": manager.clicked()
        case "i": if let icon = manager.uiState.icons.first { manager.iconClicked(icon) }
        case "p":
            if inBreak {
                adPaused ? manager.resume() : manager.pause()
            } else {
                content.isPlaying ? content.pause() : content.play()
            }
        case " ": inBreak ? display.tap() : (content.isPlaying ? content.pause() : content.play())
        case "q":
            lastEvent = "quit"
            done(exitCode)
        default: return
        }
        redraw()
    }

    // MARK: - AdsManagerDelegate

    func adsManager(_ adsManager: AdsManager, didReceive event: AdEvent) {
        emitted.append(event)
        if options.json {
            var line: [String: String] = ["type": "event", "event": event.typeString]
            if let ad = event.ad {
                line["ad"] = ad.adID
                line["position"] = "\(ad.adPodInfo.adPosition)/\(ad.adPodInfo.totalAds)"
                line["podIndex"] = String(ad.adPodInfo.podIndex)
            }
            for (key, value) in event.adData { line[key] = value }
            output.jsonLine(line)
        }
        switch event.type {
        case .pause: adPaused = true
        case .resume, .started, .complete, .skipped, .adBreakEnded: adPaused = false
        default: break
        }
        switch event.type {
        case .loaded:
            if let ad = event.ad { noteDuration(of: ad) }
            if let ad = event.ad, ad.adPodInfo.podIndex == 0 { adsManager.start() }
        case .adBreakFetchError:
            // A pre-roll that failed to load: the content was waiting for it.
            if !inBreak, !content.isPlaying, !content.hasEnded, content.currentTime == 0 { content.play() }
        case .tapped:
            adsManager.resume()  // the guide's custom UI: a tap resumes a paused ad
        case .allAdsCompleted:
            allAdsCompleted = true
            if content.hasEnded { done(exitCode) }
        default:
            break
        }
        if event.type != .log { lastEvent = event.typeString + (event.ad.map { " \($0.adID)" } ?? "") }
        redraw()
    }

    func adsManager(_ adsManager: AdsManager, didReceive error: AdError) {
        lastEvent = "error \(error.code.rawValue): \(error.message ?? "no message")"
        if options.json {
            output.jsonLine(["type": "error", "code": String(error.code.rawValue), "message": error.message ?? ""])
        }
        redraw()
    }

    func adsManagerDidRequestContentPause(_ adsManager: AdsManager) {
        content.pause()
        inBreak = true
        breakLabel = content.currentTime == 0 ? "pre-roll" : (content.hasEnded ? "post-roll" : "mid-roll")
        redraw()
    }

    func adsManagerDidRequestContentResume(_ adsManager: AdsManager) {
        inBreak = false
        if content.hasEnded {
            if !isVMAP || allAdsCompleted { done(exitCode) }
        } else {
            content.play()
        }
        redraw()
    }

    func adsManager(_ adsManager: AdsManager, adDidProgressToTime mediaTime: TimeInterval, totalTime: TimeInterval) {
        redraw()
    }

    func adsManager(_ adsManager: AdsManager, didUpdate uiState: AdUIState) {
        if options.autoSkip, !autoSkipped, uiState.skipButtonEnabled {
            autoSkipped = true
            lastEvent = "autopilot pressed s"
            adsManager.skip()
        }
        redraw()
    }

    // MARK: - Drawing

    private func redraw() {
        guard !options.json, let manager else { return }
        output.draw(
            TerminalFrame(
                contentTime: content.currentTime, contentDuration: content.duration, contentPlaying: content.isPlaying,
                cuePoints: manager.adCuePoints, inBreak: inBreak, breakLabel: breakLabel, ui: manager.uiState,
                adTime: manager.adPlaybackInfo.currentMediaTime, adDuration: manager.adPlaybackInfo.totalMediaTime,
                adPaused: inBreak && adPaused, lastEvent: lastEvent))
    }
}
