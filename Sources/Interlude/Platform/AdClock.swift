import Foundation

#if canImport(Glibc)
    import Glibc
#endif

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
    #if canImport(Glibc)
        /// `CLOCK_BOOTTIME`, the clock `ContinuousClock` reads on Linux, read
        /// directly: the stream manager reads this about once a second of
        /// playback, and `Duration` arithmetic (128-bit attoseconds) cost
        /// as much as the read.
        private let originSeconds: Int
        private let originNanoseconds: Int

        public init() {
            var time = timespec()
            clock_gettime(CLOCK_BOOTTIME, &time)
            originSeconds = time.tv_sec
            originNanoseconds = time.tv_nsec
        }

        public var now: TimeInterval {
            var time = timespec()
            clock_gettime(CLOCK_BOOTTIME, &time)
            return Double(time.tv_sec - originSeconds) + Double(time.tv_nsec - originNanoseconds) / 1e9
        }
    #else
        private let origin = ContinuousClock.now

        public init() {}

        public var now: TimeInterval {
            let elapsed = ContinuousClock.now - origin
            return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        }
    #endif

    /// Unlike `Task.sleep`, a cancelled sleep frees its timer at once: on
    /// Linux a cancelled `Task.sleep` keeps its timer (about 700 bytes) until
    /// the original deadline, so every deadline race that the operation won
    /// (`withTimeout`, thousands of beacons a minute) held memory for the
    /// whole timeout.
    public func sleep(until deadline: TimeInterval) async throws {
        let remaining = deadline - now
        guard remaining > 0 else { return }
        let clock = self
        let sleep = CancellableSleep(remaining: { deadline - clock.now })
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                sleep.start(continuation)
            }
        } onCancel: {
            sleep.cancel()
        }
    }
}

/// One sleep on a dispatch timer, ended by the timer or by cancellation,
/// whichever comes first; the continuation is resumed exactly once. Every
/// field is touched under `lock`, so the unchecked conformance is sound.
private final class CancellableSleep: @unchecked Sendable {
    private let lock = NSLock()
    /// Seconds left on the caller's clock.
    private let remaining: @Sendable () -> TimeInterval
    private var continuation: CheckedContinuation<Void, any Error>?
    private var timer: (any DispatchSourceTimer)?
    private var isCancelled = false

    init(remaining: @escaping @Sendable () -> TimeInterval) { self.remaining = remaining }

    func start(_ continuation: CheckedContinuation<Void, any Error>) {
        // The timer is made only when it will be resumed: libdispatch traps
        // when a source that was never resumed is released.
        let timer = lock.withLock { () -> (any DispatchSourceTimer)? in
            guard !isCancelled else { return nil }
            let timer = DispatchSource.makeTimerSource(queue: .global())
            // Weak: the sleep owns the timer, and the suspended caller owns the sleep.
            timer.setEventHandler { [weak self] in self?.timerFired() }
            timer.schedule(wallDeadline: .now() + remaining())
            self.continuation = continuation
            self.timer = timer
            return timer
        }
        guard let timer else {
            continuation.resume(throwing: CancellationError())
            return
        }
        // Cancelled in between? Resuming a cancelled source is allowed and fires nothing.
        timer.resume()
    }

    func cancel() {
        lock.withLock { isCancelled = true }
        finish(cancelled: true)
    }

    /// The timer runs on wall time, which (like the caller's
    /// `ContinuousClock`, and unlike `DispatchTime`) keeps going while the
    /// device sleeps; but wall time can be set forward, so a timer that
    /// fires early by the caller's clock is set again for what is left.
    private func timerFired() {
        let left = remaining()
        if left > 0.001, let timer = lock.withLock({ self.timer }) {
            timer.schedule(wallDeadline: .now() + left)
            return
        }
        finish(cancelled: false)
    }

    private func finish(cancelled: Bool) {
        let (continuation, timer) = lock.withLock {
            () -> (CheckedContinuation<Void, any Error>?, (any DispatchSourceTimer)?) in
            defer {
                self.continuation = nil
                self.timer = nil
            }
            return (self.continuation, self.timer)
        }
        timer?.cancel()
        if cancelled {
            continuation?.resume(throwing: CancellationError())
        } else {
            continuation?.resume()
        }
    }
}

/// Runs `operation`, failing with `onTimeout()` if it has not finished
/// `timeout` seconds on `clock` after it started, or with `CancellationError`
/// as soon as the caller is cancelled. The loser of the race is cancelled,
/// and it is not waited for: an operation that ignores cancellation cannot
/// hold the caller past its deadline (a task group would wait for it), it
/// runs on by itself until it returns, and what it returns is dropped. An
/// operation whose race is over before it starts is not started.
///
/// The timer is started by the operation's own task, just before the
/// operation: on a busy cooperative pool (an app's launch, a parallel test
/// run on two cores) that task can wait seconds to run, and a timer started
/// beside it could win against an exchange that was never sent, reporting
/// "no answer within 8 s" for a request no server saw.
///
/// `spawn` starts each racer's task; tests pass one that holds a task back
/// to stand for that wait.
func withTimeout<T: Sendable>(
    _ timeout: TimeInterval, clock: any AdClock, onTimeout: @escaping @Sendable () -> Error,
    spawn: @escaping @Sendable (@escaping @Sendable () async -> Void) -> Task<Void, Never> = { Task(operation: $0) },
    operation: @escaping @Sendable () async throws -> T
) async throws -> T {
    let race = DeadlineRace<T>()
    return try await withTaskCancellationHandler {
        try await withCheckedThrowingContinuation { continuation in
            race.begin(continuation)
            race.attach(
                spawn {
                    // A race already over (the caller cancelled) cancelled this task
                    // before it ran: the operation must not start, since one that
                    // ignores cancellation would run to the end.
                    guard !Task.isCancelled, !race.isOver else { return race.finish(.failure(CancellationError())) }
                    let deadline = clock.now + timeout
                    race.attach(
                        spawn {
                            do { try await clock.sleep(until: deadline) } catch { return }
                            race.finish(.failure(onTimeout()))
                        })
                    do { race.finish(.success(try await operation())) } catch { race.finish(.failure(error)) }
                })
        }
    } onCancel: {
        race.finish(.failure(CancellationError()))
    }
}

/// The shared end of a deadline race: the first ``finish(_:)`` resumes the
/// caller and cancels both racers; later ones are ignored. Every field is
/// touched under `lock`, so the unchecked conformance is sound.
private final class DeadlineRace<T: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var continuation: CheckedContinuation<T, any Error>?
    /// The outcome, kept only when it came before ``begin(_:)`` (a caller
    /// cancelled before the race started).
    private var earlyOutcome: Result<T, any Error>?
    private var isFinished = false
    private var racers: [Task<Void, Never>] = []

    func begin(_ continuation: CheckedContinuation<T, any Error>) {
        let early = lock.withLock { () -> Result<T, any Error>? in
            guard isFinished else {
                self.continuation = continuation
                return nil
            }
            defer { earlyOutcome = nil }
            return earlyOutcome
        }
        if let early { continuation.resume(with: early) }
    }

    /// True once the race has an outcome.
    var isOver: Bool { lock.withLock { isFinished } }

    func attach(_ racer: Task<Void, Never>) {
        let finished = lock.withLock { () -> Bool in
            if !isFinished { racers.append(racer) }
            return isFinished
        }
        if finished { racer.cancel() }
    }

    func finish(_ outcome: Result<T, any Error>) {
        let (continuation, racers) = lock.withLock {
            () -> (CheckedContinuation<T, any Error>?, [Task<Void, Never>]) in
            guard !isFinished else { return (nil, []) }
            isFinished = true
            if self.continuation == nil { earlyOutcome = outcome }
            defer {
                self.continuation = nil
                self.racers = []
            }
            return (self.continuation, self.racers)
        }
        for racer in racers { racer.cancel() }
        continuation?.resume(with: outcome)
    }
}
