import Foundation
import Testing

@testable import InterludeHLS

@Suite struct MediaPlaylistParsingTests {
    @Test func vodHeaderTagsAreRead() throws {
        let playlist = try Fixture.media("VOD/vod-basic.m3u8")
        #expect(playlist.version == 3)
        #expect(playlist.targetDuration == 10)
        #expect(playlist.mediaSequence == 0)
        #expect(playlist.playlistType == "VOD")
        #expect(playlist.hasIndependentSegments)
        #expect(playlist.hasEndList)
        #expect(playlist.start?.double("TIME-OFFSET") == 5.5)
        #expect(playlist.start?["PRECISE"]?.isYes == true)
    }

    @Test func segmentsKeepDurationTitleAndURI() throws {
        let playlist = try Fixture.media("VOD/vod-basic.m3u8")
        #expect(playlist.segments.map(\.uri) == ["segment0.ts", "segment1.ts", "segment2.ts"])
        #expect(playlist.segments.map(\.duration.value) == [10, 10, 5.5])
        #expect(playlist.segments[0].title == "Opening")
        #expect(playlist.segments[2].duration.text == "5.500")
    }

    @Test func startTimesAccumulateDurations() throws {
        let playlist = try Fixture.media("VOD/vod-basic.m3u8")
        #expect(playlist.segments.map(\.startTime) == [0, 10, 20])
        #expect(playlist.totalDuration == 25.5)
    }

    @Test func mediaSequenceNumbersCountFromTheHeader() throws {
        let playlist = try Fixture.media("Live/live-window.m3u8")
        #expect(playlist.segments.map(\.mediaSequence) == [1200, 1201, 1202, 1203])
    }

    @Test func discontinuityIncrementsTheDiscontinuitySequence() throws {
        let playlist = try Fixture.media("Live/live-window.m3u8")
        #expect(playlist.segments.map(\.discontinuitySequence) == [14, 14, 15, 15])
        #expect(playlist.segments[2].isDiscontinuity)
    }

    @Test func programDateTimeCarriesForwardAndResetsAtExplicitTags() throws {
        let playlist = try Fixture.media("Live/live-window.m3u8")
        #expect(playlist.segments[0].programDateTime == Fixture.date("2024-05-01T12:00:00.000Z"))
        #expect(playlist.segments[1].programDateTime == Fixture.date("2024-05-01T12:00:06.000Z"))
        #expect(playlist.segments[2].programDateTime == Fixture.date("2024-05-01T12:00:20.000Z"))
        #expect(playlist.segments[3].programDateTime == Fixture.date("2024-05-01T12:00:26.000Z"))
    }

    @Test func segmentTagsAreTyped() throws {
        let playlist = try Fixture.media("Live/live-window.m3u8")
        let first = playlist.segments[0]
        #expect(first.keys.first?.attributes.string("METHOD") == "AES-128")
        #expect(first.keys.first?.attributes["IV"]?.kind == .hexadecimalSequence)
        #expect(first.keys.first?.attributes["IV"]?.hexadecimalBytes?.count == 16)
        #expect(first.map?.attributes.string("BYTERANGE") == "720@0")
        #expect(first.bitrate == 2400)
        #expect(first.byteRange == "100000@720")
        #expect(playlist.segments[1].byteRange == "90000")
        #expect(playlist.segments[2].isGap)
    }

    @Test func commentsAndUnknownTagsStayInPlace() throws {
        let playlist = try Fixture.media("Live/live-window.m3u8")
        #expect(playlist.tags.contains(HLSTag.comment(" packager: example 1.0")))
        #expect(playlist.segments[1].tags == [HLSTag("EXT-X-X-VENDOR-HINT", .text("keep-me"))])
    }

    @Test func lowLatencyPartsBelongToTheirSegment() throws {
        let playlist = try Fixture.media("LowLatency/llhls.m3u8")
        #expect(playlist.partTarget == 0.334)
        #expect(playlist.serverControl?["CAN-BLOCK-RELOAD"]?.isYes == true)
        #expect(playlist.serverControl?.double("PART-HOLD-BACK") == 1.002)
        #expect(playlist.segments[1].parts.count == 2)
        #expect(playlist.segments[1].parts[0].attributes["INDEPENDENT"]?.isYes == true)
        #expect(playlist.segments[1].parts[1].attributes.string("URI") == "filePart270.1.mp4")
    }

    @Test func trailingPartsHintsAndReportsFollowTheLastSegment() throws {
        let playlist = try Fixture.media("LowLatency/llhls.m3u8")
        #expect(
            playlist.trailingTags.map(\.name) == [HLSTagName.part, HLSTagName.preloadHint, HLSTagName.renditionReport])
        #expect(playlist.trailingTags[2].attributes.integer("LAST-MSN") == 271)
    }

    @Test func skipAdvancesTheMediaSequenceOfTheFirstSegment() throws {
        let playlist = try Fixture.media("LowLatency/llhls.m3u8")
        // MEDIA-SEQUENCE 266 plus SKIPPED-SEGMENTS=3: the first listed segment is 269.
        #expect(playlist.segments.map(\.mediaSequence) == [269, 270])
    }

    @Test func attributeValuesKeepTheirTypes() throws {
        let playlist = try MultivariantPlaylist(parsing: Fixture.text("Multivariant/multivariant.m3u8"))
        let attributes = playlist.variants[0].attributes
        #expect(attributes["BANDWIDTH"]?.kind == .decimalInteger)
        #expect(attributes["CODECS"]?.kind == .quotedString)
        #expect(attributes["RESOLUTION"]?.kind == .decimalResolution)
        #expect(attributes["FRAME-RATE"]?.kind == .decimalFloatingPoint)
        #expect(playlist.renditions[0].attributes["TYPE"]?.kind == .enumeratedString)
    }

    @Test func playlistKindIsToldApartByContent() throws {
        let parser = HLSParser()
        guard case .media = try parser.parse(Fixture.text("VOD/vod-basic.m3u8")) else {
            Issue.record("expected a media playlist")
            return
        }
        guard case .multivariant = try parser.parse(Fixture.text("Multivariant/multivariant.m3u8")) else {
            Issue.record("expected a multivariant playlist")
            return
        }
    }

    @Test func crlfLineEndsAreAccepted() throws {
        let text = "#EXTM3U\r\n#EXT-X-TARGETDURATION:4\r\n#EXTINF:4.0,\r\na.ts\r\n"
        let playlist = try MediaPlaylist(parsing: text)
        #expect(playlist.segments.map(\.uri) == ["a.ts"])
    }

    @Test func programDateTimeWithOffsetIsConvertedToUTC() {
        #expect(HLSDateFormat.parse("2024-05-01T14:00:00.500+02:00") == Fixture.date("2024-05-01T12:00:00.500Z"))
    }
}

extension MediaPlaylistParsingTests {
    @Test func iFramesOnlyPlaylistKeepsItsByteRangesAfterExtinf() throws {
        let playlist = try Fixture.media("VOD/iframes-only.m3u8")
        #expect(playlist.isIFramesOnly)
        #expect(playlist.segments.map(\.byteRange) == ["9400@376", "7144@374072"])
        #expect(playlist.segments[0].tagsAfterInfo.map(\.name) == [HLSTagName.byteRange])
    }

    @Test func bitrateAndGapAreReadFromLiveSegments() throws {
        let playlist = try Fixture.media("Live/live-window.m3u8")
        #expect(playlist.segments.map(\.isGap) == [false, false, true, false])
        #expect(playlist.segments.map(\.bitrate) == [2400, nil, nil, nil])
    }
}
