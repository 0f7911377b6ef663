import Foundation

/// Where the SDK writes what it did and why (dropped beacons, refused URLs,
/// retries). The default does nothing; with `Settings.enableDebugMode` and no
/// logger of the app's, the loader writes to standard error.
public protocol AdLogger: Sendable {
    func log(_ level: AdLogLevel, _ message: String)
}

/// How important a log line is.
public enum AdLogLevel: String, Sendable, Comparable {
    case debug, info, warning, error

    public static func < (lhs: AdLogLevel, rhs: AdLogLevel) -> Bool {
        let order: [AdLogLevel] = [.debug, .info, .warning, .error]
        return order.firstIndex(of: lhs)! < order.firstIndex(of: rhs)!
    }
}

/// Discards everything.
public struct SilentLogger: AdLogger {
    public init() {}
    public func log(_ level: AdLogLevel, _ message: String) {}
}

/// Writes each line to standard error as `interlude <level>: <message>`.
/// What ``Settings/enableDebugMode`` logs through when the app gives none.
public struct StandardErrorLogger: AdLogger {
    public init() {}
    public func log(_ level: AdLogLevel, _ message: String) {
        FileHandle.standardError.write(Data("interlude \(level.rawValue): \(message)\n".utf8))
    }
}
