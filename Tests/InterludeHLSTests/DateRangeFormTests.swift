import Foundation
import Testing

@testable import InterludeHLS

/// EXT-X-DATERANGE ad markers as packagers write them (RFC 8216bis 4.4.5.1
/// and its SCTE-35 mapping 4.4.5.1.4): SCTE35-OUT / SCTE35-IN / SCTE35-CMD
/// in hex, PLANNED-DURATION and DURATION, attributes added by a later tag
/// of the same ID, END-ON-NEXT, and windows that slid past the start.
@Suite struct DateRangeFormTests {
    typealias F = OriginCueFixture

    static let out18 = F.spliceOut(seconds: 18)

    static func range(_ id: String, segment: Int, _ attributes: String) -> String {
        "#EXT-X-DATERANGE:ID=\"\(id)\",START-DATE=\"\(F.date(ofSegment: segment))\",\(attributes)"
    }

    @Test(arguments: [
        out18.hexEncoded, String(out18.hexEncoded.dropFirst(2)), out18.hexEncoded.lowercased(),
        "0x" + String(out18.hexEncoded.dropFirst(2)).lowercased(),
    ])
    func scte35OutInEveryHexFormStartsTheBreak(hex: String) throws {
        let playlist = try F.playlist([1: Self.range("a", segment: 1, "SCTE35-OUT=\(hex)")])
        let adBreak = try #require(playlist.adBreaks.first)
        #expect(adBreak.id == "a")
        #expect(adBreak.scte35Out == Self.out18.encoded())
        // No PLANNED-DURATION: the splice_insert's break_duration.
        #expect(adBreak.plannedDuration == 18)
        #expect(adBreak.segmentRange == 1..<4)
    }

    @Test func plannedDurationAnnouncesAndDurationEnds() throws {
        let planned = try F.playlist([
            1: Self.range("a", segment: 1, "PLANNED-DURATION=12,SCTE35-OUT=\(Self.out18.hexEncoded)")
        ])
        let announced = try #require(planned.adBreaks.first)
        #expect(announced.plannedDuration == 12)
        #expect(announced.segmentRange == 1..<3)
        let ended = try F.playlist([
            1: Self.range("a", segment: 1, "PLANNED-DURATION=24,DURATION=12,SCTE35-OUT=\(Self.out18.hexEncoded)")
        ])
        let adBreak = try #require(ended.adBreaks.first)
        #expect(adBreak.plannedDuration == 24)
        #expect(adBreak.actualDuration == 12)
        #expect(adBreak.segmentRange == 1..<3)
    }

    /// RFC 8216bis allows a later tag with the same ID to add attributes: the
    /// end comes as END-DATE, or as DURATION with SCTE35-IN.
    @Test(arguments: [
        "END-DATE=\"\(OriginCueFixture.date(ofSegment: 3))\"",
        "DURATION=12.000",
        "DURATION=12.000,SCTE35-IN=\(OriginCueFixture.spliceIn.hexEncoded)",
    ])
    func aLaterTagOfTheSameIDAddsTheEnd(end: String) throws {
        let playlist = try F.playlist([
            1: Self.range("a", segment: 1, "PLANNED-DURATION=30,SCTE35-OUT=\(Self.out18.hexEncoded)"),
            3: Self.range("a", segment: 1, end),
        ])
        #expect(playlist.adBreaks.count == 1)
        let adBreak = try #require(playlist.adBreaks.first)
        #expect(adBreak.plannedDuration == 30)
        #expect(adBreak.actualDuration == 12)
        #expect(adBreak.segmentRange == 1..<3)
        #expect(adBreak.isComplete)
    }

    /// END-ON-NEXT=YES: the range ends where the next range of its CLASS
    /// starts, before its planned 18 s; a range of another CLASS does not end it.
    @Test func endOnNextEndsTheBreakAtTheNextRangeOfItsClass() throws {
        let playlist = try F.playlist([
            1: "#EXT-X-DATERANGE:ID=\"a\",CLASS=\"com.example.ad\",START-DATE=\"\(F.date(ofSegment: 1))\","
                + "END-ON-NEXT=YES,SCTE35-OUT=\(Self.out18.hexEncoded)",
            2: "#EXT-X-DATERANGE:ID=\"x\",CLASS=\"com.example.chapter\",START-DATE=\"\(F.date(ofSegment: 2))\"",
            3:
                "#EXT-X-DATERANGE:ID=\"b\",CLASS=\"com.example.ad\",START-DATE=\"\(F.date(ofSegment: 3))\",END-ON-NEXT=YES",
        ])
        #expect(playlist.adBreaks.count == 1)
        let adBreak = try #require(playlist.adBreaks.first)
        #expect(adBreak.id == "a")
        #expect(adBreak.actualDuration == 12)
        #expect(adBreak.segmentRange == 1..<3)
        #expect(adBreak.isComplete)
    }

    @Test func endOnNextWithoutItsNextRangeYetLeavesTheBreakOpen() throws {
        let playlist = try F.playlist([
            1: "#EXT-X-DATERANGE:ID=\"a\",CLASS=\"com.example.ad\",START-DATE=\"\(F.date(ofSegment: 1))\","
                + "END-ON-NEXT=YES,SCTE35-OUT=\(F.timeSignal([(0x34, nil)]).hexEncoded)"
        ])
        let adBreak = try #require(playlist.adBreaks.first)
        #expect(!adBreak.isComplete)
        #expect(adBreak.segmentRange == 1..<6)
    }

    /// The window slid past the break's start: its tags stay at the top,
    /// and the start is before the first segment.
    @Test func aBreakWhoseStartSlidOutStartsBeforeTheWindow() throws {
        let start = "2024-05-01T11:59:54.000Z"
        let playlist = try F.playlist([
            0:
                "#EXT-X-DATERANGE:ID=\"a\",START-DATE=\"\(start)\",PLANNED-DURATION=18,SCTE35-OUT=\(Self.out18.hexEncoded)",
            2: "#EXT-X-DATERANGE:ID=\"a\",START-DATE=\"\(start)\",DURATION=18,SCTE35-IN=\(F.spliceIn.hexEncoded)",
        ])
        let adBreak = try #require(playlist.adBreaks.first)
        #expect(adBreak.startTime == -6)
        #expect(!adBreak.startsInPlaylist)
        #expect(adBreak.segmentRange == 0..<2)
        #expect(adBreak.actualDuration == 18)
    }

    @Test func placementOpportunityCommandsWithTheirOwnIDsStartAndEndTheBreak() throws {
        let playlist = try F.playlist([
            1: Self.range("po-1", segment: 1, "SCTE35-CMD=\(F.timeSignal([(0x34, nil)]).hexEncoded)"),
            4: Self.range("po-1-end", segment: 4, "SCTE35-CMD=\(F.timeSignal([(0x35, nil)]).hexEncoded)"),
        ])
        #expect(playlist.adBreaks.count == 1)
        let adBreak = try #require(playlist.adBreaks.first)
        #expect(adBreak.id == "po-1")
        #expect(adBreak.segmentRange == 1..<4)
        #expect(adBreak.actualDuration == 18)
    }

    /// An early return: the network comes back at 12 s of an 18 s avail,
    /// signalled by a tag with its own ID (an SCTE35-IN, or the splice_insert
    /// in an SCTE35-CMD). The window already reaches the planned end; the
    /// break still ends at the return.
    @Test(arguments: ["SCTE35-IN", "SCTE35-CMD"])
    func anEarlyReturnWithItsOwnIDEndsTheBreakBeforeItsPlannedEnd(attribute: String) throws {
        let playlist = try F.playlist([
            1: Self.range("out", segment: 1, "PLANNED-DURATION=18,SCTE35-OUT=\(Self.out18.hexEncoded)"),
            3: Self.range("in", segment: 3, "\(attribute)=\(F.spliceIn.hexEncoded)"),
        ])
        #expect(playlist.adBreaks.count == 1)
        let adBreak = try #require(playlist.adBreaks.first)
        #expect(adBreak.segmentRange == 1..<3)
        #expect(adBreak.actualDuration == 12)
        #expect(adBreak.scte35In == F.spliceIn.encoded())
    }
}
