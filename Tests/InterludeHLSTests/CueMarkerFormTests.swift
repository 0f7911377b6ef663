import Foundation
import Testing

@testable import InterludeHLS

/// The CUE-OUT / CUE-OUT-CONT / CUE-IN, OATCLS, ASSET, EXT-X-SCTE35 and
/// SPLICEPOINT forms that packagers in front of which the VTP works write
/// (AWS Elemental and MediaPackage/MediaTailor, Wowza, Anvato, Adobe,
/// Harmonic), each read to the break it marks.
@Suite struct CueMarkerFormTests {
    typealias F = OriginCueFixture

    static let out30 = F.spliceOut(seconds: 30)

    @Test(arguments: ["30", "30.000", "DURATION=30", "Duration=30", "DURATION=\"30\"", "30,SignalID=a1"])
    func cueOutDurationFormsAllAnnounceThirtySeconds(value: String) throws {
        let playlist = try F.playlist([1: "#EXT-X-CUE-OUT:\(value)"])
        #expect(playlist.adBreaks.count == 1)
        let adBreak = try #require(playlist.adBreaks.first)
        #expect(adBreak.style == .cueOut)
        #expect(adBreak.startTime == 6)
        #expect(adBreak.plannedDuration == 30)
        #expect(adBreak.segmentRange == 1..<6)
        #expect(adBreak.isComplete)
    }

    @Test(arguments: ["6.000/12", "ElapsedTime=6.000,Duration=12", "6/12"])
    func aCueOutWithoutDurationTakesItFromItsContinuation(continuation: String) throws {
        let playlist = try F.playlist([1: "#EXT-X-CUE-OUT", 2: "#EXT-X-CUE-OUT-CONT:\(continuation)"])
        let adBreak = try #require(playlist.adBreaks.first)
        #expect(adBreak.plannedDuration == 12)
        #expect(adBreak.segmentRange == 1..<3)
        #expect(adBreak.actualDuration == 12)
        #expect(adBreak.isComplete)
    }

    /// A packager that does not know the avail's length writes 0; the break
    /// is not zero seconds long, it runs to its CUE-IN.
    @Test func aCueOutOfZeroRunsToItsCueIn() throws {
        let playlist = try F.playlist([1: "#EXT-X-CUE-OUT:0", 4: "#EXT-X-CUE-IN"])
        #expect(playlist.adBreaks.count == 1)
        let adBreak = try #require(playlist.adBreaks.first)
        #expect(adBreak.plannedDuration == nil)
        #expect(adBreak.segmentRange == 1..<4)
        #expect(adBreak.actualDuration == 18)
    }

    @Test(arguments: ["#EXT-X-CUE-IN", "#EXT-X-CUE-IN:"])
    func aCueInWithOrWithoutAColonEndsTheBreak(cueIn: String) throws {
        let playlist = try F.playlist([1: "#EXT-X-CUE-OUT", 3: cueIn])
        let adBreak = try #require(playlist.adBreaks.first)
        #expect(adBreak.segmentRange == 1..<3)
        #expect(adBreak.actualDuration == 12)
        #expect(adBreak.isComplete)
    }

    /// AWS Elemental / MediaPackage: OATCLS and ASSET before the CUE-OUT,
    /// then a CUE-OUT-CONT with ElapsedTime, Duration and the payload on
    /// every later segment of the break.
    @Test func elementalOATCLSAndAssetBeforeTheCueOutBelongToItsBreak() throws {
        let payload = Self.out30.base64Encoded
        var markers = [
            1: "#EXT-OATCLS-SCTE35:\(payload)\n#EXT-X-ASSET:CAID=0x0000000020FB6501\n#EXT-X-CUE-OUT:30.000"
        ]
        for n in 2...5 {
            markers[n] = "#EXT-X-CUE-OUT-CONT:ElapsedTime=\(Double(n - 1) * 6),Duration=30,SCTE35=\(payload)"
        }
        let playlist = try F.playlist(markers)
        #expect(playlist.adBreaks.count == 1)
        let adBreak = try #require(playlist.adBreaks.first)
        #expect(adBreak.segmentRange == 1..<6)
        #expect(adBreak.scte35Out == Self.out30.encoded())
        #expect(adBreak.asset?["CAID"]?.hexadecimalBytes == [0, 0, 0, 0, 0x20, 0xFB, 0x65, 0x01])
    }

    /// The CUE-OUT slid out of the window: the continuations alone place the
    /// break's start, in MediaPackage's and in Wowza's/Anvato's form.
    @Test(arguments: [
        ("ElapsedTime=12.000,Duration=30,SCTE35=\(out30.base64Encoded)", "ElapsedTime=18.000,Duration=30"),
        ("12.000/30", "18.000/30"),
    ])
    func continuationsAloneStartTheBreakWhereTheElapsedTimeSays(first: String, second: String) throws {
        let playlist = try F.playlist([
            0: "#EXT-X-CUE-OUT-CONT:\(first)", 1: "#EXT-X-CUE-OUT-CONT:\(second)", 3: "#EXT-X-CUE-IN",
        ])
        #expect(playlist.adBreaks.count == 1)
        let adBreak = try #require(playlist.adBreaks.first)
        #expect(adBreak.startTime == -12)
        #expect(!adBreak.startsInPlaylist)
        #expect(adBreak.plannedDuration == 30)
        #expect(adBreak.segmentRange == 0..<3)
        #expect(adBreak.actualDuration == 30)
        #expect(adBreak.startDate == HLSDateFormat.parse("2024-05-01T11:59:48.000Z"))
    }

    /// OATCLS alone in every text form a section takes: base64 with and
    /// without its padding, in the URL-safe alphabet (RFC 4648 section 5,
    /// which cue tools that put payloads in URLs write), hex with and
    /// without `0x`, upper and lower case.
    @Test(arguments: [
        out30.base64Encoded, out30.base64Encoded.replacingOccurrences(of: "=", with: ""), urlSafe(out30),
        out30.hexEncoded,
        String(out30.hexEncoded.dropFirst(2)), out30.hexEncoded.lowercased(),
        String(out30.hexEncoded.dropFirst(2)).lowercased(),
    ])
    func oatclsAloneInEveryPayloadFormStartsTheBreak(payload: String) throws {
        let playlist = try F.playlist([1: "#EXT-OATCLS-SCTE35:\(payload)"])
        let adBreak = try #require(playlist.adBreaks.first)
        #expect(adBreak.style == .oatcls)
        #expect(adBreak.plannedDuration == 30)
        #expect(adBreak.segmentRange == 1..<6)
        #expect(adBreak.scte35Out == Self.out30.encoded())
    }

    static func urlSafe(_ section: SpliceInfoSection) -> String {
        section.base64Encoded.replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    @Test func theURLSafeFormDiffersFromTheStandardOneAndDecodes() throws {
        #expect(Self.urlSafe(Self.out30).hasPrefix("_D"))  // table_id 0xFC is "/D" in standard base64
        #expect(SCTE35Text.bytes(Self.urlSafe(Self.out30)) == Self.out30.encoded())
        #expect(SCTE35Text.bytes("/D-_") == nil)  // one alphabet or the other, not both
    }

    @Test func splicePointAndSCTE35TagPayloadsWithoutPaddingAreRead() throws {
        #expect(Self.out30.base64Encoded.hasSuffix("=="))
        #expect(F.spliceIn.base64Encoded.hasSuffix("="))
        let unpadded = Self.out30.base64Encoded.replacingOccurrences(of: "=", with: "")
        let back = F.spliceIn.base64Encoded.replacingOccurrences(of: "=", with: "")
        for tag in ["#EXT-X-SPLICEPOINT-SCTE35:", "#EXT-X-SCTE35:CUE="] {
            let quote = tag.hasSuffix("=") ? "\"" : ""
            let playlist = try F.playlist([1: tag + quote + unpadded + quote, 3: tag + quote + back + quote])
            let adBreak = try #require(playlist.adBreaks.first, "\(tag)")
            #expect(adBreak.segmentRange == 1..<3)
            #expect(adBreak.scte35In == F.spliceIn.encoded())
        }
    }

    /// Adobe / Harmonic `EXT-X-SCTE35` with CUE-OUT=YES, CONT and CUE-IN=YES.
    @Test func harmonicSCTE35TagsOutContinuationAndInAreOneBreak() throws {
        let payload = Self.out30.base64Encoded
        let playlist = try F.playlist([
            1: "#EXT-X-SCTE35:CUE=\"\(payload)\",CUE-OUT=YES",
            2: "#EXT-X-SCTE35:CUE=\"\(payload)\",CUE-OUT=CONT",
            3: "#EXT-X-SCTE35:CUE=\"\(payload)\",CUE-OUT=CONT",
            4: "#EXT-X-SCTE35:CUE=\"\(F.spliceIn.base64Encoded)\",CUE-IN=YES",
        ])
        #expect(playlist.adBreaks.count == 1)
        let adBreak = try #require(playlist.adBreaks.first)
        #expect(adBreak.style == .scte35Cue)
        #expect(adBreak.segmentRange == 1..<4)
        #expect(adBreak.actualDuration == 18)
        #expect(adBreak.plannedDuration == 30)
    }
}
