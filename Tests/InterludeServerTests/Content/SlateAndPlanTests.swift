import Foundation
import Testing

@testable import InterludeServer

@Suite struct SlateAndPlanTests {
    static let directory = URL(fileURLWithPath: "/nonexistent-data")

    static func library(_ catalog: Catalog) -> MediaLibrary {
        MediaLibrary(
            catalog: catalog, plan: MediaPlan(catalog: catalog, dataDirectory: directory, fontFile: nil),
            dataDirectory: directory)
    }

    @Test func slateStatesTheDurationToTheMillisecond() {
        let library = Self.library(.podServingTest)
        let frame = 1.0 / 30
        for milliseconds in stride(from: 1, through: 75_000, by: 37) + [1000, 2990, 31_000, 16, 17, 983, 984] {
            let duration = Double(milliseconds) / 1000
            let segments = library.slate(profile: "360p", duration: duration)
            let stated = segments.reduce(0) { $0 + Int(($1.duration * 1000).rounded()) }
            #expect(stated == milliseconds, "slate for \(duration) s states \(stated) ms")
            // Every piece but the last is a whole second; the last is within a frame of what it states.
            for segment in segments.dropLast() { #expect(segment.duration == 1) }
            if let last = segments.last, let real = Self.realDuration(last, library: library) {
                #expect(abs(real - last.duration) < frame, "last slate piece \(real) s states \(last.duration) s")
            }
        }
    }

    /// The media length of a slate piece, from its nominal manifest (the run is 1 s, tail k is k frames).
    static func realDuration(_ segment: SegmentFile, library: MediaLibrary) -> Double? {
        guard let index = SegmentNaming.index(URL(fileURLWithPath: segment.path).lastPathComponent) else { return nil }
        return index < MediaPlan.slateRunSeconds ? 1 : Double(index - MediaPlan.slateRunSeconds + 1) / 30
    }

    @Test func slateRunIsContinuousUntilItWraps() {
        let library = Self.library(.podServingTest)
        let segments = library.slate(profile: "180p", duration: 45)
        #expect(segments.count == 45)
        for index in 1..<segments.count {
            #expect(segments[index].continues(after: segments[index - 1]) == (index % MediaPlan.slateRunSeconds != 0))
        }
    }

    @Test func slateForNothingOrAnUnknownProfileIsEmpty() {
        let library = Self.library(.podServingTest)
        #expect(library.slate(profile: "360p", duration: 0).isEmpty)
        #expect(library.slate(profile: "360p", duration: -3).isEmpty)
        #expect(library.slate(profile: "360p", duration: .nan).isEmpty)
        #expect(library.slate(profile: "360p", duration: .infinity).isEmpty)
        #expect(library.slate(profile: "4k", duration: 5).isEmpty)
    }

    @Test func nominalLibraryHasEveryAdTitleAndChannel() throws {
        let library = Self.library(.podServingTest)
        #expect(!library.isComplete)
        let ad = try #require(library.ad("test-ad-5s"))
        #expect(ad.duration == 5)
        #expect(ad.renditions["360p"]?.map(\.duration) == [4, 1])
        #expect(library.ad("nope") == nil)
        let title = try #require(library.vodTitle("test-film"))
        #expect(title.duration == 30)
        #expect(title.renditions["180p"]?.count == 8)
        #expect(library.liveChannel("test-live")?.sourceSegmentCount == 6)
        #expect(library.profiles.map(\.id) == ["180p", "360p"])
        #expect(
            library.fileURL(for: ad.renditions["360p"]![0]).path.hasPrefix(
                Self.directory.path + "/conditioned/test-ad-5s/360p-"))
    }

    @Test func aChangedProfileOrCreativeMakesNewDirectoriesOnlyForIt() {
        let plan = MediaPlan(catalog: .podServingTest, dataDirectory: Self.directory, fontFile: nil)
        var changed = Catalog.podServingTest
        changed.content.profiles[1].videoBitrate = 900
        changed.creatives[0].title = "Test Ad Three, recut"
        let replanned = MediaPlan(catalog: changed, dataDirectory: Self.directory, fontFile: nil)
        let before = Set(plan.renditions.map(\.directory))
        let after = Set(replanned.renditions.map(\.directory))
        let new = after.subtracting(before)
        // Every 360p rendition, plus the changed creative's 180p one.
        #expect(new.count == plan.renditions.filter { $0.profile.id == "360p" }.count + 1)
        #expect(new.allSatisfy { $0.contains("/360p-") || $0.hasPrefix("conditioned/test-ad-3s/") })
        // Channels with one title and length share one source.
        #expect(plan.renditions(of: .liveSource("live-test-live-24s")).count == 2)
    }

    @Test func channelsWithoutALadderOrWithExternalOriginsMakeNothing() {
        var catalog = Catalog.podServingTest
        catalog.content.titles = [CatalogTitle(id: "ext", title: "External", origin: "http://127.0.0.1:1/x.m3u8")]
        catalog.content.channels = []
        let library = Self.library(catalog)
        #expect(library.vodTitle("ext") == nil)
        #expect(library.titleIDs.isEmpty)
        let none = MediaPlan(catalog: .demo, dataDirectory: Self.directory, fontFile: nil)
        #expect(none.renditions.isEmpty)
    }
}
