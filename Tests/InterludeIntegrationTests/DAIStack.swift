import Foundation
import InterludeServer
import InterludeServerTestSupport
import InterludeTestSupport
import Testing

@testable import Interlude

/// `URLSessionHTTPClient` with every exchange written down (method, URL,
/// status), so a test can count what reached the server and how it answered.
final class RecordingHTTPClient: HTTPClient, @unchecked Sendable {
    // @unchecked: `base` is Sendable and immutable, and `recorded` is only
    // read or written while `lock` is held.
    struct Exchange: Sendable, Hashable {
        var method: String
        var url: String
        /// nil when the exchange failed without an answer.
        var status: Int?
    }

    private let base = URLSessionHTTPClient()
    private let lock = NSLock()
    private var recorded: [Exchange] = []

    var enforcesTimeout: Bool { base.enforcesTimeout }

    var exchanges: [Exchange] { lock.withLock { recorded } }

    func send(_ request: Interlude.HTTPRequest) async throws -> Interlude.HTTPResponse {
        do {
            let response = try await base.send(request)
            record(Exchange(method: request.method, url: request.url.absoluteString, status: response.statusCode))
            return response
        } catch {
            record(Exchange(method: request.method, url: request.url.absoluteString, status: nil))
            throw error
        }
    }

    private func record(_ exchange: Exchange) { lock.withLock { recorded.append(exchange) } }
}

/// What `GET /api/streams/{id}` says of a stream (the fields these tests read).
struct StreamReportView: Decodable {
    struct Event: Decodable {
        var type: String
        var id: String
        /// Milliseconds into the ad.
        var offset: Int
        var verifiedAt: String?
    }

    struct Ad: Decodable {
        var position: Int
        /// Milliseconds.
        var duration: Int
        /// Milliseconds from the pod's start.
        var offset: Int
        var events: [Event]
    }

    struct Break: Decodable {
        var id: String
        /// Milliseconds.
        var duration: Int
        var ads: [Ad]
    }

    var streamId: String
    var breaks: [Break]
    var eventsVerified: Int

    var events: [Event] { breaks.flatMap(\.ads).flatMap(\.events) }
}

/// Runs blocking work (a loopback request) on a thread of its own, so the
/// two threads of the shared concurrency pool stay free meanwhile.
func onOwnThread<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        Thread { continuation.resume(with: Result { try body() }) }.start()
    }
}

struct DAIWaitTimedOut: Error, CustomStringConvertible {
    var description: String
}

/// The SDK's DAI path over real HTTP: an in-process `interlude serve` (the
/// pod-serving API and the collector), a loader on URLSession with a manual
/// clock (polling and retries move only when the test says), and a scripted
/// display the test steps through the stream as a player would.
@MainActor
final class DAIStack {
    /// Stream seconds per display report, and manual-clock seconds per report.
    static let tick: TimeInterval = 0.25
    static let network = "interlude"
    static let customAssetKey = "interlude-live"

    let server: AdServer
    let directory: TemporaryDirectory
    let clock = ManualClock()
    let http = RecordingHTTPClient()
    let display = ScriptedStreamDisplay()
    let recorder = DAIRecorder()
    let loader: AdsLoader

    init() throws {
        (server, directory) = try TestAdServer.start()
        var settings = Settings()
        // Under .build, not /tmp: each loader needs its own journal, and the build folder is thrown away.
        settings.beaconJournalDirectory = Corpus.packageRoot.appendingPathComponent(
            ".build/test-journals/\(UUID().uuidString)")
        loader = AdsLoader(settings: settings, httpClient: http, clock: clock)
        loader.delegate = recorder
        display.tickInterval = Self.tick
    }

    func stop() {
        server.shutdown()
        directory.remove()
    }

    var serverURL: URL { URL(string: server.baseURL)! }

    func request(live: Bool) -> StreamRequest {
        let container = AdDisplayContainer(videoDisplay: display)
        let request: StreamRequest =
            live
            ? PodStreamRequest(
                networkCode: Self.network, customAssetKey: Self.customAssetKey, adDisplayContainer: container,
                videoDisplay: display, pictureInPictureProxy: nil, userContext: "it")
            : PodVODStreamRequest(
                networkCode: Self.network, adDisplayContainer: container, videoDisplay: display,
                pictureInPictureProxy: nil, userContext: "it")
        request.serverURL = serverURL
        return request
    }

    /// Sets the recorder as the manager's delegate and initializes it (the
    /// live metadata's first fetch let land).
    func start(_ manager: StreamManager) async {
        manager.delegate = recorder
        manager.initialize(with: nil)
        await fetched(manager)
    }

    /// Waits for the manager's metadata or timeline fetch, if one is under
    /// way (an await, not a spin: other suites share the main actor; the
    /// client's own timeout bounds it).
    func fetched(_ manager: StreamManager) async {
        while let task = manager.fetchTask { await task.value }
    }

    /// GET on the server from a thread of its own.
    func get(_ target: String, method: String = "GET", body: String = "") async throws -> LoopbackResponse {
        let port = server.port
        let headers = body.isEmpty ? [] : [("Content-Type", "application/json")]
        return try await onOwnThread {
            try Loopback.get(target, port: port, method: method, headers: headers, body: Array(body.utf8))
        }
    }

    /// The server's report of a stream.
    func report(_ streamID: String) async throws -> StreamReportView {
        let response = try await get("/api/streams/\(streamID)")
        #expect(response.status == 200, "\(response.text)")
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        return try decoder.decode(StreamReportView.self, from: response.data)
    }

    /// What a VTP does for a livestream's break: asks for the viewer's pod,
    /// which makes the server decide it.
    func decideLivePod(_ streamID: String, pod: Int, durationMilliseconds: Int) async throws {
        let path =
            "/linear/pods/v1/hls/network/\(Self.network)/custom_asset/\(Self.customAssetKey)/pod/\(pod).m3u8"
            + "?stream_id=\(streamID)&pd=\(durationMilliseconds)"
        let response = try await get(path)
        #expect(response.status == 200, "\(response.text)")
    }

    /// What a VTP does for a VOD stream: asks for its pods at content 0, 60
    /// and 120 of 120 s of content. Returns the stitched stream's length (s).
    func planVODPods(_ streamID: String) async throws -> TimeInterval {
        let body = """
            {"encoding_profiles":[{"profile_name":"360p","type":"media","container_type":"mpeg2ts"}],
             "ad_tag":"https://example.com/vmap","cuepoints":[0,60,120],"content_duration_seconds":120}
            """
        let pods = try await get(
            "/ondemand/pods/api/v1/network/\(Self.network)/streams/\(streamID)/adpods", method: "POST", body: body)
        #expect(pods.status == 200, "\(pods.text)")
        let metadata = try await get("/pods/v1/streams/\(streamID)/metadata")
        #expect(metadata.status == 200, "\(metadata.text)")
        let object = try JSONSerialization.jsonObject(with: metadata.data) as? [String: Any]
        return try #require(object?["duration"] as? Double)
    }

    /// The timed metadata a stitched livestream carries for `item`, with the
    /// break starting at `start` stream seconds: one TXXX frame per event,
    /// handed over `lead` seconds early (a player parsing ahead).
    static func cues(for item: StreamReportView.Break, at start: TimeInterval, lead: TimeInterval)
        -> [ScriptedStreamDisplay.Cue]
    {
        item.ads.flatMap { ad in
            ad.events.map { event in
                .id3(event.id, at: start + Double(ad.offset + event.offset) / 1000, lead: lead)
            }
        }.sorted { $0.time < $1.time }
    }

    /// Plays to `end` stream seconds one report at a time, the manual clock
    /// moving with the stream; after each report the manager's metadata
    /// fetch (over real HTTP) is let land before the next.
    func play(_ manager: StreamManager, to end: TimeInterval) async throws {
        while display.currentMediaTime < end - 1e-9, display.loadedURL != nil {
            display.step()
            clock.advance(by: Self.tick)
            await Task.yield()
            await fetched(manager)
            if display.totalMediaTime > 0, display.currentMediaTime >= display.totalMediaTime { return }
        }
    }

    /// Waits until every ping handed to the beacon queue has been sent.
    func deliverBeacons() async {
        for _ in 0..<100 { await Task.yield() }
        await loader.beaconQueue.waitUntilIdle()
    }

    /// Verification pings sent for `streamID`, with the server's answers.
    func verifications(_ streamID: String) -> [RecordingHTTPClient.Exchange] {
        http.exchanges.filter { $0.url.contains("/streams/\(streamID)/media/") }
    }

    func metadataRequests(_ streamID: String) -> [RecordingHTTPClient.Exchange] {
        http.exchanges.filter { $0.url.contains(streamID) && $0.url.contains("metadata") }
    }

    /// Yields (never sleeps) until `condition` holds: for main-actor work a
    /// few turns away. The bound only keeps a broken stack from hanging the run.
    func waitUntil(_ what: String, within seconds: Int = 60, _ condition: () -> Bool) async throws {
        let deadline = ContinuousClock.now + .seconds(seconds)
        while !condition() {
            guard ContinuousClock.now < deadline else {
                throw DAIWaitTimedOut(description: "waited \(seconds) s for \(what)")
            }
            await Task.yield()
        }
    }
}

/// The app's delegates: everything the loader and the stream manager say.
@MainActor
final class DAIRecorder: AdsLoaderDelegate, StreamManagerDelegate {
    var events: [AdEvent] = []
    var errors: [AdError] = []
    var loaded: [AdsLoadedData] = []
    var failed: [AdLoadingErrorData] = []
    private var outcomeWaiters: [CheckedContinuation<Void, Never>] = []

    /// Returns once the loader has answered a `requestStream` (loaded or failed).
    func waitForLoadOutcome() async {
        if !loaded.isEmpty || !failed.isEmpty { return }
        await withCheckedContinuation { outcomeWaiters.append($0) }
    }

    private func outcomeArrived() {
        let waiters = outcomeWaiters
        outcomeWaiters = []
        for waiter in waiters { waiter.resume() }
    }

    func count(_ type: AdEvent.EventType) -> Int { events.filter { $0.type == type }.count }

    func streamManager(_ streamManager: StreamManager, didReceive event: AdEvent) { events.append(event) }
    func streamManager(_ streamManager: StreamManager, didReceive error: AdError) { errors.append(error) }
    func adsLoader(_ loader: AdsLoader, adsLoadedWith data: AdsLoadedData) {
        loaded.append(data)
        outcomeArrived()
    }
    func adsLoader(_ loader: AdsLoader, failedWith errorData: AdLoadingErrorData) {
        failed.append(errorData)
        outcomeArrived()
    }
}
