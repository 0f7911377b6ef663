import Foundation
import Testing

@testable import InterludeHLS

/// SCTE 35 (2019) section 14.2, splice_insert example, as base64 and hex.
let spliceInsertSampleBase64 = "/DAvAAAAAAAA///wFAVIAACPf+/+c2nALv4AUsz1AAAAAAAKAAhDVUVJAAABNWLbowo="
let spliceInsertSampleHex =
    "FC302F000000000000FFFFF014054800008F7FEFFE7369C02EFE0052CCF500000000000A0008435545490000013562DBA30A"

@Suite struct AdBreakTests {
    @Test func cueOutWithDurationStartsABreakThatCueInCloses() throws {
        let breaks = try Fixture.media("LinearAdInsertion/cue-out-in.m3u8").adBreaks
        #expect(breaks.count == 1)
        let adBreak = try #require(breaks.first)
        #expect(adBreak.style == .cueOut)
        #expect(adBreak.startTime == 6)
        #expect(adBreak.startDate == Fixture.date("2024-05-01T12:00:06.000Z"))
        #expect(adBreak.plannedDuration == 12)
        #expect(adBreak.actualDuration == 12)
        #expect(adBreak.segmentRange == 1..<3)
        #expect(adBreak.isComplete)
        #expect(adBreak.line == 8)
    }

    @Test func oatclsNextToCueOutGivesTheBreakItsSCTE35Payload() throws {
        let adBreak = try #require(try Fixture.media("LinearAdInsertion/cue-out-in.m3u8").adBreaks.first)
        #expect(adBreak.scte35Out == HLSHex.decode(spliceInsertSampleHex))
        guard case .spliceInsert(let insert) = adBreak.scte35OutSection?.command else {
            Issue.record("expected a splice_insert")
            return
        }
        #expect(insert.eventID == 0x4800_008F)
    }

    @Test func cueOutContAtTheTopOfTheWindowOpensABreakThatBeganEarlier() throws {
        let adBreak = try #require(try Fixture.media("LinearAdInsertion/cue-out-cont-start.m3u8").adBreaks.first)
        // 8 s had elapsed when the window's first segment started.
        #expect(adBreak.startTime == -8)
        #expect(adBreak.plannedDuration == 30)
        #expect(adBreak.segmentRange == 0..<3)
        #expect(adBreak.actualDuration == 26)
    }

    @Test func cueOutWithoutDurationStartsOpenBreak() throws {
        let breaks = try Fixture.media("LinearAdInsertion/cue-out-no-duration.m3u8").adBreaks
        let adBreak = try #require(breaks.first)
        #expect(adBreak.plannedDuration == nil)
        #expect(!adBreak.isComplete)
        #expect(adBreak.actualDuration == nil)
        #expect(adBreak.segmentRange == 2..<4)
        #expect(adBreak.startTime == 8)
    }

    @Test func stitchedBreakSpansTheAdSegmentsBetweenDiscontinuities() throws {
        let playlist = try Fixture.media("Stitched/stitched-vod.m3u8")
        let adBreak = try #require(playlist.adBreaks.first)
        #expect(adBreak.segmentRange == 1..<3)
        #expect(adBreak.startTime == 10)
        #expect(adBreak.actualDuration == 15)
        #expect(playlist.segments.map(\.discontinuitySequence) == [0, 1, 1, 2, 2])
    }

    @Test func dateRangeWithSCTE35OutAndInMakesOneBreak() throws {
        let breaks = try Fixture.media("LinearAdInsertion/daterange-scte35.m3u8").adBreaks
        #expect(breaks.count == 1)
        let adBreak = try #require(breaks.first)
        #expect(adBreak.style == .dateRange)
        #expect(adBreak.id == "splice-6FFFFFF0")
        #expect(adBreak.startTime == 6)
        #expect(adBreak.plannedDuration == 12)
        #expect(adBreak.actualDuration == 12)
        #expect(adBreak.segmentRange == 1..<3)
        #expect(adBreak.isComplete)
        #expect(adBreak.scte35Out == HLSHex.decode(spliceInsertSampleHex))
        #expect(adBreak.scte35In != nil)
    }

    @Test func interstitialDateRangesAreBreaksWithTheirAttributes() throws {
        let breaks = try Fixture.media("Interstitials/interstitial.m3u8").adBreaks
        #expect(breaks.map(\.id) == ["preroll", "midroll-1"])
        let preroll = try #require(breaks[0].interstitial)
        #expect(breaks[0].style == .interstitial)
        #expect(preroll.assetList == "https://ads.example.com/preroll.json")
        #expect(preroll.cue == ["PRE", "ONCE"])
        #expect(preroll.restrict == ["SKIP", "JUMP"])
        let midroll = try #require(breaks[1].interstitial)
        #expect(breaks[1].startTime == 12)
        #expect(midroll.assetURI == "https://ads.example.com/ad1/master.m3u8")
        #expect(midroll.resumeOffset == 0)
        #expect(midroll.snap == ["OUT", "IN"])
        #expect(breaks[1].actualDuration == 15)
        // X-RESUME-OFFSET=0: the interstitial replaces no primary content.
        #expect(breaks[1].segmentRange == 2..<2)
    }

    @Test func oatclsAloneStartsAndEndsABreakFromItsPayload() throws {
        let playlist = try MediaPlaylist(parsing: Self.payloadOnlyPlaylist(tag: "EXT-OATCLS-SCTE35"))
        let adBreak = try #require(playlist.adBreaks.first)
        #expect(adBreak.style == .oatcls)
        #expect(adBreak.segmentRange == 1..<3)
        // break_duration 0x0052CCF5 ticks of 90 kHz.
        #expect(adBreak.plannedDuration == Double(0x0052_CCF5) / 90_000)
        #expect(adBreak.isComplete)
    }

    @Test func splicePointAloneStartsAndEndsABreak() throws {
        let playlist = try MediaPlaylist(parsing: Self.payloadOnlyPlaylist(tag: "EXT-X-SPLICEPOINT-SCTE35"))
        let adBreak = try #require(playlist.adBreaks.first)
        #expect(adBreak.style == .splicePoint)
        #expect(adBreak.segmentRange == 1..<3)
    }

    @Test func assetTagIsKeptWithItsAttributes() throws {
        let text = "#EXTM3U\n#EXT-X-TARGETDURATION:6\n#EXT-X-ASSET:CAID=0x0000000020FB6501\n#EXTINF:6.000,\na.ts\n"
        let playlist = try MediaPlaylist(parsing: text)
        #expect(playlist.segments[0].tag(HLSTagName.asset)?.attributes["CAID"]?.kind == .hexadecimalSequence)
        #expect(playlist.text == text)
    }

    static func payloadOnlyPlaylist(tag: String) -> String {
        let cueIn = SpliceInfoSection(command: .spliceInsert(SpliceInsert(eventID: 0x4800_008F, isOutOfNetwork: false)))
            .base64Encoded
        return """
            #EXTM3U
            #EXT-X-TARGETDURATION:6
            #EXTINF:6.000,
            c0.ts
            #\(tag):\(spliceInsertSampleBase64)
            #EXTINF:6.000,
            c1.ts
            #EXTINF:6.000,
            c2.ts
            #\(tag):\(cueIn)
            #EXTINF:6.000,
            c3.ts

            """
    }
}
