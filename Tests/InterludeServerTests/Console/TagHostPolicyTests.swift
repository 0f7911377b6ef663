import Foundation
import Interlude
import Testing

@testable import InterludeServer

#if canImport(Glibc)
    import Glibc
#endif

@Suite struct TagHostPolicyTests {
    @Test func loopbackAddressesAreThe127NetworkAndIPv6LoopbackAndItsIPv4MappedForm() {
        #expect(ResolvedAddress.v4([127, 0, 0, 1]).isLoopback)
        #expect(ResolvedAddress.v4([127, 255, 3, 9]).isLoopback)
        #expect(ResolvedAddress.v6(Array(repeating: 0, count: 15) + [1]).isLoopback)
        #expect(ResolvedAddress.v6(Array(repeating: 0, count: 10) + [0xFF, 0xFF, 127, 0, 0, 1]).isLoopback)
        #expect(!ResolvedAddress.v4([0, 0, 0, 0]).isLoopback)
        #expect(!ResolvedAddress.v4([10, 0, 0, 1]).isLoopback)
        #expect(!ResolvedAddress.v4([169, 254, 169, 254]).isLoopback)
        #expect(!ResolvedAddress.v6(Array(repeating: 0, count: 16)).isLoopback)
        #expect(!ResolvedAddress.v6(Array(repeating: 0, count: 10) + [0xFF, 0xFF, 10, 0, 0, 1]).isLoopback)
        // IPv4-compatible ::127.0.0.1 is not routed to loopback.
        #expect(!ResolvedAddress.v6(Array(repeating: 0, count: 12) + [127, 0, 0, 1]).isLoopback)
        #expect(ResolvedAddress.v6(Array(repeating: 0, count: 15) + [1]).description == "::1")
        #expect(ResolvedAddress.v4([127, 0, 0, 1]).description == "127.0.0.1")
    }

    @Test func numericFormsOfLoopbackAreAllowedAndResolvedOnce() throws {
        // getaddrinfo reads every one of these without asking DNS.
        let policy = TagHostPolicy()
        for host in [
            "127.0.0.1", "127.1", "2130706433", "0x7f000001", "0177.0.0.1", "0x7f.1", "[::1]", "[::ffff:127.0.0.1]",
        ] {
            let url = try #require(URL(string: "http://\(host):8080/vast"), "\(host)")
            let target = try policy.addresses(for: url)
            #expect(target.port == 8080)
            #expect(target.addresses.allSatisfy { $0.isLoopback }, "\(host)")
        }
    }

    @Test func numericFormsOfOtherAddressesAreRefused() throws {
        let policy = TagHostPolicy()
        for host in [
            "0.0.0.0", "10.0.0.1", "167772161", "0x0a000001", "012.0.0.1", "[::]", "[::ffff:192.0.2.1]", "[fe80::1]",
        ] {
            let url = try #require(URL(string: "http://\(host)/vast"), "\(host)")
            #expect(throws: TagFetchRefusal.self, "\(host)") { try policy.addresses(for: url) }
        }
    }

    @Test func onlyPlainHTTPIsFetched() throws {
        let policy = TagHostPolicy()
        for text in ["https://127.0.0.1/", "file:///etc/passwd", "ftp://127.0.0.1/x", "gopher://127.0.0.1/"] {
            let url = try #require(URL(string: text))
            #expect(throws: TagFetchRefusal.self, "\(text)") { try policy.addresses(for: url) }
        }
    }

    @Test func everyAddressANameResolvesToMustBeLoopback() throws {
        let policy = TagHostPolicy { host, _ throws(TagFetchRefusal) in
            host == "mixed.test" ? [.v6(Array(repeating: 0, count: 15) + [1]), .v4([192, 0, 2, 1])] : []
        }
        let refusal = #expect(throws: TagFetchRefusal.self) {
            try policy.addresses(for: URL(string: "http://mixed.test/")!)
        }
        #expect(refusal?.message.contains("192.0.2.1") == true)
        #expect(refusal?.message.contains(TagHostPolicy.remoteOption) == true)
        #expect(throws: TagFetchRefusal.self) { try policy.addresses(for: URL(string: "http://empty.test/")!) }
    }
}

@Suite struct LoopbackTagClientTests {
    private func get(_ url: String, client: LoopbackTagClient = LoopbackTagClient(), timeout: TimeInterval = 5)
        async throws -> Interlude.HTTPResponse
    {
        try await client.send(Interlude.HTTPRequest(url: URL(string: url)!, timeout: timeout))
    }

    @Test func readsABodyByLengthAndReportsTheStatus() async throws {
        let server = try HTTPServer.start(host: "127.0.0.1", port: 0) { request in
            .text("hello \(request.path)", contentType: "text/plain", status: 201)
        }
        defer { server.shutdown() }
        let response = try await get("http://127.0.0.1:\(server.port)/a%20b?q=1")
        #expect(response.statusCode == 201)
        #expect(String(decoding: response.body, as: UTF8.self) == "hello /a b")
        #expect(response.headers["content-type"] == "text/plain")
    }

    @Test func followsLoopbackRedirectsAndReportsTheFinalURL() async throws {
        let server = try HTTPServer.start(host: "127.0.0.1", port: 0) { request in
            request.path == "/start"
                ? HTTPResponse(status: 302, headers: HTTPHeaders([("Location", "/end")]))
                : .text("end", contentType: "text/plain")
        }
        defer { server.shutdown() }
        let response = try await get("http://127.0.0.1:\(server.port)/start")
        #expect(response.url.absoluteString == "http://127.0.0.1:\(server.port)/end")
        #expect(String(decoding: response.body, as: UTF8.self) == "end")
    }

    @Test func aRedirectLoopEndsAfterTheLimit() async throws {
        let server = try HTTPServer.start(host: "127.0.0.1", port: 0) { _ in
            HTTPResponse(status: 307, headers: HTTPHeaders([("Location", "/again")]))
        }
        defer { server.shutdown() }
        await #expect(throws: HTTPClientError.tooManyRedirects) { try await get("http://127.0.0.1:\(server.port)/") }
    }

    @Test func aBodyOverTheLimitFails() async throws {
        let server = try HTTPServer.start(host: "127.0.0.1", port: 0) { _ in
            .text(String(repeating: "x", count: 10_000), contentType: "text/plain")
        }
        defer { server.shutdown() }
        await #expect(throws: HTTPClientError.responseTooLarge(limit: 1000)) {
            try await get("http://127.0.0.1:\(server.port)/", client: LoopbackTagClient(maxResponseSize: 1000))
        }
    }

    @Test func aServerThatNeverAnswersTimesOut() async throws {
        let server = try HTTPServer.start(
            host: "127.0.0.1", port: 0, configuration: HTTPServer.Configuration(shutdownGraceSeconds: 0.1)
        ) { _ in
            HTTPResponse(status: 200, body: .bytes(Array("late".utf8)), delivery: .delayed(milliseconds: 5_000))
        }
        defer { server.shutdown() }
        await #expect(throws: HTTPClientError.timedOut) {
            try await get("http://127.0.0.1:\(server.port)/", timeout: 0.3)
        }
    }

    @Test func aClosedPortIsUnreachable() async throws {
        let server = try HTTPServer.start(host: "127.0.0.1", port: 0) { _ in .noContent }
        let port = server.port
        server.shutdown()
        await #expect(throws: HTTPClientError.self) { try await get("http://127.0.0.1:\(port)/") }
    }

    @Test func chunkedBodiesAreDecoded() throws {
        // One response as a server writing chunks sends it.
        let raw = Array(
            "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n6;x=y\r\n world\r\n0\r\n\r\n".utf8)
        var descriptors: [Int32] = [0, 0]
        #expect(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &descriptors) == 0)
        defer {
            close(descriptors[0])
            close(descriptors[1])
        }
        _ = raw.withUnsafeBytes { write(descriptors[1], $0.baseAddress, $0.count) }
        shutdown(descriptors[1], Int32(SHUT_WR))
        var reader = TagResponseReader(socket: descriptors[0], deadline: Date().addingTimeInterval(5), maxBody: 100)
        let (status, _, body) = try reader.read(isHead: false)
        #expect(status == 200)
        #expect(String(decoding: body, as: UTF8.self) == "hello world")
    }
}
