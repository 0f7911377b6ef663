import Foundation
import Testing

@testable import InterludeHLS

/// Playlists as real packagers write them, read as their markers say (each
/// found by an audit of public playlists): a date after a clock jump, a
/// START-DATE a millisecond after its segment's, a break that runs past
/// its announced length, x9k3's comma-less EXT-X-SCTE35, an empty ended
/// playlist, and Elemental's SCTE35-IN tag without START-DATE.
@Suite struct RealWorldPlaylistTests {
    static let spliceOut =
        "0xFC302F000000000000FFFFF014054800008F7FEFFE7369C02EFE0052CCF500000000000A0008435545490000013562DBA30A"

    @Test func aDateRangeAfterAClockJumpStartsWhereItsSegmentIs() throws {
        var text = "#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:3\n#EXT-X-MEDIA-SEQUENCE:50116\n"
        text += "#EXT-X-PROGRAM-DATE-TIME:2014-08-13T13:36:33.000Z\n"
        for n in 0..<5 { text += "#EXTINF:3,\ng\(n).ts\n" }
        // The clock jumps 7 s at the discontinuity.
        text += "#EXT-X-DISCONTINUITY\n#EXT-X-PROGRAM-DATE-TIME:2014-08-13T13:36:55.000Z\n#EXTINF:3,\ng5.ts\n"
        text += "#EXT-X-DATERANGE:ID=\"ad1\",START-DATE=\"2014-08-13T13:36:58.000Z\",DURATION=6,"
        text += "SCTE35-OUT=\(Self.spliceOut)\n"
        for n in 6..<10 { text += "#EXTINF:3,\ng\(n).ts\n" }
        let adBreak = try #require(try MediaPlaylist(parsing: text).adBreaks.first)
        #expect(adBreak.segmentRange == 6..<8)
        #expect(adBreak.startTime == 18)
        #expect(adBreak.actualDuration == 6)
    }

    @Test func aStartDateAMillisecondAfterItsSegmentStartsThere() throws {
        // AWS Elemental Live's example: START-DATE .079 on a segment dated .078, 6.006 s segments.
        var text = "#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:7\n#EXT-X-MEDIA-SEQUENCE:1\n"
        let base = try #require(HLSDateFormat.parse("2018-08-22T21:53:54.072Z"))
        for n in 0..<10 {
            if n == 1 {
                text += "#EXT-X-DATERANGE:ID=\"999\",START-DATE=\"2018-08-22T21:54:00.079Z\",PLANNED-DURATION=30.000,"
                text += "SCTE35-OUT=\(Self.spliceOut)\n"
            }
            if n == 6 { text += "#EXT-X-DATERANGE:ID=\"999\",END-DATE=\"2018-08-22T21:54:30.109Z\",DURATION=30.030\n" }
            text += "#EXT-X-PROGRAM-DATE-TIME:\(HLSDateFormat.format(base.addingTimeInterval(Double(n) * 6.006)))\n"
            text += "#EXTINF:6.006,\ns\(n).ts\n"
        }
        let playlist = try MediaPlaylist(parsing: text)
        let adBreak = try #require(playlist.adBreaks.first)
        #expect(adBreak.segmentRange == 1..<6)
        #expect(abs(adBreak.startTime - 6.006) < 1e-9)
        // The end tag leaves START-DATE off, as Elemental and RFC 8216bis's own example do: its range has one.
        let findings = HLSValidator.validate(playlist).filter { $0.rule == .missingAttribute }
        #expect(findings.map(\.severity) == [.warning])
    }

    @Test func aDateRangeTagWithoutStartDateAndNoRangeToContinueIsStillAnError() throws {
        let text = """
            #EXTM3U
            #EXT-X-TARGETDURATION:6
            #EXT-X-PROGRAM-DATE-TIME:2024-05-01T12:00:00.000Z
            #EXT-X-DATERANGE:ID="lonely",DURATION=6
            #EXTINF:6,
            a.ts
            """
        let findings = HLSValidator.validate(try MediaPlaylist(parsing: text)).filter { $0.rule == .missingAttribute }
        #expect(findings.map(\.severity) == [.error])
    }

    static func cuePlaylist(_ body: String) throws -> MediaPlaylist {
        try MediaPlaylist(
            parsing: "#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:10\n#EXT-X-MEDIA-SEQUENCE:1\n" + body)
    }

    @Test func aBreakThatRunsPastItsAnnouncedLengthEndsAtItsCueIn() throws {
        let playlist = try Self.cuePlaylist(
            """
            #EXTINF:10,
            c1.ts
            #EXT-X-CUE-OUT:20.000
            #EXTINF:10,
            a1.ts
            #EXT-X-CUE-OUT-CONT:10.000/20
            #EXTINF:10,
            a2.ts
            #EXT-X-CUE-OUT-CONT:20.000/20
            #EXTINF:10,
            a3.ts
            #EXT-X-CUE-IN
            #EXTINF:10,
            c2.ts
            #EXT-X-ENDLIST
            """)
        #expect(playlist.adBreaks.map(\.segmentRange) == [1..<4])
        #expect(playlist.adBreaks.first?.actualDuration == 30)
    }

    @Test func aJoinedBreakThatOverranStaysOpenWhileItsContinuationsSaySo() throws {
        let playlist = try Self.cuePlaylist(
            """
            #EXT-X-CUE-OUT-CONT:ElapsedTime=35,Duration=30
            #EXTINF:10,
            s0.ts
            #EXT-X-CUE-OUT-CONT:ElapsedTime=45,Duration=30
            #EXTINF:10,
            s1.ts
            #EXT-X-CUE-OUT-CONT:ElapsedTime=55,Duration=30
            #EXTINF:10,
            s2.ts
            #EXT-X-CUE-IN
            #EXTINF:10,
            s3.ts
            #EXTINF:10,
            s4.ts
            """)
        #expect(playlist.adBreaks.map(\.segmentRange) == [0..<3])
    }

    @Test func aCueInFurtherOnWinsOverAShortAnnouncedLength() throws {
        // MediaConvert (the python m3u8 library's fixture): CUE-OUT:4, its CUE-IN three 10 s segments later.
        let playlist = try Self.cuePlaylist(
            """
            #EXTINF:10,
            segment_00001.ts
            #EXT-X-CUE-OUT:4,SpliceType=VOD_DAI,Action=REPLACE, PAID=example.com/2024073010700,Acds=BA
            #EXTINF:10,
            segment_00002.ts
            #EXT-X-CUE-OUT-CONT:10/4, SpliceType=VOD_DAI,Action=REPLACE,PAID=example.com/2024073010700,Acds=BA
            #EXTINF:10,
            segment_00003.ts
            #EXTINF:10,
            segment_00004.ts
            #EXT-X-CUE-IN:4,SpliceType=VOD_DAI
            #EXTINF:0,
            segment_00005.ts
            #EXTINF:10,
            segment_00006.ts
            #EXT-X-ENDLIST
            """)
        #expect(playlist.adBreaks.map(\.segmentRange) == [1..<4])
    }

    @Test func theAnnouncedLengthStillEndsABreakNoMarkerEnds() throws {
        // No CUE-IN before the next CUE-OUT: the first break ends at its duration.
        let playlist = try Self.cuePlaylist(
            """
            #EXT-X-CUE-OUT:10
            #EXTINF:10,
            a.ts
            #EXTINF:10,
            c.ts
            #EXT-X-CUE-OUT:10
            #EXTINF:10,
            b.ts
            #EXT-X-CUE-IN
            #EXTINF:10,
            d.ts
            """)
        #expect(playlist.adBreaks.map(\.segmentRange) == [0..<1, 2..<3])
    }

    @Test(arguments: [#"CUE="PAYLOAD" CUE-OUT=YES"#, #"CUE="PAYLOAD" CUE-OUT="YES" DURATION=90.023267"#])
    func x9k3sCommaLessSCTE35TagStartsTheBreak(attributes: String) throws {
        let payload = "/DAxAAAAAAAAAP/wFAUAAABdf+/+zHRtOn4Ae6DOAAAAAAAMAQpDVUVJsZ8xMjEqLYemJQ=="
        let playlist = try Self.cuePlaylist(
            """
            #EXTINF:10,
            s0.ts
            #EXT-X-SCTE35:\(attributes.replacingOccurrences(of: "PAYLOAD", with: payload))
            #EXTINF:10,
            s1.ts
            #EXTINF:10,
            s2.ts
            """)
        let adBreak = try #require(playlist.adBreaks.first)
        #expect(adBreak.style == .scte35Cue)
        #expect(adBreak.segmentRange.lowerBound == 1)
        #expect(adBreak.scte35Out != nil)
        #expect(CueMarkerValue.field("DURATION", in: "CUE-OUT=\"YES\" DURATION= 90.5") == "90.5")
    }

    @Test func playlistWideTagsAfterTheFirstSegmentsDateAreStillThePlaylists() throws {
        let playlist = try MediaPlaylist(
            parsing: """
                #EXTM3U
                #EXT-X-VERSION:3
                #EXT-X-PROGRAM-DATE-TIME:2024-01-01T00:00:00Z
                #EXT-X-TARGETDURATION:10
                #EXT-X-MEDIA-SEQUENCE:123
                #EXTINF:10,
                a.ts
                #EXTINF:10,
                b.ts
                """)
        #expect(playlist.targetDuration == 10)
        #expect(playlist.mediaSequence == 123)
        #expect(playlist.segments.map(\.mediaSequence) == [123, 124])
        #expect(playlist.segments.first?.programDateTime != nil)
        #expect(!HLSValidator.validate(playlist).contains { $0.rule == .missingTargetDuration })
    }

    @Test func anEmptyEndedPlaylistHasItsEndList() throws {
        let playlist = try MediaPlaylist(parsing: "#EXTM3U\n#EXT-X-TARGETDURATION:10\n#EXT-X-ENDLIST\n")
        #expect(playlist.hasEndList)
        #expect(!HLSValidator.validate(playlist).contains { $0.rule == .segmentAfterEndList })
        let misplaced = try MediaPlaylist(
            parsing: "#EXTM3U\n#EXT-X-TARGETDURATION:10\n#EXT-X-ENDLIST\n#EXTINF:4,\na.ts\n")
        #expect(HLSValidator.validate(misplaced).contains { $0.rule == .segmentAfterEndList })
    }
}
