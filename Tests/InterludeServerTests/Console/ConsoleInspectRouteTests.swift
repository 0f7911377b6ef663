import Foundation
import InterludeInspection
import InterludeServerTestSupport
import InterludeTestSupport
import Testing

@testable import InterludeServer

@Suite struct ConsoleInspectRouteTests {
    /// An inline ad missing AdSystem and Impression: VAST 101 warnings on line 3 (its InLine).
    static let inlineWithWarnings = """
        <VAST version="4.2">
        <Ad id="a1">
        <InLine>
        <AdTitle>T</AdTitle>
        <Creatives><Creative><Linear><Duration>00:00:10</Duration><MediaFiles>\
        <MediaFile delivery="progressive" type="video/mp4" width="640" height="360">http://127.0.0.1/a.mp4</MediaFile>\
        </MediaFiles></Linear></Creative></Creatives>
        </InLine>
        </Ad>
        </VAST>
        """

    private func report(_ response: LoopbackResponse) throws -> InspectionReport {
        #expect(response.headers["Content-Type"] == "application/json")
        return try JSONDecoder().decode(InspectionReport.self, from: response.data)
    }

    @Test func pastedXMLGetsTheInspectJSONWithEachWarningsCodeAndLine() throws {
        let (server, directory) = try ConsoleTestServer.start()
        defer {
            server.shutdown()
            directory.remove()
        }
        let response = try ConsoleTestServer.inspect(
            #"{"xml": \#(ConsoleTestServer.quoted(Self.inlineWithWarnings))}"#, port: server.port)
        #expect(response.status == 200)
        // Byte for byte what `interlude inspect --json` prints for the same document.
        #expect(response.text == InspectionReport.make(from: Data(Self.inlineWithWarnings.utf8), strict: false).json())
        let report = try report(response)
        #expect(report.vast?.ads.map(\.id) == ["a1"])
        #expect(report.diagnostics.contains { $0.code == 101 && $0.line == 3 && $0.message.contains("AdSystem") })
    }

    @Test func brokenXMLIsReportedWithCode100AndItsPosition() throws {
        let (server, directory) = try ConsoleTestServer.start()
        defer {
            server.shutdown()
            directory.remove()
        }
        let response = try ConsoleTestServer.inspect(
            #"{"xml": "<VAST version=\"4.2\">\n<Ad><InLine></Ad>"}"#, port: server.port)
        let report = try report(response)
        #expect(report.kind == "invalid")
        #expect(report.error?.code == 100)  // VAST 4.2 §2.3.6.1: XML parsing error
        #expect(report.error?.line == 2)
    }

    @Test func xmlBodyWithAnXMLContentTypeIsInspectedToo() throws {
        let (server, directory) = try ConsoleTestServer.start()
        defer {
            server.shutdown()
            directory.remove()
        }
        let response = try Loopback.get(
            "/api/inspect?strict=1", port: server.port, method: "POST", headers: [("Content-Type", "application/xml")],
            body: Array(Self.inlineWithWarnings.utf8))
        // Strict: the missing elements are errors.
        #expect(try report(response).kind == "invalid")
    }

    @Test func aLoopbackTagURLIsFetchedWithItsWrapperChainHopByHop() throws {
        let (server, directory) = try ConsoleTestServer.start()
        defer {
            server.shutdown()
            directory.remove()
        }
        let url = "http://127.0.0.1:\(server.port)/wrapper/2?session=chain"
        let report = try report(ConsoleTestServer.inspect(#"{"url": "\#(url)"}"#, port: server.port))
        #expect(report.hops?.map(\.depth) == [0, 1, 2])
        #expect(report.hops?.allSatisfy { $0.status == 200 } == true)
        #expect(report.hops?.first?.url == url)
        let ad = try #require(report.resolvedAds?.first)
        #expect(ad.id == "alpha")
        #expect(ad.wrapperChain?.count == 2)
        // The wrappers' Error URLs are merged into the inline ad's.
        #expect(ad.errorURLs.count == 3)
    }

    @Test func aPodTagURLListsItsAdsInOrder() throws {
        let (server, directory) = try ConsoleTestServer.start()
        defer {
            server.shutdown()
            directory.remove()
        }
        let response = try ConsoleTestServer.inspect(
            #"{"url": "http://localhost:\#(server.port)/vast?pod=2&session=pod"}"#, port: server.port)
        let report = try report(response)
        #expect(report.resolvedAds?.map(\.id) == ["alpha", "bravo"])
        #expect(report.playable)
    }

    @Test func nonLoopbackAndHTTPSTagURLsAreRefusedWithJSONErrors() throws {
        let (server, directory) = try ConsoleTestServer.start()
        defer {
            server.shutdown()
            directory.remove()
        }
        for url in [
            "http://192.0.2.10/vast", "http://10.0.0.1:8080/vast", "http://169.254.169.254/latest", "http://0.0.0.0/",
            "http://[::]/vast", "http://[::ffff:10.0.0.1]/", "http://[64:ff9b::7f00:1]/", "https://127.0.0.1/vast",
            "http://0x0a000001/", "http://167772161/",
        ] {
            let response = try ConsoleTestServer.inspect(#"{"url": "\#(url)"}"#, port: server.port)
            #expect(response.status == 403, "\(url)")
            #expect(ConsoleTestServer.error(of: response)?.status == 403, "\(url)")
        }
    }

    @Test func aNameThatResolvesOutsideLoopbackIsRefusedAndOneThatResolvesInsideIsFetched() throws {
        // Names answered by the test, never by a DNS server.
        let policy = TagHostPolicy { host, _ throws(TagFetchRefusal) in
            switch host {
            case "rebind.test": [.v4([127, 0, 0, 1]), .v4([10, 0, 0, 7])]
            case "inside.test": [.v4([127, 0, 0, 1])]
            default: throw TagFetchRefusal("cannot resolve \(host)")
            }
        }
        var options = ConsoleOptions()
        options.hostPolicy = policy
        let (server, directory) = try ConsoleTestServer.start(console: options)
        defer {
            server.shutdown()
            directory.remove()
        }
        let refused = try ConsoleTestServer.inspect(
            #"{"url": "http://rebind.test:\#(server.port)/vast"}"#, port: server.port)
        #expect(refused.status == 403)
        #expect(ConsoleTestServer.error(of: refused)?.message.contains("10.0.0.7") == true)
        let fetched = try ConsoleTestServer.inspect(
            #"{"url": "http://inside.test:\#(server.port)/vast?session=n"}"#, port: server.port)
        #expect(try report(fetched).resolvedAds?.map(\.id) == ["alpha"])
    }

    @Test func aWrapperHopToANonLoopbackHostIsRefusedInTheReport() throws {
        try withTagServer(
            { _ in
                .xml(
                    """
                    <VAST version="4.2"><Ad id="w"><Wrapper><AdSystem>t</AdSystem>\
                    <VASTAdTagURI><![CDATA[http://192.0.2.44/next.xml]]></VASTAdTagURI>\
                    <Impression><![CDATA[http://127.0.0.1/imp]]></Impression></Wrapper></Ad></VAST>
                    """)
            },
            run: { tagPort in
                let (server, directory) = try ConsoleTestServer.start()
                defer {
                    server.shutdown()
                    directory.remove()
                }
                let response = try ConsoleTestServer.inspect(
                    #"{"url": "http://127.0.0.1:\#(tagPort)/wrapper.xml"}"#, port: server.port)
                let report = try report(response)
                let hops = try #require(report.hops)
                #expect(hops.count == 2)
                #expect(hops[1].url == "http://192.0.2.44/next.xml")
                #expect(hops[1].failure?.contains("refused") == true)
                #expect(hops[1].bytes == 0)
                #expect(!report.playable)
            })
    }

    @Test func aRedirectToANonLoopbackHostIsRefused() throws {
        try withTagServer(
            { _ in
                HTTPResponse(status: 302, headers: HTTPHeaders([("Location", "http://198.51.100.9/vast")]))
            },
            run: { tagPort in
                let (server, directory) = try ConsoleTestServer.start()
                defer {
                    server.shutdown()
                    directory.remove()
                }
                let report = try report(
                    ConsoleTestServer.inspect(#"{"url": "http://127.0.0.1:\#(tagPort)/tag"}"#, port: server.port))
                #expect(report.hops?.first?.failure?.contains("198.51.100.9") == true)
                #expect(!report.playable)
            })
    }

    @Test func badBodiesAreJSONErrors() throws {
        let (server, directory) = try ConsoleTestServer.start()
        defer {
            server.shutdown()
            directory.remove()
        }
        let port = server.port
        let cases: [(String, [UInt8], Int)] = [
            ("application/json", Array("{\"url\": ".utf8), 400),  // malformed JSON
            ("application/json", [0xFF, 0xFE, 0x00, 0x01, 0x9C], 400),  // binary
            ("application/json", Array("[1, 2]".utf8), 400),
            ("application/json", Array(#"{"url": 5}"#.utf8), 400),
            ("application/json", Array(#"{"url": "http://127.0.0.1/", "xml": "<VAST/>"}"#.utf8), 400),
            ("application/json", Array(#"{}"#.utf8), 400),
            ("application/json", Array(#"{"url": "ftp://127.0.0.1/x"}"#.utf8), 400),
            ("application/json", Array(#"{"url": "not a url"}"#.utf8), 400),
            ("application/json", [], 400),
            ("image/png", [0x89, 0x50, 0x4E, 0x47], 415),
            ("application/json", Array(repeating: UInt8(ascii: "a"), count: 2 * 1024 * 1024), 413),
        ]
        for (type, body, status) in cases {
            let response = try Loopback.get(
                "/api/inspect", port: port, method: "POST", headers: [("Content-Type", type)], body: body)
            #expect(response.status == status, "\(type) \(body.prefix(20))")
            #expect(ConsoleTestServer.error(of: response)?.status == status)
        }
        let longURL = "http://127.0.0.1/" + String(repeating: "a", count: 9000)
        #expect(try ConsoleTestServer.inspect(#"{"url": "\#(longURL)"}"#, port: port).status == 400)
        #expect(try Loopback.get("/api/inspect", port: port).status == 405)
        #expect(try Loopback.get("/health", port: port).status == 200)
    }

    @Test func anotherSitesPageCannotDriveTheInspector() throws {
        let (server, directory) = try ConsoleTestServer.start()
        defer {
            server.shutdown()
            directory.remove()
        }
        let body = #"{"xml": "<VAST version=\"4.2\"/>"}"#
        let crossOrigin = try ConsoleTestServer.inspect(
            body, port: server.port, headers: [("Origin", "https://evil.example")])
        #expect(crossOrigin.status == 403)
        let crossSite = try ConsoleTestServer.inspect(
            body, port: server.port, headers: [("Sec-Fetch-Site", "cross-site")])
        #expect(crossSite.status == 403)
        let sameOrigin = try ConsoleTestServer.inspect(
            body, port: server.port,
            headers: [("Origin", "http://127.0.0.1:\(server.port)"), ("Sec-Fetch-Site", "same-origin")])
        #expect(sameOrigin.status == 200)
    }

    @Test func remoteTagsCanBeAllowed() throws {
        let (server, directory) = try ConsoleTestServer.start(console: ConsoleOptions(allowsRemoteTags: true))
        defer {
            server.shutdown()
            directory.remove()
        }
        // Allowed: fetched through the SDK's client (loopback here, so nothing leaves the machine).
        let response = try ConsoleTestServer.inspect(
            #"{"url": "http://127.0.0.1:\#(server.port)/vast?session=r"}"#, port: server.port)
        #expect(try report(response).resolvedAds?.map(\.id) == ["alpha"])
    }
}
