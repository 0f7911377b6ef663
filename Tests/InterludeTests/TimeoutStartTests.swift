import Foundation
import InterludeTestSupport
import Testing

@testable import Interlude

/// The timer of a deadline race counts from when the operation's task starts:
/// on a busy cooperative pool that task can wait seconds to run, and a timer
/// started beside it timed out exchanges that were never sent (an in-memory
/// client's instant answer reported as "no answer within 8 s" in a CI run).
@Suite struct TimeoutStartTests {
    @Test func timeSpentWaitingForThePoolIsNotCountedAgainstTheOperation() async throws {
        let clock = ManualClock()
        let pool = HeldFirstTask()
        let caller = Task {
            try await withTimeout(
                8, clock: clock, onTimeout: { HTTPClientError.timedOut }, spawn: pool.spawn, operation: { 42 })
        }
        await pool.waitUntilHeld()
        // Any timer started beside the held task gets the chance to sleep.
        for _ in 0..<1_000 { await Task.yield() }
        clock.advance(by: 9)
        // ... and, had one been sleeping, to finish the race before the operation runs.
        await clock.waitForWokenTasks()
        for _ in 0..<1_000 { await Task.yield() }
        pool.release()
        #expect(try await caller.value == 42)
    }

    @Test func theTimeoutStillEndsAStuckOperationTimeoutSecondsAfterItStarted() async throws {
        let clock = ManualClock()
        let pool = HeldFirstTask()
        let caller = Task {
            try await withTimeout(
                8, clock: clock, onTimeout: { HTTPClientError.timedOut }, spawn: pool.spawn,
                operation: { () async throws -> Int in
                    try await clock.sleep(until: .infinity)
                    return 1
                })
        }
        await pool.waitUntilHeld()
        clock.advance(by: 9)
        pool.release()
        await clock.waitForSleepers(2)
        clock.advance(by: 7.9)
        await clock.waitForWokenTasks()
        #expect(clock.sleeperCount == 2, "the timer fired before 8 s had passed since the start")
        clock.advance(by: 0.2)
        await #expect(throws: HTTPClientError.timedOut) { try await caller.value }
    }
}

/// Spawns racer tasks, holding back the first one until ``release()`` as a busy
/// pool would; later ones run at once. Every field is touched under `lock`, so
/// the unchecked conformance is sound.
private final class HeldFirstTask: @unchecked Sendable {
    private let lock = NSLock()
    private var held: CheckedContinuation<Void, Never>?
    private var isHolding = false
    private var isReleased = false

    var spawn: @Sendable (@escaping @Sendable () async -> Void) -> Task<Void, Never> {
        { body in
            let holdThisOne = self.lock.withLock { () -> Bool in
                defer { self.isHolding = true }
                return !self.isHolding
            }
            guard holdThisOne else { return Task(operation: body) }
            return Task {
                await withCheckedContinuation { continuation in
                    let released = self.lock.withLock { () -> Bool in
                        if !self.isReleased { self.held = continuation }
                        return self.isReleased
                    }
                    if released { continuation.resume() }
                }
                await body()
            }
        }
    }

    func waitUntilHeld() async {
        while lock.withLock({ held == nil && !isReleased }) { await Task.yield() }
    }

    func release() {
        let continuation = lock.withLock { () -> CheckedContinuation<Void, Never>? in
            isReleased = true
            defer { held = nil }
            return held
        }
        continuation?.resume()
    }
}
