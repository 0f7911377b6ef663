import Foundation

/// Group commit by flat combining: each caller queues its request, then
/// takes turns on one lock; whoever holds it runs every queued request in
/// one transaction and hands each caller its result. A commit costs far
/// more than the statements in it (WAL frames, locks), so callers arriving
/// together (several HTTP threads) pay for one commit between them; a lone
/// caller pays what it would alone.
final class GroupCommit<Request: Sendable, Result: Sendable>: Sendable {
    /// A queued request and, once its batch ran, its result.
    private final class Ticket: @unchecked Sendable {
        // @unchecked Sendable: `result` is written by the combining thread while
        // it holds `combining`, and read by the owner after it takes
        // `combining` itself, so the lock orders every access.
        let request: Request
        var result: Swift.Result<Result, StoreError>?
        init(_ request: Request) { self.request = request }
    }

    private let queue = Locked<[Ticket]>([])
    private let combining = NSLock()

    /// Runs `request` (with whatever else is queued) through `run`, which
    /// gets the batch in arrival order and returns one result per request;
    /// an error fails the whole batch.
    func submit(
        _ request: Request, run: ([Request]) throws(StoreError) -> [Result]
    ) throws(StoreError) -> Result {
        let ticket = Ticket(request)
        queue.withLock { $0.append(ticket) }
        combining.lock()
        defer { combining.unlock() }
        if ticket.result == nil {
            let batch = queue.withLock { queue -> [Ticket] in
                defer { queue = [] }
                return queue
            }
            do {
                let results = try run(batch.map(\.request))
                for (waiting, result) in zip(batch, results) { waiting.result = .success(result) }
            } catch {
                for waiting in batch { waiting.result = .failure(error) }
            }
        }
        return try ticket.result!.get()
    }
}
