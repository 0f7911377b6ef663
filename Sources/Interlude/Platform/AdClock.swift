import Foundation

/// A monotonic clock the SDK reads and sleeps on. Injected so that tests
/// drive time by hand (`ManualClock` in InterludeTestSupport) and never sleep.
public protocol AdClock: Sendable {
    /// Seconds on a monotonic timeline (the origin is arbitrary).
    var now: TimeInterval { get }
    /// Suspends until `now >= deadline`, or throws `CancellationError`.
    func sleep(until deadline: TimeInterval) async throws
}

extension AdClock {
    /// Suspends for `seconds`.
    public func sleep(for seconds: TimeInterval) async throws {
        try await sleep(until: now + seconds)
    }
}

/// The real clock: `ContinuousClock` (keeps counting while the device sleeps).
public struct SystemClock: AdClock {
    private let origin = ContinuousClock.now

    public init() {}

    public var now: TimeInterval {
        let elapsed = ContinuousClock.now - origin
        return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    }

    public func sleep(until deadline: TimeInterval) async throws {
        let remaining = deadline - now
        guard remaining > 0 else { return }
        try await Task.sleep(for: .seconds(remaining))
    }
}

/// Runs `operation`, failing with `onTimeout()` if it has not finished when
/// `clock` reaches `deadline`. The operation is cancelled on timeout.
func withDeadline<T: Sendable>(
    _ deadline: TimeInterval, clock: any AdClock, onTimeout: @escaping @Sendable () -> Error,
    operation: @escaping @Sendable () async throws -> T
) async throws -> T {
    try await withThrowingTaskGroup(of: T.self) { group in
        group.addTask { try await operation() }
        group.addTask {
            try await clock.sleep(until: deadline)
            throw onTimeout()
        }
        defer { group.cancelAll() }
        guard let first = try await group.next() else { throw onTimeout() }
        return first
    }
}
