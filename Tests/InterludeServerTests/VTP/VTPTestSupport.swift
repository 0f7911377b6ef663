import Foundation
import InterludeHLS
import InterludeServerTestSupport
import InterludeTestSupport
import Testing

@testable import InterludeServer

/// Servers, streams and requests for the VTP tests: the small test catalog
/// (nominal media, no ffmpeg) with a pre-roll, a mid-roll at 12 s and a
/// post-roll of 8 s pods, a second network, and external channels served
/// by a ``FixtureLiveOrigin``.
enum VTPTest {
    static let epoch = CatalogChannel.defaultEpoch

    /// The catalog: `Catalog.podServingTest` with the rules above, network
    /// `other` (custom asset key `other-live` playing `test-live-cue`,
    /// content `other-film` playing `test-film`, only there), and a channel
    /// `ext-{style}` per fixture style at `fixtureBase` when given.
    static func catalog(fixtureBase: String? = nil, maxPodDuration: Int = 300_000) -> Catalog {
        var catalog = Catalog.podServingTest
        catalog.adRules = AdRules(
            preroll: BreakRule(podSize: 2), midrolls: [BreakRule(offset: 12, podSize: 2)],
            postroll: BreakRule(podSize: 2))
        if let fixtureBase {
            for style in FixtureLiveOrigin.Style.allCases {
                catalog.content.channels.append(
                    CatalogChannel(
                        id: "ext-\(style.rawValue)", title: "External", origin: "\(fixtureBase)/\(style.rawValue).m3u8")
                )
            }
            for name in ["delta", "nested"] {
                catalog.content.channels.append(
                    CatalogChannel(id: "ext-\(name)", title: "External", origin: "\(fixtureBase)/\(name).m3u8"))
            }
            catalog.content.titles.append(
                CatalogTitle(id: "ext-vod", title: "External VOD", origin: "\(fixtureBase)/vod.m3u8"))
        }
        var pods = PodServingCatalog.defaults(for: catalog.content)
        pods.networks.append(PodNetwork(code: "other"))
        pods.liveStreams.append(PodLiveStream(customAssetKey: "other-live", channel: "test-live-cue", network: "other"))
        pods.vodContent.append(PodVODContent(contentID: "other-film", title: "test-film", network: "other"))
        pods.podRules = PodAdRules(maxPodDuration: maxPodDuration, vodPodDuration: 8)
        catalog.podServing = pods
        return catalog
    }

    /// Seconds a test server allows a loopback origin. The production default
    /// (3 s) bounds the whole exchange, and on a loaded 2-core CI machine, with
    /// every suite running at once and ffmpeg conditioning beside them, one
    /// fetch from an in-process fixture origin took longer than that
    /// (a 504 in `VTPLiveTests`). Tests about slow origins pass their own.
    static let loopbackOriginTimeout: TimeInterval = 30

    /// A server on the test catalog at `clock`.
    static func start(
        clock: PodTestClock, catalog: Catalog = VTPTest.catalog(), directory: TemporaryDirectory? = nil,
        originTimeout: TimeInterval = loopbackOriginTimeout
    ) throws -> (server: AdServer, directory: TemporaryDirectory) {
        let directory = directory ?? TemporaryDirectory()
        try FileManager.default.createDirectory(
            at: directory.url.appendingPathComponent("media"), withIntermediateDirectories: true)
        let server = try AdServer.start(
            AdServer.Configuration(
                host: "127.0.0.1", port: 0, dataDirectory: directory.url, catalog: catalog, generatesMedia: false,
                http: HTTPServer.Configuration(threadCount: 2), clock: clock.serverClock,
                podServing: PodServingOptions(sendsBeacons: false),
                originFetcher: OriginFetcher(timeout: originTimeout)))
        return (server, directory)
    }

    /// A loopback request made on a thread of its own: a test waiting on the
    /// server then holds no thread of the shared concurrency pool, which the
    /// other suites' async tests (and their clocks) need.
    static func get(_ path: String, port: UInt16, method: String = "GET") async throws -> LoopbackResponse {
        try await onOwnThread { try Loopback.get(path, port: port, method: method) }
    }

    /// Registers a stream at `path` and returns its ID.
    static func register(_ path: String, port: UInt16) async throws -> String {
        let response = try await get(path, port: port, method: "POST")
        #expect(response.status == 201, "\(response.text)")
        return try #require(try PodServingTest.json(response)["stream_id"] as? String)
    }

    /// Registers a live stream for `asset` on `network`.
    static func registerLive(port: UInt16, network: String = "interlude", asset: String) async throws -> String {
        try await register("/ssai/pods/api/v1/network/\(network)/custom_asset/\(asset)/stream", port: port)
    }

    /// Registers a VOD stream on `network`.
    static func registerVOD(port: UInt16, network: String = "interlude") async throws -> String {
        try await register("/ondemand/pods/api/v1/network/\(network)/stream_registration", port: port)
    }

    /// The JSON object of a GET.
    static func json(_ path: String, port: UInt16) async throws -> [String: Any] {
        try PodServingTest.json(try await get(path, port: port))
    }

    /// GETs a playlist that must answer 200 and parses it.
    static func media(_ path: String, port: UInt16, sourceLocation: SourceLocation = #_sourceLocation) async throws
        -> (playlist: MediaPlaylist, text: String)
    {
        let response = try await get(path, port: port)
        #expect(response.status == 200, "\(path): \(response.text)", sourceLocation: sourceLocation)
        #expect(
            response.headers["Content-Type"] == "application/vnd.apple.mpegurl", sourceLocation: sourceLocation)
        return (try HLSParser().parseMedia(response.body), response.text)
    }

    static func multivariant(_ path: String, port: UInt16) async throws -> MultivariantPlaylist {
        let response = try await get(path, port: port)
        #expect(response.status == 200, "\(path): \(response.text)")
        return try HLSParser().parseMultivariant(response.body)
    }

    /// The JSON error of an answer that must have `status`.
    static func expectError(
        _ path: String, port: UInt16, status: Int, containing text: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws {
        let response = try await get(path, port: port)
        #expect(response.status == status, "\(path): \(response.text)", sourceLocation: sourceLocation)
        #expect(response.headers["Content-Type"] == "application/json", sourceLocation: sourceLocation)
        let json = try JSONSerialization.jsonObject(with: response.data) as? [String: Any]
        let message = (json?["error"] as? [String: Any])?["message"] as? String ?? ""
        #expect(message.contains(text), "\(path): \(message)", sourceLocation: sourceLocation)
    }

    /// Stream seconds where each run of segments under `prefix` starts, with its length.
    static func runs(of playlist: MediaPlaylist, where isPod: (MediaSegment) -> Bool) -> [(
        start: Double, duration: Double
    )] {
        var runs: [(start: Double, duration: Double)] = []
        var inRun = false
        for segment in playlist.segments {
            if isPod(segment) {
                if !inRun { runs.append((segment.startTime, 0)) }
                runs[runs.count - 1].duration += segment.duration.value
                inRun = true
            } else {
                inRun = false
            }
        }
        return runs
    }
}
