import Foundation
import InterludeServerTestSupport
import InterludeVAST
import Testing

@testable import InterludeServer

#if canImport(Glibc)
    import Glibc
#endif

@Suite struct FaultRouteTests {
    @Test func delayAnswersWithAVASTAfterTheDelay() throws {
        let (server, directory) = try TestAdServer.start()
        defer {
            server.shutdown()
            directory.remove()
        }
        let connection = try LoopbackConnection(port: server.port)
        try connection.send("GET /faults/delay/150 HTTP/1.1\r\nHost: x\r\n\r\n")
        let response = try connection.readResponse()
        #expect(response.status == 200)
        #expect(try VASTParser().parseVAST(response.data).document.ads.count == 1)
    }

    @Test func delayDoesNotBlockOtherRequests() throws {
        let (server, directory) = try TestAdServer.start(
            http: HTTPServer.Configuration(threadCount: 1, shutdownGraceSeconds: 0.2))
        defer {
            server.shutdown()
            directory.remove()
        }
        let slow = try LoopbackConnection(port: server.port)
        try slow.send("GET /faults/delay/60000 HTTP/1.1\r\nHost: x\r\n\r\n")
        // With one polling thread, a blocking delay would stall this request.
        #expect(try Loopback.get("/health", port: server.port).status == 200)
    }

    @Test func statusRouteAnswersTheGivenStatus() throws {
        let (server, directory) = try TestAdServer.start()
        defer {
            server.shutdown()
            directory.remove()
        }
        for status in [200, 302, 404, 500, 503] {
            #expect(try Loopback.get("/faults/status/\(status)", port: server.port).status == status)
        }
        #expect(try Loopback.get("/faults/status/204", port: server.port).status == 204)
        #expect(try Loopback.get("/faults/status/42", port: server.port).status == 400)
        #expect(try Loopback.get("/faults/status/x", port: server.port).status == 400)
    }

    @Test func statusRouteAnswersEveryPathUnderItForGETAndPOST() throws {
        let (server, directory) = try TestAdServer.start()
        defer {
            server.shutdown()
            directory.remove()
        }
        let registration = "/faults/status/500/ssai/pods/api/v1/network/n/custom_asset/k/stream"
        let posted = try Loopback.get(registration, port: server.port, method: "POST", body: Array("a=b".utf8))
        #expect(posted.status == 500)
        #expect(posted.text.contains("fault route: status 500 as asked"))
        #expect(try Loopback.get("/faults/status/503/any/thing", port: server.port).status == 503)
        #expect(try Loopback.get("/faults/status/x/any", port: server.port, method: "POST").status == 400)
    }

    @Test func redirectRouteCountsDownToTheVAST() throws {
        let (server, directory) = try TestAdServer.start()
        defer {
            server.shutdown()
            directory.remove()
        }
        let first = try Loopback.get("/faults/redirect/2?session=r1", port: server.port)
        #expect(first.status == 302)
        #expect(first.headers["Location"]?.hasPrefix("\(server.baseURL)/faults/redirect/1?session=r1") == true)
        let last = try Loopback.get("/faults/redirect/0?session=r1", port: server.port)
        #expect(last.headers["Location"]?.hasPrefix("\(server.baseURL)/vast?session=r1") == true)
        #expect(try Loopback.get("/faults/redirect/51", port: server.port).status == 400)
        let scheme = try Loopback.get("/faults/redirect-scheme", port: server.port)
        #expect(scheme.status == 302)
        #expect(scheme.headers["Location"] == "file:///etc/passwd")
        let chosen = try Loopback.get("/faults/redirect-scheme?to=ftp%3A%2F%2Fexample.test%2Fa", port: server.port)
        #expect(chosen.headers["Location"] == "ftp://example.test/a")
    }

    @Test func truncatedBodyStopsShortOfItsContentLength() throws {
        let (server, directory) = try TestAdServer.start()
        defer {
            server.shutdown()
            directory.remove()
        }
        let connection = try LoopbackConnection(port: server.port)
        try connection.send("GET /faults/truncated HTTP/1.1\r\nHost: x\r\n\r\n")
        let raw = connection.readUntilClosed().bytes
        let text = String(decoding: raw, as: UTF8.self)
        let head = try #require(text.components(separatedBy: "\r\n\r\n").first)
        let declared = try #require(
            head.components(separatedBy: "\r\n").first { $0.lowercased().hasPrefix("content-length:") }
                .flatMap { Int($0.split(separator: ":")[1].trimmingCharacters(in: .whitespaces)) })
        let bodyCount = raw.count - head.utf8.count - 4
        #expect(bodyCount < declared)
        #expect(bodyCount > 0)
        #expect(throws: VASTError.self) { try VASTParser().parse(Data(raw.suffix(bodyCount))) }
    }

    @Test func resetClosesTheConnectionWithoutAResponse() throws {
        let (server, directory) = try TestAdServer.start()
        defer {
            server.shutdown()
            directory.remove()
        }
        let connection = try LoopbackConnection(port: server.port)
        try connection.send("GET /faults/reset HTTP/1.1\r\nHost: x\r\n\r\n")
        let (bytes, errorCode) = connection.readUntilClosed()
        #expect(bytes.isEmpty)
        #expect(errorCode == ECONNRESET)
    }

    @Test func malformedXMLFailsToParseWithCode100() throws {
        let (server, directory) = try TestAdServer.start()
        defer {
            server.shutdown()
            directory.remove()
        }
        let response = try Loopback.get("/faults/malformed", port: server.port)
        #expect(response.status == 200)
        let error = #expect(throws: VASTError.self) { try VASTParser().parse(response.data) }
        #expect(error?.code.rawValue == 100)
    }

    @Test func emptyVASTHasNoAdsAndNoErrors() throws {
        let (server, directory) = try TestAdServer.start()
        defer {
            server.shutdown()
            directory.remove()
        }
        let vast = try VASTParser().parseVAST(try Loopback.get("/faults/empty", port: server.port).data).document
        #expect(vast.ads.isEmpty && vast.errors.isEmpty)
    }

    @Test func noAdVASTCarriesRootErrorURLsBackToTheCollector() throws {
        let (server, directory) = try TestAdServer.start()
        defer {
            server.shutdown()
            directory.remove()
        }
        let vast = try VASTParser().parseVAST(try Loopback.get("/faults/no-ad?session=na", port: server.port).data)
            .document
        #expect(vast.ads.isEmpty)
        let url = try #require(vast.errors.first)
        #expect(url.hasPrefix("http://127.0.0.1:\(server.port)/track/na/no-ad/error?code=[ERRORCODE]"))
        let filled = url.replacingOccurrences(of: "[ERRORCODE]", with: "303")
        #expect(try Loopback.get(TestAdServer.target(of: filled), port: server.port).status == 204)
    }

    @Test func wrapperLoopPointsAtItself() throws {
        let (server, directory) = try TestAdServer.start()
        defer {
            server.shutdown()
            directory.remove()
        }
        var target = "/faults/wrapper-loop?session=loop"
        for _ in 0..<3 {
            let vast = try VASTParser().parseVAST(try Loopback.get(target, port: server.port).data).document
            let next = try #require(vast.ads.first?.wrapper?.vastAdTagURI)
            #expect(TestAdServer.target(of: next).hasPrefix("/faults/wrapper-loop?session=loop"))
            target = TestAdServer.target(of: next)
        }
    }

    @Test func dripSendsTheWholeVASTInSmallPieces() throws {
        let (server, directory) = try TestAdServer.start()
        defer {
            server.shutdown()
            directory.remove()
        }
        let response = try Loopback.get("/faults/drip?chunk=512&interval_ms=5", port: server.port)
        #expect(response.status == 200)
        #expect(try VASTParser().parseVAST(response.data).document.ads.count == 1)
    }

    @Test func dripWithBadParametersIs400() throws {
        let (server, directory) = try TestAdServer.start()
        defer {
            server.shutdown()
            directory.remove()
        }
        #expect(try Loopback.get("/faults/drip?chunk=0", port: server.port).status == 400)
        #expect(try Loopback.get("/faults/drip?interval_ms=-5", port: server.port).status == 400)
    }

    @Test func missingMediaVASTPointsAtFilesThatAre404() throws {
        let (server, directory) = try TestAdServer.start()
        defer {
            server.shutdown()
            directory.remove()
        }
        let vast = try VASTParser().parseVAST(try Loopback.get("/faults/missing-media", port: server.port).data)
            .document
        let urls = vast.ads.flatMap { $0.linear?.mediaFiles.map(\.url) ?? [] }
        #expect(!urls.isEmpty)
        for url in urls {
            #expect(try Loopback.get(TestAdServer.target(of: url), port: server.port).status == 404)
        }
    }

    @Test func delayOutOfRangeIs400() throws {
        let (server, directory) = try TestAdServer.start()
        defer {
            server.shutdown()
            directory.remove()
        }
        #expect(try Loopback.get("/faults/delay/-1", port: server.port).status == 400)
        #expect(try Loopback.get("/faults/delay/99999999", port: server.port).status == 400)
    }
}
