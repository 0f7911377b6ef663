import Foundation
import InterludeTestSupport
import Testing

@testable import Interlude

/// An HTTP client whose answers a test scripts per call, and which counts
/// deliveries by idempotency key, as our collector does.
final class ScriptedCollector: HTTPClient, @unchecked Sendable {
    private let lock = NSLock()
    private var calls = 0
    private var keysDelivered: [String: Int] = [:]
    private var urlsDelivered: [String] = []
    private var times: [TimeInterval] = []
    private let answer: @Sendable (Int, HTTPRequest) -> Result<Int, HTTPClientError>
    private let clock: (any AdClock)?

    init(
        clock: (any AdClock)? = nil,
        answer: @escaping @Sendable (Int, HTTPRequest) -> Result<Int, HTTPClientError> = { _, _ in .success(204) }
    ) {
        self.clock = clock
        self.answer = answer
    }

    /// Clock time of every call (when a clock was given).
    var callTimes: [TimeInterval] { lock.withLock { times } }

    func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        let result = lock.withLock { () -> Result<Int, HTTPClientError> in
            calls += 1
            if let clock { times.append(clock.now) }
            let result = answer(calls, request)
            if case .success(let status) = result, status < 300 {
                let key = request.headers["Idempotency-Key"] ?? ""
                if keysDelivered[key] == nil { urlsDelivered.append(request.url.absoluteString) }
                keysDelivered[key, default: 0] += 1
            }
            return result
        }
        switch result {
        case .success(let status): return HTTPResponse(statusCode: status, url: request.url)
        case .failure(let error): throw error
        }
    }

    var callCount: Int { lock.withLock { calls } }
    /// URLs delivered, each counted once per idempotency key, in arrival order.
    var delivered: [String] { lock.withLock { urlsDelivered } }
    var duplicateDeliveries: Int { lock.withLock { keysDelivered.values.reduce(0) { $0 + $1 - 1 } } }
}

func beacons(_ count: Int, ad: String = "ad", prefix: String = "b", at date: Date = Date(timeIntervalSince1970: 1000))
    -> [Beacon]
{
    (0..<count).map {
        Beacon(
            url: "http://127.0.0.1:9/\(prefix)\($0)", event: "e\($0)", adID: ad, idempotencyKey: "\(ad)-\(prefix)\($0)",
            createdAt: date)
    }
}

/// Runs the queue to completion as a discrete-event simulation: waits
/// (yielding) until the queue either is done or sleeps in a backoff (a
/// deadline within `horizon`; request timeouts are set far beyond it), then
/// moves the clock exactly to that deadline.
func drain(_ queue: BeaconQueue, clock: ManualClock, horizon: TimeInterval = 1000, maxEvents: Int = 10_000) async {
    for _ in 0..<maxEvents {
        var backoff: TimeInterval?
        for _ in 0..<1_000_000 {
            if await queue.statistics.pending == 0 { break }
            if let next = clock.nextDeadline, next < clock.now + horizon {
                backoff = next
                break
            }
            await Task.yield()
        }
        guard let backoff else { break }
        clock.advance(to: backoff)
    }
    await queue.waitUntilIdle()
}

extension BeaconQueue.Policy {
    /// Request timeouts far beyond any backoff, so `drain` can tell them apart.
    static var forSimulation: BeaconQueue.Policy {
        var policy = BeaconQueue.Policy()
        policy.requestTimeout = 100_000
        return policy
    }
}

@Suite("Beacon queue")
struct BeaconQueueTests {
    let now: @Sendable () -> Date = { Date(timeIntervalSince1970: 1000) }

    @Test func sendsEveryBeaconInOrderPerAd() async throws {
        let collector = ScriptedCollector()
        let clock = ManualClock()
        let queue = try BeaconQueue(
            http: collector, clock: clock, storage: InMemoryJournalStorage(), policy: .forSimulation, now: now)
        queue.enqueue(beacons(20, ad: "a"))
        queue.enqueue(beacons(20, ad: "b"))
        await drain(queue, clock: clock)
        let delivered = collector.delivered
        #expect(delivered.count == 40)
        #expect(delivered.filter { $0.contains("/b") }.count == 40)
        // Within each ad, the order of enqueueing.
        let statistics = await queue.statistics
        #expect(statistics.delivered == 40 && statistics.pending == 0)
    }

    @Test func retriesFailuresWithExponentialBackoff() async throws {
        let clock = ManualClock()
        // Three failures (unreachable, 503, 429), then success.
        let collector = ScriptedCollector(clock: clock) { call, _ in
            switch call {
            case 1: return .failure(.unreachable("refused"))
            case 2: return .success(503)
            case 3: return .success(429)
            default: return .success(204)
            }
        }
        let queue = try BeaconQueue(
            http: collector, clock: clock, storage: nil, policy: .forSimulation, now: now, jitter: { 1 })
        queue.enqueue(beacons(1))
        await drain(queue, clock: clock)
        // Retries after 1, 2 and 4 s (jitter 1 → the full delay).
        #expect(collector.callTimes == [0, 1, 3, 7])
        #expect(await queue.statistics.retried == 3)
    }

    @Test func jitterShortensTheDelayByUpToHalf() async throws {
        let clock = ManualClock()
        let collector = ScriptedCollector(clock: clock) { call, _ in call == 1 ? .success(500) : .success(204) }
        let queue = try BeaconQueue(http: collector, clock: clock, policy: .forSimulation, now: now, jitter: { 0 })
        queue.enqueue(beacons(1))
        await drain(queue, clock: clock)
        #expect(collector.callTimes == [0, 0.5])
    }

    @Test func retryDelayIsCapped() async throws {
        let clock = ManualClock()
        let collector = ScriptedCollector(clock: clock) { call, _ in call <= 12 ? .success(500) : .success(204) }
        var policy = BeaconQueue.Policy.forSimulation
        policy.maxRetryDelay = 10
        policy.maxAttempts = 20  // more than the 13 this needs: the cap on delays is what is tested
        let queue = try BeaconQueue(http: collector, clock: clock, policy: policy, now: now, jitter: { 1 })
        queue.enqueue(beacons(1))
        await drain(queue, clock: clock)
        // Delays 1, 2, 4, 8, then 10 for each of the remaining eight retries.
        let gaps = zip(collector.callTimes.dropFirst(), collector.callTimes).map { $0 - $1 }
        #expect(gaps == [1, 2, 4, 8, 10, 10, 10, 10, 10, 10, 10, 10])
    }

    @Test func permanentClientErrorsAreNotRetried() async throws {
        let collector = ScriptedCollector { _, _ in .success(404) }
        let clock = ManualClock()
        let logger = RecordingLogger()
        let queue = try BeaconQueue(http: collector, clock: clock, logger: logger, now: now)
        queue.enqueue(beacons(1))
        await queue.waitUntilIdle()
        #expect(collector.callCount == 1)
        #expect(logger.lines.contains { $0.contains("HTTP 404") })
    }

    @Test func beaconsOlderThanTheMaximumAgeAreDroppedWithALogLine() async throws {
        let logger = RecordingLogger()
        let collector = ScriptedCollector()
        var policy = BeaconQueue.Policy.forSimulation
        policy.maxAge = 60
        let queue = try BeaconQueue(
            http: collector, clock: ManualClock(), policy: policy, logger: logger,
            now: { Date(timeIntervalSince1970: 1000 + 61) })
        queue.enqueue(beacons(2))
        await queue.waitUntilIdle()
        #expect(collector.callCount == 0)
        #expect(await queue.statistics.dropped == 2)
        #expect(logger.lines.filter { $0.contains("older than 60 s") }.count == 2)
    }

    @Test func memoryIsBoundedAndTheJournalHoldsTheRest() async throws {
        let collector = ScriptedCollector()
        let clock = ManualClock()
        var policy = BeaconQueue.Policy.forSimulation
        policy.maxInMemory = 10
        let queue = try BeaconQueue(
            http: collector, clock: clock, storage: InMemoryJournalStorage(), policy: policy, now: now)
        for ad in 0..<10 { queue.enqueue(beacons(10, ad: "ad\(ad)")) }
        await drain(queue, clock: clock)
        #expect(collector.delivered.count == 100)
        #expect(collector.duplicateDeliveries == 0)
    }

    @Test func withoutAJournalOverflowIsDroppedWithALogLine() async throws {
        let collector = ScriptedCollector()
        let logger = RecordingLogger()
        var policy = BeaconQueue.Policy.forSimulation
        policy.maxInMemory = 5
        let clock = ManualClock()
        // A collector that hangs keeps the first five in memory.
        let queue = try BeaconQueue(
            http: InMemoryHTTPClient(routes: [:], clock: clock).hangingEverything(), clock: clock, policy: policy,
            logger: logger, now: now)
        queue.enqueue(beacons(8))
        #expect(await queue.statistics.dropped == 3)
        #expect(logger.lines.filter { $0.contains("queue full and no journal") }.count == 3)
        _ = collector
        await queue.shutDown()
    }

    @Test func thirtyPercentFailuresLoseNothingAndCountNothingTwice() async throws {
        let clock = ManualClock()
        // Three attempts in ten fail, by each beacon's own attempt count: a
        // pattern on the collector's global call count made the test depend
        // on how the lanes interleaved (with no jitter, lanes retrying in
        // step could land one of them on a failing call every time until it
        // was dropped after its tenth attempt, as a loaded CI machine once did).
        let attempts = AttemptCounts()
        let collector = ScriptedCollector { _, request in
            let key = request.headers["Idempotency-Key"] ?? ""
            let attempt = attempts.next(key)
            let start = key.utf8.reduce(0) { ($0 &* 31 &+ Int($1)) & 0xFFFF }
            switch (start + 7 * attempt) % 10 {
            case 1, 4: return .failure(.unreachable("reset"))
            case 7: return .success(503)
            default: return .success(204)
            }
        }
        let queue = try BeaconQueue(
            http: collector, clock: clock, storage: InMemoryJournalStorage(), policy: .forSimulation, now: now,
            jitter: { 0 })
        for ad in 0..<50 { queue.enqueue(beacons(20, ad: "ad\(ad)")) }
        await drain(queue, clock: clock)
        #expect(collector.delivered.count == 1000)
        #expect(collector.duplicateDeliveries == 0)
        #expect(await queue.statistics.dropped == 0)
        #expect(await queue.statistics.retried > 200)
    }
}

/// Attempts seen per idempotency key.
final class AttemptCounts: @unchecked Sendable {
    private let lock = NSLock()
    private var counts: [String: Int] = [:]

    /// Counts one more attempt for `key` and returns its number (1-based).
    func next(_ key: String) -> Int {
        lock.withLock {
            counts[key, default: 0] += 1
            return counts[key]!
        }
    }
}

final class RecordingLogger: AdLogger, @unchecked Sendable {
    private let lock = NSLock()
    private var recorded: [String] = []
    func log(_ level: AdLogLevel, _ message: String) {
        lock.withLock { recorded.append("\(level.rawValue): \(message)") }
    }
    var lines: [String] { lock.withLock { recorded } }
}

extension InMemoryHTTPClient {
    func hangingEverything() -> InMemoryHTTPClient {
        fallback = .hang
        return self
    }
}
