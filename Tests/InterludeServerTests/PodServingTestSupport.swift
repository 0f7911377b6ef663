import Foundation
import InterludeServerTestSupport
import InterludeTestSupport
import Testing

@testable import InterludeServer

/// A clock tests move by hand (sessions expire by it).
final class PodTestClock: Sendable {
    private let current: Locked<Date>

    init(_ start: Date = Date(timeIntervalSince1970: 1_800_000_000)) { current = Locked(start) }

    var now: Date { current.withLock { $0 } }

    func advance(by seconds: Double) { current.withLock { $0 = $0.addingTimeInterval(seconds) } }

    var serverClock: ServerClock { ServerClock { [self] in now } }
}

/// Pod-serving servers over a test data directory, and requests to them.
enum PodServingTest {
    /// The HMAC key of the `secured` network (hex of bytes 0x0b × 20, RFC 4231 case 1's key).
    static let authKeyHex = String(repeating: "0b", count: 20)

    /// The test catalog with networks `interlude` (open) and `secured`
    /// (api key `k3y`, auth token required).
    static var catalog: Catalog {
        var catalog = TestAdServer.catalog
        catalog.podServing.networks.append(
            PodNetwork(code: "secured", apiKey: "k3y", authKey: authKeyHex, requiresAuthToken: true))
        return catalog
    }

    static func start(
        directory: TemporaryDirectory? = nil, catalog: Catalog = PodServingTest.catalog,
        clock: ServerClock = .system, options: PodServingOptions = PodServingOptions(beaconRetry: fastRetry),
        generatesMedia: Bool = false
    ) throws -> (server: AdServer, directory: TemporaryDirectory) {
        let directory = directory ?? TemporaryDirectory()
        try FileManager.default.createDirectory(
            at: directory.url.appendingPathComponent("media"), withIntermediateDirectories: true)
        let server = try AdServer.start(
            AdServer.Configuration(
                host: "127.0.0.1", port: 0, dataDirectory: directory.url, catalog: catalog,
                generatesMedia: generatesMedia, http: HTTPServer.Configuration(threadCount: 2), clock: clock,
                podServing: options))
        return (server, directory)
    }

    /// Retries in milliseconds, so failing-network tests finish quickly.
    static let fastRetry = BeaconRetryPolicy(initialDelay: 0.005, maxDelay: 0.05, maxAttempts: 50, lease: 2)

    static let livePath = "/ssai/pods/api/v1/network/interlude/custom_asset/interlude-live/stream"
    static let vodPath = "/ondemand/pods/api/v1/network/interlude/stream_registration"

    static func post(
        _ path: String, port: UInt16, body: String, contentType: String? = "application/x-www-form-urlencoded",
        headers: [(String, String)] = []
    ) throws -> LoopbackResponse {
        try Loopback.get(
            path, port: port, method: "POST", headers: (contentType.map { [("Content-Type", $0)] } ?? []) + headers,
            body: Array(body.utf8))
    }

    static func json(_ response: LoopbackResponse) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: response.data) as? [String: Any])
    }

    /// Registers a stream and returns its ID.
    static func register(_ path: String = livePath, port: UInt16, body: String = "") throws -> String {
        let response = try post(path, port: port, body: body)
        #expect(response.status == 201, "\(response.text)")
        return try #require(try json(response)["stream_id"] as? String)
    }

    /// Registers a live stream on a network that checks tokens, with a
    /// registration token signed by ``authKeyHex``; returns its ID.
    static func registerSigned(network: String, asset: String, port: UInt16) throws -> String {
        let key = try #require(Hex.decode(authKeyHex))
        let token = PodAuthToken.sign(
            ["custom_asset_key": asset, "network_code": network, "exp": "1800000600"], key: key)
        return try register(
            "/ssai/pods/api/v1/network/\(network)/custom_asset/\(asset)/stream", port: port,
            body: "auth-token=" + token.replacingOccurrences(of: "~", with: "%7E"))
    }

    /// Registers a VOD stream and asks for its pods (pre-roll, mid-roll at 60 s, post-roll at 120 s).
    static func vodStreamWithPods(port: UInt16) throws -> (streamID: String, metadata: [String: Any]) {
        let id = try register(vodPath, port: port)
        let body = """
            {"encoding_profiles":[{"profile_name":"360p","type":"media","container_type":"mpeg2ts"}],
             "ad_tag":"https://example.com/vmap","cuepoints":[0,60,120],"content_duration_seconds":120}
            """
        let pods = try post(
            "/ondemand/pods/api/v1/network/interlude/streams/\(id)/adpods", port: port, body: body,
            contentType: "application/json")
        #expect(pods.status == 200, "\(pods.text)")
        let metadata = try Loopback.get("/pods/v1/streams/\(id)/metadata", port: port)
        #expect(metadata.status == 200)
        return (id, try json(metadata))
    }

    /// Every event ID of a VOD stream's metadata, in timeline order.
    static func eventIDs(_ metadata: [String: Any]) -> [String] {
        let breaks = metadata["breaks"] as? [[String: Any]] ?? []
        return breaks.flatMap { ($0["ads"] as? [[String: Any]]) ?? [] }.flatMap {
            (($0["events"] as? [[String: Any]]) ?? []).compactMap { $0["id"] as? String }
        }
    }

    static func verify(_ streamID: String, _ eventID: String, port: UInt16) throws -> Int {
        try Loopback.get("/pods/v1/streams/\(streamID)/media/\(eventID)", port: port).status
    }

    /// Rows of the session store's streams table.
    static func storedStreams(_ server: AdServer) throws -> Int {
        let store = try #require(server.sessionStore as? SQLiteSessionStore)
        return try store.pool.with { pooled throws(StoreError) -> Int in
            try pooled.run("SELECT COUNT(*) FROM streams") { statement throws(StoreError) -> Int in
                try statement.step() ? Int(statement.int64(0)) : 0
            }
        }
    }
}
