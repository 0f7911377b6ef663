import Foundation
import Interlude
import InterludeTestSupport
import Testing

@testable import InterludePlayer

/// What a ``VideoDisplayDelegate`` heard, in order.
@MainActor
final class DisplayRecorder: VideoDisplayDelegate {
    var calls: [String] = []
    var errors: [Error] = []
    var progress: [TimeInterval] = []
    var metadata: [(values: [String: String], time: TimeInterval)] = []
    /// Run on every call, to test re-entry.
    var onProgress: ((any VideoDisplay, TimeInterval) -> Void)?

    func videoDisplayDidLoad(_ display: any VideoDisplay) { calls.append("load") }
    func videoDisplayDidStart(_ display: any VideoDisplay) { calls.append("start") }
    func videoDisplayDidPause(_ display: any VideoDisplay) { calls.append("pause") }
    func videoDisplayDidResume(_ display: any VideoDisplay) { calls.append("resume") }
    func videoDisplayDidComplete(_ display: any VideoDisplay) { calls.append("complete") }
    func videoDisplayDidClick(_ display: any VideoDisplay) { calls.append("click") }
    func videoDisplay(_ display: any VideoDisplay, didReceiveError error: Error) {
        calls.append("error")
        errors.append(error)
    }
    func videoDisplay(
        _ display: any VideoDisplay, didProgressToMediaTime mediaTime: TimeInterval, totalTime: TimeInterval
    ) {
        progress.append(mediaTime)
        onProgress?(display, mediaTime)
    }
    func videoDisplay(_ display: any VideoDisplay, didReceiveTimedMetadata metadata: [String: String]) {
        calls.append("metadata without time")
    }
    func videoDisplay(
        _ display: any VideoDisplay, didReceiveTimedMetadata metadata: [String: String],
        presentationTime: TimeInterval
    ) {
        self.metadata.append((metadata, presentationTime))
    }
    func videoDisplayDidStartBuffering(_ display: any VideoDisplay) { calls.append("buffering") }
    func videoDisplayIsPlaybackReady(_ display: any VideoDisplay) { calls.append("ready") }

    /// The calls other than progress and buffering, for exact expectations.
    var milestones: [String] { calls.filter { $0 != "buffering" && $0 != "ready" } }
}

/// The display's shell on the in-memory client and a manual clock: delegate
/// calls, timeouts, re-entry, the SDK's client-side ad path.
@Suite(.serialized)
@MainActor
struct HLSStreamDisplayTests {
    static let base = "http://origin.test/vod"

    static func vodRoutes(segments: Int = 3) -> [String: InMemoryHTTPClient.Reply] {
        var routes: [String: InMemoryHTTPClient.Reply] = ["\(base)/index.m3u8": .body(Playlists.vod(count: segments))]
        for index in 0..<segments { routes["\(base)/seg\(index).ts"] = .body(String(repeating: "x", count: 100)) }
        return routes
    }

    static func make(
        _ routes: [String: InMemoryHTTPClient.Reply], _ configuration: HLSStreamDisplay.Configuration = .init()
    ) -> (HLSStreamDisplay, DisplayRecorder, ManualClock) {
        let (display, recorder, clock, _) = makeWithClient(routes, configuration)
        return (display, recorder, clock)
    }

    static func makeWithClient(
        _ routes: [String: InMemoryHTTPClient.Reply], _ configuration: HLSStreamDisplay.Configuration = .init()
    ) -> (HLSStreamDisplay, DisplayRecorder, ManualClock, InMemoryHTTPClient) {
        let clock = ManualClock()
        let http = InMemoryHTTPClient(routes: routes, clock: clock)
        let display = HLSStreamDisplay(httpClient: http, clock: clock, configuration: configuration)
        let recorder = DisplayRecorder()
        display.delegate = recorder
        return (display, recorder, clock, http)
    }

    @Test func aVODPlaysThroughTheDelegateOnAManualClock() async {
        let (display, recorder, clock) = Self.make(Self.vodRoutes())
        display.load(URL(string: "\(Self.base)/index.m3u8")!, subtitles: nil)
        await DisplayClockDriver.run(display, clock, for: 0)
        #expect(recorder.milestones == ["load"])
        #expect(display.totalMediaTime == 12)
        display.play()
        await DisplayClockDriver.run(display, clock, for: 13)
        #expect(recorder.milestones == ["load", "start", "complete"])
        #expect(recorder.progress.count == 60)
        #expect(recorder.progress.last == 12)
        let status = display.status
        #expect(status.phase == .ended)
        #expect(status.segmentsDownloaded == 3)
        #expect(status.bytesDownloaded == 300 + Playlists.vod(count: 3).utf8.count)
        #expect(status.requestsInFlight == 0)
        #expect(!display.isPlaying)
    }

    @Test func aURLThatIsNotHLSIsReportedOnTheNextTurnNotInsideLoad() async {
        let (display, recorder, clock) = Self.make([:])
        display.load(URL(string: "http://origin.test/ad.mp4")!, subtitles: nil)
        #expect(recorder.calls.isEmpty)
        await DisplayClockDriver.run(display, clock, for: 0)
        #expect(recorder.calls == ["error"])
        guard case .cannotDisplay(let message) = recorder.errors.first as? VideoDisplayError else {
            Issue.record("expected cannotDisplay, got \(recorder.errors)")
            return
        }
        #expect(message.contains(".mp4 file, not an HLS playlist"))
        #expect(display.status.error?.code == .notHLS)
    }

    @Test func aSegmentThatNeverAnswersTimesOut() async {
        var routes = Self.vodRoutes()
        routes["\(Self.base)/seg0.ts"] = .hang
        let (display, recorder, clock) = Self.make(routes, .init(segmentTimeout: 2, retryLimit: 0))
        display.load(URL(string: "\(Self.base)/index.m3u8")!, subtitles: nil)
        display.play()
        // The hanging request and its timeout both sleep on the clock before it moves.
        await clock.waitForSleepers(2)
        await clock.simulate(for: 1.9)
        #expect(recorder.errors.isEmpty)
        #expect(display.status.requestsInFlight == 1)
        await clock.simulate(for: 0.2)
        #expect(recorder.calls.filter { $0 == "error" }.count == 1)
        #expect(display.status.error?.code == .timedOut)
        #expect(display.status.error?.message.contains("seg0.ts did not answer within 2 s") == true)
        #expect(clock.sleeperCount == 0)
    }

    @Test func aPlaylistThatNeverAnswersTimesOutAfterItsRetries() async {
        let routes: [String: InMemoryHTTPClient.Reply] = ["\(Self.base)/index.m3u8": .hang]
        let (display, recorder, clock) = Self.make(routes, .init(playlistTimeout: 3, retryLimit: 1, retryDelay: 1))
        display.load(URL(string: "\(Self.base)/index.m3u8")!, subtitles: nil)
        await clock.waitForSleepers(2)
        // Timed out at 3 s; the retry starts at 4 s and hangs again: its two sleepers before time moves on.
        await clock.simulate(for: 4)
        await clock.waitForSleepers(2)
        await clock.simulate(for: 2.9)
        #expect(recorder.errors.isEmpty)
        // 3 s, 1 s apart, 3 s again.
        await clock.simulate(for: 0.2)
        #expect(recorder.calls == ["error"])
        #expect(display.status.retries == 1)
    }

    @Test func aLivePlaylistIsReloadedOnTheClock() async {
        let url = "http://origin.test/live/index.m3u8"
        let windows = (0..<4).map { InMemoryHTTPClient.Reply.body(Playlists.live(first: 10 + $0, count: 6)) }
        var routes: [String: InMemoryHTTPClient.Reply] = [url: .sequence(windows)]
        for number in 10..<20 { routes["http://origin.test/live/seg\(number).ts"] = .body("segment") }
        let (live, _, clock, http) = Self.makeWithClient(routes)
        live.loadStream(URL(string: url)!, subtitles: nil)
        live.play()
        await DisplayClockDriver.run(live, clock, for: 10)
        // Loads at 0, 4, 8 (changed each time).
        #expect(http.requestedURLs.filter { $0 == url }.count == 3)
        #expect(abs(live.currentMediaTime - 22) < 1e-6)
        #expect(live.status.isLive)
        #expect(live.totalMediaTime == 0)
        live.reset()
        #expect(live.status.phase == .idle)
        await DisplayClockDriver.run(live, clock, for: 10)
        #expect(http.requestedURLs.filter { $0 == url }.count == 3)
    }

    @Test func aDelegateThatPausesFromAProgressCallLeavesTheDisplayPaused() async {
        let (display, recorder, clock) = Self.make(Self.vodRoutes())
        recorder.onProgress = { display, time in
            if time >= 1 { display.pause() }
        }
        display.load(URL(string: "\(Self.base)/index.m3u8")!, subtitles: nil)
        display.play()
        await DisplayClockDriver.run(display, clock, for: 5)
        #expect(recorder.milestones == ["load", "start", "pause"])
        #expect(abs(display.currentMediaTime - 1) < 1e-6)
        #expect(!display.isPlaying)
    }

    @Test func aSeekReportsProgressOnTheNextTurn() async {
        let (display, recorder, clock) = Self.make(Self.vodRoutes())
        display.load(URL(string: "\(Self.base)/index.m3u8")!, subtitles: nil)
        await DisplayClockDriver.run(display, clock, for: 0)
        display.seekStream(to: 7)
        #expect(recorder.progress.isEmpty)
        await clock.simulate(for: 0)
        #expect(recorder.progress == [7])
    }

    @Test func anAdsManagerPlaysAnHLSAdInTheDisplay() async throws {
        let clock = ManualClock()
        var routes = Self.vodRoutes()
        routes["http://ads.test/vast"] = .body(
            """
            <VAST version="4.2"><Ad id="hls"><InLine><AdSystem>test</AdSystem><AdTitle>HLS ad</AdTitle>
            <Impression>http://ads.test/impression</Impression><Creatives><Creative><Linear>
            <Duration>00:00:12</Duration><MediaFiles>
            <MediaFile delivery="streaming" type="application/x-mpegURL" width="640" height="360">\(Self.base)/index.m3u8</MediaFile>
            </MediaFiles><TrackingEvents><Tracking event="complete">http://ads.test/complete</Tracking></TrackingEvents>
            </Linear></Creative></Creatives></InLine></Ad></VAST>
            """)
        let http = InMemoryHTTPClient(routes: routes, clock: clock)
        http.fallback = .status(204, "")
        var settings = Settings()
        settings.beaconJournalDirectory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "interlude-hls-ad-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: settings.beaconJournalDirectory!) }
        let loader = AdsLoader(settings: settings, httpClient: http, clock: clock)
        let display = HLSStreamDisplay(httpClient: http, clock: clock)
        let request = AdsRequest(
            adTagURL: URL(string: "http://ads.test/vast")!,
            adDisplayContainer: AdDisplayContainer(videoDisplay: display))
        let manager: AdsManager? = try await loader.loadAds(with: request).adsManager
        let recorder = AdEventRecorder()
        manager?.delegate = recorder
        var rendering = AdsRenderingSettings()
        rendering.disableUi = true
        manager?.initialize(with: rendering)
        await DisplayClockDriver.run(display, clock, for: 1)
        await DisplayClockDriver.run(display, clock, for: 14)
        #expect(recorder.types.contains(.started))
        #expect(recorder.types.contains(.midpoint))
        #expect(recorder.types.contains(.complete))
        #expect(recorder.errors.isEmpty)
        await loader.beaconQueue.waitUntilIdle()
        #expect(http.requestedURLs.contains("http://ads.test/complete"))
    }
}

/// Starts the ad when it loads and keeps the event types.
@MainActor
final class AdEventRecorder: AdsManagerDelegate {
    var types: [AdEvent.EventType] = []
    var errors: [AdError] = []
    func adsManager(_ adsManager: AdsManager, didReceive event: AdEvent) {
        types.append(event.type)
        if event.type == .loaded { adsManager.start() }
    }
    func adsManager(_ adsManager: AdsManager, didReceive error: AdError) { errors.append(error) }
    func adsManagerDidRequestContentPause(_ adsManager: AdsManager) {}
    func adsManagerDidRequestContentResume(_ adsManager: AdsManager) {}
}
