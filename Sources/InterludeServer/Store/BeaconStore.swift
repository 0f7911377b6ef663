import Foundation
internal import InterludeFormatting

/// The beacon collector's storage: one SQLite table in WAL mode.
///
/// ``record(_:)`` only appends to an in-memory batch and returns, so the
/// 204 goes out at once; a dedicated writer queue inserts each batch in one
/// transaction. Reads and ``close()`` flush first, so everything recorded is
/// visible to the next read and nothing recorded is lost on shutdown.
public final class BeaconStore: Sendable {
    private struct Pending {
        var beacons: [IncomingBeacon] = []
        var flushScheduled = false
        var closed = false
    }

    /// The connection, confined to the writer queue.
    ///
    /// `@unchecked Sendable` is safe here: `connection` is read and used only
    /// inside blocks running on `writer`, a serial queue, so it is never used
    /// from two threads at once.
    private struct Confined: @unchecked Sendable {
        let connection: SQLiteConnection
        let insert: SQLiteStatement
    }

    private let writer = DispatchQueue(label: "interlude.beacons.writer")
    private let confined: Confined
    private let pending = Locked(Pending())
    /// The database file.
    public let path: String

    /// Opens (creating if needed) the store at `path`.
    public init(path: String) throws(StoreError) {
        self.path = path
        let connection = try SQLiteConnection(path: path)
        let mode = try connection.scalarText("PRAGMA journal_mode=WAL")
        guard mode?.lowercased() == "wal" else {
            throw StoreError("\(path): cannot switch to WAL (got \(mode ?? "nothing"))")
        }
        try connection.execute(
            """
            PRAGMA synchronous=NORMAL;
            CREATE TABLE IF NOT EXISTS beacons (
                id INTEGER PRIMARY KEY AUTOINCREMENT,
                session TEXT NOT NULL,
                ad TEXT NOT NULL,
                event TEXT NOT NULL,
                received_at INTEGER NOT NULL,
                macros TEXT NOT NULL,
                raw_query TEXT NOT NULL,
                idempotency_key TEXT,
                UNIQUE (session, idempotency_key)
            );
            CREATE INDEX IF NOT EXISTS beacons_by_session ON beacons (session, id);
            """)
        let insert = try connection.prepare(
            """
            INSERT OR IGNORE INTO beacons (session, ad, event, received_at, macros, raw_query, idempotency_key)
            VALUES (?, ?, ?, ?, ?, ?, ?)
            """)
        confined = Confined(connection: connection, insert: insert)
    }

    /// Queues a beacon for storage; returns at once. Beacons recorded after
    /// ``close()`` are dropped (the server stops taking requests first).
    public func record(_ beacon: IncomingBeacon) {
        let needsFlush = pending.withLock { state -> Bool in
            guard !state.closed else { return false }
            state.beacons.append(beacon)
            defer { state.flushScheduled = true }
            return !state.flushScheduled
        }
        if needsFlush { writer.async { [self] in try? writeBatch() } }
    }

    /// Writes everything recorded so far; returns when it is on disk.
    public func flush() throws(StoreError) {
        try onWriter { () throws(StoreError) in try writeBatch() }
    }

    /// Beacons of `session` in arrival order (everything recorded so far included).
    public func beacons(session: String) throws(StoreError) -> [Beacon] {
        try onWriter { () throws(StoreError) -> [Beacon] in
            try writeBatch()
            let statement = try confined.connection.prepare(
                """
                SELECT id, session, ad, event, received_at, macros, raw_query, idempotency_key
                FROM beacons WHERE session = ? ORDER BY id
                """)
            defer { statement.finalize() }
            statement.bind(1, session)
            var beacons: [Beacon] = []
            // One decoder per read, not per row.
            let decoder = JSONDecoder()
            while try statement.step() {
                let macrosJSON = Data((statement.text(5) ?? "{}").utf8)
                beacons.append(
                    Beacon(
                        id: statement.int64(0), session: statement.text(1) ?? "", ad: statement.text(2) ?? "",
                        event: statement.text(3) ?? "",
                        receivedAt: ISO8601Timestamp.string(
                            from: Date(timeIntervalSince1970: Double(statement.int64(4)) / 1000)),
                        macros: (try? decoder.decode([String: String].self, from: macrosJSON)) ?? [:],
                        query: statement.text(6) ?? "", idempotencyKey: statement.text(7)))
            }
            return beacons
        }
    }

    /// Number of stored beacons (everything recorded so far included).
    public func count() throws(StoreError) -> Int {
        try onWriter { () throws(StoreError) -> Int in
            try writeBatch()
            let statement = try confined.connection.prepare("SELECT COUNT(*) FROM beacons")
            defer { statement.finalize() }
            return try statement.step() ? Int(statement.int64(0)) : 0
        }
    }

    /// Writes what is pending and closes the database. Idempotent.
    public func close() {
        let wasClosed = pending.withLock { state -> Bool in
            defer { state.closed = true }
            return state.closed
        }
        guard !wasClosed else { return }
        writer.sync {
            try? writeBatch(ignoringClosed: true)
            confined.insert.finalize()
            confined.connection.close()
        }
    }

    /// Runs `body` on the writer queue and waits, keeping the typed error.
    private func onWriter<T>(_ body: () throws(StoreError) -> T) throws(StoreError) -> T {
        let result: Result<T, StoreError> = writer.sync { Result { () throws(StoreError) -> T in try body() } }
        return try result.get()
    }

    /// Runs on `writer`: inserts the pending batch in one transaction.
    private func writeBatch(ignoringClosed: Bool = false) throws(StoreError) {
        // After close() only close() itself writes; a queued batch job must
        // not take the batch away from it.
        let batch = pending.withLock { state -> [IncomingBeacon]? in
            if state.closed && !ignoringClosed { return nil }
            defer {
                state.beacons = []
                state.flushScheduled = false
            }
            return state.beacons
        }
        guard let batch else { throw StoreError("beacon store is closed") }
        guard !batch.isEmpty else { return }
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let insert = confined.insert
        try confined.connection.execute("BEGIN IMMEDIATE")
        do {
            for beacon in batch {
                insert.reset()
                insert.bind(1, beacon.session)
                insert.bind(2, beacon.ad)
                insert.bind(3, beacon.event)
                insert.bind(4, Int64((beacon.receivedAt.timeIntervalSince1970 * 1000).rounded()))
                let macros = (try? encoder.encode(beacon.macros)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
                insert.bind(5, macros)
                insert.bind(6, beacon.rawQuery)
                insert.bind(7, beacon.idempotencyKey)
                _ = try insert.step()
            }
            insert.reset()
            try confined.connection.execute("COMMIT")
        } catch {
            try? confined.connection.execute("ROLLBACK")
            throw error
        }
    }
}
