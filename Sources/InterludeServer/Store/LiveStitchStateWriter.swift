import Foundation
import InterludeHLS

/// Writes the live stitcher's states behind the answers. A reload that
/// changed its rendition's state hands the state here and answers at once;
/// a thread of its own merges whatever is queued into the store, many
/// renditions to a transaction.
///
/// Why: when a break appears in a channel's window, every viewer's next
/// reload changes its state within the same second. Written by each reload
/// in a transaction of its own, 10,000 viewers' writes queued on the one
/// write lock for 1–3 s, and every reload in that time waited behind them
/// (the live p99 of `scripts/bench-vtp-stall.sh`).
///
/// Reads here see what is queued or being written, so this process never
/// answers from an older state than one it handed over. Another process
/// sees a state once its batch commits (within a batch's time, far less
/// than a player's reload interval); should it stitch meanwhile, it stitches
/// from the older stored state, which the merge of both writes reconciles
/// (``LiveStitchState/merge(_:)``). A state lost to a crash before its
/// commit is found again by the next reload: it is derived from the window
/// and the stored decisions, which are written before any answer names them.
final class LiveStitchStateWriter: Sendable {
    /// Unwritten states by stream, then rendition.
    private typealias Unwritten = [String: [String: LiveStitchState]]

    private struct State {
        var queued: Unwritten = [:]
        var queuedCount = 0
        /// The batch being written: still read from here until it commits.
        var writing: Unwritten = [:]
        var failures = 0
        /// Failed batches since the last one that was stored.
        var consecutiveFailures = 0
        var started = false
        var stopping = false
        var running = false
    }

    typealias Write = @Sendable ([LiveStitchUpdate]) throws(StoreError) -> Void

    /// Where states are read from and merged into.
    private let store: any SessionStore
    /// Merges one batch into the store (``SessionStore/mergeLiveStitchStates(_:)``).
    private let write: Write
    /// The most renditions in one transaction (a bound on how long the
    /// write lock is held, since decisions and verifications need it too).
    let batchLimit: Int
    /// How long the writer waits after a failed batch before trying again,
    /// doubled after each further failure up to ``maxRetryDelay``.
    let retryDelay: TimeInterval
    /// The longest wait between two tries of a failing store.
    let maxRetryDelay: TimeInterval
    private let reportFailure: @Sendable (StoreError) -> Void
    /// Changes to `state` that a wait depends on are made under
    /// `condition`'s lock too, so a wait never misses a signal.
    private let state = Locked(State())
    private let condition = NSCondition()

    /// A writer reading and merging into `store`, each batch written with
    /// `write` (by default the store's own); `reportFailure` hears of each
    /// failed batch.
    init(
        store: any SessionStore, batchLimit: Int = 512, retryDelay: TimeInterval = 0.2, maxRetryDelay: TimeInterval = 5,
        write: Write? = nil, reportFailure: @escaping @Sendable (StoreError) -> Void = { _ in }
    ) {
        self.store = store
        if let write {
            self.write = write
        } else {
            self.write = { updates throws(StoreError) in try store.mergeLiveStitchStates(updates) }
        }
        self.batchLimit = max(1, batchLimit)
        self.retryDelay = retryDelay
        self.maxRetryDelay = max(retryDelay, maxRetryDelay)
        self.reportFailure = reportFailure
    }

    /// The rendition's state: the stored one with whatever this process has
    /// queued for it and not yet committed merged in.
    func state(streamID: String, rendition: String) throws(StoreError) -> LiveStitchState? {
        // The unwritten state first: a batch leaves `writing` only once
        // committed, so a state missed here is in the store read after it.
        let unwritten = state.withLock { Self.unwritten($0, streamID: streamID)[rendition] }
        let stored = try store.liveStitchState(streamID: streamID, rendition: rendition)
        guard let unwritten else { return stored }
        guard var merged = stored else { return unwritten }
        merged.merge(unwritten)
        return merged
    }

    /// Every rendition's state of the stream, as ``state(streamID:rendition:)`` reads one.
    func states(streamID: String) throws(StoreError) -> [String: LiveStitchState] {
        let unwritten = state.withLock { Self.unwritten($0, streamID: streamID) }
        var states = try store.liveStitchStates(streamID: streamID)
        for (rendition, state) in unwritten {
            if states[rendition] != nil { states[rendition]?.merge(state) } else { states[rendition] = state }
        }
        return states
    }

    /// Queues `update` (merged into what is queued for its rendition) and
    /// returns at once. After ``stop()`` it is written on the caller's thread.
    func submit(_ update: LiveStitchUpdate) {
        condition.lock()
        let queued = state.withLock { state -> Bool in
            guard !state.stopping else { return false }
            if state.queued[update.streamID]?[update.rendition] != nil {
                state.queued[update.streamID]?[update.rendition]?.merge(update.state)
            } else {
                state.queued[update.streamID, default: [:]][update.rendition] = update.state
                state.queuedCount += 1
            }
            if !state.started {
                state.started = true
                state.running = true
                let thread = Thread { [self] in run() }
                thread.name = "interlude.stitch-states"
                thread.start()
            }
            return true
        }
        if queued { condition.signal() }
        condition.unlock()
        guard !queued else { return }
        do {
            try write([update])
        } catch {
            reportFailure(error)
        }
    }

    /// Waits until everything queued before the call is committed; false
    /// when a batch failed meanwhile (it stays queued and is tried again).
    /// For tests: shutting down uses ``stop()``.
    @discardableResult
    func flush() -> Bool {
        condition.lock()
        defer { condition.unlock() }
        let failuresBefore = state.withLock { $0.failures }
        while true {
            let (idle, failed) = state.withLock { state in
                (
                    (state.queued.isEmpty && state.writing.isEmpty) || !state.running,
                    state.failures != failuresBefore
                )
            }
            if failed { return false }
            if idle { return state.withLock { $0.queued.isEmpty && $0.writing.isEmpty } }
            condition.wait()
        }
    }

    /// Writes what is queued (a batch that fails now is reported and
    /// dropped), then ends the thread; later updates are written on their
    /// caller's thread.
    func stop() {
        condition.lock()
        state.withLock { $0.stopping = true }
        condition.broadcast()
        while state.withLock({ $0.running }) { condition.wait() }
        condition.unlock()
    }

    /// Units queued for the writer: renditions of streams (for tests).
    var queuedCount: Int { state.withLock { $0.queuedCount } }

    private func run() {
        while let batch = nextBatch() {
            let updates = batch.flatMap { stream, renditions in
                renditions.map { LiveStitchUpdate(streamID: stream, rendition: $0.key, state: $0.value) }
            }
            let failure: StoreError?
            do throws(StoreError) {
                try write(updates)
                failure = nil
            } catch {
                failure = error
                reportFailure(error)
            }
            condition.lock()
            let failuresInARow = state.withLock { state -> Int in
                state.writing = [:]
                guard failure != nil else {
                    state.consecutiveFailures = 0
                    return 0
                }
                state.failures += 1
                state.consecutiveFailures += 1
                // Back in the queue (under anything newer) unless stopping: then it is dropped.
                if !state.stopping { Self.requeue(batch, into: &state) }
                return state.consecutiveFailures
            }
            condition.broadcast()
            if failuresInARow > 0 {
                // Only stopping cuts the wait short: new states arrive many times a
                // second, and a failing store must not be tried at that rate.
                let until = Date().addingTimeInterval(
                    Self.retryDelay(afterFailures: failuresInARow, base: retryDelay, limit: maxRetryDelay))
                while !state.withLock({ $0.stopping }), Date() < until { _ = condition.wait(until: until) }
            }
            condition.unlock()
        }
        condition.lock()
        state.withLock { $0.running = false }
        condition.broadcast()
        condition.unlock()
    }

    /// Waits for queued states and moves up to about `batchLimit` renditions
    /// (whole streams) to `writing`; nil once stopping with nothing left.
    private func nextBatch() -> Unwritten? {
        condition.lock()
        defer { condition.unlock() }
        while true {
            let taken = state.withLock { state -> (batch: Unwritten, stopping: Bool) in
                guard !state.queued.isEmpty else { return ([:], state.stopping) }
                if state.queuedCount <= batchLimit {
                    state.writing = state.queued
                    state.queued = [:]
                    state.queuedCount = 0
                } else {
                    var count = 0
                    for (stream, renditions) in state.queued where count < batchLimit {
                        state.writing[stream] = renditions
                        count += renditions.count
                    }
                    for stream in state.writing.keys { state.queued[stream] = nil }
                    state.queuedCount -= count
                }
                return (state.writing, state.stopping)
            }
            if !taken.batch.isEmpty { return taken.batch }
            if taken.stopping { return nil }
            condition.wait()
        }
    }

    /// The wait before trying a failing store again after `failures`
    /// failed batches in a row: `base`, doubled after each further one, at
    /// most `limit`.
    static func retryDelay(afterFailures failures: Int, base: TimeInterval, limit: TimeInterval) -> TimeInterval {
        guard failures > 1 else { return min(base, limit) }
        return min(limit, base * pow(2, Double(min(failures - 1, 32))))
    }

    private static func requeue(_ batch: Unwritten, into state: inout State) {
        for (stream, renditions) in batch {
            for (rendition, older) in renditions {
                if let newer = state.queued[stream]?[rendition] {
                    var merged = older
                    merged.merge(newer)
                    state.queued[stream]?[rendition] = merged
                } else {
                    state.queued[stream, default: [:]][rendition] = older
                    state.queuedCount += 1
                }
            }
        }
    }

    /// What `state` holds unwritten for the stream: the batch being written
    /// with anything queued since merged over it.
    private static func unwritten(_ state: State, streamID: String) -> [String: LiveStitchState] {
        guard var merged = state.writing[streamID] else { return state.queued[streamID] ?? [:] }
        for (rendition, queued) in state.queued[streamID] ?? [:] {
            if merged[rendition] != nil { merged[rendition]?.merge(queued) } else { merged[rendition] = queued }
        }
        return merged
    }
}
