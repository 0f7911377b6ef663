import Foundation
import Testing

@testable import InterludeHLS

@Suite struct RoundTripTests {
    @Test(arguments: Fixture.allPaths)
    func canonicalFixtureRoundTripsByteForByte(path: String) throws {
        let text = Fixture.text(path)
        #expect(!text.isEmpty)
        let playlist = try HLSParser().parse(text)
        #expect(playlist.text == text)
    }

    @Test(arguments: Fixture.corpusFiles)
    func corpusPlaylistRoundTripsToAnEqualModelOrATypedError(file: URL) throws {
        let bytes = [UInt8]((try? Data(contentsOf: file)) ?? Data())
        let playlist: HLSPlaylist
        do {
            playlist = try HLSParser().parse(bytes)
        } catch {
            // Some corpus files are deliberately invalid; they must fail with a line.
            #expect(error.line >= 0)
            return
        }
        let reparsed = try HLSParser().parse(HLSWriter.bytes(playlist))
        #expect(reparsed == playlist)
        #expect(HLSWriter.bytes(reparsed) == HLSWriter.bytes(playlist))
    }

    @Test func nonCanonicalSpacingRoundTripsToAnEqualModel() throws {
        let text = "#EXTM3U\n\n#EXT-X-STREAM-INF:PROGRAM-ID=1, BANDWIDTH=40000\n  media1.m3u8  \n"
        let playlist = try HLSParser().parse(text)
        let written = playlist.text
        #expect(written == "#EXTM3U\n#EXT-X-STREAM-INF:PROGRAM-ID=1,BANDWIDTH=40000\nmedia1.m3u8\n")
        #expect(try HLSParser().parse(written) == playlist)
    }

    @Test func durationTextIsKeptAsWritten() throws {
        let text = "#EXTM3U\n#EXT-X-TARGETDURATION:10\n#EXTINF:10,\na.ts\n#EXTINF:9.97600,\nb.ts\n"
        #expect(try MediaPlaylist(parsing: text).text == text)
    }

    @Test func builtPlaylistWritesTheExpectedText() {
        let playlist = MediaPlaylist(targetDuration: 6, segments: [MediaSegment(uri: "a.ts", duration: 6)], ended: true)
        #expect(
            playlist.text
                == "#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:6\n#EXT-X-MEDIA-SEQUENCE:0\n#EXTINF:6.0,\na.ts\n#EXT-X-ENDLIST\n"
        )
    }
}
