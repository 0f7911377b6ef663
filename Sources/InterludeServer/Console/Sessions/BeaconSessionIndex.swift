import Foundation

/// Recent client-side sessions as the collector stored them, read on a
/// connection of its own (WAL lets it read beside the store's writer).
final class BeaconSessionIndex: Sendable {
    /// One session's beacons in summary.
    struct Summary: Sendable, Hashable {
        var session: String
        var beacons: Int
        var errors: Int
        var firstBeaconAt: Date
        var lastBeaconAt: Date
    }

    /// The read connection, confined to `queue`.
    ///
    /// `@unchecked Sendable` is safe here: `connection` is only used inside
    /// blocks running on `queue`, a serial queue, so never from two threads at once.
    private struct Confined: @unchecked Sendable {
        let connection: SQLiteConnection
    }

    private let queue = DispatchQueue(label: "interlude.console.sessions")
    private let confined: Confined
    /// How many of the newest beacons a listing looks at, so that a listing
    /// costs the same however large the store has grown.
    let window: Int64

    init(path: String, window: Int64 = 200_000) throws(StoreError) {
        confined = Confined(connection: try SQLiteConnection(path: path))
        self.window = window
    }

    /// Sessions with beacons among the newest ``window``, the most recently active first.
    func recent(limit: Int) throws(StoreError) -> [Summary] {
        let result: Result<[Summary], StoreError> = queue.sync {
            Result { () throws(StoreError) -> [Summary] in
                let statement = try confined.connection.prepare(
                    """
                    SELECT session, COUNT(*), SUM(event = 'error'), MIN(received_at), MAX(received_at)
                    FROM beacons WHERE id > (SELECT COALESCE(MAX(id), 0) FROM beacons) - ?
                    GROUP BY session ORDER BY MAX(id) DESC LIMIT ?
                    """)
                defer { statement.finalize() }
                statement.bind(1, window)
                statement.bind(2, Int64(max(1, limit)))
                var summaries: [Summary] = []
                while try statement.step() {
                    summaries.append(
                        Summary(
                            session: statement.text(0) ?? "", beacons: Int(statement.int64(1)),
                            errors: Int(statement.int64(2)),
                            firstBeaconAt: Date(timeIntervalSince1970: Double(statement.int64(3)) / 1000),
                            lastBeaconAt: Date(timeIntervalSince1970: Double(statement.int64(4)) / 1000)))
                }
                return summaries
            }
        }
        return try result.get()
    }

    func close() { queue.sync { confined.connection.close() } }
}
