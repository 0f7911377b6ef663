import Foundation

/// One HTTP request as the SDK makes it.
public struct HTTPRequest: Sendable, Hashable {
    public var url: URL
    public var method: String
    public var headers: [String: String]
    public var body: Data?
    /// Seconds allowed for the whole exchange.
    public var timeout: TimeInterval

    public init(
        url: URL, method: String = "GET", headers: [String: String] = [:], body: Data? = nil, timeout: TimeInterval = 8
    ) {
        self.url = url
        self.method = method
        self.headers = headers
        self.body = body
        self.timeout = timeout
    }
}

/// One HTTP response.
public struct HTTPResponse: Sendable, Hashable {
    public var statusCode: Int
    public var headers: [String: String]
    public var body: Data
    /// The URL that answered (after redirects).
    public var url: URL

    public init(statusCode: Int, headers: [String: String] = [:], body: Data = Data(), url: URL) {
        self.statusCode = statusCode
        self.headers = headers
        self.body = body
        self.url = url
    }
}

/// Why an HTTP exchange failed.
public enum HTTPClientError: Error, Hashable, Sendable {
    /// No answer within the request's timeout.
    case timedOut
    /// The caller gave up (its task was cancelled) before an answer came:
    /// not a timeout, and not the server's fault.
    case cancelled
    /// The host could not be reached or the connection broke.
    case unreachable(String)
    /// The body was larger than allowed.
    case responseTooLarge(limit: Int)
    /// A URL (or a redirect) used a scheme other than http or https.
    case unsupportedScheme(String)
    /// More HTTP redirects than allowed.
    case tooManyRedirects
}

/// Everything the SDK needs from the network. The default is
/// ``URLSessionHTTPClient``; tests and custom stacks inject their own.
///
/// What a client must do:
/// - End ``send(_:)`` promptly when the calling task is cancelled, throwing
///   ``HTTPClientError/cancelled`` (or `CancellationError`), and free what the
///   exchange holds.
/// - Bound the whole exchange, not only idle time, by ``HTTPRequest/timeout``
///   when it claims ``enforcesTimeout``.
///
/// The SDK does not rely on either for its own deadlines: unless the client
/// claims ``enforcesTimeout``, every exchange is raced against the request's
/// timeout on the SDK's clock, counted from when the exchange's task starts
/// rather than when it was asked for, and the SDK stops waiting when it passes (or
/// when its own task is cancelled) whether or not ``send(_:)`` has returned.
/// A client that ignores cancellation then runs on in the background until
/// it returns by itself, and its answer is dropped.
public protocol HTTPClient: Sendable {
    /// Performs `request`. Throws ``HTTPClientError``; an HTTP error status is
    /// a response, not an error.
    func send(_ request: HTTPRequest) async throws -> HTTPResponse

    /// True when the client itself ends every exchange with
    /// ``HTTPClientError/timedOut`` once ``HTTPRequest/timeout`` has passed,
    /// even when its transport ignores cancellation, so the SDK need not race
    /// it against a timer. Default false. ``URLSessionHTTPClient`` does.
    var enforcesTimeout: Bool { get }
}

extension HTTPClient {
    public var enforcesTimeout: Bool { false }

    /// Sends `request` with the whole exchange bounded by its timeout on
    /// `clock`: raced against a timer unless the client does it itself. The
    /// race ends at the deadline (``HTTPClientError/timedOut``) or when the
    /// caller is cancelled (``HTTPClientError/cancelled``) without waiting
    /// for a client that does not stop.
    func send(_ request: HTTPRequest, deadlineOn clock: any AdClock) async throws -> HTTPResponse {
        do {
            if enforcesTimeout { return try await send(request) }
            return try await withTimeout(
                request.timeout, clock: clock, onTimeout: { HTTPClientError.timedOut },
                operation: { try await self.send(request) })
        } catch is CancellationError {
            throw HTTPClientError.cancelled
        }
    }
}

extension URL {
    /// True for `http` and `https` URLs: the only ones the SDK fetches or pings.
    public var isHTTPOrHTTPS: Bool {
        guard let scheme = scheme?.lowercased() else { return false }
        return scheme == "http" || scheme == "https"
    }
}

extension String {
    /// True when the text (trimmed) is an http or https URL: the only
    /// beacons the SDK sends (`about:blank`, `javascript:`, empty never fire).
    var isHTTPURLString: Bool {
        let lowered = trimmingWhitespace.prefix(8).lowercased()
        return lowered.hasPrefix("http://") || lowered.hasPrefix("https://")
    }
}
