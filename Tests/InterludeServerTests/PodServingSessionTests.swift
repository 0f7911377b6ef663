import Foundation
import InterludeServerTestSupport
import InterludeTestSupport
import Testing

@testable import InterludeServer

/// Sessions in the shared store: they outlive a restart, two servers on one
/// data directory serve a stream interchangeably, and server-side beacons
/// arrive exactly once through restarts and a failing network.
@Suite struct PodServingSessionTests {
    private typealias Test = PodServingTest

    @Test func streamsAndDecisionsSurviveARestart() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        var (server, _) = try Test.start(directory: directory)
        let (id, before) = try Test.vodStreamWithPods(port: server.port)
        let event = try #require(Test.eventIDs(before).first)
        #expect(try Test.verify(id, event, port: server.port) == 204)
        server.shutdown()
        (server, _) = try Test.start(directory: directory)
        defer { server.shutdown() }
        let after = try Test.json(try Loopback.get("/pods/v1/streams/\(id)/metadata", port: server.port))
        #expect(Test.eventIDs(after) == Test.eventIDs(before))
        #expect((after["breaks"] as? [[String: Any]])?.count == 3)
        #expect(try Test.verify(id, event, port: server.port) == 404)
        #expect(try Test.verify(id, Test.eventIDs(after)[1], port: server.port) == 204)
    }

    @Test func twoServersOnOneDataDirectoryServeAStreamInterchangeably() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let (first, _) = try Test.start(directory: directory)
        defer { first.shutdown() }
        let (second, _) = try Test.start(directory: directory)
        defer { second.shutdown() }
        let id = try Test.register(Test.vodPath, port: first.port)
        // The VTP asks the second server for pods of a stream the first registered.
        let body = """
            {"encoding_profiles":[{"profile_name":"360p"}],"ad_tag":"https://example.com/vmap",
             "cuepoints":[0,30],"content_duration_seconds":60}
            """
        let pods = try Test.post(
            "/ondemand/pods/api/v1/network/interlude/streams/\(id)/adpods", port: second.port, body: body,
            contentType: "application/json")
        #expect(pods.status == 200, "\(pods.text)")
        // Both answer the same timeline (links aside, which name the server asked).
        let fromFirst = try Test.json(try Loopback.get("/pods/v1/streams/\(id)/metadata", port: first.port))
        let fromSecond = try Test.json(try Loopback.get("/pods/v1/streams/\(id)/metadata", port: second.port))
        #expect(Test.eventIDs(fromFirst) == Test.eventIDs(fromSecond))
        #expect(Test.eventIDs(fromFirst).count == 20)
        // Half the events verified on one, half on the other; each only once overall.
        let events = Test.eventIDs(fromFirst)
        for (index, event) in events.enumerated() {
            let (here, there) = index % 2 == 0 ? (first, second) : (second, first)
            #expect(try Test.verify(id, event, port: here.port) == 204)
            #expect(try Test.verify(id, event, port: there.port) == 404)
        }
        #expect(first.waitForServerSideBeacons(timeout: 30))
        #expect(second.waitForServerSideBeacons(timeout: 30))
        // Each server's collector batches what it received before writing: reading
        // through one writes only its own batch, so the other's is written first
        // (under load the second's batch was still in memory when the first read).
        _ = try second.store.beacons(session: id)
        #expect(try first.store.beacons(session: id).count == 4 * 7)
        let report = try Test.json(try Loopback.get("/api/streams/\(id)", port: second.port))
        #expect(report["events_verified"] as? Int == 20)
    }

    @Test func beaconsQueuedBeforeARestartAreSentOnceAfterIt() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        var (server, _) = try Test.start(
            directory: directory, options: PodServingOptions(beaconRetry: Test.fastRetry, sendsBeacons: false))
        let (id, metadata) = try Test.vodStreamWithPods(port: server.port)
        for event in Test.eventIDs(metadata) { #expect(try Test.verify(id, event, port: server.port) == 204) }
        #expect(try server.store.beacons(session: id).isEmpty)
        server.shutdown()
        (server, _) = try Test.start(directory: directory)
        defer { server.shutdown() }
        #expect(server.waitForServerSideBeacons(timeout: 30))
        let beacons = try server.store.beacons(session: id)
        #expect(beacons.count == 6 * 7)
        #expect(Set(beacons.compactMap(\.idempotencyKey)).count == beacons.count)
    }

    @Test func beaconsLeasedByAServerThatDiedGoOutOnceFromAnother() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let (server, _) = try Test.start(
            directory: directory, options: PodServingOptions(beaconRetry: Test.fastRetry, sendsBeacons: false))
        let (id, metadata) = try Test.vodStreamWithPods(port: server.port)
        for event in Test.eventIDs(metadata) { #expect(try Test.verify(id, event, port: server.port) == 204) }
        // A sender takes every beacon and dies before sending any (its lease is 2 s).
        let taken = try server.sessionStore.claimDueBeacons(owner: "dead", at: Date(), leaseFor: 2, limit: 1000)
        #expect(taken.count == 42)
        server.shutdown()
        let (restarted, _) = try Test.start(directory: directory)
        defer { restarted.shutdown() }
        #expect(restarted.waitForServerSideBeacons(timeout: 30))
        #expect(try restarted.store.beacons(session: id).count == 42)
    }

    @Test func beaconsThroughAThirtyPercentFailingNetworkAreRecordedOnce() throws {
        let flaky = FlakyBeaconTransport(base: HTTPBeaconTransport())
        let (server, directory) = try Test.start(
            options: PodServingOptions(beaconTransport: flaky, beaconRetry: Test.fastRetry))
        defer {
            server.shutdown()
            directory.remove()
        }
        var expected = 0
        var streams: [String] = []
        for _ in 0..<4 {
            let (id, metadata) = try Test.vodStreamWithPods(port: server.port)
            for event in Test.eventIDs(metadata) { #expect(try Test.verify(id, event, port: server.port) == 204) }
            streams.append(id)
            expected += 42
        }
        #expect(server.waitForServerSideBeacons(timeout: 60))
        var stored = 0
        for id in streams {
            let beacons = try server.store.beacons(session: id)
            #expect(Set(beacons.compactMap(\.idempotencyKey)).count == beacons.count)
            stored += beacons.count
        }
        #expect(stored == expected)
        #expect(flaky.failures >= expected / 4)
        #expect(flaky.ambiguous >= expected / 20)
        for id in streams {
            let report = try Test.json(try Loopback.get("/api/streams/\(id)", port: server.port))
            let totals = try #require(report["beacons"] as? [String: Any])
            #expect(totals["sent"] as? Int == 42)
            #expect(totals["abandoned"] as? Int == 0)
        }
    }
}

/// Fails 30% of sends: two in ten before sending, one in ten after the
/// collector stored the beacon (the lost answer idempotency keys are for).
final class FlakyBeaconTransport: BeaconTransport {
    private struct Counts {
        var calls = 0
        var failures = 0
        var ambiguous = 0
    }

    let base: any BeaconTransport
    private let counts = Locked(Counts())

    init(base: any BeaconTransport) { self.base = base }

    var failures: Int { counts.withLock { $0.failures } }
    var ambiguous: Int { counts.withLock { $0.ambiguous } }

    func send(url: String, idempotencyKey: String) throws(BeaconTransportError) -> Int {
        let call = counts.withLock { counts -> Int in
            counts.calls += 1
            return counts.calls
        }
        switch call % 10 {
        case 1, 4:
            counts.withLock { $0.failures += 1 }
            throw BeaconTransportError("injected failure")
        case 7:
            _ = try base.send(url: url, idempotencyKey: idempotencyKey)
            counts.withLock {
                $0.failures += 1
                $0.ambiguous += 1
            }
            throw BeaconTransportError("injected: answer lost")
        default:
            return try base.send(url: url, idempotencyKey: idempotencyKey)
        }
    }
}
