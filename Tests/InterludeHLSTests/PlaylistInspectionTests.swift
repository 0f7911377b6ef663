import Foundation
import Testing

@testable import InterludeCLI

@Suite struct PlaylistInspectionTests {
    @Test func mediaSummaryNamesCountsDurationAndBreaks() {
        let (output, exitCode) = inspectPlaylist(
            bytes: Array(Fixture.text("LinearAdInsertion/cue-out-in.m3u8").utf8), json: false)
        #expect(exitCode == 0)
        #expect(output.contains("HLS media playlist"))
        #expect(output.contains("segments:               6, 36.0 s"))
        #expect(output.contains("media sequence:         500"))
        #expect(output.contains("Ad breaks: 1"))
        #expect(output.contains("line 8: cueOut at 6.0 s, planned 12.0 s, actual 12.0 s, segments 1..<3"))
    }

    @Test func jsonReportDecodesWithTheDocumentedFields() throws {
        let (output, _) = inspectPlaylist(bytes: Array(Fixture.text("Multivariant/multivariant.m3u8").utf8), json: true)
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
