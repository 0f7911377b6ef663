import Foundation
import InterludeServerTestSupport
import InterludeTestSupport
import Testing

@testable import InterludeServer

@Suite struct ConsolePageTests {
    @Test func consolePageIsHTMLWithASelfOnlyContentSecurityPolicy() throws {
        let (server, directory) = try ConsoleTestServer.start()
        defer {
            server.shutdown()
            directory.remove()
        }
        let response = try Loopback.get("/console", port: server.port)
        #expect(response.status == 200)
        #expect(response.headers["Content-Type"] == "text/html; charset=utf-8")
        let policy = try #require(response.headers["Content-Security-Policy"])
        #expect(policy.contains("default-src 'none'"))
        #expect(policy.contains("script-src 'self'"))
        #expect(policy.contains("frame-ancestors 'none'"))
        #expect(!policy.contains("unsafe-inline"))
        #expect(response.headers["X-Content-Type-Options"] == "nosniff")
        #expect(response.headers["Cache-Control"] == "no-cache")
        #expect(response.text.contains("<title>Interlude console</title>"))
        #expect(try Loopback.get("/console/", port: server.port).text == response.text)
    }

    @Test func everyAssetHasItsContentTypeAndRevalidatesWithItsETag() throws {
        let (server, directory) = try ConsoleTestServer.start()
        defer {
            server.shutdown()
            directory.remove()
        }
        let expected = [
            "index.html": "text/html; charset=utf-8", "console.css": "text/css; charset=utf-8",
            "common.js": "text/javascript; charset=utf-8", "inspector.js": "text/javascript; charset=utf-8",
            "monitor.js": "text/javascript; charset=utf-8", "icon.svg": "image/svg+xml",
        ]
        for (name, type) in expected {
            let response = try Loopback.get("/console/\(name)", port: server.port)
            #expect(response.status == 200, "\(name)")
            #expect(response.headers["Content-Type"] == type, "\(name)")
            let etag = try #require(response.headers["ETag"])
            let again = try Loopback.get("/console/\(name)", port: server.port, headers: [("If-None-Match", etag)])
            #expect(again.status == 304, "\(name)")
            #expect(again.body.isEmpty)
        }
    }

    @Test func pagesLoadNothingFromOutsideTheServer() throws {
        for (name, asset) in ConsoleAssets.files {
            let text = String(decoding: asset.bytes, as: UTF8.self)
            for pattern in [
                "src=\"http", "href=\"http", "@import", "url(http", "fetch('http", "fetch(\"http", "<script>",
            ] {
                #expect(!text.contains(pattern), "\(name) contains \(pattern)")
            }
        }
        let html = String(decoding: try #require(ConsoleAssets.files["index.html"]).bytes, as: UTF8.self)
        // No inline handlers or styles: the policy would block them.
        #expect(!html.contains(" onclick=") && !html.contains(" style="))
    }

    @Test func unknownFilesAndTraversalAreJSON404s() throws {
        let (server, directory) = try ConsoleTestServer.start()
        defer {
            server.shutdown()
            directory.remove()
        }
        for target in ["/console/nope.js", "/console/%2e%2e/Package.swift", "/console/..%2fPackage.swift"] {
            let response = try Loopback.get(target, port: server.port)
            #expect(response.status == 404 || response.status == 400, "\(target)")
            #expect(ConsoleTestServer.error(of: response) != nil, "\(target)")
        }
    }

    @Test func requestsAddressedToANameOtherThanLocalhostAreRefused() throws {
        let (server, directory) = try ConsoleTestServer.start()
        defer {
            server.shutdown()
            directory.remove()
        }
        // A DNS-rebinding page reaches the server under its own name.
        let rebound = try Loopback.get("/console", port: server.port, headers: [("Host", "attacker.example:80")])
        #expect(rebound.status == 403)
        #expect(ConsoleTestServer.error(of: rebound)?.status == 403)
        let listing = try Loopback.get(
            "/api/console/sessions", port: server.port, headers: [("Host", "attacker.example")])
        #expect(listing.status == 403)
        for host in ["localhost:\(server.port)", "127.0.0.1:\(server.port)", "[::1]:\(server.port)", "app.localhost"] {
            #expect(try Loopback.get("/console", port: server.port, headers: [("Host", host)]).status == 200, "\(host)")
        }
    }

    @Test func trustedHostsAreIPLiteralsAndLocalhostNames() {
        for host in ["127.0.0.1", "192.168.1.20", "[::1]", "[fe80::1]", "localhost", "LOCALHOST", "x.localhost"] {
            #expect(ConsoleGuard.isTrusted(host: host), "\(host)")
        }
        for host in ["example.com", "127.0.0.1.nip.io", "2130706433", "0x7f000001", "[::1", "", "256.1.1.1", "1.2.3"] {
            #expect(!ConsoleGuard.isTrusted(host: host), "\(host)")
        }
        #expect(ConsoleGuard.hostPart("[::1]:8080") == "[::1]")
        #expect(ConsoleGuard.hostPart("127.0.0.1:8080") == "127.0.0.1")
        #expect(ConsoleGuard.hostPart("localhost") == "localhost")
    }
}
