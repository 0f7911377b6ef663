import Foundation
internal import InterludeFormatting

/// The beacon collector's storage: one SQLite table in WAL mode.
///
/// ``record(_:)`` only appends to an in-memory batch and returns, so the
/// 204 goes out at once; a dedicated writer queue inserts each batch in one
/// transaction. Reads and ``close()`` flush first, so everything recorded is
/// visible to the next read and nothing recorded is lost on shutdown.
///
/// A batch whose write fails (a full disk, a database locked by another
/// process) is logged and kept, ahead of what arrived since, and written
/// again after a delay that doubles up to 30 s: a beacon that was answered
/// 204 is never dropped while the process runs. What waits is bounded
/// (``maxPending``): past it ``record(_:)`` refuses, and `/track` answers 503
/// with `Retry-After`, so players retry later instead of losing the beacon.
public final class BeaconStore: Sendable {
    private struct Pending {
        var beacons: [IncomingBeacon] = []
        /// Beacons of the batch being written (not on disk yet either).
        var inFlight = 0
        var flushScheduled = false
        var closed = false
        /// Seconds before the next retry after a failed write; nil while writes succeed.
        var retryDelay: TimeInterval?
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
    private let logger: any ServerLogger
    private let firstRetryDelay: TimeInterval
    /// The database file.
    public let path: String
    /// Beacons recorded and not yet written, at most; more are refused.
    public let maxPending: Int

    /// Opens (creating if needed) the store at `path`. Failed writes are
    /// logged to `logger`; at most `maxPending` beacons (default 50,000) wait
    /// for the disk; a failed write is first retried after `retryDelay` seconds.
    public init(
        path: String, logger: any ServerLogger = SilentLogger(), maxPending: Int = 50_000,
        retryDelay: TimeInterval = 0.5
    ) throws(StoreError) {
        self.path = path
        self.logger = logger
        self.maxPending = max(1, maxPending)
        self.firstRetryDelay = retryDelay
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

    /// Queues a beacon for storage; returns at once. False, and nothing
    /// queued, when ``maxPending`` beacons already wait for the disk or the
    /// store is closed (the server stops taking requests first).
    @discardableResult
    public func record(_ beacon: IncomingBeacon) -> Bool {
        let (accepted, needsFlush) = pending.withLock { state -> (Bool, Bool) in
            guard !state.closed, state.beacons.count + state.inFlight < maxPending else { return (false, false) }
            state.beacons.append(beacon)
            defer { state.flushScheduled = true }
            return (true, !state.flushScheduled)
        }
        if needsFlush { writer.async { [self] in try? writeBatch() } }
        return accepted
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
            do {
                try writeBatch(ignoringClosed: true)
            } catch {
                let lost = pending.withLock { state -> Int in
                    defer { state.beacons = [] }
                    return state.beacons.count
                }
                logger.message(.error, "beacons: \(lost) beacon(s) lost at shutdown, the last write failed: \(error)")
            }
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
                state.inFlight = state.beacons.count
                state.beacons = []
                state.flushScheduled = false
            }
            return state.beacons
        }
        guard let batch else { throw StoreError("beacon store is closed") }
        guard !batch.isEmpty else { return }
        do {
            try insert(batch)
        } catch {
            keep(batch, after: error)
            throw error
        }
        pending.withLock { state in
            state.inFlight = 0
            state.retryDelay = nil
        }
    }

    /// Puts a batch whose write failed back in front of what arrived since,
    /// logs it and schedules the next attempt (the delay doubles up to 30 s).
    private func keep(_ batch: [IncomingBeacon], after error: StoreError) {
        let (delay, schedules) = pending.withLock { state -> (TimeInterval, Bool) in
            state.beacons = batch + state.beacons
            state.inFlight = 0
            let delay = state.retryDelay.map { min($0 * 2, 30) } ?? firstRetryDelay
            state.retryDelay = delay
            // A write will run anyway when one is already scheduled (or the store is closing).
            let schedules = !state.flushScheduled && !state.closed
            state.flushScheduled = true
            return (delay, schedules)
        }
        logger.message(
            .error, "beacons: writing \(batch.count) beacon(s) failed (\(error)); kept, next attempt in \(delay) s")
        if schedules {
            writer.asyncAfter(deadline: .now() + delay) { [self] in try? writeBatch() }
        }
    }

    /// Inserts `batch` in one transaction (all or nothing).
    private func insert(_ batch: [IncomingBeacon]) throws(StoreError) {
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
