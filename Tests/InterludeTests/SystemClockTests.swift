import Foundation
import Testing

@testable import Interlude

/// The real clock. These are the only SDK tests that take real time, and
/// only milliseconds of it: everything else runs on `ManualClock`.
@Suite struct SystemClockTests {
    @Test func sleepReturnsOnceTheDeadlineHasPassed() async throws {
        let clock = SystemClock()
        let deadline = clock.now + 0.02
        try await clock.sleep(until: deadline)
        #expect(clock.now >= deadline)
    }

    @Test func aDeadlineInThePastReturnsAtOnce() async throws {
        let clock = SystemClock()
        try await clock.sleep(until: clock.now - 1)
        try await clock.sleep(for: 0)
    }

    @Test func cancellingASleepEndsItWithCancellationError() async {
        let clock = SystemClock()
        let sleeper = Task { try await clock.sleep(for: 3600) }
        sleeper.cancel()
        await #expect(throws: CancellationError.self) { try await sleeper.value }
    }

    @Test func cancellingWhileSuspendedEndsTheSleep() async {
        let clock = SystemClock()
        let started = clock.now
        let sleeper = Task { try await clock.sleep(for: 3600) }
        // Let the sleeper suspend first (a cancelled task would not start the timer).
        await Task.yield()
        try? await clock.sleep(for: 0.01)
        sleeper.cancel()
        await #expect(throws: CancellationError.self) { try await sleeper.value }
        #expect(clock.now - started < 60)  // ended by cancellation, not by the hour
    }

    @Test func cancellationRacingTheTimerResumesEachSleepOnce() async {
        // A checked continuation traps if resumed twice: 1,000 sleeps whose
        // timers fire around the moment they are cancelled must each end once.
        let clock = SystemClock()
        let outcomes = await withTaskGroup(of: Bool.self) { group in
            for index in 0..<1000 {
                let sleeper = Task { try await clock.sleep(for: Double(index % 3) / 1000) }
                group.addTask {
                    if index % 2 == 0 { await Task.yield() }
                    sleeper.cancel()
                    return (try? await sleeper.value) != nil
                }
            }
            var ended = 0
            for await _ in group { ended += 1 }
            return ended
        }
        #expect(outcomes == 1000)
    }

    @Test func theOperationWinsADeadlineRaceAndTheLoserIsCancelled() async throws {
        let clock = SystemClock()
        let value = try await withTimeout(
            3600, clock: clock, onTimeout: { HTTPClientError.timedOut }, operation: { 42 })
        #expect(value == 42)
    }

    @Test func theDeadlineWinsARaceWithAStuckOperation() async {
        let clock = SystemClock()
        await #expect(throws: HTTPClientError.timedOut) {
            try await withTimeout(
                0.02, clock: clock, onTimeout: { HTTPClientError.timedOut },
                operation: { try await clock.sleep(for: 3600) })
        }
    }

    /// A caller cancelled before the race starts gets `CancellationError`,
    /// and the operation is never started: an HTTP client that ignores
    /// cancellation would otherwise send a request the SDK has given up on.
    @Test func anOperationIsNotStartedOnceTheRaceIsAlreadyOver() async throws {
        let started = StartFlag()
        let clock = SystemClock()
        let caller = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await withTimeout(
                3600, clock: clock, onTimeout: { HTTPClientError.timedOut },
                operation: { () async throws -> Int in
                    started.set()
                    return 1
                })
        }
        await #expect(throws: CancellationError.self) { try await caller.value }
        // The operation's task, had it been started, runs on the pool within this time.
        for _ in 0..<50 {
            if started.isSet { break }
            await Task.yield()
            try? await Task.sleep(nanoseconds: 1_000_000)
        }
        #expect(!started.isSet)
    }
}

/// A flag set from any thread; every access holds `lock`, so the unchecked conformance is sound.
private final class StartFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false
    func set() { lock.withLock { value = true } }
    var isSet: Bool { lock.withLock { value } }
}
