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
/// ``URLSessionHTTPClient``; tests inject an in-memory one.
public protocol HTTPClient: Sendable {
    /// Performs `request`. Throws ``HTTPClientError``; an HTTP error status is
    /// a response, not an error.
    func send(_ request: HTTPRequest) async throws -> HTTPResponse

    /// True when the client itself fails an exchange with
    /// ``HTTPClientError/timedOut`` once ``HTTPRequest/timeout`` has passed,
    /// so callers need not race it against a timer. Default false.
    var enforcesTimeout: Bool { get }
}

extension HTTPClient {
    public var enforcesTimeout: Bool { false }

    /// Sends `request` with the whole exchange bounded by its timeout on
    /// `clock`: raced against a timer unless the client does it itself.
    func send(_ request: HTTPRequest, deadlineOn clock: any AdClock) async throws -> HTTPResponse {
        if enforcesTimeout { return try await send(request) }
        return try await withDeadline(
            clock.now + request.timeout, clock: clock, onTimeout: { HTTPClientError.timedOut },
            operation: { try await self.send(request) })
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
