import Foundation
import Testing

@testable import InterludeHLS

/// A cue with a wrong CRC-32 in a playlist: decoding a section checks the
/// CRC by default (`interlude inspect` reports it with the right value),
/// but break detection does not, in every marker style alike. The cue came
/// over HTTP intact, so the CRC is a packager's slip, not damage; players
/// pass these bytes on undecoded and threefive decodes without checking.
@Suite struct SCTE35ChecksumPolicyTests {
    typealias F = OriginCueFixture

    static let out = F.spliceOut(seconds: 12)
    static let badOut = F.wrongCRC(out)
    static let badIn = F.wrongCRC(F.spliceIn)

    @Test func decodingChecksTheCRCUnlessAskedNotTo() throws {
        #expect(throws: HLSError.self) { try SpliceInfoSection(bytes: Self.badOut) }
        #expect(try SpliceInfoSection(bytes: Self.badOut, verifyingChecksum: false) == Self.out)
    }

    @Test func oatclsAndSplicePointWithAWrongCRCStillMarkTheBreak() throws {
        for tag in ["#EXT-OATCLS-SCTE35:", "#EXT-X-SPLICEPOINT-SCTE35:"] {
            let playlist = try F.playlist([
                1: tag + Data(Self.badOut).base64EncodedString(), 4: tag + Data(Self.badIn).base64EncodedString(),
            ])
            let adBreak = try #require(playlist.adBreaks.first, "\(tag)")
            #expect(adBreak.plannedDuration == 12)
            #expect(adBreak.segmentRange == 1..<3)
            #expect(adBreak.scte35OutSection == Self.out)
        }
    }

    @Test func aCueOutsPayloadWithAWrongCRCStillGivesItsDuration() throws {
        let playlist = try F.playlist([
            1: "#EXT-X-CUE-OUT\n#EXT-OATCLS-SCTE35:\(Data(Self.badOut).base64EncodedString())"
        ])
        let adBreak = try #require(playlist.adBreaks.first)
        #expect(adBreak.plannedDuration == 12)
        #expect(adBreak.segmentRange == 1..<3)
    }

    @Test func scte35TagAndDateRangeCommandWithAWrongCRCStillMarkTheBreak() throws {
        let scte35 = try F.playlist([1: "#EXT-X-SCTE35:CUE=\"\(Data(Self.badOut).base64EncodedString())\""])
        #expect(scte35.adBreaks.first?.segmentRange == 1..<3)
        let command = try F.playlist([
            1:
                "#EXT-X-DATERANGE:ID=\"a\",START-DATE=\"\(F.date(ofSegment: 1))\",SCTE35-CMD=0x\(HLSHex.encode(Self.badOut))"
        ])
        let adBreak = try #require(command.adBreaks.first)
        #expect(adBreak.plannedDuration == 12)
        #expect(adBreak.segmentRange == 1..<3)
    }
}
