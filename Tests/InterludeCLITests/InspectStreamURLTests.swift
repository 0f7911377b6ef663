import Foundation
import InterludeTestSupport
import Testing

@testable import InterludeCLI

/// `interlude inspect URL` where the URL is a stream: the playlist report,
/// not a VAST error, with the playlist's variables resolved for display.
@Suite("interlude inspect, stream URLs")
struct InspectStreamURLTests {
    /// A media playlist whose segment URIs use a QUERYPARAM and a local variable.
    static let media = """
        #EXTM3U
        #EXT-X-VERSION:8
        #EXT-X-TARGETDURATION:6
        #EXT-X-DEFINE:QUERYPARAM="token"
        #EXTINF:6.000,
        seg1.ts?t={$token}
        #EXT-X-CUE-OUT:6
        #EXTINF:6.000,
        seg2.ts
        #EXT-X-CUE-IN
        #EXTINF:6.000,
        seg3.ts
        #EXT-X-ENDLIST
        """

    /// A multivariant playlist whose variants are written with variables.
    static let multivariant = """
        #EXTM3U
        #EXT-X-VERSION:8
        #EXT-X-DEFINE:NAME="cdn",VALUE="https://cdn.example.com/live"
        #EXT-X-DEFINE:QUERYPARAM="token"
        #EXT-X-STREAM-INF:BANDWIDTH=900000,RESOLUTION=640x360
        {$cdn}/360p.m3u8?t={$token}
        """

    func inspect(_ arguments: [String], http: InMemoryHTTPClient) async -> CommandResult {
        // A manual clock: the VAST path's 8 s timeout never fires on a loaded machine.
        await InspectCommand.run(
            arguments: arguments, readStandardInput: { Data() }, httpClient: http, clock: ManualClock())
    }

    @Test func aPlaylistURLIsInspectedAsAPlaylist() async throws {
        let http = InMemoryHTTPClient(routes: ["http://127.0.0.1:9/live/index.m3u8": .body(Self.media)])
        let result = await inspect(["http://127.0.0.1:9/live/index.m3u8?token=abc"], http: http)
        #expect(result.exitCode == 0, "\(result.output)")
        #expect(result.output.contains("HLS media playlist"))
        #expect(result.output.contains("Ad breaks: 1"))
        #expect(!result.output.contains("VAST error"))
        // Fetched once.
        #expect(http.requests.count == 1)
    }

    /// A URL with no playlist extension that answers a playlist: the VAST
    /// path finds no XML, and the answer is inspected as what it is.
    @Test func aURLThatAnswersAPlaylistIsInspectedAsOne() async throws {
        let http = InMemoryHTTPClient(routes: ["http://127.0.0.1:9/stream": .body(Self.media)])
        let result = await inspect(["--json", "http://127.0.0.1:9/stream?token=abc"], http: http)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any])
        #expect(object["kind"] as? String == "media")
        #expect((object["adBreaks"] as? [Any])?.count == 1)
    }

    @Test func variantURIsAreShownWithTheirVariablesResolved() async throws {
        let http = InMemoryHTTPClient(routes: ["http://127.0.0.1:9/master.m3u8": .body(Self.multivariant)])
        let result = await inspect(["http://127.0.0.1:9/master.m3u8?token=abc"], http: http)
        #expect(result.output.contains("https://cdn.example.com/live/360p.m3u8?t=abc"), "\(result.output)")
        #expect(!result.output.contains("{$"))
    }

    /// A QUERYPARAM the URL does not carry (a file has no URL at all) is a
    /// warning, and the URIs are shown as written.
    @Test func anUnresolvableVariableIsAWarningAndTheTextStays() throws {
        let (output, exitCode) = inspectPlaylist(bytes: Array(Self.multivariant.utf8), json: false)
        #expect(exitCode == 0)
        #expect(output.contains("variables shown unresolved"), "\(output)")
        #expect(output.contains("{$cdn}/360p.m3u8"))
    }

    @Test func aVASTURLIsStillAVASTInspection() async throws {
        let http = InMemoryHTTPClient(routes: [
            "http://127.0.0.1:9/bad": .body("not xml and not a playlist")
        ])
        let result = await inspect(["http://127.0.0.1:9/bad"], http: http)
        #expect(result.exitCode == 1)
        #expect(result.output.contains("error 100"))
    }
}
