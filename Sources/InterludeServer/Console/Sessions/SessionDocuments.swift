import Foundation

/// Which ad document each client-side session was served: the console
/// draws a session's beacons against the ads of its VMAP (or VAST). Kept in
/// memory, bounded (the oldest sessions are forgotten first); a VMAP, once
/// served to a session, is kept over the VAST requests of its breaks.
final class SessionDocuments: Sendable {
    /// One served document, enough to decide it again (decisions are pure).
    struct Served: Sendable, Hashable {
        /// `vast`, `vmap` or `wrapper/{depth}`.
        var route: String
        var options: AdRequestOptions
        /// `http://host:port` the session reached the server on.
        var baseURL: String
        var servedAt: Date
    }

    private struct State {
        var bySession: [String: Served] = [:]
        var order: [String] = []
    }

    private let state = Locked(State())
    /// Most sessions remembered.
    let limit: Int

    init(limit: Int = 10_000) { self.limit = max(1, limit) }

    func record(session: String, route: String, options: AdRequestOptions, baseURL: String, at date: Date) {
        state.withLock { state in
            if let existing = state.bySession[session] {
                // The VMAP says what the session is; its breaks' VAST requests do not replace it.
                guard existing.route != "vmap", route == "vmap" else { return }
            } else {
                state.order.append(session)
            }
            state.bySession[session] = Served(route: route, options: options, baseURL: baseURL, servedAt: date)
            if state.order.count > limit {
                let dropped = state.order.count - limit + limit / 10
                for old in state.order.prefix(dropped) { state.bySession[old] = nil }
                state.order.removeFirst(dropped)
            }
        }
    }

    func served(_ session: String) -> Served? { state.withLock { $0.bySession[session] } }

    /// The most recently served sessions, newest first.
    func recent(limit: Int) -> [(session: String, served: Served)] {
        state.withLock { state in
            state.order.suffix(limit).reversed().compactMap { id in state.bySession[id].map { (id, $0) } }
        }
    }
}
