import Foundation
import InterludePlayer
import InterludeTestSupport
import InterludeVAST
import Testing

@testable import Interlude

/// A delegate call the manager makes, from inside which the test calls into it.
enum DelegatePoint: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case cuepointsChanged, adBreakFetchError, adBreakReady, loaded, adBreakStarted, started, firstQuartile, midpoint
    case thirdQuartile, complete, adBreakEnded, allAdsCompleted, pause, resume, tapped, clicked, skipped, log
    case error, contentPause, contentResume, progress, uiUpdate

    var testDescription: String { rawValue }
}

/// Every public call an app makes on a manager while ads play.
enum ManagerCall: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case discardAdBreak, skip, destroy, pause, resume, clicked, start, volume

    var testDescription: String { rawValue }

    @MainActor func make(on manager: AdsManager) {
        switch self {
        case .discardAdBreak: manager.discardAdBreak()
        case .skip: manager.skip()
        case .destroy: manager.destroy()
        case .pause: manager.pause()
        case .resume: manager.resume()
        case .clicked: manager.clicked()
        case .start: manager.start()
        case .volume: manager.volume = 0
        }
    }
}

/// Records every delegate call with the display commands issued so far, and
/// makes `call` once from inside the first `point`. It plays the app's part:
/// content pauses and resumes on request, ad breaks start on
/// `AD_BREAK_READY` (manual ad break playback), and, from outside the
/// delegate, the user pauses, resumes, taps and clicks the mid-roll's first
/// ad and skips its second, so that every event occurs.
@MainActor
final class ReentrantDelegate: AdsManagerDelegate {
    struct Entry {
        var name: String
        var podIndex: Int?
        var adID: String?
        /// Display commands issued before this call.
        var commandCount: Int
    }

    let point: DelegatePoint
    let call: ManagerCall
    let display: SimulatedVideoDisplay
    let content: SimulatedContentPlayer
    private(set) var entries: [Entry] = []
    /// Index in `entries` of the call made from inside the delegate.
    private(set) var callIndex: Int?
    private(set) var commandsAtCall = 0
    private(set) var callPodIndex: Int?

    let clock: ManualClock
    /// The pod index of the break whose ads the user acts on (the VMAP's mid-roll, a VAST's only break).
    let userPodIndex: Int
    /// Start on `LOADED` (the guide, for a VAST response) rather than on `AD_BREAK_READY`.
    let startsOnLoaded: Bool

    init(
        point: DelegatePoint, call: ManagerCall, display: SimulatedVideoDisplay, content: SimulatedContentPlayer,
        clock: ManualClock, userPodIndex: Int, startsOnLoaded: Bool
    ) {
        self.point = point
        self.call = call
        self.display = display
        self.content = content
        self.clock = clock
        self.userPodIndex = userPodIndex
        self.startsOnLoaded = startsOnLoaded
    }

    /// What the user does to an ad.
    enum UserAction: Sendable {
        case pause, resume, tap, click, skip
    }

    /// The user's actions on the mid-roll's ads, run later on the clock (never from inside the
    /// delegate); the first resume, with nothing paused, is ignored with a log.
    private func scheduleUser(on manager: AdsManager, adPosition: Int) {
        let steps: [(TimeInterval, UserAction)] =
            adPosition == 1
            ? [(0.5, .resume), (1, .pause), (1.5, .resume), (2, .tap), (2.5, .click), (3, .resume)] : [(1, .skip)]
        let clock = self.clock
        let display = self.display
        Task { [weak manager] in
            var elapsed: TimeInterval = 0
            for (time, action) in steps {
                do { try await clock.sleep(for: time - elapsed) } catch { return }
                elapsed = time
                guard let manager else { return }
                switch action {
                case .pause: manager.pause()
                case .resume: manager.resume()
                case .tap: display.tap()
                case .click: manager.clicked()
                case .skip: manager.skip()
                }
            }
        }
    }

    var names: [String] { entries.map(\.name) }

    private func record(_ name: String, ad: Interlude.Ad? = nil, at point: DelegatePoint?, _ manager: AdsManager) {
        entries.append(
            Entry(name: name, podIndex: ad?.adPodInfo.podIndex, adID: ad?.adID, commandCount: display.commands.count))
        if let ad { callPodIndex = callIndex == nil ? ad.adPodInfo.podIndex : callPodIndex }
        guard callIndex == nil, point == self.point else { return }
        callIndex = entries.count
        commandsAtCall = display.commands.count
        entries.append(Entry(name: "CALL \(call.rawValue)", commandCount: display.commands.count))
        call.make(on: manager)
    }

    func adsManager(_ adsManager: AdsManager, didReceive event: AdEvent) {
        if event.type == .log {
            // A call point only: logs (calls ignored in the wrong state) may come at any time.
            guard callIndex == nil, point == .log else { return }
            return record("log", at: .log, adsManager)
        }
        let point = DelegatePoint(rawValue: event.type.rawValue)
        record(event.type.rawValue, ad: event.ad, at: point, adsManager)
        if event.type == (startsOnLoaded ? .loaded : .adBreakReady) { adsManager.start() }
        if event.type == .started, let ad = event.ad, ad.adPodInfo.podIndex == userPodIndex {
            scheduleUser(on: adsManager, adPosition: ad.adPodInfo.adPosition)
        }
    }
    func adsManager(_ adsManager: AdsManager, didReceive error: AdError) {
        record("error \(error.code.rawValue)", at: .error, adsManager)
    }
    func adsManagerDidRequestContentPause(_ adsManager: AdsManager) {
        content.pause()
        record("contentPause", at: .contentPause, adsManager)
    }
    func adsManagerDidRequestContentResume(_ adsManager: AdsManager) {
        content.play()
        record("contentResume", at: .contentResume, adsManager)
    }
    func adsManager(_ adsManager: AdsManager, adDidProgressToTime mediaTime: TimeInterval, totalTime: TimeInterval) {
        // Progress is too frequent to list; only the first tick is a call point.
        guard callIndex == nil, point == .progress else { return }
        record("progress", at: .progress, adsManager)
    }
    func adsManager(_ adsManager: AdsManager, didUpdate uiState: AdUIState) {
        guard callIndex == nil, point == .uiUpdate else { return }
        record("ui", at: .uiUpdate, adsManager)
    }
}

/// A VMAP whose pre-roll tag fails, with a mid-roll pod of two skippable ads
/// (click-through, skippable at once) at 2 s and a one-ad post-roll, played
/// with manual ad break playback against 10 s of content.
private let reentrancyVMAP = """
    <vmap:VMAP xmlns:vmap="http://www.iab.net/videosuite/vmap" version="1.0">
    <vmap:AdBreak timeOffset="start" breakType="linear" breakId="pre"><vmap:AdSource><vmap:AdTagURI>\(testBase)/pre</vmap:AdTagURI></vmap:AdSource></vmap:AdBreak>
    <vmap:AdBreak timeOffset="00:00:02" breakType="linear" breakId="mid"><vmap:AdSource><vmap:AdTagURI>\(testBase)/mid</vmap:AdTagURI></vmap:AdSource></vmap:AdBreak>
    <vmap:AdBreak timeOffset="end" breakType="linear" breakId="post"><vmap:AdSource><vmap:AdTagURI>\(testBase)/post</vmap:AdTagURI></vmap:AdSource></vmap:AdBreak>
    </vmap:VMAP>
    """

@Suite("Calls into the manager from inside its delegate")
@MainActor
struct ManagerReentrancyTests {
    @Test func discardingOnTheFirstAdsCompleteNeverLoadsTheSecond() async throws {
        let harness = ManagerHarness(routes: ["\(testBase)/tag": .body(podDocument(2))])
        let manager = try await harness.load("\(testBase)/tag")
        defer { withExtendedLifetime(manager) {} }
        let discarding = DiscardOnComplete()
        discarding.recorder = harness.recorder
        manager.delegate = discarding
        await simulate(harness.clock, for: 25)
        #expect(harness.recorder.types.suffix(3) == [.complete, .adBreakEnded, .allAdsCompleted])
        #expect(harness.recorder.types.filter { $0 == .loaded }.count == 1)
        #expect(!harness.display.commands.contains("load http://127.0.0.1:9/m2.mp4"))
        #expect(harness.recorder.log == ["contentPause", "contentResume"])
    }

    @Test(arguments: DelegatePoint.allCases, ManagerCall.allCases)
    func aCallFromInsideTheDelegateIsHandledAfterTheCurrentStep(point: DelegatePoint, call: ManagerCall) async throws {
        try await check(point: point, call: call, vmap: true)
    }

    /// The same for a plain VAST response (one break, started on `LOADED`),
    /// from inside every event it sends.
    @Test(
        arguments: DelegatePoint.allCases.filter {
            ![.cuepointsChanged, .adBreakFetchError, .adBreakReady, .error].contains($0)
        },
        ManagerCall.allCases)
    func aCallFromInsideTheDelegateOfAVASTBreakIsHandledAfterTheCurrentStep(point: DelegatePoint, call: ManagerCall)
        async throws
    {
        try await check(point: point, call: call, vmap: false)
    }

    func check(point: DelegatePoint, call: ManagerCall, vmap: Bool) async throws {
        let clock = ManualClock()
        let http = InMemoryHTTPClient(
            routes: [
                "\(testBase)/vmap": .body(reentrancyVMAP), "\(testBase)/pre": .status(500, ""),
                "\(testBase)/mid": .body(podDocument(2, skipOffset: "00:00:00")),
                "\(testBase)/post": .body(podDocument(1).replacingOccurrences(of: "ad1", with: "post1")),
            ], clock: clock)
        http.fallback = .status(204, "")
        let loader = makeLoader(http, clock: clock) { $0.autoPlayAdBreaks = false }
        let display = SimulatedVideoDisplay(clock: clock)
        let content = SimulatedContentPlayer(duration: 10, clock: clock)
        content.onEnd = { loader.contentComplete() }
        let request = AdsRequest(
            adTagURL: URL(string: "\(testBase)/\(vmap ? "vmap" : "mid")")!,
            adDisplayContainer: AdDisplayContainer(videoDisplay: display), contentPlayhead: content)
        request.contentDuration = 10
        let manager = try await loader.loadAds(with: request).adsManager!
        manager.linkOpener = { _ in }
        let delegate = ReentrantDelegate(
            point: point, call: call, display: display, content: content, clock: clock, userPodIndex: vmap ? 1 : 0,
            startsOnLoaded: !vmap)
        manager.delegate = delegate
        var rendering = AdsRenderingSettings()
        rendering.disableUi = true
        manager.initialize(with: rendering)
        if vmap { content.play() }  // a VAST pre-roll plays first; the content starts on resume
        for _ in 0..<20 {
            await clock.simulate(for: 5)
            if delegate.names.contains("allAdsCompleted") || delegate.callIndex != nil && call == .destroy { break }
            // The app's resume after its own pause or a click-through; ignored when nothing is paused.
            if delegate.callIndex != nil { manager.resume() }
        }
        content.stop()
        defer { withExtendedLifetime(manager) {} }

        let names = delegate.names
        #expect(delegate.callIndex != nil, "the scenario never reached \(point.rawValue): \(names)")
        guard let callIndex = delegate.callIndex else { return }
        let after = Array(delegate.entries[(callIndex + 1)...])

        if call == .destroy {
            // Nothing reaches the app once it has destroyed the manager, and the display is only reset.
            #expect(after.isEmpty, "delegate calls after destroy(): \(after.map(\.name))")
            #expect(display.commands[delegate.commandsAtCall...].allSatisfy { $0 == "reset" })
            return
        }

        // The ads end once, last: no ad, break or display activity after ALL_ADS_COMPLETED.
        #expect(names.filter { $0 == "allAdsCompleted" }.count == 1, "\(names)")
        if let end = delegate.entries.firstIndex(where: { $0.name == "allAdsCompleted" }) {
            let later = delegate.entries[(end + 1)...].filter { !$0.name.hasPrefix("CALL") && $0.name != "log" }
            #expect(later.isEmpty, "after ALL_ADS_COMPLETED: \(later.map(\.name))")
            let commands = display.commands[delegate.entries[end].commandCount...]
            #expect(!commands.contains { $0.hasPrefix("load") || $0 == "play" }, "display after the end: \(commands)")
        }
        // Between the end of a break and the start of the next, no ad plays: no
        // ad event (a stale LOADED for the next ad), no display load or play.
        let adEvents: Set = ["loaded", "started", "firstQuartile", "midpoint", "thirdQuartile", "complete", "skipped"]
        var index = 0
        while let end = delegate.entries[index...].firstIndex(where: { $0.name == "adBreakEnded" }) {
            let next = delegate.entries[(end + 1)...].firstIndex { $0.name == "adBreakStarted" }
            let quiet = delegate.entries[(end + 1)..<(next ?? delegate.entries.count)]
            #expect(!quiet.contains { adEvents.contains($0.name) }, "after a break ended: \(quiet.map(\.name))")
            let lastCommand = next.map { delegate.entries[$0].commandCount } ?? display.commands.count
            let commands = display.commands[delegate.entries[end].commandCount..<lastCommand]
            #expect(!commands.contains { $0.hasPrefix("load") || $0 == "play" }, "between breaks: \(commands)")
            index = end + 1
        }
        // Content pause and resume alternate, starting with a pause and ending resumed.
        let contentCalls = names.filter { $0 == "contentPause" || $0 == "contentResume" }
        let pairs = Array(repeating: ["contentPause", "contentResume"], count: contentCalls.count / 2).flatMap { $0 }
        #expect(contentCalls == pairs, "\(contentCalls)")
        // Each ad of each break: LOADED, then STARTED, then at most one of COMPLETE and SKIPPED.
        var seen: [String: [String]] = [:]
        for entry in delegate.entries {
            guard let ad = entry.adID, let pod = entry.podIndex else { continue }
            seen["\(pod)/\(ad)", default: []].append(entry.name)
        }
        for (ad, events) in seen {
            let lifecycle = events.filter { ["loaded", "started", "complete", "skipped"].contains($0) }
            #expect(
                [
                    [], ["loaded"], ["loaded", "started"], ["loaded", "started", "complete"],
                    ["loaded", "started", "skipped"],
                ]
                .contains(lifecycle), "\(ad): \(events)")
        }
        if call == .discardAdBreak, let pod = delegate.callPodIndex {
            // The discarded break plays nothing more.
            let laterStarts = after.filter { $0.name == "started" && $0.podIndex == pod }
            #expect(laterStarts.isEmpty, "break \(pod) started ads after discardAdBreak(): \(after.map(\.name))")
        }
    }
}

/// Passes everything to `recorder` and calls `discardAdBreak()` on the first COMPLETE.
@MainActor
final class DiscardOnComplete: AdsManagerDelegate {
    var recorder: ManagerRecorder?
    private var discarded = false

    func adsManager(_ adsManager: AdsManager, didReceive event: AdEvent) {
        recorder?.adsManager(adsManager, didReceive: event)
        if event.type == .complete, !discarded {
            discarded = true
            adsManager.discardAdBreak()
        }
    }
    func adsManager(_ adsManager: AdsManager, didReceive error: AdError) {
        recorder?.adsManager(adsManager, didReceive: error)
    }
    func adsManagerDidRequestContentPause(_ adsManager: AdsManager) {
        recorder?.adsManagerDidRequestContentPause(adsManager)
    }
    func adsManagerDidRequestContentResume(_ adsManager: AdsManager) {
        recorder?.adsManagerDidRequestContentResume(adsManager)
    }
}
