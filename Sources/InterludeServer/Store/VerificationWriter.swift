import Foundation

/// Records media verifications on a thread of its own, every verification
/// queued while the last batch was being written going into the next
/// batch's one transaction (a group commit). Callers never wait: each
/// hands a completion, called on the writer's thread once its batch is
/// committed (so an answer built from it follows its row being stored) or
/// has failed. The HTTP threads park the connection meanwhile and go on
/// reading other requests, which is what fills the batches: with callers
/// that block on the store (`GroupCommit`), a batch holds at most one
/// verification per HTTP thread, and those threads wait on the write lock.
final class VerificationWriter: Sendable {
    typealias Completion = @Sendable (Result<PodVerificationOutcome, StoreError>) -> Void

    private struct Queued {
        var verification: PodVerification
        var completion: Completion
    }

    private struct State {
        var queue: [Queued] = []
        var started = false
        var stopping = false
        var running = false
    }

    typealias Write = @Sendable ([PodVerification]) throws(StoreError) -> [PodVerificationOutcome]

    /// Records one batch (`SessionStore.verify(_:)`), one outcome per verification.
    private let write: Write
    /// The most verifications in one transaction.
    let batchLimit: Int
    /// Every access to `state` is under `condition`'s lock too, so a wait
    /// never misses a signal.
    private let state = Locked(State())
    private let condition = NSCondition()

    /// A writer recording batches in `store`.
    convenience init(store: any SessionStore, batchLimit: Int = 512) {
        self.init(batchLimit: batchLimit) { batch throws(StoreError) in try store.verify(batch) }
    }

    /// A writer recording each batch with `write`.
    init(batchLimit: Int = 512, write: @escaping Write) {
        self.write = write
        self.batchLimit = max(1, batchLimit)
    }

    /// Queues `verification`; `completion` gets its outcome once its batch
    /// is committed. The writer thread starts on the first call. After
    /// ``stop()`` the verification runs on the caller's thread.
    func submit(_ verification: PodVerification, completion: @escaping Completion) {
        condition.lock()
        let queued = state.withLock { state -> Bool in
            guard !state.stopping else { return false }
            state.queue.append(Queued(verification: verification, completion: completion))
            if !state.started {
                state.started = true
                state.running = true
                let thread = Thread { [self] in run() }
                thread.name = "interlude.verifications"
                thread.start()
            }
            return true
        }
        if queued { condition.signal() }
        condition.unlock()
        guard !queued else { return }
        completion(
            Result(catching: { () throws(StoreError) -> PodVerificationOutcome in
                guard let outcome = try write([verification]).first else {
                    throw StoreError("the store answered a verification with no outcome")
                }
                return outcome
            }))
    }

    /// Writes what is queued, then ends the thread; later verifications run
    /// on their caller's thread.
    func stop() {
        condition.lock()
        state.withLock { $0.stopping = true }
        condition.broadcast()
        while state.withLock({ $0.running }) { condition.wait() }
        condition.unlock()
    }

    private func run() {
        while let batch = nextBatch() {
            let outcomes = Result(catching: { () throws(StoreError) in try write(batch.map(\.verification)) })
            switch outcomes {
            case .success(let outcomes) where outcomes.count == batch.count:
                for (queued, outcome) in zip(batch, outcomes) { queued.completion(.success(outcome)) }
            case .success:
                let error = StoreError("the store answered a batch of \(batch.count) with another count")
                for queued in batch { queued.completion(.failure(error)) }
            case .failure(let error):
                for queued in batch { queued.completion(.failure(error)) }
            }
        }
        condition.lock()
        state.withLock { $0.running = false }
        condition.broadcast()
        condition.unlock()
    }

    /// Waits for verifications and takes up to `batchLimit` of them in
    /// arrival order; nil once stopping with nothing left.
    private func nextBatch() -> [Queued]? {
        condition.lock()
        defer { condition.unlock() }
        while true {
            let taken = state.withLock { state -> (batch: [Queued], stopping: Bool) in
                guard !state.queue.isEmpty else { return ([], state.stopping) }
                if state.queue.count <= batchLimit {
                    defer { state.queue = [] }
                    return (state.queue, state.stopping)
                }
                let batch = Array(state.queue.prefix(batchLimit))
                state.queue.removeFirst(batchLimit)
                return (batch, state.stopping)
            }
            if !taken.batch.isEmpty { return taken.batch }
            if taken.stopping { return nil }
            condition.wait()
        }
    }
}
