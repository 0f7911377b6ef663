import Foundation
import InterludeTestSupport
import Testing

@testable import Interlude

/// A custom client that never looks at cancellation: it answers only when
/// the test opens its gate (as a client on a blocking transport would).
/// Every field is guarded by `lock`, so the unchecked conformance is sound.
private final class UncooperativeClient: HTTPClient, @unchecked Sendable {
    private let lock = NSLock()
    private var waiters: [CheckedContinuation<Void, Never>] = []
    private var isOpen = false
    private(set) var calls = 0

    func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        await withCheckedContinuation { continuation in
            let resumeNow = lock.withLock { () -> Bool in
                calls += 1
                if isOpen { return true }
                waiters.append(continuation)
                return false
            }
            if resumeNow { continuation.resume() }
        }
        return HTTPResponse(statusCode: 204, url: request.url)
    }

    var waiting: Int { lock.withLock { waiters.count } }

    func open() {
        let released = lock.withLock { () -> [CheckedContinuation<Void, Never>] in
            isOpen = true
            defer { waiters = [] }
            return waiters
        }
        for waiter in released { waiter.resume() }
    }
}

/// What a task ended with, readable without awaiting it.
/// Every field is guarded by `lock`, so the unchecked conformance is sound.
private final class Outcome: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Result<HTTPResponse, any Error>?
    func set(_ result: Result<HTTPResponse, any Error>) { lock.withLock { value = result } }
    var result: Result<HTTPResponse, any Error>? { lock.withLock { value } }

    /// Yields until a result is in (or the yields run out).
    func wait(maxYields: Int = 100_000) async -> Result<HTTPResponse, any Error>? {
        for _ in 0..<maxYields {
            if let result { return result }
            await Task.yield()
        }
        return result
    }
}

@Suite("HTTP deadlines and cancellation")
struct HTTPDeadlineTests {
    private let request = HTTPRequest(url: URL(string: "http://127.0.0.1:9/slow")!, timeout: 5)

    @Test func aClientThatIgnoresCancellationStillTimesOutOnTheSDKClock() async throws {
        let clock = ManualClock()
        let client = UncooperativeClient()
        let outcome = Outcome()
        let request = request
        let call = Task {
            do { outcome.set(.success(try await client.send(request, deadlineOn: clock))) } catch {
                outcome.set(.failure(error))
            }
        }
        await clock.waitForSleepers(1)
        clock.advance(by: 5)
        let result = await outcome.wait()
        // Let the stuck client go, so that a failing run does not hang the suite.
        client.open()
        _ = await call.value
        guard case .failure(let error)? = result else {
            Issue.record("the deadline passed and the call had not ended: \(String(describing: result))")
            return
        }
        #expect(error as? HTTPClientError == .timedOut)
    }

    @Test func cancellingTheCallerIsReportedAsCancelledNotAsATimeout() async throws {
        let clock = ManualClock()
        let client = InMemoryHTTPClient(routes: [:], clock: clock).hangingEverything()
        let request = request
        let call = Task { try await client.send(request, deadlineOn: clock) }
        await clock.waitForSleepers(2)  // the client's hang and the deadline
        call.cancel()
        await #expect(throws: HTTPClientError.cancelled) { try await call.value }
    }

    @Test func cancellingEndsTheCallEvenWhenTheClientIgnoresIt() async throws {
        let clock = ManualClock()
        let client = UncooperativeClient()
        let outcome = Outcome()
        let request = request
        let call = Task {
            do { outcome.set(.success(try await client.send(request, deadlineOn: clock))) } catch {
                outcome.set(.failure(error))
            }
        }
        await clock.waitForSleepers(1)
        call.cancel()
        let result = await outcome.wait()
        client.open()
        _ = await call.value
        guard case .failure(let error)? = result else {
            Issue.record("cancelled, and the call had not ended: \(String(describing: result))")
            return
        }
        #expect(error as? HTTPClientError == .cancelled)
    }

    @Test func anAnswerBeforeTheDeadlineIsReturned() async throws {
        let clock = ManualClock()
        let client = InMemoryHTTPClient(
            routes: ["http://127.0.0.1:9/slow": .delayed(2, .status(204, ""))], clock: clock)
        let request = request
        let call = Task { try await client.send(request, deadlineOn: clock) }
        await clock.waitForSleepers(2)
        clock.advance(by: 2)
        #expect(try await call.value.statusCode == 204)
        // The deadline's timer went with the race.
        for _ in 0..<1000 where clock.sleeperCount > 0 { await Task.yield() }
        #expect(clock.sleeperCount == 0)
    }
}
