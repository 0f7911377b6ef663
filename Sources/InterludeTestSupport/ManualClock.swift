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
    /// Sleepers resumed by `advance` whose tasks have not run yet: on a busy
    /// machine a resumed task can wait a long time for a thread of the
    /// concurrency pool, and a simulation that looked for the next deadline
    /// before it ran would skip the deadline it was about to set.
    private var woken: Set<UInt64> = []
    private var offClockWorkCheck: (@MainActor @Sendable () -> Bool)?

    public init(now: TimeInterval = 0) { current = now }

    public var now: TimeInterval { lock.withLock { current } }

    /// How many tasks are sleeping on this clock.
    public var sleeperCount: Int { lock.withLock { sleepers.count } }

    public func sleep(until deadline: TimeInterval) async throws {
        let id = lock.withLock { () -> UInt64 in
            nextID += 1
            return nextID
        }
        defer { _ = lock.withLock { woken.remove(id) } }
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
            for sleeper in due { woken.insert(sleeper.id) }
            return due
        }
        for sleeper in due { sleeper.continuation.resume() }
    }

    /// The next deadline; when there is none by `target` yet, first lets
    /// tasks that have run again but not yet gone back to sleep get there,
    /// for a few milliseconds of real time (on a loaded machine a task can
    /// wait that long for a thread after it resumed), so the simulation does
    /// not skip or end before a deadline that was about to be set.
    @MainActor
    private func nextDeadlineAfterStragglers(before target: TimeInterval) async -> TimeInterval? {
        for _ in 0..<3 {
            if let next = nextDeadline, next <= target { return next }
            try? await Task.sleep(nanoseconds: 1_000_000)
            await waitForWokenTasks()
            for _ in 0..<30 { await Task.yield() }
        }
        return nextDeadline
    }

    /// Tells ``simulate(for:)`` when work that does not run on this clock is
    /// under way and must finish before time moves: an ad break loading
    /// through the pool's threads, which on a loaded machine can wait many
    /// milliseconds for one while other sleepers (a content watcher's ticks)
    /// would keep the simulation stepping without it. Return `false` for work
    /// parked on this clock (a delayed or hanging answer), or time never moves.
    @MainActor
    public func holdWhile(_ isOffClockWorkPending: (@MainActor @Sendable () -> Bool)?) {
        lock.withLock { offClockWorkCheck = isOffClockWorkPending }
    }

    /// Waits until ``holdWhile(_:)``'s check says no off-clock work is under
    /// way: yields, and after a few hundred turns gives the pool's threads a
    /// millisecond at a time. `budget` is the real milliseconds one
    /// simulation may still spend so (10 s in all), so a check that never
    /// clears costs a test seconds, not seconds per event.
    @MainActor
    private func waitForOffClockWork(budget: inout Int) async {
        guard let check = lock.withLock({ offClockWorkCheck }) else { return }
        var turn = 0
        while check() {
            if turn < 300 {
                await Task.yield()
            } else {
                guard budget > 0 else { return }
                budget -= 1
                try? await Task.sleep(nanoseconds: 1_000_000)
            }
            turn += 1
        }
        // What the finished work set off (a break's first ad) gets its turns too.
        if turn > 0 { for _ in 0..<30 { await Task.yield() } }
    }

    /// How many tasks woken by `advance` have not started running yet.
    public var wakingCount: Int { lock.withLock { woken.count } }

    /// Yields until every task woken by `advance` has started running again
    /// (bounded, so a task that never gets a thread cannot hang the test).
    public func waitForWokenTasks(maxYields: Int = 1_000_000) async {
        for _ in 0..<maxYields {
            if wakingCount == 0 { return }
            await Task.yield()
        }
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
        var offClockBudget = 10_000
        while true {
            await waitForWokenTasks()
            for _ in 0..<30 { await Task.yield() }
            await waitForOffClockWork(budget: &offClockBudget)
            guard let next = await nextDeadlineAfterStragglers(before: target), next <= target else { break }
            advance(to: next)
        }
        advance(to: target)
        await waitForWokenTasks()
        for _ in 0..<30 { await Task.yield() }
        await waitForOffClockWork(budget: &offClockBudget)
    }
}
