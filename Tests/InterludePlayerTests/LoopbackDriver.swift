import Foundation
import Interlude
import InterludeTestSupport

@testable import InterludePlayer

/// Plays an ``HLSStreamDisplay`` on a manual clock against a real loopback
/// server: the clock moves only while no request is on the network, so
/// stream time does not depend on how fast this machine answers.
@MainActor
struct LoopbackDriver {
    let display: HLSStreamDisplay
    let clock: ManualClock
    let recorder = DisplayRecorder()

    init(_ configuration: HLSStreamDisplay.Configuration = .init()) {
        clock = ManualClock()
        display = HLSStreamDisplay(
            httpClient: URLSessionHTTPClient(maxResponseSize: 16 << 20), clock: clock, configuration: configuration)
        display.delegate = recorder
    }

    /// Waits (in real time, at most `limit` seconds) until no request is in flight.
    func settle(limit: TimeInterval = 20) async { await DisplayClockDriver.settle(display, clock, limit: limit) }

    /// Moves the clock `seconds` forward, one due wake-up at a time, letting
    /// every request finish before the next step; `step` runs before each.
    func run(for seconds: TimeInterval, step: (TimeInterval) -> Void = { _ in }) async {
        await DisplayClockDriver.run(display, clock, for: seconds, step: step)
    }
}

/// Moves a manual clock under an ``HLSStreamDisplay`` only while none of
/// its requests is on the way: the display's HTTP answers come on other
/// threads, and a clock that jumped ahead of them would time them out or
/// play without them.
@MainActor
enum DisplayClockDriver {
    static func settle(_ display: HLSStreamDisplay, _ clock: ManualClock, limit: TimeInterval = 20) async {
        let deadline = Date().addingTimeInterval(limit)
        var quiet = 0
        while Date() < deadline {
            for _ in 0..<20 { await Task.yield() }
            // Quiet means nothing on the network and every task of the display
            // that sleeps on the clock has reached its sleep: on a busy machine a
            // woken or new task may wait for a thread, and a look at the next
            // deadline before it registers would skip the deadline it sets.
            let asleep = clock.wakingCount == 0 && clock.sleeperCount >= display.pendingClockSleeps
            if display.status.requestsInFlight == 0 && asleep {
                quiet += 1
                // Twice in a row: a response handled on this turn may start the next request.
                if quiet >= 2 { return }
            } else {
                quiet = 0
                try? await Task.sleep(nanoseconds: 1_000_000)
            }
        }
    }

    static func run(
        _ display: HLSStreamDisplay, _ clock: ManualClock, for seconds: TimeInterval,
        step: (TimeInterval) -> Void = { _ in }
    ) async {
        let end = clock.now + seconds
        while true {
            await settle(display, clock)
            step(clock.now)
            await settle(display, clock)
            guard let next = clock.nextDeadline, next <= end else { break }
            clock.advance(to: next)
        }
        clock.advance(to: end)
        await settle(display, clock)
    }
}
