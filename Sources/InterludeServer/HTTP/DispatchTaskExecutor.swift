import Foundation

/// A task executor that runs jobs on serial dispatch queues of its own, taken
/// in turn. Serial queues get threads beyond the processor count when their
/// jobs block (they are "overcommit" in libdispatch), unlike concurrent
/// queues and the shared Swift concurrency pool, which on Linux share one
/// width-limited pool: deferred answers that wait on a store never hold up
/// other async work, and other work never holds up them.
final class DispatchTaskExecutor: TaskExecutor, Sendable {
    private let queues: [DispatchQueue]
    private let next = Locked(0)

    init(label: String, width: Int = 8) {
        queues = (0..<max(1, width)).map { DispatchQueue(label: "\(label).\($0)") }
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let index = next.withLock { value -> Int in
            value = (value + 1) % queues.count
            return value
        }
        queues[index].async { [self] in job.runSynchronously(on: asUnownedTaskExecutor()) }
    }
}
