import Foundation

/// A few SQLite connections to one database, each used by one thread at a
/// time, so that reads run in parallel (WAL) and writers queue on SQLite's
/// own lock, which also orders writers in other processes.
final class SQLitePool: Sendable {
    private struct State {
        var idle: [PooledSQLite] = []
        var closed = false
    }

    let path: String
    private let state = Locked(State())
    private let setUp: @Sendable (SQLiteConnection) throws(StoreError) -> Void
    /// Writers of this process take turns here before SQLite's own lock:
    /// SQLite makes a writer that finds the database locked sleep 1 ms and
    /// more before trying again, which at thousands of writes a second costs
    /// far more than waiting on a mutex. (Writers in other processes still
    /// meet SQLite's lock and its busy timeout.)
    private let writers = NSLock()

    /// Opens the first connection at once (so a bad path fails here) and
    /// runs `setUp` on every connection it opens.
    init(path: String, setUp: @escaping @Sendable (SQLiteConnection) throws(StoreError) -> Void) throws(StoreError) {
        self.path = path
        self.setUp = setUp
        let first = try open()
        state.withLock { $0.idle.append(first) }
    }

    private func open() throws(StoreError) -> PooledSQLite {
        let connection = try SQLiteConnection(path: path)
        try setUp(connection)
        return PooledSQLite(connection: connection, writers: writers)
    }

    /// Runs `body` with a connection no other thread uses meanwhile.
    func with<T>(_ body: (PooledSQLite) throws(StoreError) -> T) throws(StoreError) -> T {
        let taken = state.withLock { state -> (PooledSQLite?, Bool) in
            (state.idle.popLast(), state.closed)
        }
        if taken.1 { throw StoreError("\(path): store is closed") }
        let pooled: PooledSQLite
        if let idle = taken.0 { pooled = idle } else { pooled = try open() }
        defer {
            let keep = state.withLock { state -> Bool in
                guard !state.closed else { return false }
                state.idle.append(pooled)
                return true
            }
            if !keep { pooled.close() }
        }
        return try body(pooled)
    }

    /// ``with(_:)`` holding the process's write turn, for one writing
    /// statement (never a ``PooledSQLite/transaction(_:)``, which takes the turn itself).
    func write<T>(_ body: (PooledSQLite) throws(StoreError) -> T) throws(StoreError) -> T {
        try with { pooled throws(StoreError) -> T in
            try pooled.writing { () throws(StoreError) -> T in try body(pooled) }
        }
    }

    /// Closes idle connections now and busy ones when they come back.
    func close() {
        let idle = state.withLock { state -> [PooledSQLite] in
            state.closed = true
            defer { state.idle = [] }
            return state.idle
        }
        for pooled in idle { pooled.close() }
    }
}

/// One connection with its prepared statements.
///
/// `@unchecked Sendable` is safe here: a `PooledSQLite` is only reachable
/// through ``SQLitePool/with(_:)``, which hands it to one caller at a time
/// (it is out of the idle list while used), so its connection and statement
/// cache are never touched by two threads at once.
final class PooledSQLite: @unchecked Sendable {
    let connection: SQLiteConnection
    private let writers: NSLock
    private var statements: [String: SQLiteStatement] = [:]

    init(connection: SQLiteConnection, writers: NSLock) {
        self.connection = connection
        self.writers = writers
    }

    /// Runs `body` with the prepared statement for `sql` (unbound), then
    /// resets it: a statement left mid-read would hold its read snapshot
    /// open and keep later reads on this connection stale.
    func run<T>(_ sql: String, _ body: (SQLiteStatement) throws(StoreError) -> T) throws(StoreError) -> T {
        let statement: SQLiteStatement
        if let cached = statements[sql] {
            statement = cached
        } else {
            statement = try connection.prepare(sql)
            statements[sql] = statement
        }
        defer { statement.reset() }
        return try body(statement)
    }

    /// Runs `body` holding the process's write turn (for a single writing
    /// statement outside ``transaction(_:)``).
    func writing<T>(_ body: () throws(StoreError) -> T) throws(StoreError) -> T {
        writers.lock()
        defer { writers.unlock() }
        return try body()
    }

    /// Runs `body` in `BEGIN IMMEDIATE … COMMIT` holding the process's write
    /// turn, rolling back on error.
    func transaction<T>(_ body: () throws(StoreError) -> T) throws(StoreError) -> T {
        writers.lock()
        defer { writers.unlock() }
        try connection.execute("BEGIN IMMEDIATE")
        do {
            let result = try body()
            try connection.execute("COMMIT")
            return result
        } catch {
            try? connection.execute("ROLLBACK")
            throw error
        }
    }

    func close() {
        for statement in statements.values { statement.finalize() }
        statements = [:]
        connection.close()
    }
}
