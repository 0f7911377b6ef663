import CSQLite
import Foundation

/// Why the store failed, with SQLite's own message.
public struct StoreError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong, with SQLite's message.
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}

/// A thin SQLite connection: open, run statements, bind, step. Not
/// thread-safe by itself; ``BeaconStore`` confines it to one queue.
final class SQLiteConnection {
    private var handle: OpaquePointer?

    init(path: String) throws(StoreError) {
        let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX
        let status = sqlite3_open_v2(path, &handle, flags, nil)
        guard status == SQLITE_OK else {
            let message = handle.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
            sqlite3_close(handle)
            handle = nil
            throw StoreError("cannot open \(path): \(message)")
        }
        sqlite3_busy_timeout(handle, 5_000)
    }

    deinit { close() }

    func close() {
        guard let handle else { return }
        sqlite3_close_v2(handle)
        self.handle = nil
    }

    /// Runs SQL without results (several statements allowed).
    func execute(_ sql: String) throws(StoreError) {
        var message: UnsafeMutablePointer<CChar>?
        guard sqlite3_exec(handle, sql, nil, nil, &message) == SQLITE_OK else {
            let text = message.map { String(cString: $0) } ?? lastError
            sqlite3_free(message)
            throw StoreError("\(text) in: \(sql.prefix(80))")
        }
    }

    /// Runs a query that returns one text value (e.g. a PRAGMA).
    func scalarText(_ sql: String) throws(StoreError) -> String? {
        let statement = try prepare(sql)
        defer { statement.finalize() }
        return try statement.step() ? statement.text(0) : nil
    }

    func prepare(_ sql: String) throws(StoreError) -> SQLiteStatement {
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(handle, sql, -1, &statement, nil) == SQLITE_OK, let statement else {
            throw StoreError("\(lastError) in: \(sql.prefix(80))")
        }
        return SQLiteStatement(statement: statement, connection: self)
    }

    var lastError: String { handle.map { String(cString: sqlite3_errmsg($0)) } ?? "database closed" }

    /// Rows changed by the last INSERT, UPDATE or DELETE.
    var changes: Int { handle.map { Int(sqlite3_changes($0)) } ?? 0 }
}

/// A prepared statement.
struct SQLiteStatement {
    let statement: OpaquePointer
    unowned let connection: SQLiteConnection

    func bind(_ index: Int32, _ text: String?) {
        if let text {
            sqlite3_bind_text(statement, index, text, -1, interlude_sqlite_transient())
        } else {
            sqlite3_bind_null(statement, index)
        }
    }

    func bind(_ index: Int32, _ value: Int64) { sqlite3_bind_int64(statement, index, value) }

    /// Steps once: true while there is a row, false when done.
    func step() throws(StoreError) -> Bool {
        switch sqlite3_step(statement) {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        default: throw StoreError(connection.lastError)
        }
    }

    func reset() {
        sqlite3_reset(statement)
        sqlite3_clear_bindings(statement)
    }

    func text(_ column: Int32) -> String? {
        guard let pointer = sqlite3_column_text(statement, column) else { return nil }
        return String(cString: pointer)
    }

    func int64(_ column: Int32) -> Int64 { sqlite3_column_int64(statement, column) }

    func isNull(_ column: Int32) -> Bool { sqlite3_column_type(statement, column) == SQLITE_NULL }

    func finalize() { sqlite3_finalize(statement) }
}
