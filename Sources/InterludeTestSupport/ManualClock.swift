import Foundation
import Interlude

/// A clock that moves only when a test says so. Sleepers wake, in deadline
/// order, when ``advance(by:)`` passes their deadline.
///
/// Every field is guarded by `lock`, so the unchecked conformance is sound.
public final class ManualClock: AdClock, @unchecked Sendable {
    private struct Sleeper {
        var id: UInt64
        var deadline: TimeInterval
        var continuation: CheckedContinuation<Void, Error>
    }

    private let lock = NSLock()
    private var current: TimeInterval
    private var sleepers: [Sleeper] = []
    private var nextID: UInt64 = 0

    public init(now: TimeInterval = 0) { current = now }

    public var now: TimeInterval { lock.withLock { current } }

    /// How many tasks are sleeping on this clock.
    public var sleeperCount: Int { lock.withLock { sleepers.count } }

    public func sleep(until deadline: TimeInterval) async throws {
        let id = lock.withLock { () -> UInt64 in
            nextID += 1
            return nextID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, Error>) in
                let resumeNow = lock.withLock { () -> Bool in
                    if Task.isCancelled || deadline <= current { return true }
                    sleepers.append(Sleeper(id: id, deadline: deadline, continuation: continuation))
                    return false
                }
                if resumeNow {
                    if Task.isCancelled {
                        continuation.resume(throwing: CancellationError())
                    } else {
                        continuation.resume()
                    }
                }
            }
        } onCancel: {
            let cancelled = lock.withLock { () -> Sleeper? in
                guard let index = sleepers.firstIndex(where: { $0.id == id }) else { return nil }
                return sleepers.remove(at: index)
            }
            cancelled?.continuation.resume(throwing: CancellationError())
        }
    }

    /// The earliest deadline anyone sleeps until.
    public var nextDeadline: TimeInterval? { lock.withLock { sleepers.map(\.deadline).min() } }

    /// Moves time to `instant` (never backwards) and wakes who is due.
    public func advance(to instant: TimeInterval) {
        let step = instant - now
        if step > 0 { advance(by: step) }
    }

    /// Moves time forward and wakes every sleeper whose deadline has passed.
    public func advance(by seconds: TimeInterval) {
        let due = lock.withLock { () -> [Sleeper] in
            current += seconds
            let due = sleepers.filter { $0.deadline <= current }.sorted { $0.deadline < $1.deadline }
            sleepers.removeAll { $0.deadline <= current }
            return due
        }
        for sleeper in due { sleeper.continuation.resume() }
    }

    /// Waits (yielding, never sleeping) until at least `count` tasks sleep on
    /// this clock, so a test can advance time knowing who is waiting.
    public func waitForSleepers(_ count: Int = 1, maxYields: Int = 100_000) async {
        for _ in 0..<maxYields {
            if sleeperCount >= count { return }
            await Task.yield()
        }
    }
}

extension ManualClock {
    /// Advances by `seconds`, waking sleepers in deadline order and letting
    /// main-actor work run between events (a discrete-event simulation).
    @MainActor
    public func simulate(for seconds: TimeInterval) async {
        let target = now + seconds
        while true {
            for _ in 0..<30 { await Task.yield() }
            guard let next = nextDeadline, next <= target else { break }
            advance(to: next)
        }
        advance(to: target)
        for _ in 0..<30 { await Task.yield() }
    }
}
