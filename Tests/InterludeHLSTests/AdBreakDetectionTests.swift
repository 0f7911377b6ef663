import Foundation
import Testing

@testable import InterludeHLS

/// Break detection on origin manifests in the forms vendors document
/// (Fixtures/AdMarkers): AWS MediaTailor and Elemental, Google DAI and
/// Live Stream API, Adobe, RFC 8216bis DATERANGE pairs.
@Suite struct AdBreakDetectionTests {
    @Test func mediaTailorOriginBreakEndsAtItsCueInWithTheOATCLSPayload() throws {
        let playlist = try Fixture.media("AdMarkers/mediatailor-origin-scte35-enhanced.m3u8")
        let adBreak = try #require(playlist.adBreaks.first)
        #expect(playlist.adBreaks.count == 1)
        #expect(adBreak.style == .cueOut)
        #expect(adBreak.segmentRange == 3..<8)
        #expect(abs(adBreak.startTime - 17.384) < 1e-9)
        // The CUE-OUT's 20.020 s, not the continuation's rounded 21.
        #expect(adBreak.plannedDuration == 20.02)
        #expect(abs((adBreak.actualDuration ?? 0) - 20.02) < 1e-9)
        #expect(adBreak.isComplete)
        guard case .spliceInsert(let insert) = adBreak.scte35OutSection?.command else {
            Issue.record("expected a splice_insert")
            return
        }
        #expect(insert.eventID == 0xF000_0006)
        #expect(insert.breakDuration?.seconds == 20)
    }

    @Test func elementalSlashContinuationWithBlanksReadsAndTheBreakEndsOnTime() throws {
        let playlist = try Fixture.media("AdMarkers/elemental-cue-out-cont-slash.m3u8")
        let adBreak = try #require(playlist.adBreaks.first)
        #expect(adBreak.segmentRange == 1..<4)
        #expect(adBreak.plannedDuration == 30)
        #expect(abs((adBreak.actualDuration ?? 0) - 30) < 1e-9)
        #expect(CueMarkerValue.continuation(" 8.308/30").elapsed == 8.308)
        #expect(CueMarkerValue.continuation(" 20.391/30").duration == 30)
    }

    @Test func scte35EnhancedBreakStillOpenAtTheEdgeCarriesItsAssetAndTimeSignal() throws {
        let playlist = try Fixture.media("AdMarkers/scte35-enhanced-open-at-edge.m3u8")
        let adBreak = try #require(playlist.adBreaks.first)
        #expect(!adBreak.isComplete)
        #expect(adBreak.actualDuration == nil)
        #expect(adBreak.segmentRange == 1..<3)
        #expect(adBreak.plannedDuration == 201.467)
        let start = try #require(adBreak.startDate)
        #expect(abs(start.timeIntervalSince(Fixture.date("2024-05-01T12:00:05.939Z"))) < 0.000_001)
        #expect(adBreak.asset?["CAID"]?.hexadecimalBytes == [0, 0, 0, 0, 0x20, 0xFB, 0x65, 0x01])
        let section = try #require(adBreak.scte35OutSection)
        #expect(section.command == .timeSignal(SpliceTime(ptsTime: 3_150_057)))
        let descriptor = try #require(section.segmentationDescriptors.first)
        #expect(descriptor.typeID == 0x34)
        #expect(descriptor.eventID == 1_073_741_883)
        #expect(descriptor.duration == 18_132_042)
    }

    @Test func googleDAICueOutWithDurationAttributeSpansToTheCueIn() throws {
        let playlist = try Fixture.media("AdMarkers/google-dai-cue-out-duration.m3u8")
        let adBreak = try #require(playlist.adBreaks.first)
        #expect(adBreak.segmentRange == 2..<6)
        #expect(adBreak.startTime == 16)
        #expect(adBreak.plannedDuration == 30)
        #expect(adBreak.actualDuration == 30)
    }

    @Test func aBreakWhoseCueOutSlidOutStartsWhereTheElapsedTimeSays() throws {
        let playlist = try Fixture.media("AdMarkers/google-live-stream-fmp4-slid-out.m3u8")
        let adBreak = try #require(playlist.adBreaks.first)
        #expect(playlist.adBreaks.count == 1)
        #expect(!adBreak.startsInPlaylist)
        #expect(adBreak.startTime == -2.787167)
        #expect(adBreak.plannedDuration == 45)
        let start = try #require(adBreak.startDate)
        // The CUE-OUT segment was dated 17:44:49.356 (rounded to the millisecond).
        #expect(abs(start.timeIntervalSince(Fixture.date("2023-05-19T17:44:49.356Z"))) < 0.001)
        #expect(!adBreak.isComplete)
        #expect(adBreak.segmentRange == 0..<3)
    }

    @Test func elementalDateRangePairEndsWithTheInTagThatHasNoStartDate() throws {
        let playlist = try Fixture.media("AdMarkers/elemental-daterange-pair.m3u8")
        let adBreak = try #require(playlist.adBreaks.first)
        #expect(adBreak.id == "999")
        #expect(adBreak.segmentRange == 1..<4)
        #expect(adBreak.plannedDuration == 30)
        #expect(adBreak.actualDuration == 30.03)
        #expect(adBreak.isComplete)
        #expect(adBreak.startDate == Fixture.date("2018-08-22T21:54:00.079Z"))
        guard case .spliceInsert(let insert) = adBreak.scte35OutSection?.command else {
            Issue.record("expected a splice_insert")
            return
        }
        #expect(insert.eventID == 999)
        #expect(insert.breakDuration?.seconds == 30)
    }

    @Test func adobeCueOutWithSignalIDKeepsItsDuration() throws {
        let playlist = try Fixture.media("AdMarkers/adobe-signalid.m3u8")
        let adBreak = try #require(playlist.adBreaks.first)
        #expect(adBreak.plannedDuration == 177.1)
        #expect(adBreak.segmentRange == 1..<3)
        #expect(CueMarkerValue.continuation("5.005/177.100,SignalID=").duration == 177.1)
    }

    /// AWS Elemental MediaLive's "Adobe" style writes one EXT-X-CUE with the
    /// avail's duration (quoted) and nothing after it: the break ends there.
    @Test func mediaLiveAdobeCueEndsAtItsDuration() throws {
        let playlist = try Fixture.media("AdMarkers/medialive-adobe.m3u8")
        #expect(playlist.adBreaks.count == 1)
        let adBreak = try #require(playlist.adBreaks.first)
        #expect(adBreak.style == .adobeCue)
        #expect(adBreak.plannedDuration == 12.012)
        #expect(adBreak.segmentRange == 1..<3)
        #expect(adBreak.isComplete)
        #expect(abs(adBreak.startTime - 6.006) < 1e-9)
        let start = try #require(adBreak.startDate)
        #expect(abs(start.timeIntervalSince(Fixture.date("2024-05-01T12:00:06.006Z"))) < 0.000_001)
    }

    /// Adobe Primetime: a SpliceOut with no duration, CUE-CONT with the elapsed
    /// time, and a SpliceIn that ends the break (Adobe's documented sample).
    @Test func primetimeSpliceOutRunsToItsSpliceIn() throws {
        let playlist = try Fixture.media("AdMarkers/primetime-cue-cont.m3u8")
        #expect(playlist.adBreaks.count == 1)
        let adBreak = try #require(playlist.adBreaks.first)
        #expect(adBreak.style == .adobeCue)
        #expect(adBreak.plannedDuration == nil)
        #expect(adBreak.segmentRange == 2..<5)
        #expect(abs((adBreak.actualDuration ?? 0) - 25.6) < 1e-9)
        #expect(adBreak.isComplete)
        #expect(CueMarkerValue.adobeCue("TYPE=SpliceOut,ID=1,DURATION=0,TIME=1") == .spliceOut(duration: nil))
        #expect(CueMarkerValue.adobeCue("TYPE=SpliceInsert,ID=a1,TIME=10.5") == .other)
        #expect(CueMarkerValue.adobeCue("ID=1") == .other)
        #expect(CueMarkerValue.adobeCue(nil) == .other)
    }

    @Test func aWindowThatBeginsInsideAnAdobeBreakStartsItWhereTheElapsedTimeSays() throws {
        let playlist = try Fixture.media("AdMarkers/primetime-window-inside-break.m3u8")
        #expect(playlist.adBreaks.count == 1)
        let adBreak = try #require(playlist.adBreaks.first)
        #expect(adBreak.style == .adobeCue)
        #expect(!adBreak.startsInPlaylist)
        #expect(abs(adBreak.startTime + 5.8) < 1e-9)
        #expect(adBreak.plannedDuration == 25.6)
        #expect(adBreak.segmentRange == 0..<2)
        #expect(adBreak.isComplete)
    }

    @Test func oneAvailMarkedTwiceIsOneBreakAndALaterCueOutEndsIt() throws {
        let breaks = try Fixture.media("AdMarkers/overlapping-daterange-and-cue.m3u8").adBreaks
        #expect(breaks.map(\.style) == [.dateRange, .cueOut])
        #expect(breaks.map(\.segmentRange) == [1..<3, 3..<5])
        #expect(breaks.map(\.actualDuration) == [8, 8])
        #expect(breaks.allSatisfy { $0.isComplete })
        #expect(breaks[0].id == "avail-1")
    }

    @Test func aCueOutWithADurationAndNoCueInEndsAtItsDuration() throws {
        let text = """
            #EXTM3U
            #EXT-X-TARGETDURATION:4
            #EXT-X-CUE-OUT:8
            #EXTINF:4,
            a.ts
            #EXTINF:4,
            b.ts
            #EXTINF:4,
            c.ts
            #EXT-X-CUE-OUT-CONT:12/8
            #EXTINF:4,
            d.ts
            """
        let breaks = try MediaPlaylist(parsing: text).adBreaks
        // The stray continuation after the end is not a second break.
        #expect(breaks.count == 1)
        #expect(breaks.first?.segmentRange == 0..<2)
        #expect(breaks.first?.isComplete == true)
    }

    @Test func timeSignalInSCTE35CMDStartsAndEndsABreak() throws {
        let origin = SimulatedLiveOrigin(style: .dateRangeCommand, breaks: [.init(start: 2, length: 3)])
        let adBreak = try #require(origin.playlist(edge: 5).adBreaks.first)
        #expect(adBreak.id == "po-2")
        #expect(adBreak.segmentRange == 2..<5)
        #expect(adBreak.plannedDuration == 12)
        #expect(adBreak.isComplete)
    }

    @Test func aDateRangeWhoseStartLeftTheWindowStartsBeforeIt() throws {
        let text = """
            #EXTM3U
            #EXT-X-TARGETDURATION:4
            #EXT-X-PROGRAM-DATE-TIME:2024-05-01T12:00:08.000Z
            #EXT-X-DATERANGE:ID="b",START-DATE="2024-05-01T12:00:00.000Z",PLANNED-DURATION=16,SCTE35-OUT=0xFC302500000000000000FFF01405000003E77FEFFE0011FB9EFE002932E00001010100004D192A59
            #EXTINF:4,
            a.ts
            #EXTINF:4,
            b.ts
            #EXTINF:4,
            c.ts
            """
        let adBreak = try #require(try MediaPlaylist(parsing: text).adBreaks.first)
        #expect(adBreak.startTime == -8)
        #expect(!adBreak.startsInPlaylist)
        #expect(adBreak.segmentRange == 0..<2)
        #expect(adBreak.isComplete)
    }
}
