import Foundation
import InterludeTestSupport
import Testing

@testable import InterludeServer

/// The sender's pure parts: what an attempt's answer means, backoff, the URL
/// it sends, and how the socket transport reads a URL.
@Suite struct PodServingBeaconSenderTests {
    private let policy = BeaconRetryPolicy(initialDelay: 1, maxDelay: 300, maxAttempts: 20)

    @Test func successRedirectAndPermanentFailureEndABeacon() {
        #expect(BeaconSender.outcome(status: 204, attempts: 1, policy: policy) == .delivered)
        #expect(BeaconSender.outcome(status: 302, attempts: 1, policy: policy) == .delivered)
        #expect(BeaconSender.outcome(status: 404, attempts: 1, policy: policy) == .abandon(reason: "HTTP 404"))
    }

    @Test func serverErrorsTimeoutsAndThrottlingAreRetriedWithDoublingDelays() {
        #expect(BeaconSender.outcome(status: 503, attempts: 1, policy: policy) == .retry(after: 1, reason: "HTTP 503"))
        #expect(BeaconSender.outcome(status: 429, attempts: 3, policy: policy) == .retry(after: 4, reason: "HTTP 429"))
        #expect(
            BeaconSender.outcome(failure: "reset", attempts: 2, policy: policy) == .retry(after: 2, reason: "reset"))
        #expect(policy.delay(afterAttempt: 12) == 300)
        #expect(
            BeaconSender.outcome(status: 500, attempts: 20, policy: policy)
                == .abandon(reason: "HTTP 500 after 20 attempts"))
    }

    @Test func theSentURLHasThisServerAndTheMacrosAServerKnows() {
        let beacon = PodOutboxBeacon(
            streamID: "s", eventID: "e", index: 0,
            url: DocumentTemplate.baseURLSentinel
                + "/track/s/pod_1_ad1/impression?cb=[CACHEBUSTING]&t=[TIMESTAMP]&ph=[ADPLAYHEAD]&asset=[ASSETURI]&x=[UNKNOWNMACRO]",
            idempotencyKey: "e-0", eventTime: Date(timeIntervalSince1970: 1_800_000_000.25), adPlayhead: 7_500,
            attempts: 0)
        let url = BeaconSender.render(beacon, baseURL: "http://127.0.0.1:8080")
        #expect(url.hasPrefix("http://127.0.0.1:8080/track/s/pod_1_ad1/impression?cb="))
        #expect(url.contains("&t=2027-01-15T08%3A00%3A00.250Z&ph=00%3A00%3A07.500&asset=-1&x=%5BUNKNOWNMACRO%5D"))
        let cacheBuster = url.split(separator: "&").first?.split(separator: "=").last ?? ""
        #expect(cacheBuster.count == 8 && cacheBuster.allSatisfy(\.isNumber))
    }

    /// Counts what reaches it.
    final class RecordingTransport: BeaconTransport {
        let sent = Locked<[String]>([])
        func send(url: String, idempotencyKey: String) throws(BeaconTransportError) -> Int {
            sent.withLock { $0.append(url) }
            return 204
        }
    }

    @Test func beaconsToThisServerAreAnsweredByItsRoutesAndOthersGoOn() throws {
        let directory = TemporaryDirectory()
        let store = try BeaconStore(path: directory.url.appendingPathComponent("beacons.sqlite").path)
        defer {
            store.close()
            directory.remove()
        }
        var router = Router()
        router.add("GET", "/track/:session/:ad/:event") { request, parameters in
            store.record(
                IncomingBeacon(
                    session: parameters["session"] ?? "", ad: parameters["ad"] ?? "", event: parameters["event"] ?? "",
                    receivedAt: Date(), rawQuery: request.rawQuery,
                    idempotencyKey: request.headers["Idempotency-Key"]))
            return .noContent
        }
        let next = RecordingTransport()
        let transport = InProcessBeaconTransport(baseURL: "http://127.0.0.1:8080", router: router, next: next)
        #expect(try transport.send(url: "http://127.0.0.1:8080/track/s/a/start?cb=1", idempotencyKey: "k-0") == 204)
        #expect(try transport.send(url: "http://127.0.0.1:8080/nowhere", idempotencyKey: "k-1") == 404)
        #expect(try transport.send(url: "http://127.0.0.1:8081/track/s/a/start", idempotencyKey: "k-2") == 204)
        #expect(try transport.send(url: "https://tracker.example/p", idempotencyKey: "k-3") == 204)
        #expect(next.sent.withLock { $0 } == ["http://127.0.0.1:8081/track/s/a/start", "https://tracker.example/p"])
        let stored = try store.beacons(session: "s")
        #expect(stored.map(\.idempotencyKey) == ["k-0"])
        #expect(stored.first?.query == "cb=1")
    }

    @Test(arguments: [
        ("http://127.0.0.1:8080/track/a?b=c", "127.0.0.1", 8080, "127.0.0.1:8080", "/track/a?b=c"),
        ("http://example.com", "example.com", 80, "example.com", "/"),
        ("http://example.com?x=1", "example.com", 80, "example.com", "/?x=1"),
        ("http://[::1]:9000/p#frag", "::1", 9000, "[::1]:9000", "/p"),
    ])
    func theSocketTransportReadsHostPortAndTarget(
        url: String, host: String, port: Int, authority: String, target: String
    ) {
        let parts = HTTPBeaconTransport.split(url)
        #expect(parts?.host == host)
        #expect(parts?.port == port)
        #expect(parts?.authority == authority)
        #expect(parts?.target == target)
    }

    @Test(arguments: ["http:///path", "http://host:99999/", "http://host:x/", "http://user@host/", "http://[::1/"])
    func urlsWithoutAUsableHostAreRefused(url: String) {
        #expect(HTTPBeaconTransport.split(url) == nil)
    }

    @Test(arguments: [
        (0.0, "1970-01-01T00:00:00.000Z"), (951_782_400.5, "2000-02-29T00:00:00.500Z"),
        (1_800_028_800.999, "2027-01-15T16:00:00.999Z"), (4_102_444_799, "2099-12-31T23:59:59.000Z"),
    ])
    func timesAreWrittenInUTCWithMilliseconds(seconds: Double, text: String) {
        #expect(PodTimeFormat.iso8601(Date(timeIntervalSince1970: seconds)) == text)
    }
}
