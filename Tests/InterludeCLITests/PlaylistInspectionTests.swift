import Foundation
import Testing

@testable import InterludeCLI

@Suite struct PlaylistInspectionTests {
    /// A CUE-OUT/CUE-IN break of 12 s over two 6 s segments, from media sequence 500.
    static let cueOutIn = """
        #EXTM3U
        #EXT-X-VERSION:3
        #EXT-X-TARGETDURATION:6
        #EXT-X-MEDIA-SEQUENCE:500
        #EXT-X-PROGRAM-DATE-TIME:2024-05-01T12:00:00.000Z
        #EXTINF:6.000,
        content500.ts
        #EXT-X-CUE-OUT:12.000
        #EXT-OATCLS-SCTE35:/DAvAAAAAAAA///wFAVIAACPf+/+c2nALv4AUsz1AAAAAAAKAAhDVUVJAAABNWLbowo=
        #EXTINF:6.000,
        content501.ts
        #EXT-X-CUE-OUT-CONT:ElapsedTime=6.000,Duration=12.000
        #EXTINF:6.000,
        content502.ts
        #EXT-X-CUE-IN
        #EXTINF:6.000,
        content503.ts
        #EXTINF:6.000,
        content504.ts
        #EXTINF:6.000,
        content505.ts
        """

    /// Two variants and two audio renditions.
    static let multivariant = """
        #EXTM3U
        #EXT-X-VERSION:3
        #EXT-X-INDEPENDENT-SEGMENTS
        #EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="aac",NAME="English",LANGUAGE="en",DEFAULT=YES,AUTOSELECT=YES,URI="audio/en.m3u8"
        #EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="aac",NAME="Português",LANGUAGE="pt-BR",URI="audio/pt.m3u8"
        #EXT-X-STREAM-INF:BANDWIDTH=1280000,CODECS="avc1.4d401f,mp4a.40.2",RESOLUTION=640x360,AUDIO="aac"
        video/360.m3u8
        #EXT-X-STREAM-INF:BANDWIDTH=5000000,CODECS="avc1.640028,mp4a.40.2",RESOLUTION=1920x1080,AUDIO="aac"
        video/1080.m3u8
        """

    @Test func mediaSummaryNamesCountsDurationAndBreaks() {
        let (output, exitCode) = inspectPlaylist(
            bytes: Array(Self.cueOutIn.utf8), json: false)
        #expect(exitCode == 0)
        #expect(output.contains("HLS media playlist"))
        #expect(output.contains("segments:               6, 36.0 s"))
        #expect(output.contains("media sequence:         500"))
        #expect(output.contains("Ad breaks: 1"))
        #expect(output.contains("line 8: cueOut at 6.0 s, planned 12.0 s, actual 12.0 s, segments 1..<3"))
    }

    @Test func jsonReportDecodesWithTheDocumentedFields() throws {
        let (output, _) = inspectPlaylist(bytes: Array(Self.multivariant.utf8), json: true)
        let report = try JSONDecoder().decode(PlaylistInspectionReport.self, from: Data(output.utf8))
        #expect(report.kind == "multivariant")
        #expect(report.variants?.map(\.bandwidth) == [1_280_000, 5_000_000])
        #expect(report.renditions?.map(\.language) == ["en", "pt-BR"])
    }

    @Test func everyBadLineIsReportedAndTheRestInspected() throws {
        let text = """
            #EXTM3U
            #EXT-X-TARGETDURATION:6
            #EXTINF:-1,
            a.ts
            #EXTINF:6,
            b.ts
            #EXT-X-MEDIA-SEQUENCE:x
            #EXTINF:6,
            c.ts
            #EXT-X-ENDLIST
            """
        let (output, exitCode) = inspectPlaylist(bytes: Array(text.utf8), json: true)
        #expect(exitCode == 1)
        let report = try JSONDecoder().decode(PlaylistInspectionReport.self, from: Data(output.utf8))
        #expect(report.kind == "media")
        #expect(report.segmentCount == 2)
        let skipped = report.findings.filter { $0.message.hasSuffix("(line skipped)") }
        #expect(skipped.map(\.line) == [3, 4, 7])
        #expect(skipped.allSatisfy { $0.severity == "error" })
    }

    @Test func aPlaylistThatCannotBeReadIsInvalidWithTheErrorLine() throws {
        let (output, exitCode) = inspectPlaylist(bytes: Array("#EXTM3U\n#EXTINF:6,\na\u{0}.ts\n".utf8), json: true)
        #expect(exitCode == 1)
        let report = try JSONDecoder().decode(PlaylistInspectionReport.self, from: Data(output.utf8))
        #expect(report.kind == "invalid")
        #expect(report.findings.first?.line == 3)
    }

    @Test func validationErrorsExitOne() {
        let (output, exitCode) = inspectPlaylist(bytes: Array("#EXTM3U\n#EXTINF:6,\na.ts\n".utf8), json: false)
        #expect(exitCode == 1)
        #expect(output.contains("missingTargetDuration"))
    }

    @Test func playlistsAreToldApartFromXML() {
        #expect(isPlaylist(bytes: Array("\n#EXTM3U\n".utf8)))
        #expect(!isPlaylist(bytes: Array("<?xml version=\"1.0\"?><VAST/>".utf8)))
    }
}
