import Foundation
import InterludeTestSupport
import Testing

@testable import InterludeServer

/// The service's in-memory decisions: bounded in count, without the VAST
/// documents (which only the store keeps), and a forgotten one read back alike.
@Suite struct PodServingDecisionCacheTests {
    /// Media that knows the catalog's durations and nothing else (decisions need no segments).
    struct DurationsOnlyMedia: PodMediaSource {
        let catalog: Catalog
        var profiles: [PodProfile] { [] }
        func adDuration(creativeID: String) -> Int? {
            catalog.creatives.first { $0.id == creativeID }.flatMap(PodDecisioner.catalogDuration)
        }
        func adSegments(creativeID: String, profile: String) -> [PodSegment]? { nil }
        func slate(profile: String, milliseconds: Int) -> [PodSegment] { [] }
        func filePath(of segment: PodSegment) -> String { "/nonexistent/\(segment.path)" }
        func tagged(_ segment: PodSegment, with events: [(pts: UInt64, eventID: String)]) throws(PodMediaError)
            -> [SharedBytes.Slice]
        {
            throw PodMediaError(isMissing: true, message: "no media in this test")
        }
    }

    private let now = Date(timeIntervalSince1970: 1_800_000_000)

    private func service(limit: Int) throws -> (PodServingService, SQLiteSessionStore, TemporaryDirectory) {
        let directory = TemporaryDirectory()
        let store = try SQLiteSessionStore(path: directory.url.appendingPathComponent("streams.sqlite").path)
        let now = self.now
        let service = PodServingService(
            catalog: .builtIn, store: store, media: DurationsOnlyMedia(catalog: .builtIn), now: { now }, sender: nil,
            decisionCacheLimit: limit)
        return (service, store, directory)
    }

    private func stream(_ index: Int) -> PodStream {
        PodStream(
            id: String(format: "0b0e1d2c-3a4f-4b5c-8d6e-%012d", index), kind: .live, networkCode: "interlude",
            customAssetKey: "interlude-live", targeting: [:], createdAt: now, expiresAt: now.addingTimeInterval(3600))
    }

    @Test func theCacheHoldsNoMoreDecisionsThanItsLimitAndNoDocuments() throws {
        let (service, store, directory) = try service(limit: 8)
        defer {
            store.close()
            directory.remove()
        }
        for index in 0..<40 {
            let stream = stream(index)
            try service.insert(stream)
            for pod in 1...3 {
                let decision = try service.decision(
                    for: stream, breakID: "pod_\(pod)", requestedDuration: 45_000, slate: .toRequestedDuration)
                #expect(!decision.ads.isEmpty)
                #expect(decision.ads.allSatisfy { $0.vast.isEmpty && $0.beacons.isEmpty })
            }
            #expect(service.decisions.count <= 8)
        }
        #expect(service.decisions.count == 8)
    }

    @Test func aForgottenDecisionComesBackFromTheStoreTheSameAndTheStoreKeepsItsDocuments() throws {
        let (service, store, directory) = try service(limit: 2)
        defer {
            store.close()
            directory.remove()
        }
        let first = stream(1)
        try service.insert(first)
        let served = try service.decision(
            for: first, breakID: "pod_1", requestedDuration: 45_000, slate: .toRequestedDuration)
        for index in 2...5 {
            let other = stream(index)
            try service.insert(other)
            _ = try service.decision(
                for: other, breakID: "pod_1", requestedDuration: 45_000, slate: .toRequestedDuration)
        }
        let again = try service.decision(
            for: first, breakID: "pod_1", requestedDuration: 45_000, slate: .toRequestedDuration)
        #expect(again == served)
        let written = try #require(try service.writtenDecisions(of: first).first)
        #expect(written.withoutDocuments() == served)
        #expect(written.ads.allSatisfy { $0.vast.contains("<VAST") && !$0.beacons.isEmpty })
    }

    @Test func aFullCacheForgetsTheEntryUsedLeastRecently() {
        let cache = BoundedCache<String, Int>(limit: 2)
        cache.store(1, for: "a")
        cache.store(2, for: "b")
        #expect(cache["a"] == 1)
        cache.store(3, for: "c")
        #expect(cache["a"] == 1)
        #expect(cache["b"] == nil)
        #expect(cache["c"] == 3)
        #expect(cache.count == 2)
    }
}
