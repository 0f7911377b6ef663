import Foundation
import InterludeTestSupport
import Testing

@testable import InterludeServer

/// The SQLite session store on its own: claims, once-only writes and
/// verifications, leases and purging, with two connections standing in for
/// two servers.
@Suite struct PodServingSessionStoreTests {
    private func stores() throws -> (SQLiteSessionStore, SQLiteSessionStore, TemporaryDirectory) {
        let directory = TemporaryDirectory()
        let path = directory.url.appendingPathComponent("streams.sqlite").path
        return (try SQLiteSessionStore(path: path), try SQLiteSessionStore(path: path), directory)
    }

    private let now = Date(timeIntervalSince1970: 1_800_000_000)

    private func stream(_ id: String = "0b0e1d2c-3a4f-4b5c-8d6e-7f8091a2b3c4", expiresIn: Double = 3600) -> PodStream {
        PodStream(
            id: id, kind: .live, networkCode: "interlude", customAssetKey: "interlude-live", targeting: [:],
            createdAt: now, expiresAt: now.addingTimeInterval(expiresIn))
    }

    private func decision(for stream: PodStream, breakID: String = "pod_1") -> PodBreakDecision {
        PodDecisioner(catalog: .builtIn).decide(
            stream: stream, breakID: breakID, requestedDuration: 30_000, slate: .toRequestedDuration, at: now)
    }

    @Test func aBreakIsClaimedByOneWriterUntilItsClaimGoesStale() throws {
        let (one, two, directory) = try stores()
        defer {
            one.close()
            two.close()
            directory.remove()
        }
        let stream = stream()
        try one.insert(stream)
        let digest = PodEventID.breakDigest(streamID: stream.id, breakID: "pod_1")
        #expect(
            try one.claimDecision(streamID: stream.id, breakID: "pod_1", breakDigest: digest, at: now, staleAfter: 5))
        #expect(
            !(try two.claimDecision(streamID: stream.id, breakID: "pod_1", breakDigest: digest, at: now, staleAfter: 5))
        )
        #expect(try two.decisionState(streamID: stream.id, breakID: "pod_1") == .pending(claimedAt: now))
        // The first writer is gone: after the stale time the second takes over.
        #expect(
            try two.claimDecision(
                streamID: stream.id, breakID: "pod_1", breakDigest: digest, at: now.addingTimeInterval(6),
                staleAfter: 5))
    }

    @Test func theFirstWrittenDecisionStays() throws {
        let (one, two, directory) = try stores()
        defer {
            one.close()
            two.close()
            directory.remove()
        }
        let stream = stream()
        try one.insert(stream)
        let first = decision(for: stream)
        var second = first
        second.ads = []
        #expect(try one.completeDecision(first, at: now) == first)
        #expect(try two.completeDecision(second, at: now) == first)
        #expect(try two.decisionState(streamID: stream.id, breakID: "pod_1") == .ready(first))
        #expect(try two.decisions(streamID: stream.id) == [first])
    }

    @Test func anEventIsVerifiedOnceAcrossConnections() throws {
        let (one, two, directory) = try stores()
        defer {
            one.close()
            two.close()
            directory.remove()
        }
        let stream = stream()
        try one.insert(stream)
        let written = try one.completeDecision(decision(for: stream), at: now)
        let event = try #require(written.events.first)
        #expect(
            try two.verify(eventID: event.id, streamID: stream.id, breakDigest: written.breakDigest, at: now)
                == .verified)
        #expect(
            try one.verify(eventID: event.id, streamID: stream.id, breakDigest: written.breakDigest, at: now)
                == .alreadyVerified)
        #expect(try one.verify(eventID: "google_x", streamID: stream.id, breakDigest: "0", at: now) == .unknown)
        let activity = try one.activity(streamID: stream.id)
        #expect(activity.verifiedEvents == [event.id: now])
        #expect(activity.beaconsPending[event.id] == 3)
    }

    @Test func leasedBeaconsAreInvisibleToOtherSendersUntilTheLeaseEnds() throws {
        let (one, two, directory) = try stores()
        defer {
            one.close()
            two.close()
            directory.remove()
        }
        let stream = stream()
        try one.insert(stream)
        let written = try one.completeDecision(decision(for: stream), at: now)
        for event in written.events {
            _ = try one.verify(eventID: event.id, streamID: stream.id, breakDigest: written.breakDigest, at: now)
        }
        let clock = Date()
        let taken = try one.claimDueBeacons(owner: "a", at: clock, leaseFor: 30, limit: 1000)
        #expect(taken.count == written.ads.count * 7)
        #expect(try two.claimDueBeacons(owner: "b", at: clock, leaseFor: 30, limit: 1000).isEmpty)
        #expect(
            try two.claimDueBeacons(owner: "b", at: clock.addingTimeInterval(31), leaseFor: 30, limit: 1000).count
                == taken.count)
        try two.recordBeaconResults(
            taken.map { PodBeaconResult(eventID: $0.eventID, index: $0.index, outcome: .delivered) }, at: clock)
        #expect(try one.nextBeaconDue() == nil)
        #expect(try one.activity(streamID: stream.id).beaconsSent.values.reduce(0, +) == taken.count)
    }

    @Test func failedBeaconsWaitTheirDelayAndOnlyTheUnfinishedGoAgain() throws {
        let (store, other, directory) = try stores()
        defer {
            store.close()
            other.close()
            directory.remove()
        }
        let stream = stream()
        try store.insert(stream)
        let written = try store.completeDecision(decision(for: stream), at: now)
        let start = try #require(written.events.first { $0.type == .start })
        _ = try store.verify(eventID: start.id, streamID: stream.id, breakDigest: written.breakDigest, at: now)
        let clock = Date()
        let taken = try store.claimDueBeacons(owner: "a", at: clock, leaseFor: 30, limit: 10)
        #expect(taken.map(\.index) == [0, 1, 2])
        #expect(taken.map(\.idempotencyKey) == ["\(start.id)-0", "\(start.id)-1", "\(start.id)-2"])
        try store.recordBeaconResults(
            [
                PodBeaconResult(eventID: start.id, index: 0, outcome: .delivered),
                PodBeaconResult(eventID: start.id, index: 1, outcome: .retry(after: 10, reason: "HTTP 503")),
                PodBeaconResult(eventID: start.id, index: 2, outcome: .abandon(reason: "HTTP 404")),
            ], at: clock)
        #expect(try store.claimDueBeacons(owner: "a", at: clock.addingTimeInterval(5), leaseFor: 30, limit: 10).isEmpty)
        let again = try store.claimDueBeacons(owner: "a", at: clock.addingTimeInterval(11), leaseFor: 30, limit: 10)
        #expect(again.map(\.index) == [1])
        #expect(again.first?.attempts == 1)
        let activity = try store.activity(streamID: stream.id)
        #expect(activity.beaconsSent[start.id] == 1)
        #expect(activity.beaconsAbandoned[start.id] == 1)
        #expect(activity.beaconsPending[start.id] == 1)
        #expect(activity.failedAttempts == 1)
        try store.recordBeaconResults(
            [PodBeaconResult(eventID: start.id, index: 1, outcome: .delivered)], at: clock.addingTimeInterval(11))
        #expect(try store.nextBeaconDue() == nil)
    }

    @Test func longExpiredStreamsWithNothingToSendArePurged() throws {
        let (one, two, directory) = try stores()
        defer {
            one.close()
            two.close()
            directory.remove()
        }
        let done = stream("11111111-2222-4333-8444-555555555555", expiresIn: 10)
        let waiting = stream("66666666-7777-4888-9999-aaaaaaaaaaaa", expiresIn: 10)
        let live = stream("bbbbbbbb-cccc-4ddd-8eee-ffffffffffff", expiresIn: 3600)
        for item in [done, waiting, live] { try one.insert(item) }
        let pending = try one.completeDecision(decision(for: waiting), at: now)
        _ = try one.verify(
            eventID: pending.events[0].id, streamID: waiting.id, breakDigest: pending.breakDigest, at: now)
        #expect(try two.purge(expiredBefore: now.addingTimeInterval(60)) == 1)
        #expect(try one.stream(id: done.id) == nil)
        #expect(try one.stream(id: waiting.id) != nil)
        #expect(try one.stream(id: live.id) != nil)
    }
}
