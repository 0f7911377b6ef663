import Foundation
import InterludeServerTestSupport
import Testing

@testable import InterludeServer

/// Bytes no well-behaved client sends: the server answers 4xx (or closes)
/// and keeps serving.
@Suite struct BadInputTests {
    private func statusLine(_ bytes: [UInt8]) -> String {
        String(decoding: bytes, as: UTF8.self).components(separatedBy: "\r\n").first ?? ""
    }

    private func expectStillServing(_ server: AdServer) throws {
        #expect(try Loopback.get("/health", port: server.port).status == 200)
    }

    @Test func malformedRequestLineGets400() throws {
        let (server, directory) = try TestAdServer.start()
        defer {
            server.shutdown()
            directory.remove()
        }
        let reply = try Loopback.exchange(Array("THIS IS NOT HTTP\r\n\r\n".utf8), port: server.port)
        #expect(statusLine(reply).hasPrefix("HTTP/1.1 400"))
        try expectStillServing(server)
    }

    @Test func binaryGarbageNeverCrashesTheServer() throws {
        let (server, directory) = try TestAdServer.start()
        defer {
            server.shutdown()
            directory.remove()
        }
        var generator = SystemRandomNumberGenerator()
        let garbage = (0..<4096).map { _ in UInt8.random(in: 0...255, using: &generator) } + Array("\r\n\r\n".utf8)
        let reply = try Loopback.exchange(garbage, port: server.port)
        #expect(reply.isEmpty || statusLine(reply).contains(" 4"))
        try expectStillServing(server)
    }

    /// RFC 9112 §3.2: 400 for an HTTP/1.1 request without a Host, and for
    /// any request with two; HTTP/1.0 needs none.
    @Test func hostHeaderFieldsAreCheckedAsRFC9112Asks() throws {
        let (server, directory) = try TestAdServer.start()
        defer {
            server.shutdown()
            directory.remove()
        }
        for head in [
            "GET /health HTTP/1.1\r\nConnection: close\r\n\r\n",
            "GET /health HTTP/1.1\r\nHost: a\r\nhost: b\r\nConnection: close\r\n\r\n",
            "GET /health HTTP/1.0\r\nHost: a\r\nHost: b\r\n\r\n",
        ] {
            let reply = try Loopback.exchange(Array(head.utf8), port: server.port)
            #expect(statusLine(reply).contains(" 400"), "\(head.debugDescription)")
            #expect(String(decoding: reply, as: UTF8.self).contains(#"{"error":{"#))
        }
        let old = try Loopback.exchange(Array("GET /health HTTP/1.0\r\n\r\n".utf8), port: server.port)
        #expect(statusLine(old).contains(" 200"))
        try expectStillServing(server)
    }

    @Test func requestTargetWithoutSlashIs400JSON() throws {
        let (server, directory) = try TestAdServer.start()
        defer {
            server.shutdown()
            directory.remove()
        }
        let reply = try Loopback.exchange(
            Array("GET vast HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".utf8), port: server.port)
        let text = String(decoding: reply, as: UTF8.self)
        #expect(statusLine(reply).hasPrefix("HTTP/1.1 400"))
        #expect(text.contains(#"{"error":{"#))
    }

    @Test func oversizedHeadersGet431JSON() throws {
        let (server, directory) = try TestAdServer.start()
        defer {
            server.shutdown()
            directory.remove()
        }
        let big = String(repeating: "a", count: 20_000)
        let response = try Loopback.get("/health", port: server.port, headers: [("X-Big", big)])
        #expect(response.status == 431)
        #expect(response.text.contains(#""status":431"#))
        try expectStillServing(server)
    }

    @Test func headersBeyondTheConnectionMemoryAreRefusedWith4xx() throws {
        let (server, directory) = try TestAdServer.start()
        defer {
            server.shutdown()
            directory.remove()
        }
        var request = "GET /health HTTP/1.1\r\nHost: x\r\n"
        for index in 0..<40 { request += "X-Filler-\(index): \(String(repeating: "b", count: 4000))\r\n" }
        let reply = try Loopback.exchange(Array((request + "\r\n").utf8), port: server.port)
        #expect(reply.isEmpty || statusLine(reply).contains(" 4"))
        try expectStillServing(server)
    }

    @Test func oversizedBodyByContentLengthGets413() throws {
        let (server, directory) = try TestAdServer.start(http: HTTPServer.Configuration(maxBodyBytes: 1024))
        defer {
            server.shutdown()
            directory.remove()
        }
        let connection = try LoopbackConnection(port: server.port)
        try connection.send("POST /track/s/a/start HTTP/1.1\r\nHost: x\r\nContent-Length: 5000\r\n\r\n")
        let response = try connection.readResponse()
        #expect(response.status == 413)
        #expect(response.text.contains(#""status":413"#))
    }

    @Test func oversizedChunkedBodyGets413() throws {
        let (server, directory) = try TestAdServer.start(http: HTTPServer.Configuration(maxBodyBytes: 1024))
        defer {
            server.shutdown()
            directory.remove()
        }
        let connection = try LoopbackConnection(port: server.port)
        let chunk = String(repeating: "z", count: 2000)
        try connection.send(
            "POST /track/s/a/start HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n"
                + "\(String(chunk.utf8.count, radix: 16))\r\n\(chunk)\r\n0\r\n\r\n")
        #expect(try connection.readResponse().status == 413)
        try expectStillServing(server)
    }

    @Test func unknownRouteIs404JSON() throws {
        let (server, directory) = try TestAdServer.start()
        defer {
            server.shutdown()
            directory.remove()
        }
        let response = try Loopback.get("/no/such/thing", port: server.port)
        #expect(response.status == 404)
        #expect(response.text == #"{"error":{"message":"no route for /no/such/thing","status":404}}"#)
    }

    @Test func unsupportedMethodIs405() throws {
        let (server, directory) = try TestAdServer.start()
        defer {
            server.shutdown()
            directory.remove()
        }
        let response = try Loopback.get("/vast", port: server.port, method: "DELETE")
        #expect(response.status == 405)
        #expect(response.headers["Allow"]?.contains("GET") == true)
    }

    @Test func forgedHostHeaderDoesNotLeakIntoURLs() throws {
        let (server, directory) = try TestAdServer.start()
        defer {
            server.shutdown()
            directory.remove()
        }
        let connection = try LoopbackConnection(port: server.port)
        let response = try connection.request("GET", "/vast", headers: [("Host", "evil.example\"><x>")])
        #expect(!response.text.contains("evil.example"))
    }
}
