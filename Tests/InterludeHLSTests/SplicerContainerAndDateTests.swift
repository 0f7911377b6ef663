import Foundation
import Testing

@testable import InterludeHLS

/// Issue 12 item 4: containers never leak across a splice, and VOD dates
/// keep increasing whatever the pod's length.
@Suite struct SplicerContainerAndDateTests {
    static let tsContent = """
        #EXTM3U
        #EXT-X-VERSION:6
        #EXT-X-TARGETDURATION:6
        #EXT-X-PLAYLIST-TYPE:VOD
        #EXT-X-PROGRAM-DATE-TIME:2024-05-01T12:00:00.000Z
        #EXTINF:6.000,
        c0.ts
        #EXT-X-CUE-OUT:12
        #EXTINF:6.000,
        c1.ts
        #EXTINF:6.000,
        c2.ts
        #EXT-X-CUE-IN
        #EXTINF:6.000,
        c3.ts
        #EXTINF:6.000,
        c4.ts
        #EXT-X-ENDLIST
        """

    static func pod(_ uris: [String], mapURI: String? = nil, duration: Double = 5) -> AdPod {
        AdPod(ads: uris.map { AdPod.Ad(segments: [AdSegment(uri: $0, duration: duration)], mapURI: mapURI) })
    }

    @Test func anFMP4AdCannotGoIntoMPEGTSContentBecauseItsMapWouldLeak() throws {
        let content = try MediaPlaylist(parsing: Self.tsContent)
        let fmp4 = Self.pod(["ad/0.m4s"], mapURI: "ad/init.mp4")
        #expect(throws: HLSError.self) { try content.insertingAdPod(fmp4, at: 1) }
        let adBreak = try #require(content.adBreaks.first)
        do {
            _ = try content.replacingAdBreak(adBreak, with: fmp4)
            Issue.record("expected an error")
        } catch {
            #expect(error.code == .invalidAdPod)
        }
        // As a post-roll nothing follows it, so its MAP leaks nowhere.
        let postRoll = try content.insertingAdPod(fmp4, at: content.segments.count)
        #expect(postRoll.segments.last?.map?.attributes.string("URI") == "ad/init.mp4")
    }

    @Test func mpegTSAdsCannotFollowFMP4ContentWhoseMapTheyWouldInherit() throws {
        let content = try Fixture.media("Live/live-window.m3u8")
        do {
            _ = try content.insertingAdPod(Self.pod(["ad/0.ts"]), at: 1)
            Issue.record("expected an error")
        } catch {
            #expect(error.code == .invalidAdPod)
        }
    }

    @Test func aPodMixingContainersIsRefused() throws {
        let content = try MediaPlaylist(parsing: Self.tsContent)
        let mixed = AdPod(ads: [
            AdPod.Ad(segments: [AdSegment(uri: "a.ts", duration: 5)]),
            AdPod.Ad(segments: [AdSegment(uri: "b.m4s", duration: 5)], mapURI: "b-init.mp4"),
        ])
        #expect(throws: HLSError.self) { try content.insertingAdPod(mixed, at: content.segments.count) }
    }

    @Test func fmp4ContentGetsItsOwnMapBackAfterFMP4Ads() throws {
        let spliced = try Fixture.media("Live/live-window.m3u8").insertingAdPod(
            Self.pod(["ad/0.m4s", "ad/1.m4s"], mapURI: "ad/init.mp4"), at: 1)
        #expect(spliced.segments[1].map?.attributes.string("URI") == "ad/init.mp4")
        #expect(spliced.segments[3].map?.attributes.string("URI") == "init.mp4")
    }

    @Test func replacingAVODBreakWithALongerPodKeepsDatesIncreasing() throws {
        let content = try MediaPlaylist(parsing: Self.tsContent)
        let adBreak = try #require(content.adBreaks.first)
        // 12 s of content replaced by 15 s of ads.
        let spliced = try content.replacingAdBreak(adBreak, with: Self.pod(["a0.ts", "a1.ts", "a2.ts"]))
        let dates = spliced.segments.compactMap(\.programDateTime)
        #expect(dates.count == spliced.segments.count)
        #expect(zip(dates, dates.dropFirst()).allSatisfy { $0 < $1 })
        #expect(spliced.segments.map(\.uri) == ["c0.ts", "a0.ts", "a1.ts", "a2.ts", "c3.ts", "c4.ts"])
        #expect(spliced.segments[4].programDateTime == Fixture.date("2024-05-01T12:00:21.000Z"))
        #expect(spliced.segments[5].programDateTime == Fixture.date("2024-05-01T12:00:27.000Z"))
        // Every date follows from the one before: the stream reads continuous.
        let findings = LiveReloadChecker.check([try MediaPlaylist(parsing: spliced.text)])
        #expect(findings.filter { $0.rule == .programDateTimeDiscontinuous }.isEmpty)
    }

    @Test func replacingALiveBreakKeepsTheContentsOwnDates() throws {
        let live = Self.tsContent.replacingOccurrences(of: "#EXT-X-PLAYLIST-TYPE:VOD\n", with: "")
            .replacingOccurrences(of: "#EXT-X-ENDLIST", with: "")
        let content = try MediaPlaylist(parsing: live)
        let adBreak = try #require(content.adBreaks.first)
        let spliced = try content.replacingAdBreak(adBreak, with: Self.pod(["a0.ts", "a1.ts"], duration: 6))
        #expect(spliced.segments[3].programDateTime == Fixture.date("2024-05-01T12:00:18.000Z"))
    }
}
