import Foundation
import InterludeServerTestSupport
import InterludeVAST
import Testing

@testable import InterludeServer

@Suite struct ServerEndpointTests {
    @Test func healthAnswersOK() throws {
        let (server, directory) = try TestAdServer.start()
        defer {
            server.shutdown()
            directory.remove()
        }
        let response = try Loopback.get("/health", port: server.port)
        #expect(response.status == 200)
        #expect(response.text == #"{"status":"ok"}"#)
    }

    @Test func indexListsTheEndpoints() throws {
        let (server, directory) = try TestAdServer.start()
        defer {
            server.shutdown()
            directory.remove()
        }
        let response = try Loopback.get("/", port: server.port)
        #expect(response.status == 200)
        #expect(response.text.contains("/vast"))
    }

    @Test func catalogEndpointReturnsTheCatalogJSON() throws {
        let (server, directory) = try TestAdServer.start()
        defer {
            server.shutdown()
            directory.remove()
        }
        let response = try Loopback.get("/catalog", port: server.port)
        #expect(try JSONDecoder().decode(Catalog.self, from: response.data) == TestAdServer.catalog)
    }

    @Test func vastPodOfThreeReparsesWithThreeSequencedAds() throws {
        let (server, directory) = try TestAdServer.start()
        defer {
            server.shutdown()
            directory.remove()
        }
        let response = try Loopback.get("/vast?pod=3&session=pod3", port: server.port)
        #expect(response.status == 200)
        #expect(response.headers["Content-Type"] == "application/xml; charset=utf-8")
        let vast = try VASTParser().parseVAST(response.data).document
        #expect(vast.pod.map(\.id) == ["alpha", "bravo", "alpha.2"])
        #expect(
            vast.ads[0].inLine?.impressions.first?.url.hasPrefix(
                "http://127.0.0.1:\(server.port)/track/pod3/alpha/impression?") == true)
    }

    @Test func vastWithoutSessionGetsAGeneratedOne() throws {
        let (server, directory) = try TestAdServer.start()
        defer {
            server.shutdown()
            directory.remove()
        }
        let vast = try VASTParser().parseVAST(try Loopback.get("/vast", port: server.port).data).document
        let url = try #require(vast.ads.first?.inLine?.impressions.first?.url)
        let session = url.components(separatedBy: "/track/")[1].split(separator: "/")[0]
        #expect(session.count == 16)
    }

    @Test func vastVersionQueryIsHonoured() throws {
        let (server, directory) = try TestAdServer.start()
        defer {
            server.shutdown()
            directory.remove()
        }
        for version in ["2.0", "3.0", "4.0", "4.1", "4.2", "4.3"] {
            let vast = try VASTParser().parseVAST(try Loopback.get("/vast?version=\(version)", port: server.port).data)
            #expect(vast.document.version == version)
        }
    }

    @Test func vastBadQueryValuesAre400JSON() throws {
        let (server, directory) = try TestAdServer.start()
        defer {
            server.shutdown()
            directory.remove()
        }
        for target in ["/vast?pod=-1", "/vast?version=9.9", "/vast?skippable=perhaps", "/vast?session=a%2Fb"] {
            let response = try Loopback.get(target, port: server.port)
            #expect(response.status == 400, "\(target)")
            #expect(response.text.hasPrefix(#"{"error":{"message":"#), "\(target)")
        }
    }

    @Test func vmapBreaksFetchVASTFromTheServer() throws {
        let (server, directory) = try TestAdServer.start()
        defer {
            server.shutdown()
            directory.remove()
        }
        let vmap = try VASTParser().parseVMAP(try Loopback.get("/vmap?session=v1", port: server.port).data).document
        #expect(vmap.adBreaks.count == 3)
        var adCounts: [Int] = []
        for adBreak in vmap.adBreaks {
            guard case .adTagURI(_, let url)? = adBreak.adSource?.content else {
                Issue.record("break without AdTagURI")
                continue
            }
            let vast = try VASTParser().parseVAST(
                try Loopback.get(TestAdServer.target(of: url), port: server.port).data)
            adCounts.append(vast.document.ads.count)
        }
        #expect(adCounts == [1, 2, 1])
    }

    @Test func vmapEmbedCarriesVASTAdData() throws {
        let (server, directory) = try TestAdServer.start()
        defer {
            server.shutdown()
            directory.remove()
        }
        let vmap = try VASTParser().parseVMAP(try Loopback.get("/vmap?embed=true", port: server.port).data).document
        let embedded = vmap.adBreaks.compactMap { adBreak -> VASTDocument? in
            if case .vastAdData(let vast)? = adBreak.adSource?.content { return vast }
            return nil
        }
        #expect(embedded.map(\.ads.count) == [1, 2, 1])
    }

    @Test func wrapperChainResolvesToAnInlineAdAfterDepthHops() throws {
        let (server, directory) = try TestAdServer.start()
        defer {
            server.shutdown()
            directory.remove()
        }
        var target = "/wrapper/3?session=w"
        var wrapperIDs: [String] = []
        for _ in 0..<5 {
            let vast = try VASTParser().parseVAST(try Loopback.get(target, port: server.port).data).document
            let ad = try #require(vast.ads.first)
            guard let wrapper = ad.wrapper else {
                #expect(ad.inLine != nil)
                break
            }
            wrapperIDs.append(ad.id ?? "")
            target = TestAdServer.target(of: try #require(wrapper.vastAdTagURI))
        }
        #expect(wrapperIDs == ["wrapper-3", "wrapper-2", "wrapper-1"])
    }

    @Test func wrapperWithNonNumericDepthIs400() throws {
        let (server, directory) = try TestAdServer.start()
        defer {
            server.shutdown()
            directory.remove()
        }
        #expect(try Loopback.get("/wrapper/abc", port: server.port).status == 400)
        #expect(try Loopback.get("/wrapper/99", port: server.port).status == 400)
    }

    @Test func statsCountsStoredBeacons() throws {
        let (server, directory) = try TestAdServer.start()
        defer {
            server.shutdown()
            directory.remove()
        }
        for _ in 0..<3 { _ = try Loopback.get("/track/s/a/start", port: server.port) }
        #expect(try Loopback.get("/api/stats", port: server.port).text == #"{"beacons":3}"#)
    }

    @Test func responsesAllowCrossOriginPlayers() throws {
        let (server, directory) = try TestAdServer.start()
        defer {
            server.shutdown()
            directory.remove()
        }
        #expect(try Loopback.get("/vast", port: server.port).headers["Access-Control-Allow-Origin"] == "*")
    }
}

@Suite struct HostFallbackTests {
    @Test func http10RequestWithoutHostGetsLinksToTheBoundPort() throws {
        let (server, directory) = try TestAdServer.start()
        defer {
            server.shutdown()
            directory.remove()
        }
        let reply = try Loopback.exchange(Array("GET /vast?session=h HTTP/1.0\r\n\r\n".utf8), port: server.port)
        #expect(String(decoding: reply, as: UTF8.self).contains("http://127.0.0.1:\(server.port)/track/h/"))
    }
}

@Suite struct CrossOriginTests {
    @Test func requestWithOriginGetsItBackWithCredentialsAllowed() throws {
        let (server, directory) = try TestAdServer.start()
        defer {
            server.shutdown()
            directory.remove()
        }
        let response = try Loopback.get("/vast", port: server.port, headers: [("Origin", "https://player.example")])
        #expect(response.headers["Access-Control-Allow-Origin"] == "https://player.example")
        #expect(response.headers["Access-Control-Allow-Credentials"] == "true")
    }

    @Test func preflightIsAnswered204WithAllowedMethods() throws {
        let (server, directory) = try TestAdServer.start()
        defer {
            server.shutdown()
            directory.remove()
        }
        let response = try Loopback.get(
            "/track/s/a/start", port: server.port, method: "OPTIONS",
            headers: [("Origin", "https://player.example"), ("Access-Control-Request-Method", "POST")])
        #expect(response.status == 204)
        #expect(response.headers["Access-Control-Allow-Methods"]?.contains("POST") == true)
    }
}
