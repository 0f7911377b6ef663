import Foundation

/// A registered stream with a summary of what happened on it, for lists
/// (the web console's stream activity monitor).
public struct PodStreamSummary: Sendable, Hashable {
    /// The stream as registered.
    public var stream: PodStream
    /// Breaks with a written decision.
    public var breaksDecided: Int
    /// Events verified.
    public var eventsVerified: Int
    /// When the last event was verified; nil before the first.
    public var lastVerifiedAt: Date?
    /// Rounds in which one of the stream's beacons failed.
    public var failedAttempts: Int
    /// Events with at least one beacon given up on.
    public var eventsWithAbandonedBeacons: Int

    public init(
        stream: PodStream, breaksDecided: Int, eventsVerified: Int, lastVerifiedAt: Date?, failedAttempts: Int,
        eventsWithAbandonedBeacons: Int
    ) {
        self.stream = stream
        self.breaksDecided = breaksDecided
        self.eventsVerified = eventsVerified
        self.lastVerifiedAt = lastVerifiedAt
        self.failedAttempts = failedAttempts
        self.eventsWithAbandonedBeacons = eventsWithAbandonedBeacons
    }
}

extension SQLiteSessionStore {
    public func recentStreams(limit: Int) throws(StoreError) -> [PodStreamSummary] {
        let rows = try pool.with { pooled throws(StoreError) -> [(String, Int, Int, Int64?, Int, Int)] in
            // Rows are never updated in place but for the VOD plan, so rowid
            // order is registration order (each process inserts as it registers).
            try pooled.run(
                """
                SELECT s.body,
                    (SELECT COUNT(*) FROM decisions d WHERE d.stream_id = s.id AND d.body IS NOT NULL),
                    (SELECT COUNT(*) FROM events e WHERE e.stream_id = s.id AND e.verified_at IS NOT NULL),
                    (SELECT MAX(e.verified_at) FROM events e WHERE e.stream_id = s.id),
                    (SELECT COALESCE(SUM(e.attempts), 0) FROM events e WHERE e.stream_id = s.id),
                    (SELECT COUNT(*) FROM events e WHERE e.stream_id = s.id
                        AND (e.finished_mask & ~e.delivered_mask) != 0)
                FROM streams s ORDER BY s.rowid DESC LIMIT ?
                """
            ) { statement throws(StoreError) -> [(String, Int, Int, Int64?, Int, Int)] in
                statement.bind(1, Int64(max(1, limit)))
                var rows: [(String, Int, Int, Int64?, Int, Int)] = []
                while try statement.step() {
                    rows.append(
                        (
                            statement.text(0) ?? "", Int(statement.int64(1)), Int(statement.int64(2)),
                            statement.isNull(3) ? nil : statement.int64(3), Int(statement.int64(4)),
                            Int(statement.int64(5))
                        ))
                }
                return rows
            }
        }
        var summaries: [PodStreamSummary] = []
        for row in rows {
            // A row that no longer decodes (written by a newer schema) is left out, not fatal to the list.
            guard let stream = try? Self.decode(PodStream.self, row.0) else { continue }
            summaries.append(
                PodStreamSummary(
                    stream: stream, breaksDecided: row.1, eventsVerified: row.2,
                    lastVerifiedAt: row.3.map { Self.date(milliseconds: $0) }, failedAttempts: row.4,
                    eventsWithAbandonedBeacons: row.5))
        }
        return summaries
    }

    public func beaconFailures(streamID: String) throws(StoreError) -> [String: String] {
        try pool.with { pooled throws(StoreError) -> [String: String] in
            try pooled.run("SELECT id, last_error FROM events WHERE stream_id = ? AND last_error IS NOT NULL") {
                statement throws(StoreError) -> [String: String] in
                statement.bind(1, streamID)
                var failures: [String: String] = [:]
                while try statement.step() { failures[statement.text(0) ?? ""] = statement.text(1) ?? "" }
                return failures
            }
        }
    }
}
