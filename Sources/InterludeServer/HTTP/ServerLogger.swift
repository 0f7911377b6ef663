import Foundation

/// Where the server reports what it does: one access-log entry per request
/// and free-form messages. Library code never prints; it logs here.
public protocol ServerLogger: Sendable {
    /// One finished request.
    func access(_ entry: AccessLogEntry)
    /// A message about the server itself (start, media generation, errors).
    func message(_ level: LogLevel, _ text: String)
}

/// Severity of a ``ServerLogger`` message.
public enum LogLevel: String, Sendable, Hashable, Comparable {
    case debug, info, warning, error

    private var rank: Int {
        switch self {
        case .debug: 0
        case .info: 1
        case .warning: 2
        case .error: 3
        }
    }

    public static func < (lhs: LogLevel, rhs: LogLevel) -> Bool { lhs.rank < rhs.rank }
}

/// One line of the access log.
public struct AccessLogEntry: Sendable, Hashable {
    /// Request method (`GET`, `HEAD`, …).
    public var method: String
    /// The request target as received (path and query).
    public var target: String
    /// Status code sent, or 0 when the connection ended without a response.
    public var status: Int
    /// Body bytes the response declared (not necessarily all sent, e.g. on truncation faults).
    public var bodyBytes: Int
    /// Time from the request line to the end of the request, in milliseconds.
    public var durationMilliseconds: Double
    /// True when the request ended normally (not by timeout, reset or shutdown).
    public var completed: Bool

    public init(
        method: String, target: String, status: Int, bodyBytes: Int, durationMilliseconds: Double, completed: Bool
    ) {
        self.method = method
        self.target = target
        self.status = status
        self.bodyBytes = bodyBytes
        self.durationMilliseconds = durationMilliseconds
        self.completed = completed
    }

    /// Common-log-like text: `GET /vast?pod=3 200 1834B 0.4ms`.
    public var line: String {
        let duration = (durationMilliseconds * 10).rounded() / 10
        return "\(method) \(target) \(status) \(bodyBytes)B \(duration)ms" + (completed ? "" : " (aborted)")
    }
}

/// A logger that drops everything; the default for tests and embedding.
public struct SilentLogger: ServerLogger {
    public init() {}
    public func access(_ entry: AccessLogEntry) {}
    public func message(_ level: LogLevel, _ text: String) {}
}

/// Writes log lines to standard error, for `interlude serve`.
public struct StandardErrorLogger: ServerLogger {
    /// Messages below this level are dropped. Default `.info`.
    public var minimumLevel: LogLevel
    /// Whether access-log lines are written. Default true.
    public var logsAccess: Bool

    public init(minimumLevel: LogLevel = .info, logsAccess: Bool = true) {
        self.minimumLevel = minimumLevel
        self.logsAccess = logsAccess
    }

    public func access(_ entry: AccessLogEntry) {
        guard logsAccess else { return }
        write(entry.line)
    }

    public func message(_ level: LogLevel, _ text: String) {
        guard level >= minimumLevel else { return }
        write("[\(level.rawValue)] \(text)")
    }

    private func write(_ line: String) {
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }
}

/// Keeps log entries in memory, for tests that check what was logged.
public final class MemoryLogger: ServerLogger {
    private let entries = Locked<[AccessLogEntry]>([])
    private let messages = Locked<[String]>([])

    public init() {}

    public func access(_ entry: AccessLogEntry) { entries.withLock { $0.append(entry) } }
    public func message(_ level: LogLevel, _ text: String) {
        messages.withLock { $0.append("\(level.rawValue): \(text)") }
    }

    /// Access-log entries so far, in completion order.
    public var accessEntries: [AccessLogEntry] { entries.withLock { $0 } }
    /// Messages so far, as `level: text`.
    public var loggedMessages: [String] { messages.withLock { $0 } }
}
