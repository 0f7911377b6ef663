import Foundation
import Testing

@testable import InterludeHLS

/// Encoders signal an avail and the ads inside it: a placement opportunity
/// (0x34 … 0x35) holding provider ads (0x30 … 0x31), and packagers write a
/// marker for every SCTE-35 message (MediaLive writes every message's
/// base64 into the playlist, only avails as CUE-OUT / CUE-IN). The ads are
/// parts of the break, not breaks, and an ad's end is not the break's.
@Suite struct NestedSegmentationTests {
    typealias F = OriginCueFixture

    /// A 24 s provider placement opportunity, its two 12 s ads, and its end.
    static let opportunity = F.timeSignal([(0x34, 24)], event: 0x10)
    static let firstAd = F.timeSignal([(0x30, 12)], event: 0x20)
    /// The first ad's end and the second's start in one message.
    static let nextAd = F.timeSignal([(0x31, nil), (0x30, 12)], event: 0x20)
    static let secondAdEnd = F.timeSignal([(0x31, nil)], event: 0x21)
    static let opportunityEnd = F.timeSignal([(0x35, nil)], event: 0x10)

    @Test func adsInsideAPlacementOpportunityMarkedByOATCLSAreOneBreak() throws {
        let playlist = try F.playlist([
            1: "#EXT-OATCLS-SCTE35:\(Self.opportunity.base64Encoded)\n#EXT-OATCLS-SCTE35:\(Self.firstAd.base64Encoded)",
            3: "#EXT-OATCLS-SCTE35:\(Self.nextAd.base64Encoded)",
            5:
                "#EXT-OATCLS-SCTE35:\(Self.secondAdEnd.base64Encoded)\n#EXT-OATCLS-SCTE35:\(Self.opportunityEnd.base64Encoded)",
        ])
        #expect(playlist.adBreaks.count == 1)
        let adBreak = try #require(playlist.adBreaks.first)
        #expect(adBreak.segmentRange == 1..<5)
        #expect(adBreak.actualDuration == 24)
        #expect(adBreak.plannedDuration == 24)
        #expect(adBreak.scte35Out == Self.opportunity.encoded())
        #expect(adBreak.scte35In == Self.opportunityEnd.encoded())
    }

    /// MediaLive in time-signal APOS mode: CUE-OUT / CUE-IN for the
    /// opportunity, and the ad's end written as a payload alone inside it.
    @Test func anAdsEndInsideACueOutBreakDoesNotEndIt() throws {
        let playlist = try F.playlist([
            1: "#EXT-X-CUE-OUT:24\n#EXT-OATCLS-SCTE35:\(Self.opportunity.base64Encoded)",
            3: "#EXT-OATCLS-SCTE35:\(Self.nextAd.base64Encoded)",
            5: "#EXT-X-CUE-IN",
        ])
        #expect(playlist.adBreaks.count == 1)
        let adBreak = try #require(playlist.adBreaks.first)
        #expect(adBreak.style == .cueOut)
        #expect(adBreak.segmentRange == 1..<5)
        #expect(adBreak.actualDuration == 24)
    }

    @Test func adsInsideAPlacementOpportunityMarkedByDateRangesAreOneBreak() throws {
        func range(_ id: String, _ segment: Int, _ attributes: String) -> String {
            "#EXT-X-DATERANGE:ID=\"\(id)\",START-DATE=\"\(F.date(ofSegment: segment))\",\(attributes)"
        }
        // The ads' ranges come first on the segment: order must not matter.
        let playlist = try F.playlist([
            1: range("ad-1", 1, "PLANNED-DURATION=12,SCTE35-OUT=\(Self.firstAd.hexEncoded)") + "\n"
                + range("po", 1, "PLANNED-DURATION=24,SCTE35-OUT=\(Self.opportunity.hexEncoded)"),
            3: range("ad-1", 1, "DURATION=12,SCTE35-IN=\(F.timeSignal([(0x31, nil)], event: 0x20).hexEncoded)")
                + "\n" + range("ad-2", 3, "PLANNED-DURATION=12,SCTE35-OUT=\(Self.firstAd.hexEncoded)"),
            5: range("ad-2", 3, "DURATION=12,SCTE35-IN=\(Self.secondAdEnd.hexEncoded)") + "\n"
                + range("po", 1, "DURATION=24,SCTE35-IN=\(Self.opportunityEnd.hexEncoded)"),
        ])
        #expect(playlist.adBreaks.count == 1)
        let adBreak = try #require(playlist.adBreaks.first)
        #expect(adBreak.id == "po")
        #expect(adBreak.segmentRange == 1..<5)
        #expect(adBreak.actualDuration == 24)
    }

    /// An ad's end with its own ID (SCTE35-CMD) inside the opportunity's
    /// range leaves it; the opportunity's own end, with another ID, ends it.
    @Test func anAdsEndCommandDoesNotEndThePlacementOpportunityRange() throws {
        func command(_ id: String, _ segment: Int, _ section: SpliceInfoSection) -> String {
            "#EXT-X-DATERANGE:ID=\"\(id)\",START-DATE=\"\(F.date(ofSegment: segment))\",SCTE35-CMD=\(section.hexEncoded)"
        }
        let openEnded = F.timeSignal([(0x34, nil)], event: 0x10)
        let playlist = try F.playlist([
            1: command("po-start", 1, openEnded), 3: command("ad-end", 3, Self.nextAd),
            4: command("po-end", 4, Self.opportunityEnd),
        ])
        #expect(playlist.adBreaks.count == 1)
        let adBreak = try #require(playlist.adBreaks.first)
        #expect(adBreak.segmentRange == 1..<4)
        #expect(adBreak.actualDuration == 18)
        #expect(adBreak.scte35In == Self.opportunityEnd.encoded())
    }

    /// Ads signalled without an opportunity around them stay breaks of their
    /// own: an ad's end ends its ad, and the next ad's start starts a break.
    @Test func adsWithoutAnOpportunityAreBreaksEndedByTheirOwnEnds() throws {
        let playlist = try F.playlist([
            1: "#EXT-OATCLS-SCTE35:\(F.timeSignal([(0x30, nil)], event: 0x20).base64Encoded)",
            2: "#EXT-OATCLS-SCTE35:\(F.timeSignal([(0x31, nil)], event: 0x20).base64Encoded)",
            3: "#EXT-OATCLS-SCTE35:\(F.timeSignal([(0x22, nil)], event: 0x30).base64Encoded)",
            4: "#EXT-OATCLS-SCTE35:\(F.timeSignal([(0x35, nil)], event: 0x30).base64Encoded)",
            5: "#EXT-OATCLS-SCTE35:\(F.timeSignal([(0x23, nil)], event: 0x30).base64Encoded)",
        ])
        #expect(playlist.adBreaks.map(\.segmentRange) == [1..<2, 3..<5])
        // A placement opportunity's end (0x35) is not the end of a break start (0x22).
        #expect(playlist.adBreaks.allSatisfy { $0.isComplete })
    }

    /// A live break whose start left the window without continuation
    /// markers ends at the first end marker the window shows: an ad's end
    /// (0x31) inside the opportunity is not it, the opportunity's end is.
    @Test func aBreakWhoseStartLeftTheWindowEndsAtItsOwnTypesEnd() throws {
        let playlist = try F.playlist([
            1: "#EXT-OATCLS-SCTE35:\(Self.secondAdEnd.base64Encoded)",
            4: "#EXT-OATCLS-SCTE35:\(Self.opportunityEnd.base64Encoded)",
        ])
        let window = OriginWindow(try PreparedOriginWindow(playlist))
        #expect(window.firstEndMarker(endingBreakStartedBy: Self.opportunity.encoded()) == 4)
        // A splice_insert start, or none known, is ended by any end.
        #expect(window.firstEndMarker(endingBreakStartedBy: F.spliceOut(seconds: 24).encoded()) == 1)
        #expect(window.firstEndMarker(endingBreakStartedBy: nil) == 1)
        let withCueIn = try F.playlist([
            1: "#EXT-OATCLS-SCTE35:\(Self.secondAdEnd.base64Encoded)", 3: "#EXT-X-CUE-IN",
        ])
        let cueInWindow = OriginWindow(try PreparedOriginWindow(withCueIn))
        #expect(cueInWindow.firstEndMarker(endingBreakStartedBy: Self.opportunity.encoded()) == 3)
    }
}
