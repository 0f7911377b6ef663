import Foundation
import InterludeServerTestSupport
import InterludeTestSupport
import Testing

@testable import InterludeServer

/// Media verification in every state, and the server-side beacons the
/// first verification of each event fires.
@Suite struct PodServingVerificationTests {
    private typealias Test = PodServingTest

    @Test func firstVerificationIs204AndEveryLaterOne404() throws {
        let (server, directory) = try Test.start()
        defer {
            server.shutdown()
            directory.remove()
        }
        let (id, metadata) = try Test.vodStreamWithPods(port: server.port)
        let events = Test.eventIDs(metadata)
        #expect(events.count == 30)  // three 30 s pods of alpha (6 s) and bravo (10 s), five events an ad
        let first = try #require(events.first)
        #expect(try Test.verify(id, first, port: server.port) == 204)
        #expect(try Test.verify(id, first, port: server.port) == 404)
        #expect(try Test.verify(id, first, port: server.port) == 404)
    }

    @Test func unknownMalformedForeignAndExpiredEventsAre404() throws {
        let clock = PodTestClock()
        let (server, directory) = try Test.start(clock: clock.serverClock)
        defer {
            server.shutdown()
            directory.remove()
        }
        let (id, metadata) = try Test.vodStreamWithPods(port: server.port)
        let (other, otherMetadata) = try Test.vodStreamWithPods(port: server.port)
        let event = try #require(Test.eventIDs(metadata).first)
        let foreign = try #require(Test.eventIDs(otherMetadata).first)
        #expect(try Test.verify(id, foreign, port: server.port) == 404)
        #expect(try Test.verify(other, event, port: server.port) == 404)
        #expect(try Test.verify(id, "google_123", port: server.port) == 404)
        #expect(try Test.verify(id, "..%2F..%2Fetc%2Fpasswd", port: server.port) == 404)
        #expect(try Test.verify("not-a-stream", event, port: server.port) == 404)
        #expect(try Test.verify("11111111-2222-4333-8444-555555555555", event, port: server.port) == 404)
        // A well-formed ID of this stream's digest that no decision made.
        let parsed = try #require(PodEventID.parse(event, streamID: id))
        let unmade = PodEventID.make(streamID: id, breakDigest: parsed.breakDigest, position: 9, type: .midpoint)
        #expect(try Test.verify(id, unmade, port: server.port) == 404)
        clock.advance(by: 8 * 3600)
        #expect(try Test.verify(id, event, port: server.port) == 404)
        #expect(try Loopback.get("/pods/v1/streams/\(id)/metadata", port: server.port).status == 410)
        let report = try Test.json(try Loopback.get("/api/streams/\(id)", port: server.port))
        #expect(report["expired"] as? Bool == true)
        #expect(report["events_verified"] as? Int == 0)
    }

    @Test func verificationWhileTheDecisionIsWrittenIs202AndTakesEffectWhenItIs() throws {
        let (server, directory) = try Test.start()
        defer {
            server.shutdown()
            directory.remove()
        }
        let id = try Test.register(Test.vodPath, port: server.port)
        let stream = try #require(try server.sessionStore.stream(id: id))
        // Another writer (as a second server would) claims vod_0 and has not finished.
        let other = try SQLiteSessionStore(path: directory.url.appendingPathComponent("streams.sqlite").path)
        defer { other.close() }
        let digest = PodEventID.breakDigest(streamID: id, breakID: "vod_0")
        #expect(try other.claimDecision(streamID: id, breakID: "vod_0", breakDigest: digest, at: Date(), staleAfter: 5))
        let start = PodEventID.make(streamID: id, breakDigest: digest, position: 1, type: .start)
        #expect(try Test.verify(id, start, port: server.port) == 202)
        #expect(try Test.verify(id, start, port: server.port) == 404)
        // The writer finishes: the early verification is applied, beacons go.
        let decision = PodDecisioner(catalog: Test.catalog).decide(
            stream: stream, breakID: "vod_0", requestedDuration: 30_000, slate: .never, at: Date())
        _ = try other.completeDecision(decision, at: Date())
        #expect(try Test.verify(id, start, port: server.port) == 404)
        #expect(server.waitForServerSideBeacons(timeout: 30))
        let beacons = try server.store.beacons(session: id)
        #expect(beacons.map(\.event).sorted() == ["creativeView", "impression", "start"])
        #expect(beacons.allSatisfy { $0.ad == "vod_0_ad1" })
    }

    @Test func eachFirstVerificationFiresItsAdsTrackingOnceWithTheStreamAsSession() throws {
        let (server, directory) = try Test.start()
        defer {
            server.shutdown()
            directory.remove()
        }
        let (id, metadata) = try Test.vodStreamWithPods(port: server.port)
        let events = Test.eventIDs(metadata)
        for event in events { #expect(try Test.verify(id, event, port: server.port) == 204) }
        for event in events { #expect(try Test.verify(id, event, port: server.port) == 404) }
        #expect(server.waitForServerSideBeacons(timeout: 30))
        let beacons = try server.store.beacons(session: id)
        // Per ad: impression, creativeView, start, three quartiles, complete.
        #expect(beacons.count == 6 * 7)
        for pod in 0..<3 {
            for position in 1...2 {
                let ad = beacons.filter { $0.ad == "vod_\(pod)_ad\(position)" }.map(\.event).sorted()
                #expect(
                    ad == [
                        "complete", "creativeView", "firstQuartile", "impression", "midpoint", "start", "thirdQuartile",
                    ])
            }
        }
        #expect(Set(beacons.compactMap(\.idempotencyKey)).count == beacons.count)
        #expect(beacons.allSatisfy { $0.macros["CACHEBUSTING"]?.count == 8 && $0.macros["TIMESTAMP"] != nil })
        let quartiles = Set(beacons.filter { $0.event == "firstQuartile" }.compactMap { $0.macros["ADPLAYHEAD"] })
        #expect(quartiles == ["00:00:01.500", "00:00:02.500"])
        let report = try Test.json(try Loopback.get("/api/streams/\(id)", port: server.port))
        #expect(report["events_verified"] as? Int == 30)
        let totals = try #require(report["beacons"] as? [String: Any])
        #expect(totals["sent"] as? Int == 42)
        #expect(totals["pending"] as? Int == 0)
    }

    @Test func concurrentDuplicateVerificationsFireBeaconsExactlyOnce() throws {
        let (server, directory) = try Test.start(options: PodServingOptions(beaconRetry: Test.fastRetry))
        defer {
            server.shutdown()
            directory.remove()
        }
        let (id, metadata) = try Test.vodStreamWithPods(port: server.port)
        let events = Test.eventIDs(metadata)
        let statuses = Locked<[String: [Int]]>([:])
        DispatchQueue.concurrentPerform(iterations: events.count * 8) { index in
            let event = events[index % events.count]
            let status = (try? Test.verify(id, event, port: server.port)) ?? -1
            statuses.withLock { $0[event, default: []].append(status) }
        }
        for event in events {
            let seen = statuses.withLock { $0[event] ?? [] }
            #expect(seen.filter { $0 == 204 }.count == 1, "\(event): \(seen)")
            #expect(seen.filter { $0 == 404 }.count == 7, "\(event): \(seen)")
        }
        #expect(server.waitForServerSideBeacons(timeout: 30))
        #expect(try server.store.beacons(session: id).count == 42)
    }
}
