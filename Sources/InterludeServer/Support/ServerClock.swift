import Foundation

/// The server's wall clock, injected so that time-driven answers (the live
/// origin's window, session expiry) are pure functions of the time a test sets.
public struct ServerClock: Sendable {
    private let read: @Sendable () -> Date

    /// A clock that reads `now` on every call.
    public init(_ now: @escaping @Sendable () -> Date) { read = now }

    /// The current date on this clock.
    public var now: Date { read() }

    /// The system's wall clock (`Date()`).
    public static let system = ServerClock { Date() }

    /// A clock stopped at `date`.
    public static func fixed(_ date: Date) -> ServerClock { ServerClock { date } }
}
