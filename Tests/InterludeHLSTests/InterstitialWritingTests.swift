import Foundation
import Testing

@testable import InterludeHLS

/// Interstitial DATERANGEs (RFC 8216bis appendix D, Apple's HLS
/// interstitials): written, read back, and on a live stream.
@Suite struct InterstitialWritingTests {
    @Test func writtenAttributesReadBackTheSame() throws {
        let written = Interstitial(
            assetURI: "https://pods.example.com/p1.m3u8", resumeOffset: 30, playoutLimit: 32, snap: ["OUT", "IN"],
            restrict: ["SKIP", "JUMP"], cue: ["ONCE"])
        let range = written.dateRange(
            id: "break-1", startDate: Fixture.date("2024-05-01T12:00:06.000Z"), plannedDuration: 30)
        let text =
            "#EXTM3U\n#EXT-X-TARGETDURATION:6\n#EXT-X-PROGRAM-DATE-TIME:2024-05-01T12:00:00.000Z\n"
            + "#EXTINF:6,\na.ts\n" + HLSWriter.attributeListText(range.attributes).prefixed("#EXT-X-DATERANGE:") + "\n"
            + "#EXTINF:6,\nb.ts\n"
        let reread = try #require(try MediaPlaylist(parsing: text).segments[1].dateRanges.first)
        #expect(reread.isInterstitial)
        #expect(Interstitial(reread) == written)
        #expect(reread.plannedDuration == 30)
        #expect(
            HLSWriter.attributeListText(range.attributes)
                == "ID=\"break-1\",CLASS=\"com.apple.hls.interstitial\",START-DATE=\"2024-05-01T12:00:06.000Z\",CUE=\"ONCE\",PLANNED-DURATION=30.000,X-ASSET-URI=\"https://pods.example.com/p1.m3u8\",X-RESUME-OFFSET=30.000,X-PLAYOUT-LIMIT=32.000,X-SNAP=\"OUT,IN\",X-RESTRICT=\"SKIP,JUMP\""
        )
    }

    @Test func vodPreMidAndPostRollsGetCuesAndAProgramDateTimeAnchor() throws {
        var playlist = try Fixture.media("VOD/vod-basic.m3u8")
        #expect(playlist.segments[0].programDateTime == nil)
        try playlist.insertInterstitial(.vodInsertion(assetURI: "pre.m3u8"), id: "pre", at: 0)
        try playlist.insertInterstitial(.vodInsertion(assetURI: "mid.m3u8"), id: "mid", at: 2)
        try playlist.insertInterstitial(.vodInsertion(assetURI: "post.m3u8"), id: "post", at: 3)
        let reread = try MediaPlaylist(parsing: playlist.text)
        #expect(reread.segments[0].programDateTime == Date(timeIntervalSince1970: 946_684_800))
        let breaks = reread.adBreaks
        #expect(breaks.map(\.id) == ["pre", "mid", "post"])
        #expect(breaks.map { $0.interstitial?.cue ?? [] } == [["PRE"], [], ["POST"]])
        #expect(breaks.allSatisfy { $0.interstitial?.resumeOffset == 0 })
        #expect(breaks.map(\.startTime) == [0, 20, 25.5])
        #expect(breaks.map { $0.interstitial?.restrict ?? [] } == Array(repeating: ["SKIP", "JUMP"], count: 3))
        #expect(HLSValidator.validate(reread).filter { $0.severity == .error }.isEmpty)
        // The numbering of the content is untouched.
        #expect(reread.segments.map(\.uri) == ["segment0.ts", "segment1.ts", "segment2.ts"])
    }

    @Test func anInterstitialNeedsExactlyOneAsset() throws {
        var playlist = try Fixture.media("VOD/vod-basic.m3u8")
        #expect(throws: HLSError.self) { try playlist.insertInterstitial(Interstitial(), id: "x", at: 1) }
        #expect(throws: HLSError.self) {
            try playlist.insertInterstitial(Interstitial(assetURI: "a", assetList: "b"), id: "x", at: 1)
        }
        #expect(throws: HLSError.self) {
            try playlist.insertInterstitial(.vodInsertion(assetURI: "a"), id: "x", at: 9)
        }
    }

    @Test func liveInterstitialsKeepTheOriginsNumberingAndAnnounceEachBreak() throws {
        // The source wraps (DISCONTINUITY) inside the break: it stays, counted as the origin counts it.
        var origin = SimulatedLiveOrigin(style: .dateRange, breaks: [.init(start: 8, length: 6)])
        origin.loopLength = 10
        var harness = LiveStitchHarness(origin, options: .init(mode: .interstitials))
        let reloads = try harness.replay(5...20)
        expectNoFindings(LiveReloadChecker.check(reloads))
        #expect(streamURIs(reloads) == content(0...20))
        #expect(
            reloads.map(\.discontinuitySequence)
                == reloads.map { origin.wraps(before: Int($0.mediaSequence)) }.map(UInt64.init))
        let all = segmentsBySequence(reloads)
        let range = try #require(all[8]?.dateRanges.first)
        #expect(range.isInterstitial)
        #expect(range.id == "splice-8")
        #expect(range.startDate == origin.date(8))
        let interstitial = Interstitial(range)
        #expect(interstitial.assetURI == "https://pods.example.com/splice-8/pod.m3u8")
        #expect(interstitial.resumeOffset == 24)
        #expect(interstitial.restrict == ["SKIP", "JUMP"])
        #expect(interstitial.snap == ["OUT", "IN"])
        // The origin's SCTE-35 DATERANGEs are gone; one interstitial remains.
        #expect(all.values.flatMap(\.dateRanges).count == 1)
    }
}

extension String {
    fileprivate func prefixed(_ prefix: String) -> String { prefix + self }
}
