import Foundation
import Interlude

/// An ``HTTPClient`` that answers from a table, records every request and
/// can simulate slow, failing and hanging servers on a ``ManualClock``.
///
/// Every field is guarded by `lock`, so the unchecked conformance is sound.
public final class InMemoryHTTPClient: HTTPClient, @unchecked Sendable {
    /// How one URL answers.
    public indirect enum Reply: Sendable {
        /// 200 with this body.
        case body(String)
        /// This status with this body.
        case status(Int, String)
        /// A transport failure.
        case failure(HTTPClientError)
        /// Never answers (until the caller gives up).
        case hang
        /// Answers `reply` after `seconds` on the clock.
        case delayed(TimeInterval, Reply)
        /// Answers with each reply in turn, repeating the last.
        case sequence([Reply])
        /// Answers `reply` as if HTTP redirects had led to `url`.
        case redirected(to: String, Reply)
    }

    private let lock = NSLock()
    private var routes: [String: Reply]
    private var served: [String: Int] = [:]
    private var log: [HTTPRequest] = []
    private let clock: (any AdClock)?
    private var parked = 0
    /// What URLs without a route get (default 404).
    public var fallback: Reply = .status(404, "")

    /// Routes keyed by absolute URL; the query is part of the key unless no
    /// route matches it, in which case the URL without query is tried.
    public init(routes: [String: Reply] = [:], clock: (any AdClock)? = nil) {
        self.routes = routes
        self.clock = clock
    }

    public func setRoute(_ url: String, _ reply: Reply) { lock.withLock { routes[url] = reply } }

    /// Every request received, in order.
    public var requests: [HTTPRequest] { lock.withLock { log } }

    /// Requests waiting on the clock (a delayed or hanging answer): work a
    /// simulation may move time past, unlike an answer on its way.
    public var parkedCount: Int { lock.withLock { parked } }

    /// URLs requested, in order.
    public var requestedURLs: [String] { requests.map(\.url.absoluteString) }

    public func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        let reply = lock.withLock { () -> Reply in
            log.append(request)
            let full = request.url.absoluteString
            var key = full
            if routes[key] == nil, let query = full.firstIndex(of: "?") { key = String(full[..<query]) }
            guard let route = routes[key] else { return fallback }
            let count = served[key, default: 0]
            served[key] = count + 1
            if case .sequence(let replies) = route { return replies[min(count, replies.count - 1)] }
            return route
        }
        return try await answer(reply, for: request)
    }

    private func answer(_ reply: Reply, for request: HTTPRequest) async throws -> HTTPResponse {
        switch reply {
        case .body(let text):
            return HTTPResponse(
                statusCode: 200, headers: ["content-type": "application/xml"], body: Data(text.utf8), url: request.url)
        case .status(let code, let text):
            return HTTPResponse(statusCode: code, body: Data(text.utf8), url: request.url)
        case .failure(let error):
            throw error
        case .hang:
            if let clock {
                try await parkedOnClock { try await clock.sleep(until: .infinity) }
            } else {
                while !Task.isCancelled { await Task.yield() }
            }
            throw CancellationError()
        case .delayed(let seconds, let next):
            guard let clock else { return try await answer(next, for: request) }
            try await parkedOnClock { try await clock.sleep(for: seconds) }
            return try await answer(next, for: request)
        case .sequence(let replies):
            return try await answer(replies.first ?? fallback, for: request)
        case .redirected(let target, let next):
            var response = try await answer(next, for: request)
            response.url = URL(string: target) ?? request.url
            return response
        }
    }

    private func parkedOnClock(_ wait: () async throws -> Void) async throws {
        lock.withLock { parked += 1 }
        defer { lock.withLock { parked -= 1 } }
        try await wait()
    }
}
