import Foundation
import InterludeTestSupport
import Testing

@testable import Interlude

/// What off-clock work finished at, written from the pool's threads.
private final class OffClockWork: @unchecked Sendable {
    private let lock = NSLock()
    private var finishedAt: TimeInterval?
    var isPending: Bool { lock.withLock { finishedAt == nil } }
    var finishedAtClockTime: TimeInterval? { lock.withLock { finishedAt } }
    func finish(at time: TimeInterval) { lock.withLock { finishedAt = time } }
}

/// `ManualClock.holdWhile`: the simulation waits for work that is not on the
/// clock (an ad break loading on a starved thread pool) instead of stepping
/// past it through other sleepers' deadlines. CI lost a post-roll's last
/// quartiles that way: the break arrived seconds of simulated time late.
@Suite("Manual clock hold")
@MainActor
struct ManualClockHoldTests {
    /// A sleeper that wakes every quarter second, as the content watcher does.
    private func startTicker(on clock: ManualClock) -> Task<Void, Never> {
        Task {
            while !Task.isCancelled {
                do { try await clock.sleep(for: 0.25) } catch { return }
            }
        }
    }

    /// Off-clock work that takes real milliseconds, as a busy pool makes it.
    private func startSlowWork(_ work: OffClockWork, clock: ManualClock) {
        Task.detached {
            try? await SystemClock().sleep(for: 0.05)
            work.finish(at: clock.now)
        }
    }

    @Test func timeWaitsForOffClockWorkItIsToldAbout() async {
        let clock = ManualClock()
        let ticker = startTicker(on: clock)
        defer { ticker.cancel() }
        await clock.waitForSleepers()
        let work = OffClockWork()
        clock.holdWhile { work.isPending }
        startSlowWork(work, clock: clock)
        await clock.simulate(for: 5)
        #expect(work.finishedAtClockTime == 0)
        #expect(clock.now == 5)
    }

    @Test func aClearedCheckLetsTimeMove() async {
        let clock = ManualClock()
        clock.holdWhile { false }
        await clock.simulate(for: 3)
        #expect(clock.now == 3)
        clock.holdWhile(nil)
        await clock.simulate(for: 1)
        #expect(clock.now == 4)
    }
}
