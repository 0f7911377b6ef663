import Foundation
import Testing

@testable import InterludeHLS

/// Ends and cancels paired with their break by event ID
/// (`segmentation_event_id`, `splice_event_id`): a cancel ends the break of
/// the event it names and nothing else, an end of the open event wins over
/// one of its kind, and a repeated end of a break already over does not end
/// the next one. Encoders careless with IDs still have their ends read.
@Suite struct SegmentationEventTests {
    typealias F = OriginCueFixture

    /// A time_signal cancelling segmentation event `event`.
    static func cancel(event: UInt32) -> SpliceInfoSection {
        var descriptor = SegmentationDescriptor(eventID: event, typeID: 0)
        descriptor.isCancel = true
        return SpliceInfoSection(
            command: .timeSignal(SpliceTime(ptsTime: 900_000)), descriptors: [.segmentation(descriptor)])
    }

    static func oatcls(_ section: SpliceInfoSection) -> String { "#EXT-OATCLS-SCTE35:\(section.base64Encoded)" }

    static func command(_ id: String, _ segment: Int, _ section: SpliceInfoSection) -> String {
        "#EXT-X-DATERANGE:ID=\"\(id)\",START-DATE=\"\(F.date(ofSegment: segment))\",SCTE35-CMD=\(section.hexEncoded)"
    }

    static let opportunity = F.timeSignal([(0x34, nil)], event: 0x10)
    static let opportunityEnd = F.timeSignal([(0x35, nil)], event: 0x10)
    static let nextOpportunity = F.timeSignal([(0x34, nil)], event: 0x11)
    static let nextOpportunityEnd = F.timeSignal([(0x35, nil)], event: 0x11)

    @Test func endingIsJudgedByEventThenByKind() {
        #expect(Self.opportunityEnd.ending(ofBreakStartedBy: Self.opportunity) == .byEvent)
        #expect(Self.nextOpportunityEnd.ending(ofBreakStartedBy: Self.opportunity) == .byKind)
        #expect(F.timeSignal([(0x31, nil)], event: 0x10).ending(ofBreakStartedBy: Self.opportunity) == .none)
        #expect(Self.cancel(event: 0x10).ending(ofBreakStartedBy: Self.opportunity) == .byEvent)
        #expect(Self.cancel(event: 0x12).ending(ofBreakStartedBy: Self.opportunity) == .none)
        #expect(Self.cancel(event: 0x10).ending(ofBreakStartedBy: nil) == .none)
        #expect(Self.cancel(event: 0x10).isCancellation && !Self.cancel(event: 0x10).isCueIn)
        #expect(F.spliceIn.ending(ofBreakStartedBy: F.spliceOut(seconds: 30)) == .byEvent)
        #expect(F.spliceIn.ending(ofBreakStartedBy: Self.opportunity) == .byKind)
        #expect(Self.opportunityEnd.ending(ofBreakStartedBy: F.spliceOut(seconds: 30)) == .byKind)
        var insertCancel = SpliceInsert(eventID: 7)
        insertCancel.isCancel = true
        let cancelSection = SpliceInfoSection(command: .spliceInsert(insertCancel))
        #expect(cancelSection.ending(ofBreakStartedBy: F.spliceOut(seconds: 30)) == .byEvent)
        #expect(cancelSection.ending(ofBreakStartedBy: Self.opportunity) == .none)
    }

    @Test func aCancelOfTheOpenEventEndsItsBreak() throws {
        // MediaLive runs a time_signal without a duration until its cancel.
        let playlist = try F.playlist([1: Self.oatcls(Self.opportunity), 3: Self.oatcls(Self.cancel(event: 0x10))])
        let adBreak = try #require(playlist.adBreaks.first)
        #expect(playlist.adBreaks.count == 1)
        #expect(adBreak.segmentRange == 1..<3)
        #expect(adBreak.isComplete)
        #expect(adBreak.actualDuration == 12)
    }

    @Test func aCancelOfAnotherEventEndsNothing() throws {
        let playlist = try F.playlist([1: Self.oatcls(Self.opportunity), 3: Self.oatcls(Self.cancel(event: 0x44))])
        let adBreak = try #require(playlist.adBreaks.first)
        #expect(playlist.adBreaks.count == 1)
        #expect(adBreak.segmentRange == 1..<6)
        #expect(!adBreak.isComplete)
    }

    @Test func aSpliceInsertCancelOfTheOpenEventEndsItsBreak() throws {
        var out = F.spliceOut(seconds: 30)
        if case .spliceInsert(var insert) = out.command {
            insert.breakDuration = nil
            out.command = .spliceInsert(insert)
        }
        var cancel = SpliceInsert(eventID: 7)
        cancel.isCancel = true
        let playlist = try F.playlist([
            1: "#EXT-X-SPLICEPOINT-SCTE35:\(out.base64Encoded)",
            4: "#EXT-X-SPLICEPOINT-SCTE35:\(SpliceInfoSection(command: .spliceInsert(cancel)).base64Encoded)",
        ])
        #expect(playlist.adBreaks.map(\.segmentRange) == [1..<4])
        #expect(playlist.adBreaks.first?.isComplete == true)
    }

    @Test func anEXTXSCTE35CancelEndsItsEventsBreak() throws {
        let playlist = try F.playlist([
            1: "#EXT-X-SCTE35:CUE=\"\(Self.opportunity.base64Encoded)\"",
            2: "#EXT-X-SCTE35:CUE=\"\(Self.cancel(event: 0x10).base64Encoded)\"",
        ])
        #expect(playlist.adBreaks.map(\.segmentRange) == [1..<2])
    }

    @Test func aDateRangeCancelWithItsOwnIDEndsTheBreak() throws {
        let playlist = try F.playlist([
            1: Self.command("po", 1, Self.opportunity),
            3: Self.command("po-cancel", 3, Self.cancel(event: 0x10)),
        ])
        #expect(playlist.adBreaks.map(\.id) == ["po"])
        #expect(playlist.adBreaks.map(\.segmentRange) == [1..<3])
        #expect(playlist.adBreaks.first?.isComplete == true)
    }

    @Test func aDateRangeCancelUnderTheBreaksIDEndsIt() throws {
        let playlist = try F.playlist([
            1: Self.command("po", 1, Self.opportunity),
            4: Self.command("po", 1, Self.cancel(event: 0x10)),
        ])
        #expect(playlist.adBreaks.map(\.segmentRange) == [1..<4])
        #expect(playlist.adBreaks.first?.isComplete == true)
    }

    @Test func aRepeatedEndOfTheBreakBeforeDoesNotEndTheNextOne() throws {
        let playlist = try F.playlist([
            0: Self.oatcls(Self.opportunity),
            2: Self.oatcls(Self.opportunityEnd),
            3: Self.oatcls(Self.nextOpportunity),
            4: Self.oatcls(Self.opportunityEnd),
            5: Self.oatcls(Self.nextOpportunityEnd),
        ])
        #expect(playlist.adBreaks.map(\.segmentRange) == [0..<2, 3..<5])
    }

    @Test func anEndWithAnotherIDStillEndsTheBreak() throws {
        // An encoder careless with IDs: the end of its kind is still the end.
        let playlist = try F.playlist([
            1: Self.oatcls(Self.opportunity),
            3: Self.oatcls(F.timeSignal([(0x35, nil)], event: 0x77)),
        ])
        #expect(playlist.adBreaks.map(\.segmentRange) == [1..<3])
    }

    @Test func aRepeatedDateRangeEndOfAnEndedBreakLeavesTheNextOpen() throws {
        let playlist = try F.playlist([
            0: Self.command("a", 0, Self.opportunity),
            2: Self.command("a-end", 2, Self.opportunityEnd),
            3: Self.command("b", 3, Self.nextOpportunity),
            4: Self.command("a-end-again", 4, Self.opportunityEnd),
        ])
        #expect(playlist.adBreaks.map(\.id) == ["a", "b"])
        #expect(playlist.adBreaks.map(\.segmentRange) == [0..<2, 3..<6])
        #expect(playlist.adBreaks.map(\.isComplete) == [true, false])
    }

    @Test func aDateRangeEndFindsItsOwnEventsBreak() throws {
        // Two opportunities overlap (a provider's and a late one); each end ends its own event's.
        let playlist = try F.playlist([
            0: Self.command("a", 0, Self.opportunity),
            2: Self.command("b", 2, Self.nextOpportunity),
            3: Self.command("a-end", 3, Self.opportunityEnd),
            5: Self.command("b-end", 5, Self.nextOpportunityEnd),
        ])
        let byID = Dictionary(uniqueKeysWithValues: playlist.adBreaks.compactMap { b in b.id.map { ($0, b) } })
        #expect(byID["b"]?.segmentRange == 2..<5)
        #expect(byID["b"]?.isComplete == true)
    }

    @Test func theWindowPrefersTheEndOfTheBreaksOwnEvent() throws {
        // The start left the window; an end of its kind with another ID comes first.
        let playlist = try F.playlist([
            2: Self.oatcls(Self.nextOpportunityEnd),
            4: Self.oatcls(Self.opportunityEnd),
        ])
        let window = OriginWindow(try PreparedOriginWindow(playlist))
        #expect(window.firstEndMarker(endingBreakStartedBy: Self.opportunity.encoded()) == 4)
        #expect(window.firstEndMarker(endingBreakStartedBy: F.timeSignal([(0x34, nil)], event: 0x50).encoded()) == 2)
    }

    @Test func theWindowReadsCancelsAndDateRangeCommandsAsEnds() throws {
        let cancelled = OriginWindow(
            try PreparedOriginWindow(try F.playlist([3: Self.oatcls(Self.cancel(event: 0x10))])))
        #expect(cancelled.firstEndMarker(endingBreakStartedBy: Self.opportunity.encoded()) == 3)
        #expect(cancelled.firstEndMarker(endingBreakStartedBy: Self.nextOpportunity.encoded()) == nil)
        let commanded = OriginWindow(
            try PreparedOriginWindow(try F.playlist([2: Self.command("end", 2, Self.opportunityEnd)])))
        #expect(commanded.firstEndMarker(endingBreakStartedBy: Self.opportunity.encoded()) == 2)
    }
}
