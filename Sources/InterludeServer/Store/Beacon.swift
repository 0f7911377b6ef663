import Foundation

/// A beacon as received, before it is stored.
public struct IncomingBeacon: Sendable, Hashable {
    /// The session from the URL path.
    public var session: String
    /// The ad id from the URL path.
    public var ad: String
    /// The event from the URL path (`impression`, `start`, `error`, …).
    public var event: String
    /// When the collector received it.
    public var receivedAt: Date
    /// Macro values the player filled, by macro name (`ERRORCODE` → `405`).
    public var macros: [String: String]
    /// The query string as received.
    public var rawQuery: String
    /// The `idk` parameter: a second beacon with the same key in the same
    /// session is a retry and is not stored again.
    public var idempotencyKey: String?

    public init(
        session: String, ad: String, event: String, receivedAt: Date, macros: [String: String] = [:],
        rawQuery: String = "", idempotencyKey: String? = nil
    ) {
        self.session = session
        self.ad = ad
        self.event = event
        self.receivedAt = receivedAt
        self.macros = macros
        self.rawQuery = rawQuery
        self.idempotencyKey = idempotencyKey
    }
}

/// A stored beacon, as `GET /api/sessions/{id}/beacons` reports it.
public struct Beacon: Sendable, Hashable, Codable {
    /// Arrival order across the whole store (1, 2, 3, …).
    public var id: Int64
    /// The session from the URL path.
    public var session: String
    /// The ad id from the URL path.
    public var ad: String
    /// The event from the URL path (`impression`, `start`, `error`, …).
    public var event: String
    /// ISO 8601 with milliseconds, UTC.
    public var receivedAt: String
    /// Filled macro values by macro name.
    public var macros: [String: String]
    /// The query string as received.
    public var query: String
    /// The `idk` parameter, when sent.
    public var idempotencyKey: String?

    public init(
        id: Int64, session: String, ad: String, event: String, receivedAt: String, macros: [String: String],
        query: String, idempotencyKey: String?
    ) {
        self.id = id
        self.session = session
        self.ad = ad
        self.event = event
        self.receivedAt = receivedAt
        self.macros = macros
        self.query = query
        self.idempotencyKey = idempotencyKey
    }
}
