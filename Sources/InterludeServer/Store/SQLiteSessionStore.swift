import Foundation

/// The default ``SessionStore``: one SQLite database in WAL mode
/// (`<data-dir>/streams.sqlite`), safe for several threads and several
/// `interlude serve` processes at once. Decisions are claimed and written
/// in `BEGIN IMMEDIATE` transactions, verifications are a conditional
/// `UPDATE … RETURNING`, so each happens once however many servers race.
public final class SQLiteSessionStore: SessionStore {
    let pool: SQLitePool
    /// Verifications arriving together share one transaction.
    let verifications = GroupCommit<PodVerification, PodVerificationOutcome>()
    /// Live stitch states as last decoded, beside the stored text (decoded again only when it changes).
    let stitchStates = StitchStateCache()
    /// Checkpoints the WAL in the background (see ``init(path:)``).
    private let checkpoints: Locked<(any DispatchSourceTimer)?>
    /// The database file.
    public let path: String

    /// Opens (creating if needed) the store at `path`.
    ///
    /// Checkpoints (copying the WAL into the database, with an fsync) run
    /// once a second on a background queue instead of inside whichever
    /// write crosses SQLite's 1000-page mark: at thousands of verifications
    /// a second that fsync was most of a request's time. Writers still
    /// checkpoint past 20000 pages (80 MB) should the background fall behind.
    public init(path: String) throws(StoreError) {
        self.path = path
        let pool = try SQLitePool(path: path) { connection throws(StoreError) in
            let mode = try connection.scalarText("PRAGMA journal_mode=WAL")
            guard mode?.lowercased() == "wal" else {
                throw StoreError("\(path): cannot switch to WAL (got \(mode ?? "nothing"))")
            }
            // Reads through a memory map of the database (up to 1 GiB) and a
            // 16 MiB page cache a connection: a write on one pooled connection
            // empties the page cache of the others, so with thousands of live
            // streams each reload's reads were preads of pages the kernel
            // already held (a sixth of a reload's time in the VTP benchmark).
            // The WAL is cut back to nothing each time it starts over: a WAL
            // frame (24 + 4096 bytes) straddles file blocks, and rewriting a
            // block the kernel has dropped from its cache reads it from disk
            // first (7% of a verification burst's server time when the burst
            // rewrote a WAL last written minutes before); appended blocks need
            // no read.
            try connection.execute(
                "PRAGMA synchronous=NORMAL; PRAGMA foreign_keys=OFF; PRAGMA wal_autocheckpoint=20000;"
                    + " PRAGMA journal_size_limit=0; PRAGMA cache_size=-16384; PRAGMA mmap_size=1073741824;")
            try connection.execute(Self.schema)
        }
        self.pool = pool
        let timer = DispatchSource.makeTimerSource(
            queue: DispatchQueue(label: "interlude.sessions.checkpoint", qos: .utility))
        timer.schedule(deadline: .now() + 1, repeating: 1, leeway: .milliseconds(200))
        timer.setEventHandler {
            try? pool.with { pooled throws(StoreError) in
                try pooled.connection.execute("PRAGMA wal_checkpoint(PASSIVE)")
            }
        }
        timer.resume()
        checkpoints = Locked(timer)
    }

    static let schema = """
        CREATE TABLE IF NOT EXISTS streams (
            id TEXT PRIMARY KEY,
            body TEXT NOT NULL,
            expires_at INTEGER NOT NULL,
            vod_plan TEXT
        );
        CREATE INDEX IF NOT EXISTS streams_by_expiry ON streams (expires_at);
        CREATE TABLE IF NOT EXISTS decisions (
            stream_id TEXT NOT NULL,
            break_id TEXT NOT NULL,
            digest TEXT NOT NULL,
            claimed_at INTEGER NOT NULL,
            body TEXT,
            PRIMARY KEY (stream_id, break_id)
        );
        CREATE INDEX IF NOT EXISTS decisions_by_digest ON decisions (stream_id, digest);
        CREATE TABLE IF NOT EXISTS events (
            id TEXT PRIMARY KEY,
            stream_id TEXT NOT NULL,
            ad_offset INTEGER NOT NULL,
            beacons TEXT NOT NULL, -- tracking URL templates, one a line
            beacon_count INTEGER NOT NULL,
            verified_at INTEGER,
            finished_mask INTEGER NOT NULL DEFAULT 0, -- bit n: beacon n delivered or abandoned
            delivered_mask INTEGER NOT NULL DEFAULT 0,
            attempts INTEGER NOT NULL DEFAULT 0, -- rounds with a failed beacon
            next_attempt_at INTEGER NOT NULL DEFAULT 0,
            lease_owner TEXT,
            lease_until INTEGER,
            done_at INTEGER,
            last_error TEXT
        );
        CREATE INDEX IF NOT EXISTS events_by_stream ON events (stream_id);
        CREATE INDEX IF NOT EXISTS events_to_send ON events (next_attempt_at)
            WHERE verified_at IS NOT NULL AND done_at IS NULL;
        CREATE TABLE IF NOT EXISTS early_verifications (
            event_id TEXT PRIMARY KEY,
            stream_id TEXT NOT NULL,
            received_at INTEGER NOT NULL
        );
        CREATE TABLE IF NOT EXISTS live_stitch_states (
            stream_id TEXT NOT NULL,
            rendition TEXT NOT NULL,
            body TEXT NOT NULL,
            PRIMARY KEY (stream_id, rendition)
        ) WITHOUT ROWID;
        """

    // MARK: Streams

    public func insert(_ stream: PodStream) throws(StoreError) {
        let body = try Self.encode(stream)
        try pool.write { pooled throws(StoreError) in
            try pooled.run("INSERT INTO streams (id, body, expires_at) VALUES (?, ?, ?)") {
                statement throws(StoreError) in
                statement.bind(1, stream.id)
                statement.bind(2, body)
                statement.bind(3, Self.milliseconds(stream.expiresAt))
                _ = try statement.step()
            }
        }
    }

    public func stream(id: String) throws(StoreError) -> PodStream? {
        let body = try pool.with { pooled throws(StoreError) -> String? in
            try pooled.run("SELECT body FROM streams WHERE id = ?") { statement throws(StoreError) -> String? in
                statement.bind(1, id)
                return try statement.step() ? statement.text(0) : nil
            }
        }
        return try body.map { (text: String) throws(StoreError) -> PodStream in try Self.decode(PodStream.self, text) }
    }

    public func vodPlan(streamID: String) throws(StoreError) -> PodVODPlan? {
        let body = try pool.with { pooled throws(StoreError) -> String? in
            try Self.readPlan(pooled, streamID: streamID)
        }
        return try body.map { (text: String) throws(StoreError) -> PodVODPlan in try Self.decode(PodVODPlan.self, text)
        }
    }

    public func setVODPlan(_ plan: PodVODPlan, streamID: String) throws(StoreError) -> PodVODPlan {
        let body = try Self.encode(plan)
        let stored = try pool.with { pooled throws(StoreError) -> String? in
            try pooled.transaction { () throws(StoreError) -> String? in
                try pooled.run("UPDATE streams SET vod_plan = ? WHERE id = ? AND vod_plan IS NULL") {
                    statement throws(StoreError) in
                    statement.bind(1, body)
                    statement.bind(2, streamID)
                    _ = try statement.step()
                }
                return try Self.readPlan(pooled, streamID: streamID)
            }
        }
        guard let stored else { throw StoreError("no stream \(streamID)") }
        return try Self.decode(PodVODPlan.self, stored)
    }

    private static func readPlan(_ pooled: PooledSQLite, streamID: String) throws(StoreError) -> String? {
        try pooled.run("SELECT vod_plan FROM streams WHERE id = ?") { statement throws(StoreError) -> String? in
            statement.bind(1, streamID)
            guard try statement.step(), !statement.isNull(0) else { return nil }
            return statement.text(0)
        }
    }

    public func purge(expiredBefore cutoff: Date) throws(StoreError) -> Int {
        try pool.with { pooled throws(StoreError) -> Int in
            try pooled.transaction { () throws(StoreError) -> Int in
                var ids: [String] = []
                try pooled.run(
                    """
                    SELECT id FROM streams WHERE expires_at < ?
                    AND NOT EXISTS (
                        SELECT 1 FROM events WHERE events.stream_id = streams.id
                        AND verified_at IS NOT NULL AND done_at IS NULL)
                    LIMIT 1000
                    """
                ) { statement throws(StoreError) in
                    statement.bind(1, Self.milliseconds(cutoff))
                    while try statement.step() { ids.append(statement.text(0) ?? "") }
                }
                for id in ids {
                    for table in ["decisions", "events", "early_verifications", "live_stitch_states"] {
                        try pooled.run("DELETE FROM \(table) WHERE stream_id = ?") { statement throws(StoreError) in
                            statement.bind(1, id)
                            _ = try statement.step()
                        }
                    }
                    try pooled.run("DELETE FROM streams WHERE id = ?") { statement throws(StoreError) in
                        statement.bind(1, id)
                        _ = try statement.step()
                    }
                }
                return ids.count
            }
        }
    }

    public func close() {
        checkpoints.withLock { timer in
            timer?.cancel()
            timer = nil
        }
        pool.close()
    }

    deinit { close() }

    // MARK: Coding

    static func milliseconds(_ date: Date) -> Int64 { Int64((date.timeIntervalSince1970 * 1000).rounded()) }

    static func date(milliseconds: Int64) -> Date { Date(timeIntervalSince1970: Double(milliseconds) / 1000) }

    /// Most tracking URLs an event fires (one bit each in the event's masks).
    static let maxBeaconsPerEvent = 63

    /// URLs one a line (read back by a split, cheaper than JSON on the
    /// sender's path); a URL cannot hold a raw line break, so one that does
    /// is encoded. Past ``maxBeaconsPerEvent`` URLs are left out.
    static func urlList(_ urls: [String]) -> String {
        urls.prefix(maxBeaconsPerEvent).map { url in
            guard url.utf8.contains(where: { $0 == 10 || $0 == 13 }) else { return url }
            return url.replacingSentinel("\n", with: "%0A").replacingSentinel("\r", with: "%0D")
        }
        .joined(separator: "\n")
    }

    static func encode(_ value: some Encodable) throws(StoreError) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .millisecondsSince1970
        do {
            return String(decoding: try encoder.encode(value), as: UTF8.self)
        } catch {
            throw StoreError("cannot encode \(type(of: value)): \(error)")
        }
    }

    static func decode<T: Decodable>(_ type: T.Type, _ text: String) throws(StoreError) -> T {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .millisecondsSince1970
        do {
            return try decoder.decode(type, from: Data(text.utf8))
        } catch {
            throw StoreError("stored \(type) is unreadable: \(error)")
        }
    }
}
