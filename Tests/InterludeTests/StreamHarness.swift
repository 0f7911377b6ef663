import Foundation
import InterludeTestSupport
import Testing

@testable import Interlude

@MainActor
final class StreamRecorder: StreamManagerDelegate, AdsLoaderDelegate {
    var events: [AdEvent] = []
    var errors: [AdError] = []
    var progress: [StreamAdProgress] = []
    var uiStates: [AdUIState] = []
    var loaded: [AdsLoadedData] = []
    var failed: [AdLoadingErrorData] = []
    /// Called for each event, after it is recorded (an app reacting: seeks, destroy).
    var onEvent: ((StreamManager, AdEvent) -> Void)?

    /// Event types without `log` and `cuepointsChanged`.
    var types: [AdEvent.EventType] { events.map(\.type).filter { $0 != .log && $0 != .cuepointsChanged } }
    var logs: [String] { events.filter { $0.type == .log }.compactMap { $0.adData["message"] } }

    func streamManager(_ streamManager: StreamManager, didReceive event: AdEvent) {
        events.append(event)
        onEvent?(streamManager, event)
    }
    func streamManager(_ streamManager: StreamManager, didReceive error: AdError) { errors.append(error) }
    func streamManager(
        _ streamManager: StreamManager, adDidProgressToTime time: TimeInterval, adDuration: TimeInterval,
        adPosition: Int, totalAds: Int, adBreakDuration: TimeInterval, adPeriodDuration: TimeInterval
    ) {
        progress.append(
            StreamAdProgress(
                time: time, adDuration: adDuration, adPosition: adPosition, totalAds: totalAds,
                adBreakDuration: adBreakDuration, adPeriodDuration: adPeriodDuration))
    }
    func streamManager(_ streamManager: StreamManager, didUpdate uiState: AdUIState) { uiStates.append(uiState) }
    func adsLoader(_ loader: AdsLoader, adsLoadedWith data: AdsLoadedData) { loaded.append(data) }
    func adsLoader(_ loader: AdsLoader, failedWith errorData: AdLoadingErrorData) { failed.append(errorData) }
}

/// A loader on an in-memory pod-serving API and a manual clock, with a
/// scripted stream display.
@MainActor
struct StreamHarness {
    let clock = ManualClock()
    let http: InMemoryHTTPClient
    let display: ScriptedStreamDisplay
    let loader: AdsLoader
    let recorder = StreamRecorder()

    init(
        routes: [String: InMemoryHTTPClient.Reply] = [:], duration: TimeInterval = 0,
        configure: (inout Settings) -> Void = { _ in }
    ) {
        http = InMemoryHTTPClient(routes: routes, clock: clock)
        // Verification pings (and anything else unrouted) answer 204, as the API does for a verified event.
        http.fallback = .status(204, "")
        display = ScriptedStreamDisplay(clock: clock, duration: duration)
        loader = makeLoader(http, clock: clock, configure: configure)
    }

    static func vod(
        metadata: InMemoryHTTPClient.Reply = .body(StreamFixtures.vodMetadata()),
        extra: [String: InMemoryHTTPClient.Reply] = [:]
    ) -> StreamHarness {
        var routes = extra
        routes[StreamFixtures.vodRegistrationURL] = .body(StreamFixtures.registration())
        routes[StreamFixtures.metadataURL] = metadata
        return StreamHarness(routes: routes, duration: StreamFixtures.vodStreamDuration)
    }

    static func live(
        metadata: InMemoryHTTPClient.Reply = .body(StreamFixtures.liveMetadata()), pollingFrequency: Double = 5,
        extra: [String: InMemoryHTTPClient.Reply] = [:]
    ) -> StreamHarness {
        var routes = extra
        routes[StreamFixtures.liveRegistrationURL] = .body(
            StreamFixtures.registration(pollingFrequency: pollingFrequency))
        routes[StreamFixtures.metadataURL] = metadata
        return StreamHarness(routes: routes)
    }

    func request(live: Bool, userContext: (any Sendable)? = nil) -> StreamRequest {
        let container = AdDisplayContainer(videoDisplay: display)
        let request: StreamRequest =
            live
            ? PodStreamRequest(
                networkCode: "21775744923", customAssetKey: "interlude-live", adDisplayContainer: container,
                videoDisplay: display, pictureInPictureProxy: nil, userContext: userContext)
            : PodVODStreamRequest(
                networkCode: "21775744923", adDisplayContainer: container, videoDisplay: display,
                pictureInPictureProxy: nil, userContext: userContext)
        request.serverURL = URL(string: StreamFixtures.server)
        return request
    }

    /// Registers, sets the recorder as delegate and initializes (custom UI on).
    func manager(live: Bool, snapback: Bool = false, configure: (StreamRequest) -> Void = { _ in }) async throws
        -> StreamManager
    {
        let request = request(live: live)
        configure(request)
        let manager = try #require(try await loader.loadStream(with: request).streamManager)
        manager.delegate = recorder
        manager.isSnapbackEnabled = snapback
        var rendering = AdsRenderingSettings()
        rendering.disableUi = true
        manager.initialize(with: rendering)
        // A live manager fetches its metadata now, off the main actor: let it land before the clock moves.
        await waitUntil { manager.fetchTask == nil }
        return manager
    }

    /// Yields (never sleeps) until `condition` holds, for work that runs
    /// off the main actor (HTTP answers): a loaded machine may need more
    /// turns than `ManualClock.simulate` gives between steps.
    func waitUntil(_ condition: () -> Bool) async {
        for _ in 0..<100_000 where !condition() { await Task.yield() }
    }

    /// Lets the manager hand its pings to the queue (from a main-actor
    /// task), then waits until the queue has sent them.
    func deliverBeacons() async {
        for _ in 0..<100 { await Task.yield() }
        await loader.beaconQueue.waitUntilIdle()
    }

    /// `loadThirdPartyStream` with the VTP's URL, and the timeline's fetch let finish.
    func startVOD(_ manager: StreamManager, url: URL = StreamHarness.vtpURL) async {
        manager.loadThirdPartyStream(url, streamSubtitles: nil)
        await waitUntil { manager.fetchTask == nil }
        await waitUntil { display.loadedURL == nil || display.isPlaying }
    }

    /// Verification URLs requested, in order.
    var verificationRequests: [String] {
        http.requestedURLs.filter { $0.hasPrefix(StreamFixtures.verificationBase) }
    }

    var metadataRequests: [String] { http.requestedURLs.filter { $0.hasPrefix(StreamFixtures.metadataURL) } }
}

extension StreamHarness {
    static let vtpURL = URL(string: "http://127.0.0.1:9/vtp/stream_id/stream-1/video/interlude-film.m3u8")!
}
