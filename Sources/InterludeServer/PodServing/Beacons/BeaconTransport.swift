import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Why a server-side beacon could not be delivered this time.
public struct BeaconTransportError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What failed, for the outbox's `last_error`.
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}

/// Sends one server-side beacon (a tracking GET). Swappable so tests can put
/// a failing network between the sender and the collector. Called on the
/// sender's own threads (never Swift concurrency's), so it may block.
public protocol BeaconTransport: Sendable {
    /// GETs `url` with an `Idempotency-Key` header and returns the status;
    /// throws when no answer came (the beacon may or may not have arrived).
    func send(url: String, idempotencyKey: String) throws(BeaconTransportError) -> Int

    /// True when `url` is answered inside this process, with no network to
    /// wait on: the sender then sends it on its own (low-priority) thread,
    /// one after another, instead of on a pool thread.
    func answersInProcess(url: String) -> Bool
}

extension BeaconTransport {
    /// Every URL goes over the network unless a transport says otherwise.
    public func answersInProcess(url: String) -> Bool { false }
}

/// ``BeaconTransport`` on `URLSession`: no cache, no cookies, 5 s to answer
/// and 10 s for the whole exchange.
public final class URLSessionBeaconTransport: BeaconTransport {
    private let session: URLSession

    public init(maxConnectionsPerHost: Int = 16) {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.urlCache = nil
        configuration.httpCookieStorage = nil
        configuration.timeoutIntervalForRequest = 5
        configuration.timeoutIntervalForResource = 10
        configuration.httpMaximumConnectionsPerHost = maxConnectionsPerHost
        session = URLSession(configuration: configuration)
    }

    deinit { session.invalidateAndCancel() }

    public func send(url text: String, idempotencyKey: String) throws(BeaconTransportError) -> Int {
        guard let url = URL(string: text) else { throw BeaconTransportError("not a URL: \(text.prefix(200))") }
        var request = URLRequest(url: url)
        request.httpMethod = "GET"
        request.setValue(idempotencyKey, forHTTPHeaderField: "Idempotency-Key")
        request.setValue("Interlude-SSB/1", forHTTPHeaderField: "User-Agent")
        let result = Locked<Result<Int, BeaconTransportError>>(.failure(BeaconTransportError("no answer")))
        let done = DispatchSemaphore(value: 0)
        // The completion runs on URLSession's delegate queue, never on the
        // waiting thread, so this wait cannot block its own answer.
        session.dataTask(with: request) { _, response, error in
            let outcome: Result<Int, BeaconTransportError>
            if let error {
                outcome = .failure(BeaconTransportError(error.localizedDescription))
            } else if let http = response as? HTTPURLResponse {
                outcome = .success(http.statusCode)
            } else {
                outcome = .failure(BeaconTransportError("no HTTP response"))
            }
            result.withLock { $0 = outcome }
            done.signal()
        }.resume()
        done.wait()
        return try result.withLock { $0 }.get()
    }
}
