import Foundation

/// An HTTP answer: status, headers, body, and how the body is delivered.
public struct HTTPResponse: Sendable {
    /// Where the body comes from.
    public enum Body: Sendable, Hashable {
        /// Bytes in memory.
        case bytes([UInt8])
        /// `length` bytes of the file at `path` from `offset` (sent with
        /// `sendfile` where the platform has it).
        case file(path: String, offset: UInt64, length: UInt64)
        /// Slices of shared bytes one after another, sent from where they
        /// are (no copy per response; see ``SharedBytes``).
        case parts([SharedBytes.Slice])
    }

    /// How the server sends the answer. Everything but `immediate` exists for
    /// the fault routes, to show players the failures real networks produce.
    public enum Delivery: Sendable, Hashable {
        /// Send at once.
        case immediate
        /// Hold the answer this long without blocking other connections.
        case delayed(milliseconds: Int)
        /// Send `chunkSize` bytes every `intervalMilliseconds`.
        case dripped(chunkSize: Int, intervalMilliseconds: Int)
        /// Declare the full length but close the connection after this many body bytes.
        case truncated(afterBytes: Int)
        /// Reset the TCP connection (RST) without answering.
        case reset
        /// Answer with what `answer` produces once it is done (an origin
        /// fetch), holding the connection without blocking a polling thread.
        /// The headers of this response are added to the produced one.
        case deferred(HTTPDeferredAnswer)
    }

    /// Status code.
    public var status: Int
    /// Header fields; `Content-Length` and `Date` are added by the server.
    public var headers: HTTPHeaders
    /// The body.
    public var body: Body
    /// How the body is sent; `.immediate` unless a fault route says otherwise.
    public var delivery: Delivery

    public init(
        status: Int = 200, headers: HTTPHeaders = HTTPHeaders(), body: Body = .bytes([]),
        delivery: Delivery = .immediate
    ) {
        self.status = status
        self.headers = headers
        self.body = body
        self.delivery = delivery
    }

    /// Body length in bytes.
    public var bodyLength: Int {
        switch body {
        case .bytes(let bytes): bytes.count
        case .file(_, _, let length): Int(length)
        case .parts(let parts): parts.reduce(0) { $0 + $1.range.count }
        }
    }

    /// A text body with the given content type.
    public static func text(_ text: String, contentType: String, status: Int = 200) -> HTTPResponse {
        HTTPResponse(
            status: status, headers: HTTPHeaders([("Content-Type", contentType)]), body: .bytes(Array(text.utf8)))
    }

    /// An XML (VAST/VMAP) body.
    public static func xml(_ text: String, status: Int = 200) -> HTTPResponse {
        .text(text, contentType: "application/xml; charset=utf-8", status: status)
    }

    /// A JSON body encoded from `value` with sorted keys.
    public static func json(_ value: some Encodable, status: Int = 200) -> HTTPResponse {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let data = (try? encoder.encode(value)) ?? Data(#"{"error":{"status":500,"message":"encoding failed"}}"#.utf8)
        return HTTPResponse(
            status: status, headers: HTTPHeaders([("Content-Type", "application/json")]), body: .bytes(Array(data)))
    }

    /// 204 No Content.
    public static let noContent = HTTPResponse(status: 204)

    /// An answer produced by `produce` off the polling thread (see ``Delivery/deferred(_:)``).
    public static func deferred(_ produce: @escaping @Sendable () async -> HTTPResponse) -> HTTPResponse {
        HTTPResponse(status: 200, delivery: .deferred(HTTPDeferredAnswer(produce)))
    }

    /// An answer handed to a completion by work that runs elsewhere (a
    /// writer thread's batch): `start` runs on the polling thread once the
    /// connection is parked and must call its argument once, from any
    /// thread. No task or thread hop per request, unlike ``deferred(_:)``.
    public static func deferred(
        completing start: @escaping @Sendable (_ complete: @escaping @Sendable (HTTPResponse) -> Void) -> Void
    ) -> HTTPResponse {
        HTTPResponse(status: 200, delivery: .deferred(HTTPDeferredAnswer(completing: start)))
    }
}

/// The work behind a ``HTTPResponse/Delivery/deferred(_:)`` answer. Equal
/// only to itself (two pieces of work are never the same answer).
public final class HTTPDeferredAnswer: Sendable, Hashable {
    /// Produces the answer; runs once, on the concurrency pool.
    public let produce: @Sendable () async -> HTTPResponse
    /// The completion form's work, started on the polling thread (nil: `produce` runs in a task).
    let start: (@Sendable (_ complete: @escaping @Sendable (HTTPResponse) -> Void) -> Void)?

    /// Wraps `produce`.
    public init(_ produce: @escaping @Sendable () async -> HTTPResponse) {
        self.produce = produce
        start = nil
    }

    /// Wraps work that calls its completion once with the answer (see
    /// ``HTTPResponse/deferred(completing:)``); `produce` awaits the same work.
    public init(completing start: @escaping @Sendable (_ complete: @escaping @Sendable (HTTPResponse) -> Void) -> Void)
    {
        self.start = start
        produce = {
            await withCheckedContinuation { continuation in start { continuation.resume(returning: $0) } }
        }
    }

    public static func == (lhs: HTTPDeferredAnswer, rhs: HTTPDeferredAnswer) -> Bool { lhs === rhs }

    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
}
