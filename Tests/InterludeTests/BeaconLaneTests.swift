import Foundation
import InterludeTestSupport
import Testing

@testable import Interlude

/// A collector that answers by URL, with headers, and records when each URL
/// was asked. Every field is guarded by `lock`, so the unchecked conformance is sound.
private final class HostCollector: HTTPClient, @unchecked Sendable {
    private let lock = NSLock()
    private let clock: ManualClock
    private let answer: @Sendable (HTTPRequest, Int) -> (status: Int, headers: [String: String])
    private var calls: [(url: String, time: TimeInterval)] = []

    /// `answer` gets the request and how many times its URL was asked before.
    init(
        clock: ManualClock,
        answer: @escaping @Sendable (HTTPRequest, Int) -> (status: Int, headers: [String: String])
    ) {
        self.clock = clock
        self.answer = answer
    }

    func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        let (status, headers) = lock.withLock { () -> (Int, [String: String]) in
            let url = request.url.absoluteString
            let earlier = calls.filter { $0.url == url }.count
            calls.append((url, clock.now))
            return answer(request, earlier)
        }
        return HTTPResponse(statusCode: status, headers: headers, url: request.url)
    }

    /// Clock times at which `url` was asked.
    func times(of url: String) -> [TimeInterval] { lock.withLock { calls.filter { $0.url == url }.map(\.time) } }
    /// URLs in the order they were asked.
    var urls: [String] { lock.withLock { calls.map(\.url) } }
}

/// What the queue reported delivered, in order. Guarded by `lock`.
private final class DeliveryLog: @unchecked Sendable {
    private let lock = NSLock()
    private var entries: [String] = []
    func record(_ beacon: Beacon, _ delivery: BeaconQueue.Delivery) {
        lock.withLock { entries.append("\(delivery.rawValue) \(beacon.url)") }
    }
    var lines: [String] { lock.withLock { entries } }
}

private func beacon(_ url: String, event: String = "e", ad: String = "x") -> Beacon {
    Beacon(
        url: url, event: event, adID: ad, idempotencyKey: "\(ad) \(url)", createdAt: Date(timeIntervalSince1970: 1000))
}

/// Yields until `done` holds (or the yields run out), without moving the clock.
private func settle(maxYields: Int = 200_000, until done: () -> Bool) async {
    for _ in 0..<maxYields where !done() { await Task.yield() }
}

/// One dead tracking URL must not hold back an ad's other beacons.
@Suite("Beacon lanes: order per ad and host, capped retries")
struct BeaconLaneTests {
    let now: @Sendable () -> Date = { Date(timeIntervalSince1970: 1000) }

    @Test func aDeadHostDelaysOnlyItsOwnBeaconsNotTheAdsOthers() async throws {
        let clock = ManualClock()
        let collector = HostCollector(clock: clock) { request, _ in
            (request.url.host == "dead.test" ? 503 : 204, [:])
        }
        let log = DeliveryLog()
        let queue = try BeaconQueue(
            http: collector, clock: clock, storage: InMemoryJournalStorage(), policy: .forSimulation, now: now)
        await queue.setObserver { log.record($0, $1) }
        queue.enqueue([
            beacon("http://dead.test/impression"), beacon("http://good.test/impression"),
            beacon("http://good.test/start"), beacon("http://good.test/firstQuartile"),
        ])
        await settle { log.lines.count >= 3 }
        // At once, with the clock never moved: the dead host's first answer was a 503 and it waits to retry.
        #expect(
            log.lines == [
                "delivered http://good.test/impression", "delivered http://good.test/start",
                "delivered http://good.test/firstQuartile",
            ])
        #expect(clock.now == 0)
        #expect(collector.times(of: "http://dead.test/impression") == [0])
        await queue.shutDown()
    }

    @Test func orderIsKeptPerHostWithinAnAd() async throws {
        let clock = ManualClock()
        // Every beacon to a.test is refused once (503), then taken; b.test takes everything at once.
        let collector = HostCollector(clock: clock) { request, earlier in
            (request.url.host == "a.test" && earlier == 0 ? 503 : 204, [:])
        }
        let log = DeliveryLog()
        let queue = try BeaconQueue(
            http: collector, clock: clock, storage: InMemoryJournalStorage(), policy: .forSimulation, now: now,
            jitter: { 1 })
        await queue.setObserver { log.record($0, $1) }
        let urls = (0..<4).flatMap { ["http://a.test/\($0)", "http://b.test/\($0)"] }
        queue.enqueue(urls.map { beacon($0) })
        // b.test is not held back by a.test's retry: all four go at once, with the clock not moved.
        await settle { log.lines.count >= 4 }
        #expect(log.lines == (0..<4).map { "delivered http://b.test/\($0)" })
        await drain(queue, clock: clock)
        let delivered = log.lines.map { String($0.dropFirst("delivered ".count)) }
        #expect(delivered.filter { $0.contains("a.test") } == (0..<4).map { "http://a.test/\($0)" })
        // Each a.test beacon waited for the one before it: refused at n, taken at n + 1.
        #expect((0..<4).map { collector.times(of: "http://a.test/\($0)") } == [[0, 1], [1, 2], [2, 3], [3, 4]])
    }

    @Test func aBeaconIsDroppedAfterItsLastAttemptAndItsLaneMovesOn() async throws {
        let clock = ManualClock()
        let collector = HostCollector(clock: clock) { request, _ in (request.url.path == "/broken" ? 500 : 204, [:]) }
        let logger = RecordingLogger()
        var policy = BeaconQueue.Policy.forSimulation
        policy.maxAttempts = 3
        let queue = try BeaconQueue(
            http: collector, clock: clock, storage: InMemoryJournalStorage(), policy: policy, logger: logger,
            now: now, jitter: { 1 })
        queue.enqueue([beacon("http://h.test/broken", event: "start"), beacon("http://h.test/after")])
        await drain(queue, clock: clock)
        // Three attempts, 1 s and 2 s apart; then the next beacon of the lane.
        #expect(collector.times(of: "http://h.test/broken") == [0, 1, 3])
        #expect(collector.times(of: "http://h.test/after") == [3])
        let statistics = await queue.statistics
        #expect(statistics.dropped == 1 && statistics.delivered == 1 && statistics.pending == 0)
        #expect(logger.lines.contains { $0.contains("dropped start for ad x after 3 attempts: http://h.test/broken") })
    }

    @Test func errorPingsToDifferentHostsDoNotWaitForEachOther() async throws {
        let clock = ManualClock()
        let http = InMemoryHTTPClient(
            routes: ["http://hangs.test/error": .hang, "http://ok.test/error": .status(204, "")], clock: clock)
        let log = DeliveryLog()
        let queue = try BeaconQueue(http: http, clock: clock, policy: .forSimulation, now: now)
        await queue.setObserver { log.record($0, $1) }
        // The loader files every load-time error ping under one ad id.
        queue.enqueue([
            beacon("http://hangs.test/error", event: "error", ad: "load"),
            beacon("http://ok.test/error", event: "error", ad: "load"),
        ])
        await settle { !log.lines.isEmpty }
        #expect(log.lines == ["delivered http://ok.test/error"])
        await queue.shutDown()
    }

    /// When each attempt of one beacon was made, its first answer a 503 with `retryAfter`.
    private func attemptTimes(firstAnswerRetryAfter retryAfter: String) async throws -> [TimeInterval] {
        let clock = ManualClock()
        let collector = HostCollector(clock: clock) { _, earlier in
            earlier == 0 ? (503, ["Retry-After": retryAfter]) : (204, [:])
        }
        let queue = try BeaconQueue(
            http: collector, clock: clock, storage: InMemoryJournalStorage(), policy: .forSimulation, now: now,
            jitter: { 1 })
        queue.enqueue([beacon("http://c.test/track")])
        await drain(queue, clock: clock)
        return collector.times(of: "http://c.test/track")
    }

    @Test func aServersRetryAfterIsWaitedForUpToTheLongestDelay() async throws {
        // A full collector asks for 30 s (the backoff alone would retry after 1 s).
        #expect(try await attemptTimes(firstAnswerRetryAfter: "30") == [0, 30])
        // An hour is capped at maxRetryDelay (60 s); junk is ignored.
        #expect(try await attemptTimes(firstAnswerRetryAfter: "3600") == [0, 60])
        #expect(try await attemptTimes(firstAnswerRetryAfter: "soon") == [0, 1])
    }

    @Test func theDestinationIsTheLowercasedHostAndPort() {
        #expect(beacon("HTTP://User:pw@Ads.Example.TEST:8080/t?u=http://x/y").destination == "ads.example.test:8080")
        #expect(beacon("https://a.test?x=1").destination == "a.test")
        #expect(beacon("http://[::1]:9/p").destination == "[::1]:9")
    }

    /// ASCII URLs are read on their bytes, others by characters: the same
    /// rules either way (RFC 3986 §3.2: authority after `//`, userinfo
    /// before the last `@`, ends at `/`, `?` or `#`; host case-insensitive).
    @Test func theDestinationIsReadAlikeFromASCIIAndOtherURLs() {
        #expect(beacon("https://Tracker.Ünïcode.test/p?q=ß").destination == "tracker.ünïcode.test")
        #expect(beacon("https://TRACKER.test/p?q=ß").destination == "tracker.test")
        #expect(beacon("https://u@a.test#frag").destination == "a.test")
        #expect(beacon("HTTPS://A.TEST").destination == "a.test")
        // No scheme: the text up to the first `/` (what the character reading gives).
        #expect(beacon("A.test/p").destination == "a.test")
        #expect(beacon("").destination == "")
    }
}
