import Foundation

/// A task executor that runs jobs on a concurrent dispatch queue, which adds
/// threads when its jobs block (the shared Swift concurrency pool does not).
final class DispatchTaskExecutor: TaskExecutor, Sendable {
    private let queue: DispatchQueue

    init(label: String) { queue = DispatchQueue(label: label, attributes: .concurrent) }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        queue.async { [self] in job.runSynchronously(on: asUnownedTaskExecutor()) }
    }
}
