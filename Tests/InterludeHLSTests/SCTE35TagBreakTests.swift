import Foundation
import Testing

@testable import InterludeHLS

/// Breaks marked with `#EXT-X-SCTE35:CUE="…"`, the tag x9k3 and other
/// SCTE-35 segmenters write: `CUE-OUT=YES` on the break's first segment,
/// `CUE-OUT=CONT` on each later one, `CUE-IN=YES` where the programme comes
/// back, or the `CUE` payload alone, which then says out or in.
@Suite struct SCTE35TagBreakTests {
    /// A 12 s avail (splice_insert, event 7, auto-return) and its return.
    static let out = SpliceInfoSection(
        command: .spliceInsert(
            SpliceInsert(eventID: 7, breakDuration: BreakDuration(autoReturn: true, duration: 12 * 90_000))))
    static let back = SpliceInfoSection(command: .spliceInsert(SpliceInsert(eventID: 7, isOutOfNetwork: false)))

    /// Six 6 s segments, `markers[n]` written before segment n.
    static func playlist(_ markers: [Int: String]) throws -> MediaPlaylist {
        var text = "#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:6\n#EXT-X-MEDIA-SEQUENCE:100\n"
        for n in 0..<6 {
            if let marker = markers[n] { text += marker + "\n" }
            text += "#EXTINF:6.000,\nseg\(100 + n).ts\n"
        }
        return try MediaPlaylist(parsing: text)
    }

    /// x9k3 writes a blank after the quoted payload and after each value.
    @Test func outContinuationAndInAsX9k3WritesThemAreOneBreak() throws {
        let playlist = try Self.playlist([
            1: "#EXT-X-SCTE35:CUE=\"\(Self.out.base64Encoded)\" ,CUE-OUT=YES ",
            2: "#EXT-X-SCTE35:CUE=\"\(Self.out.base64Encoded)\" ,CUE-OUT=CONT",
            3: "#EXT-X-SCTE35:CUE=\"\(Self.back.base64Encoded)\" ,CUE-IN=YES ",
        ])
        #expect(playlist.adBreaks.count == 1)
        let adBreak = try #require(playlist.adBreaks.first)
        #expect(adBreak.style == .scte35Cue)
        #expect(adBreak.segmentRange == 1..<3)
        #expect(abs(adBreak.startTime - 6) < 1e-9)
        // No DURATION attribute: the payload's break_duration.
        #expect(adBreak.plannedDuration == 12)
        #expect(abs((adBreak.actualDuration ?? 0) - 12) < 1e-9)
        #expect(adBreak.isComplete)
        #expect(adBreak.scte35Out == Self.out.encoded())
        #expect(adBreak.scte35In == Self.back.encoded())
    }

    /// A packager writing CUE-OUT and EXT-X-SCTE35 on one segment marks one
    /// avail twice: one break, the CUE-OUT's, with the payload.
    @Test func besideACueOutThePayloadBelongsToItsBreak() throws {
        let playlist = try Self.playlist([
            1: "#EXT-X-CUE-OUT:12.000\n#EXT-X-SCTE35:CUE=\"\(Self.out.base64Encoded)\",ID=\"7\"",
            3: "#EXT-X-CUE-IN",
        ])
        #expect(playlist.adBreaks.count == 1)
        let adBreak = try #require(playlist.adBreaks.first)
        #expect(adBreak.style == .cueOut)
        #expect(adBreak.segmentRange == 1..<3)
        #expect(adBreak.scte35Out == Self.out.encoded())
    }

    /// The payload alone (no CUE-OUT / CUE-IN attribute) says out, then in;
    /// a DURATION attribute wins over the payload's.
    @Test func thePayloadAloneStartsAndEndsTheBreak() throws {
        let playlist = try Self.playlist([
            2: "#EXT-X-SCTE35:CUE=\"\(Self.out.base64Encoded)\",DURATION=18.0",
            5: "#EXT-X-SCTE35:CUE=\"\(Self.back.base64Encoded)\"",
        ])
        #expect(playlist.adBreaks.count == 1)
        let adBreak = try #require(playlist.adBreaks.first)
        #expect(adBreak.style == .scte35Cue)
        #expect(adBreak.plannedDuration == 18)
        #expect(adBreak.segmentRange == 2..<5)
        #expect(adBreak.scte35In == Self.back.encoded())
    }

    /// A window that begins inside the break: its first CUE-OUT=CONT with
    /// ELAPSED places the start before the window.
    @Test func aContinuationWithElapsedTimeStartsTheBreakBeforeTheWindow() throws {
        let playlist = try Self.playlist([
            0: "#EXT-X-SCTE35:CUE=\"\(Self.out.base64Encoded)\",CUE-OUT=CONT,ELAPSED=6.000,DURATION=12",
            1: "#EXT-X-SCTE35:CUE=\"\(Self.back.base64Encoded)\",CUE-IN=YES",
        ])
        #expect(playlist.adBreaks.count == 1)
        let adBreak = try #require(playlist.adBreaks.first)
        #expect(adBreak.style == .scte35Cue)
        #expect(!adBreak.startsInPlaylist)
        #expect(abs(adBreak.startTime + 6) < 1e-9)
        #expect(adBreak.plannedDuration == 12)
        #expect(adBreak.segmentRange == 0..<1)
        #expect(adBreak.isComplete)
    }

    /// Without a CUE-IN the break ends where its duration says; the tag is a
    /// known segment tag, kept on the segment it precedes.
    @Test func withoutACueInTheBreakEndsAtItsDuration() throws {
        let playlist = try Self.playlist([1: "#EXT-X-SCTE35:CUE=\"\(Self.out.base64Encoded)\",CUE-OUT=YES"])
        let adBreak = try #require(playlist.adBreaks.first)
        #expect(adBreak.segmentRange == 1..<3)
        #expect(adBreak.isComplete)
        #expect(playlist.segments[1].tags.contains { !$0.isComment && $0.name == HLSTagName.scte35 })
    }

    /// Bad values are no break and no crash.
    @Test func aBadPayloadOrAnUnknownStateIsNoBreak() throws {
        let playlist = try Self.playlist([
            1: "#EXT-X-SCTE35:CUE=\"not base64!\"",
            2: "#EXT-X-SCTE35:CUE-OUT=MAYBE",
            3: "#EXT-X-SCTE35",
            4: "#EXT-X-SCTE35:CUE=\"\(Self.out.base64Encoded)\",CUE-OUT=YES,DURATION=-5,ELAPSED=nan",
        ])
        #expect(playlist.adBreaks.count == 1)
        let adBreak = try #require(playlist.adBreaks.first)
        // The negative DURATION is ignored; the payload's 12 s stands.
        #expect(adBreak.plannedDuration == 12)
        #expect(adBreak.segmentRange.lowerBound == 4)
        #expect(CueMarkerValue.scte35Tag(nil).state == .fromPayload)
        #expect(CueMarkerValue.scte35Tag("CUE-IN=yes").state == .back)
        #expect(CueMarkerValue.scte35Tag("CUE-OUT=cont , ELAPSED = 4.5").elapsed == 4.5)
    }
}
