import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// ``HTTPClient`` on `URLSession`. The body size is bounded while it
/// arrives (the transfer is cancelled past the limit), redirects are counted
/// and may only lead to http/https, and the whole exchange has a deadline.
public final class URLSessionHTTPClient: HTTPClient {
    /// Largest body accepted, in bytes. Default 4 MiB.
    public let maxResponseSize: Int
    /// Most HTTP redirects followed. Default 5.
    public let maxHTTPRedirects: Int
    let session: URLSession
    private let exchanges: ExchangeTable

    public init(maxResponseSize: Int = 4 * 1024 * 1024, maxHTTPRedirects: Int = 5) {
        self.maxResponseSize = maxResponseSize
        self.maxHTTPRedirects = maxHTTPRedirects
        let configuration = URLSessionConfiguration.ephemeral
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.urlCache = nil
        configuration.httpMaximumConnectionsPerHost = 6
        exchanges = ExchangeTable()
        session = URLSession(configuration: configuration, delegate: exchanges, delegateQueue: nil)
    }

    deinit { session.invalidateAndCancel() }

    /// The whole exchange (not just idle time) is bounded by the request's timeout.
    public var enforcesTimeout: Bool { true }

    public func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        guard request.url.isHTTPOrHTTPS else { throw HTTPClientError.unsupportedScheme(request.url.scheme ?? "") }
        var urlRequest = URLRequest(url: request.url, timeoutInterval: request.timeout)
        urlRequest.httpMethod = request.method
        urlRequest.httpBody = request.body
        for (name, value) in request.headers { urlRequest.setValue(value, forHTTPHeaderField: name) }
        let task = session.dataTask(with: urlRequest)
        let id = task.taskIdentifier
        let limit = maxResponseSize
        let redirects = maxHTTPRedirects
        let table = exchanges
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                // Cancelled before it began: `onCancel` already ran and found nothing to end.
                guard !Task.isCancelled else {
                    continuation.resume(throwing: HTTPClientError.cancelled)
                    return
                }
                // URLSession's own timeout is an idle timeout; this bounds the whole
                // exchange, so a server dripping bytes cannot hold a request forever.
                // It ends the call itself (a task cancelled around its start may never
                // report completion), is cancelled when the exchange ends, and holds
                // the task weakly: a pending deadline must not keep a finished
                // transfer (its buffers and handle, ~3 KB) alive for the rest of the timeout.
                let deadline = DispatchSource.makeTimerSource(queue: .global())
                deadline.setEventHandler { [weak task] in
                    table.expire(id)
                    task?.cancel()
                }
                deadline.schedule(deadline: .now() + request.timeout)
                table.begin(
                    id,
                    Exchange(
                        continuation: continuation, originalURL: request.url, limit: limit, maxRedirects: redirects,
                        deadline: deadline))
                deadline.resume()
                // A cancel that came after the check above but before `begin` found
                // no exchange to end, and the task it cancelled before its start may
                // never report completion: it would end by the deadline, as a timeout.
                guard !Task.isCancelled else {
                    table.expire(id, ifNoFailure: .cancelled)
                    return
                }
                task.resume()
            }
        } onCancel: {
            // The caller gave up: that is no timeout, and is reported as what it is,
            // at once (not when URLSession gets round to reporting the cancelled task).
            // One step: a cancel whose marking and ending straddled `begin` ended the
            // call found in between as `.timedOut` (1 call in 400, seen in CI).
            table.expire(id, ifNoFailure: .cancelled)
            task.cancel()
        }
    }
}

/// One running exchange, as the session delegate tracks it.
struct Exchange {
    var continuation: CheckedContinuation<HTTPResponse, Error>
    var originalURL: URL
    var limit: Int
    var maxRedirects: Int
    var deadline: (any DispatchSourceTimer)?
    var redirects = 0
    /// The body so far, grown in place (amortized O(1) per chunk).
    var body: [UInt8] = []
    var failure: HTTPClientError?

    init(
        continuation: CheckedContinuation<HTTPResponse, Error>, originalURL: URL, limit: Int, maxRedirects: Int,
        deadline: (any DispatchSourceTimer)?
    ) {
        self.continuation = continuation
        self.originalURL = originalURL
        self.limit = limit
        self.maxRedirects = maxRedirects
        self.deadline = deadline
    }
}

/// The session delegate: one entry per running task. Every access to
/// `exchanges` holds `lock`, so the unchecked conformance is sound.
final class ExchangeTable: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    private let lock = NSLock()
    private var exchanges: [Int: Exchange] = [:]

    func begin(_ id: Int, _ exchange: Exchange) {
        lock.withLock { exchanges[id] = exchange }
    }

    /// Ends the call now (its deadline passed, or its caller cancelled) with
    /// the failure already known, or `fallback` (`.timedOut` for a deadline,
    /// `.cancelled` for a caller that gave up). A late completion callback
    /// finds nothing to end; a second call does nothing.
    func expire(_ id: Int, ifNoFailure fallback: HTTPClientError = .timedOut) {
        guard let exchange = lock.withLock({ exchanges.removeValue(forKey: id) }) else { return }
        exchange.deadline?.cancel()
        exchange.continuation.resume(throwing: exchange.failure ?? fallback)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        let expected = dataTask.response?.expectedContentLength ?? -1
        if receive(data, forTask: dataTask.taskIdentifier, expectedLength: expected) { dataTask.cancel() }
    }

    /// Appends a chunk of the body of task `id`; true when the body is now
    /// over its limit (the transfer is then to be cancelled). The body grows
    /// in place in the table: copying the exchange out, appending and storing
    /// it back would copy the whole body per chunk (quadratic in its size).
    func receive(_ data: Data, forTask id: Int, expectedLength: Int64) -> Bool {
        lock.withLock { () -> Bool in
            guard let limit = exchanges[id]?.limit else { return false }
            // Already failed (over the limit, a refused redirect): the rest is not kept.
            guard exchanges[id]!.failure == nil else { return true }
            if exchanges[id]!.body.isEmpty, expectedLength > 0 {
                // One allocation when the length is declared (never more than the limit allows).
                exchanges[id]!.body.reserveCapacity(Int(min(expectedLength, Int64(limit) + 1)))
            }
            data.withUnsafeBytes { exchanges[id]!.body.append(contentsOf: $0) }
            guard exchanges[id]!.body.count > limit else { return false }
            if exchanges[id]!.failure == nil { exchanges[id]!.failure = .responseTooLarge(limit: limit) }
            return true
        }
    }

    /// The address of task `id`'s body storage, for tests that check it grows in place.
    func bodyStorageAddress(forTask id: Int) -> UnsafeRawPointer? {
        lock.withLock { exchanges[id]?.body.withUnsafeBytes { $0.baseAddress } }
    }

    func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest, completionHandler: @escaping (URLRequest?) -> Void
    ) {
        let allowed = lock.withLock { () -> Bool in
            guard var exchange = exchanges[task.taskIdentifier] else { return false }
            exchange.redirects += 1
            if exchange.redirects > exchange.maxRedirects {
                exchange.failure = exchange.failure ?? .tooManyRedirects
            } else if let scheme = Self.foreignScheme(location: response.value(forHTTPHeaderField: "Location")) {
                exchange.failure = exchange.failure ?? .unsupportedScheme(scheme)
            } else if !(request.url?.isHTTPOrHTTPS ?? false) {
                exchange.failure = exchange.failure ?? .unsupportedScheme(request.url?.scheme ?? "")
            }
            exchanges[task.taskIdentifier] = exchange
            return exchange.failure == nil
        }
        if allowed {
            completionHandler(request)
        } else {
            completionHandler(nil)
            task.cancel()
        }
    }

    /// The scheme of a `Location` that names one other than http or https.
    /// Checked on the header itself: URLSession on Linux reads a host-less
    /// `file:///etc/passwd` as a path on the current server and would
    /// otherwise ask it for `/etc/passwd` instead of refusing.
    private static func foreignScheme(location: String?) -> String? {
        guard let location, let url = URL(string: location.trimmingWhitespace), let scheme = url.scheme else {
            return nil
        }
        return url.isHTTPOrHTTPS ? nil : scheme
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: Error?) {
        guard let exchange = lock.withLock({ exchanges.removeValue(forKey: task.taskIdentifier) }) else { return }
        exchange.deadline?.cancel()
        if let failure = exchange.failure {
            exchange.continuation.resume(throwing: failure)
        } else if let error {
            let failure: HTTPClientError
            switch (error as NSError).code {
            case NSURLErrorTimedOut: failure = .timedOut
            // Cancelled by no one here: the session went away (the client was released).
            case NSURLErrorCancelled: failure = .cancelled
            default: failure = .unreachable(error.localizedDescription)
            }
            exchange.continuation.resume(throwing: failure)
        } else if let response = task.response as? HTTPURLResponse {
            var headers: [String: String] = [:]
            for (key, value) in response.allHeaderFields {
                headers[String(describing: key).lowercased()] = String(describing: value)
            }
            exchange.continuation.resume(
                returning: HTTPResponse(
                    statusCode: response.statusCode, headers: headers, body: Data(exchange.body),
                    // The final URL only when a redirect was followed: URLSession may
                    // also normalize the URL (`host?q` → `host/?q`), which is no move.
                    url: exchange.redirects > 0 ? (response.url ?? exchange.originalURL) : exchange.originalURL))
        } else {
            exchange.continuation.resume(throwing: HTTPClientError.unreachable("no HTTP response"))
        }
    }
}
