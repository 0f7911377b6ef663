import Foundation
import InterludeServerTestSupport
import Testing

@testable import InterludeServer

#if canImport(Glibc)
    import Glibc
#endif

@Suite struct HTTPServerTests {
    private func echoServer(logger: any ServerLogger = SilentLogger(), host: String = "127.0.0.1") throws -> HTTPServer
    {
        try HTTPServer.start(host: host, port: 0, configuration: HTTPServer.Configuration(logger: logger)) { request in
            .text(
                "\(request.method) \(request.path) \(request.query("q") ?? "-") \(request.body.count)",
                contentType: "text/plain")
        }
    }

    @Test func startsOnAnEphemeralPort() throws {
        let server = try echoServer()
        defer { server.shutdown() }
        #expect(server.port != 0)
    }

    @Test func requestPartsReachTheHandler() throws {
        let server = try echoServer()
        defer { server.shutdown() }
        let response = try Loopback.get("/a%20b?q=x%2By", port: server.port, method: "POST", body: Array("hello".utf8))
        #expect(response.text == "POST /a b x+y 5")
    }

    @Test func keepAliveServesSeveralRequestsOnOneConnection() throws {
        let server = try echoServer()
        defer { server.shutdown() }
        let connection = try LoopbackConnection(port: server.port)
        for index in 0..<5 {
            let response = try connection.request("GET", "/n?q=\(index)")
            #expect(response.text == "GET /n \(index) 0")
            #expect(response.headers["Connection"]?.lowercased() != "close")
        }
    }

    @Test func pipelinedRequestsAreAnsweredInOrder() throws {
        let server = try echoServer()
        defer { server.shutdown() }
        let connection = try LoopbackConnection(port: server.port)
        try connection.send("GET /1 HTTP/1.1\r\nHost: x\r\n\r\nGET /2 HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(try connection.readResponse().text == "GET /1 - 0")
        #expect(try connection.readResponse().text == "GET /2 - 0")
    }

    @Test func servesOverIPv6Loopback() throws {
        let server = try echoServer(host: "::1")
        defer { server.shutdown() }
        let connection = try LoopbackConnection(port: server.port, host: "::1")
        #expect(try connection.request("GET", "/six").text == "GET /six - 0")
    }

    @Test func accessLogRecordsEachRequest() throws {
        let logger = MemoryLogger()
        let server = try echoServer(logger: logger)
        _ = try Loopback.get("/logged?q=1", port: server.port)
        server.shutdown()
        let entry = try #require(logger.accessEntries.first { $0.target == "/logged?q=1" })
        #expect(entry.method == "GET" && entry.status == 200 && entry.completed)
        #expect(entry.line.hasPrefix("GET /logged?q=1 200 "))
    }

    @Test func invalidHostFailsToStartWithTypedError() {
        let error = #expect(throws: HTTPServerError.self) {
            try HTTPServer.start(host: "not a host", port: 0) { _ in .noContent }
        }
        #expect(error?.message.contains("not a host") == true)
    }

    @Test func portInUseFailsToStart() throws {
        let server = try echoServer()
        defer { server.shutdown() }
        #expect(throws: HTTPServerError.self) {
            try HTTPServer.start(host: "127.0.0.1", port: server.port) { _ in .noContent }
        }
    }

    @Test func idleConnectionIsClosedAfterTheTimeout() throws {
        let server = try HTTPServer.start(
            host: "127.0.0.1", port: 0, configuration: HTTPServer.Configuration(connectionTimeoutSeconds: 1)
        ) { _ in .noContent }
        defer { server.shutdown() }
        let connection = try LoopbackConnection(port: server.port, timeoutSeconds: 20)
        // The server, not the client's 20 s receive timeout, ends this read.
        let (bytes, errorCode) = connection.readUntilClosed()
        #expect(bytes.isEmpty)
        #expect(errorCode != EAGAIN && errorCode != EWOULDBLOCK)
    }

    @Test func connectionBeyondTheLimitWaitsUntilAnotherCloses() throws {
        let server = try HTTPServer.start(
            host: "127.0.0.1", port: 0, configuration: HTTPServer.Configuration(maxConnections: 1, threadCount: 1)
        ) { _ in .noContent }
        defer { server.shutdown() }
        var first: LoopbackConnection? = try LoopbackConnection(port: server.port)
        #expect(try first?.request("GET", "/").status == 204)
        let second = try LoopbackConnection(port: server.port)
        try second.send("GET / HTTP/1.1\r\nHost: x\r\n\r\n")
        // Over the limit nothing is read; this can only pass wrongly on a
        // server too slow to answer in 200 ms, never fail on a slow machine.
        second.setReceiveTimeout(milliseconds: 200)
        #expect(throws: LoopbackError.self) { try second.readResponse() }
        first = nil
        second.setReceiveTimeout(milliseconds: 15_000)
        #expect(try second.readResponse().status == 204)
    }
}
