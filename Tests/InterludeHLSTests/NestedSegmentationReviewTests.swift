import Foundation
import Testing

@testable import InterludeHLS

/// Nesting cases a review of the segmentation rules found: a part is only
/// a part while its break runs, only a lower level nests in a higher one,
/// nesting holds across marker styles, and an explicit CUE-IN=YES ends a
/// live break whatever its payload.
@Suite struct NestedSegmentationReviewTests {
    typealias F = OriginCueFixture
    typealias N = NestedSegmentationTests

    static func command(_ id: String, _ segment: Int, _ section: SpliceInfoSection) -> String {
        "#EXT-X-DATERANGE:ID=\"\(id)\",START-DATE=\"\(F.date(ofSegment: segment))\",SCTE35-CMD=\(section.hexEncoded)"
    }

    @Test func anAdAfterAnOpportunityEndedByItsOwnIDEndIsABreakOfItsOwn() throws {
        // The opportunity has no duration; its end comes as a range of its own. The ad after it is no part of it.
        let playlist = try F.playlist([
            1: Self.command("po-start", 1, F.timeSignal([(0x34, nil)], event: 0x10)),
            3: Self.command("po-end", 3, N.opportunityEnd),
            4: Self.command("ad-later", 4, F.timeSignal([(0x30, 6)], event: 0x40)),
        ])
        #expect(playlist.adBreaks.map(\.segmentRange) == [1..<3, 4..<5])
        #expect(playlist.adBreaks.map(\.id) == ["po-start", "ad-later"])
    }

    @Test func anOpportunityInsideAnOpenAdIsABreakNotAPart() throws {
        // The ad's end was lost: an opportunity is a higher level than an ad, so it starts a break.
        let playlist = try F.playlist([
            1: "#EXT-OATCLS-SCTE35:\(F.timeSignal([(0x30, nil)], event: 0x20).base64Encoded)",
            3: "#EXT-OATCLS-SCTE35:\(F.timeSignal([(0x34, 12)], event: 0x10).base64Encoded)",
        ])
        #expect(playlist.adBreaks.map(\.segmentRange) == [1..<3, 3..<5])
        let ad = F.timeSignal([(0x30, nil)])
        #expect(!F.timeSignal([(0x34, nil)]).isNested(inBreakStartedBy: ad))
        #expect(!F.timeSignal([(0x3C, nil)]).isNested(inBreakStartedBy: ad))  // a promo beside an ad
        #expect(!F.timeSignal([(0x34, nil)]).isNested(inBreakStartedBy: F.timeSignal([(0x36, nil)])))
        #expect(F.timeSignal([(0x34, nil)]).isNested(inBreakStartedBy: F.timeSignal([(0x22, nil)])))
        #expect(F.timeSignal([(0x32, nil)]).isNested(inBreakStartedBy: F.timeSignal([(0x46, nil)])))
        #expect(!F.timeSignal([(0x40, nil)]).isNested(inBreakStartedBy: F.timeSignal([(0x22, nil)])))  // no level
    }

    @Test func anAdsDateRangeInsideACueOutOpportunityIsAPartOfIt() throws {
        // CUE-OUT (with the opportunity's OATCLS) for the avail, a DATERANGE for an ad inside it.
        let playlist = try F.playlist([
            1: "#EXT-OATCLS-SCTE35:\(N.opportunity.base64Encoded)\n#EXT-X-CUE-OUT:24",
            3: Self.command("ad-2", 3, F.timeSignal([(0x30, 12)], event: 0x21)),
            5: "#EXT-X-CUE-IN",
        ])
        #expect(playlist.adBreaks.count == 1)
        let adBreak = try #require(playlist.adBreaks.first)
        #expect(adBreak.segmentRange == 1..<5)
        #expect(adBreak.actualDuration == 24)
    }

    @Test func anExplicitCueInEndsALiveBreakWhateverItsPayload() throws {
        // EXT-X-SCTE35 with CUE-IN=YES and an ad's end as CUE: the break scanner ends the break there, so the window does.
        let playlist = try F.playlist([
            2: "#EXT-X-SCTE35:CUE=\"\(N.secondAdEnd.base64Encoded)\",CUE-IN=YES"
        ])
        let window = OriginWindow(try PreparedOriginWindow(playlist))
        #expect(window.firstEndMarker(endingBreakStartedBy: N.opportunity.encoded()) == 2)
    }
}
