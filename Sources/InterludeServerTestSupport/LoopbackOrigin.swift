import Foundation
import InterludeServer

/// A tiny HTTP origin on an ephemeral loopback port serving what the test
/// puts in it: playlists and segments by path, changed while it runs (a
/// live window), with an optional status or delivery fault per path.
/// Honours `Range` for byte-range segments. Records every path asked for.
///
/// Every field is guarded by `lock`, so the unchecked conformance is sound.
public final class LoopbackOrigin: @unchecked Sendable {
    /// One path's answer.
    public struct Resource: Sendable {
        /// HTTP status (200 answers a `Range` with 206 and the range).
        public var status: Int
        /// `Content-Type`.
        public var contentType: String
        /// The whole body.
        public var body: [UInt8]
        /// How the server sends it (a delay, a drip, a reset …).
        public var delivery: HTTPResponse.Delivery

        /// A resource; defaults: 200, `application/octet-stream`, empty, at once.
        public init(
            status: Int = 200, contentType: String = "application/octet-stream", body: [UInt8] = [],
            delivery: HTTPResponse.Delivery = .immediate
        ) {
            self.status = status
            self.contentType = contentType
            self.body = body
            self.delivery = delivery
        }

        /// A playlist (`application/vnd.apple.mpegurl`).
        public static func playlist(_ text: String) -> Resource {
            Resource(contentType: "application/vnd.apple.mpegurl", body: Array(text.utf8))
        }

        /// A transport stream segment (`video/mp2t`).
        public static func segment(_ bytes: [UInt8]) -> Resource { Resource(contentType: "video/mp2t", body: bytes) }
    }

    private let lock = NSLock()
    private var resources: [String: Resource] = [:]
    private var log: [String] = []
    private var server: HTTPServer?

    /// `http://127.0.0.1:<port>`.
    public let baseURL: String

    /// Starts listening; paths without a resource answer 404.
    public init() throws {
        let box = WeakBox()
        let server = try HTTPServer.start(
            host: "127.0.0.1", port: 0, configuration: HTTPServer.Configuration(threadCount: 2)
        ) { request in
            box.origin?.respond(to: request) ?? HTTPResponse(status: 503)
        }
        self.server = server
        baseURL = "http://127.0.0.1:\(server.port)"
        box.origin = self
    }

    deinit { server?.shutdown() }

    /// The absolute URL of `path` (which starts with `/`).
    public func url(_ path: String) -> URL { URL(string: baseURL + path)! }

    /// Serves `resource` at `path` from now on (nil: 404).
    public func set(_ path: String, _ resource: Resource?) { lock.withLock { resources[path] = resource } }

    /// Every path requested, in order.
    public var requestedPaths: [String] { lock.withLock { log } }

    /// How many times `path` was requested.
    public func requestCount(_ path: String) -> Int { requestedPaths.filter { $0 == path }.count }

    /// Stops the server.
    public func shutdown() { server?.shutdown() }

    private func respond(to request: InterludeServer.HTTPRequest) -> HTTPResponse {
        let path = request.rawPath
        let resource = lock.withLock { () -> Resource? in
            log.append(path)
            return resources[path]
        }
        guard let resource else { return HTTPResponse(status: 404) }
        var headers = HTTPHeaders([("Content-Type", resource.contentType)])
        var body = resource.body
        var status = resource.status
        if status == 200, let range = request.headers["Range"], let bytes = Self.bytes(range, count: body.count) {
            body = Array(body[bytes])
            status = 206
            headers.add("Content-Range", "bytes \(bytes.lowerBound)-\(bytes.upperBound)/\(resource.body.count)")
        }
        return HTTPResponse(status: status, headers: headers, body: .bytes(body), delivery: resource.delivery)
    }

    /// `bytes=a-b` within `count` bytes, or nil.
    private static func bytes(_ header: String, count: Int) -> ClosedRange<Int>? {
        guard header.hasPrefix("bytes=") else { return nil }
        let parts = header.dropFirst(6).split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 2, let first = Int(parts[0]), let last = Int(parts[1]), first <= last, last < count else {
            return nil
        }
        return first...last
    }

    /// Lets the handler reach the origin without a retain cycle through the server.
    private final class WeakBox: @unchecked Sendable {
        // Written once, right after the server starts and before its port is
        // known to anyone who could send a request; only read after that.
        weak var origin: LoopbackOrigin?
    }
}
