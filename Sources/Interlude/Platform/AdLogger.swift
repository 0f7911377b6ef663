/// Where the SDK writes what it did and why (dropped beacons, refused URLs,
/// retries). The default does nothing; `enableDebugMode` apps pass their own.
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
