import Foundation
import Interlude
import InterludeServerTestSupport
import InterludeTestSupport
import Testing

@testable import InterludeCLI

@Suite("interlude inspect")
struct InspectCommandTests {
    func inspect(_ arguments: [String], stdin: String = "", http: InMemoryHTTPClient? = nil) async -> CommandResult {
        // An in-memory server answers at once, so its fetches are timed on a manual
        // clock: on the real one a busy test run could let a timeout win the race.
        await InspectCommand.run(
            arguments: arguments, readStandardInput: { Data(stdin.utf8) }, httpClient: http,
            clock: http == nil ? SystemClock() : ManualClock())
    }

    func corpusPath(_ relative: String) -> String { Corpus.root.appendingPathComponent(relative).path }

    @Test func playableDocumentExitsZeroAndShowsTheTree() async {
        let result = await inspect([corpusPath("videojs-vast/vast_skip.xml")])
        #expect(result.exitCode == 0)
        #expect(result.output.contains("VAST 3.0: buffet of 1 ad"))
        #expect(result.output.contains("ad 5926628810 (inline)"))
        #expect(result.output.contains("system: GDFP"))
        #expect(result.output.contains("title: External - Single Inline Linear Skippable"))
        #expect(result.output.contains("duration: 4 s"))
        #expect(result.output.contains("skip offset: 00:00:03"))
        #expect(
            result.output.contains(
                "media: video/mp4 1280x720 240 kbps https://www.arte.tv/static/artevpv7/vast/preroll.mp4"))
        #expect(result.output.contains("impressions: 1"))
        #expect(result.output.contains("progress ×2"))
        #expect(result.output.contains("result: playable"))
    }

    /// An ad with only VPAID (or Flash) files is one the SDK fails with
    /// 403, so it is no playable ad, as the exit status promises.
    @Test func aVPAIDOnlyAdIsNotPlayable() async throws {
        let result = await inspect([corpusPath("vast-client-js/vpaid.xml")])
        #expect(result.exitCode == 1)
        #expect(result.output.contains("not playable: no media file of a type the SDK plays (VAST error 403)"))
        let json = await inspect(["--json", corpusPath("vast-client-js/vpaid.xml")])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.output.utf8)) as? [String: Any])
        #expect(object["playable"] as? Bool == false)
    }

    @Test func podAndBuffetAreNamed() async {
        let result = await inspect([corpusPath("vast-client-js/wrapper-multiple-ads.xml")])
        #expect(result.output.contains("pod of 2 and buffet of 2"))
        #expect(result.output.contains("ad 20011 #1 (wrapper)"))
        #expect(result.output.contains("wraps: vpaid.xml"))
    }

    @Test func uiHideableIsShown() async {
        let xml = """
            <VAST version="4.2"><Ad id="x"><InLine><AdSystem>s</AdSystem><AdTitle>t</AdTitle><Impression>http://i</Impression>
            <Creatives><Creative><Linear><Duration>00:00:10</Duration><MediaFiles><MediaFile delivery="progressive" type="video/mp4" width="1" height="1">http://m</MediaFile></MediaFiles></Linear></Creative></Creatives>
            <Extensions><Extension type="uiSettings"><UiHideable>1</UiHideable></Extension></Extensions></InLine></Ad></VAST>
            """
        let result = await inspect(["-"], stdin: xml)
        #expect(result.exitCode == 0)
        #expect(result.output.contains("UI hideable: yes"))
    }

    @Test func noAdDocumentExitsOne() async {
        let result = await inspect([corpusPath("vast-client-js/empty-no-ad.xml")])
        #expect(result.exitCode == 1)
        #expect(result.output.contains("no ads (1 error URL(s))"))
        #expect(result.output.contains("result: no playable ad"))
    }

    @Test func malformedDocumentExitsOneWithCodeAndLine() async {
        let result = await inspect(["-"], stdin: "<VAST version=\"4.2\">\n<Ad>\n</VAST>")
        #expect(result.exitCode == 1)
        #expect(
            result.output.contains("error 100: malformed XML: end tag </VAST> does not match <Ad> (line 3, column 1)"))
    }

    @Test func warningsCarryCodesAndLines() async {
        let result = await inspect([corpusPath("vast-client-js/sample.xml")])
        #expect(
            result.output.contains(
                "warning 101: Duration \"30\" is not HH:MM:SS(.mmm); read as 30 s (line 152, column 13)"))
    }

    @Test func strictFlagTurnsViolationsIntoErrors() async {
        let result = await inspect(["--strict", corpusPath("vast-client-js/sample.xml")])
        #expect(result.exitCode == 1)
        #expect(result.output.contains("error 101:"))
    }

    @Test func vmapShowsBreaks() async {
        let result = await inspect([corpusPath("vmap-js/correct-vmap.xml")])
        #expect(result.exitCode == 0)
        #expect(result.output.contains("VMAP 1.0: 3 ad break(s)"))
        #expect(result.output.contains("break 2 at 00:10:23.125 [linear] id myid"))
        #expect(result.output.contains("source: ad tag http://server.com/vast.xml"))
        #expect(result.output.contains("break tracking: breakEnd ×2, breakStart ×1, error ×1"))
    }

    @Test func jsonFollowsTheDocumentedSchema() async throws {
        let result = await inspect(["--json", corpusPath("vast-client-js/sample.xml")])
        #expect(result.exitCode == 0)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any])
        #expect(object["kind"] as? String == "vast")
        #expect(object["playable"] as? Bool == true)
        let vast = try #require(object["vast"] as? [String: Any])
        #expect(vast["version"] as? String == "4.3")
        #expect(vast["structure"] as? String == "pod+buffet")
        let ads = try #require(vast["ads"] as? [[String: Any]])
        #expect(ads.count == 2)
        #expect(ads[0]["id"] as? String == "ad_id_0001")
        #expect(ads[0]["kind"] as? String == "inline")
        #expect(ads[0]["duration"] as? Double == 90.123)
        #expect(ads[0]["impressions"] as? Int == 3)
        #expect((ads[0]["trackingEvents"] as? [String: Int])?["progress"] == 2)
        #expect(ads[1]["skipOffset"] as? String == "00:00:10")
        let diagnostics = try #require(object["diagnostics"] as? [[String: Any]])
        #expect(diagnostics.first?["code"] as? Int == 101)
        #expect(diagnostics.first?["line"] as? Int == 152)
    }

    @Test func jsonForAnInvalidDocumentHasTheError() async throws {
        let result = await inspect(["--json", "-"], stdin: "<VAST version=\"1.0\"/>")
        #expect(result.exitCode == 1)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any])
        #expect(object["kind"] as? String == "invalid")
        #expect((object["error"] as? [String: Any])?["code"] as? Int == 102)
    }

    @Test func usageErrorsExitTwo() async {
        #expect(await inspect([]).exitCode == 2)
        #expect(await inspect(["--bogus", "x"]).exitCode == 2)
        #expect(await inspect(["a.xml", "b.xml"]).exitCode == 2)
        #expect(await inspect(["/nonexistent/file.xml"]).exitCode == 2)
        #expect(await InterludeCommand.run(arguments: []) == 2)
        #expect(await InterludeCommand.run(arguments: ["frobnicate"]) == 2)
    }

    @Test func urlFollowsTheWrapperChainAndShowsEveryHop() async throws {
        var routes: [String: InMemoryHTTPClient.Reply] = [:]
        for path in Corpus.files(withExtension: "xml") {
            routes["http://127.0.0.1:9/\(path)"] = .body(String(decoding: try Corpus.data(path), as: UTF8.self))
        }
        let http = InMemoryHTTPClient(routes: routes)
        let result = await inspect(["http://127.0.0.1:9/vast-client-js/wrapper-a.xml"], http: http)
        // The chain ends at a VPAID-only ad: the SDK cannot play it (403), so no playable ad.
        #expect(result.exitCode == 1)
        #expect(result.output.contains("not playable: no media file of a type the SDK plays (VAST error 403)"))
        #expect(result.output.contains("wrapper chain (3 fetches):"))
        #expect(result.output.contains("[0] 200"))
        #expect(result.output.contains("http://127.0.0.1:9/vast-client-js/wrapper-b.xml"))
        #expect(result.output.contains("[2] 200"))
        #expect(result.output.contains("1 ad(s) after wrapper resolution:"))
        #expect(result.output.contains("ad ad_id_0002 (inline)"))
        #expect(result.output.contains("via wrappers: 4321 → 1234"))
        #expect(result.output.contains("impressions: 4"))
    }

    @Test func urlJSONHasHopsAndMergedAds() async throws {
        let http = InMemoryHTTPClient(routes: [
            "http://127.0.0.1:9/w": .body(
                "<VAST version=\"4.2\"><Ad id=\"w\"><Wrapper><AdSystem>w</AdSystem><VASTAdTagURI>http://127.0.0.1:9/gone</VASTAdTagURI><Error>http://127.0.0.1:9/e?c=[ERRORCODE]</Error></Wrapper></Ad></VAST>"
            )
        ])
        let result = await inspect(["--json", "http://127.0.0.1:9/w"], http: http)
        #expect(result.exitCode == 1)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any])
        #expect(object["kind"] as? String == "invalid")
        #expect((object["error"] as? [String: Any])?["code"] as? Int == 301)
        let hops = try #require(object["hops"] as? [[String: Any]])
        #expect(hops.map { $0["status"] as? Int } == [200, 404])
        #expect(object["errorPings"] as? [String] == ["301 http://127.0.0.1:9/e?c=[ERRORCODE]"])
    }

    @Test func aHopThatWasRedirectedSaysWhere() async throws {
        let (server, directory) = try TestAdServer.start()
        defer {
            server.shutdown()
            directory.remove()
        }
        let tag = "\(server.baseURL)/faults/redirect/1?session=inspect"
        let text = await inspect([tag])
        #expect(text.exitCode == 0)
        #expect(text.output.contains("      redirected to \(server.baseURL)/vast?session=inspect"))
        let json = await inspect(["--json", tag])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.output.utf8)) as? [String: Any])
        let hops = try #require(object["hops"] as? [[String: Any]])
        #expect((hops.first?["redirectedTo"] as? String)?.hasPrefix("\(server.baseURL)/vast?session=inspect") == true)
        #expect(hops.first?["url"] as? String == tag)
    }

    @Test func unreachableURLExitsOne() async {
        let http = InMemoryHTTPClient(routes: ["http://127.0.0.1:9/down": .failure(.unreachable("connection refused"))])
        let result = await inspect(["http://127.0.0.1:9/down"], http: http)
        #expect(result.exitCode == 1)
        #expect(result.output.contains("  [0] --- "))
        #expect(result.output.contains(" ms 0 B http://127.0.0.1:9/down — unreachable: connection refused"))
        #expect(result.output.contains("error 301:"))
    }
}
