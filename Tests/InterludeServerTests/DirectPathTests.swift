import Foundation
import InterludeServerTestSupport
import InterludeTestSupport
import Testing

@testable import InterludeServer

#if canImport(Glibc)
    import Glibc
#endif

/// The request-head reader of the direct path: it answers only what it is sure of.
@Suite struct HTTPRequestHeadTests {
    private func read(_ text: String, prefixes: [String] = ["/d/"], limit: Int = 16 * 1024) -> HTTPRequestHead.Reading {
        Array(text.utf8).withUnsafeBytes { HTTPRequestHead.read($0, directPrefixes: prefixes, maxHeadBytes: limit) }
    }

    private func direct(_ text: String) -> HTTPRequestHead? {
        if case .direct(let head) = read(text) { return head }
        return nil
    }

    @Test func aPlainGetUnderAPrefixIsDirect() throws {
        let text = "GET /d/a.ts?x=1 HTTP/1.1\r\nHost: h\r\nUser-Agent:  ua 1 \r\n\r\n"
        let head = try #require(direct(text))
        #expect(head.target == "/d/a.ts?x=1")
        #expect(head.headers["host"] == "h" && head.headers["User-Agent"] == "ua 1")
        #expect(head.byteCount == text.utf8.count && head.keepAlive)
    }

    @Test func onlyTheFirstOfPipelinedRequestsIsRead() throws {
        let first = "GET /d/1 HTTP/1.1\r\nHost: h\r\n\r\n"
        let head = try #require(direct(first + "GET /d/2 HTTP/1.1\r\n\r\n"))
        #expect(head.byteCount == first.utf8.count && head.target == "/d/1")
    }

    @Test func aHeadNotYetEndedWaits() {
        #expect(read("GET /d/a HTTP/1.1\r\nHost: h\r\n") == .incomplete)
        #expect(read("GET /d/a HTTP/1.1\r\nHo") == .incomplete)
        #expect(read("GET /d/a HTT") == .incomplete)
        #expect(read("") == .incomplete)
    }

    /// A request line that is not a direct GET needs no more of its head:
    /// waiting for it would re-read a trickling head at every wake.
    @Test func anUnfinishedHeadWhoseRequestLineIsNotDirectIsLibmicrohttpdsAtOnce() {
        #expect(read("POST /d/a HTTP/1.1\r\nHost: h\r\n") == .other)
        #expect(read("GET /other HTTP/1.1\r\nHo") == .other)
        #expect(read("GET /d/a HTTP/1.1 x\r\n") == .other)
    }

    @Test func closeAndHTTP10EndTheConnection() throws {
        #expect(
            try #require(direct("GET /d/a HTTP/1.1\r\nHost: h\r\nConnection: keep-alive, Close\r\n\r\n")).keepAlive
                == false)
        #expect(try #require(direct("GET /d/a HTTP/1.0\r\n\r\n")).keepAlive == false)
    }

    @Test(arguments: [
        "POST /d/a HTTP/1.1\r\nContent-Length: 2\r\n\r\nab",
        "HEAD /d/a HTTP/1.1\r\n\r\n",
        "GET /other HTTP/1.1\r\n\r\n",
        "GET /d/a HTTP/1.1\r\nContent-Length: 5\r\n\r\n",
        "GET /d/a HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n",
        "GET /d/a HTTP/1.1\r\nExpect: 100-continue\r\n\r\n",
        "GET /d/a HTTP/1.1\r\nUpgrade: websocket\r\n\r\n",
        "GET /d/a HTTP/1.1\r\nX: a\r\n folded\r\n\r\n",
        "GET /d/a HTTP/1.1\r\nBad Name: a\r\n\r\n",
        "GET /d/a HTTP/1.1\r\n: a\r\n\r\n",
        "GET /d/a HTTP/1.1\r\nNoColon\r\n\r\n",
        "GET /d/a HTTP/2.0\r\n\r\n",
        "GET /d/a HTTP/1.1 extra\r\n\r\n",
        "GET  /d/a HTTP/1.1\r\n\r\n",
        "GET /d/\u{7F} HTTP/1.1\r\n\r\n",
        "GET /d/é HTTP/1.1\r\n\r\n",
        "GET /d/a HTTP/1.1\nHost: h\n\n",
        "GET /d/a HTTP/1.1\r\nX: a\u{0}b\r\n\r\n",
        "GET /d/a HTTP/1.1\r\nX: a\rb\r\n\r\n",
        "GET /d/a HTTP/1.1\r\n\r\n",
        "GET /d/a HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n",
        "GET /d/a HTTP/1.1\r\nHost: h\n\r\n",
        "GET /d/a HTTP/1.1\r\nHost: h\n",
    ])
    func anythingElseIsLibmicrohttpds(_ text: String) {
        #expect(read(text) == .other)
    }

    /// Random edits of a valid request (seeded, so a failure reproduces):
    /// reading never traps, a direct head never claims more bytes than were
    /// read, and it always ends at a blank line.
    @Test func editedRequestsNeverTrapAndADirectHeadEndsAtItsBlankLine() {
        var random = SeededRandom(seed: 0x1D_1EC7)
        let valid = Array("GET /d/seg.ts HTTP/1.1\r\nHost: h\r\nConnection: close\r\n\r\n".utf8)
        let alphabet = Array("GET/d HTTP1.0:\r\n \t,".utf8) + [0, 0x7F, 0x80, 0xFF]
        var directCount = 0
        for _ in 0..<20_000 {
            var bytes = valid
            for _ in 0..<Int.random(in: 1...4, using: &random) {
                let index = Int.random(in: 0..<bytes.count, using: &random)
                switch Int.random(in: 0..<3, using: &random) {
                case 0: bytes[index] = alphabet.randomElement(using: &random)!
                case 1: bytes.insert(alphabet.randomElement(using: &random)!, at: index)
                default: if bytes.count > 1 { bytes.remove(at: index) }
                }
            }
            bytes = Array(bytes.prefix(Int.random(in: 0...bytes.count, using: &random)))
            let reading = bytes.withUnsafeBytes {
                HTTPRequestHead.read($0, directPrefixes: ["/d/"], maxHeadBytes: 64)
            }
            guard case .direct(let head) = reading else { continue }
            directCount += 1
            #expect(head.byteCount <= 64 && head.byteCount <= bytes.count)
            #expect(bytes[..<head.byteCount].suffix(4).elementsEqual("\r\n\r\n".utf8))
            #expect(head.target.hasPrefix("/d/"))
        }
        // Some edits leave the request valid: the direct branch was exercised.
        #expect(directCount > 0)
    }

    @Test func aHeadOverTheLimitIsLibmicrohttpds() {
        let long = "GET /d/a HTTP/1.1\r\nX: " + String(repeating: "a", count: 200) + "\r\n\r\n"
        #expect(read(long, limit: 100) == .other)
        #expect(read(String(long.prefix(150)), limit: 100) == .other)
        let many = "GET /d/a HTTP/1.1\r\n" + String(repeating: "X: 1\r\n", count: 101) + "\r\n"
        #expect(read(many) == .other)
    }
}

/// An answer as the direct path puts it on the wire.
@Suite struct DirectAnswerTests {
    @Test func fileBackedSlicesAreSentFromTheFileAndTheRestFromMemory() {
        let shared = SharedBytes(Array(repeating: UInt8(7), count: 100), file: "/data/seg.ts")
        let packets = SharedBytes([1, 2, 3])
        let response = HTTPResponse(
            headers: HTTPHeaders([("Content-Type", "video/mp2t"), ("Content-Length", "1"), ("X", "a\r\nEvil: 1")]),
            body: .parts([shared.slice(0..<40), packets.whole, shared.slice(40..<100), shared.slice(5..<5)]))
        let answer = DirectAnswer(response, keepAlive: true, date: "Sun, 06 Dec 2026 19:20:00 GMT")
        #expect(answer.bodyLength == 103 && answer.keepAlive && answer.status == 200)
        #expect(answer.runs.count == 4)
        #expect(answer.runs[1] == .file(path: "/data/seg.ts", offset: 0, length: 40))
        #expect(answer.runs[2] == .memory(packets.whole))
        #expect(answer.runs[3] == .file(path: "/data/seg.ts", offset: 40, length: 60))
        // The same bytes from memory, for a file that cannot be sent.
        #expect(answer.memoryRuns?[1] == .memory(shared.slice(0..<40)))
        var fallback = answer
        #expect(fallback.sendFromMemory(run: 3) && fallback.runs[3] == .memory(shared.slice(40..<100)))
        #expect(fallback.runs[1] == answer.runs[1])
        guard case .memory(let head) = answer.runs[0] else {
            Issue.record("the head is not memory")
            return
        }
        #expect(
            String(decoding: head.array, as: UTF8.self)
                == "HTTP/1.1 200 OK\r\nContent-Type: video/mp2t\r\nDate: Sun, 06 Dec 2026 19:20:00 GMT\r\n"
                + "Content-Length: 103\r\n\r\n")
    }

    @Test func aResponseThatClosesSaysSo() {
        var response = HTTPResponse.text("gone", contentType: "text/plain", status: 404)
        response.headers.set("Connection", "close")
        let answer = DirectAnswer(response, keepAlive: true, date: "D")
        guard case .memory(let head) = answer.runs[0] else { return }
        let text = String(decoding: head.array, as: UTF8.self)
        #expect(
            !answer.keepAlive && text.hasPrefix("HTTP/1.1 404 Not Found\r\n") && text.contains("Connection: close\r\n"))
    }

    @Test func aFileOnlyBodyHasNoMemoryCopyAnd204HasNoContentLength() {
        var file = DirectAnswer(
            HTTPResponse(body: .file(path: "/data/a.ts", offset: 0, length: 5)), keepAlive: true, date: "D")
        #expect(file.memoryRuns == nil && !file.sendAllFromMemory() && !file.sendFromMemory(run: 1))
        let empty = DirectAnswer(HTTPResponse(status: 204), keepAlive: true, date: "D")
        guard case .memory(let head) = empty.runs[0] else { return }
        #expect(!String(decoding: head.array, as: UTF8.self).contains("Content-Length"))
    }

    @Test func theDateIsRFC9110s() {
        #expect(DirectAnswer.httpDate(0) == "Thu, 01 Jan 1970 00:00:00 GMT")
        #expect(DirectAnswer.httpDate(1_796_587_200) == "Sun, 06 Dec 2026 20:00:00 GMT")
    }
}

#if os(Linux)
    /// What a loop does when `accept` fails: only a shut-down listener stops it.
    @Suite struct DirectAcceptFailureTests {
        @Test(arguments: [EINTR, ECONNABORTED, EPROTO, ENETDOWN, ENETUNREACH, EHOSTUNREACH, EPERM, ETIMEDOUT])
        func aPendingConnectionsOwnErrorIsSkipped(_ code: Int32) {
            #expect(DirectAcceptFailure(errno: code) == .retry)
        }

        @Test(arguments: [EMFILE, ENFILE, ENOBUFS, ENOMEM, EIO])
        func runningOutOfResourcesBacksOffAndKeepsTheListener(_ code: Int32) {
            #expect(DirectAcceptFailure(errno: code) == .backOff)
        }

        @Test func anEmptyBacklogWaitsAndAShutListenerStops() {
            #expect(DirectAcceptFailure(errno: EAGAIN) == .backlogEmpty)
            #expect(DirectAcceptFailure(errno: EINVAL) == .listenerClosed)
            #expect(DirectAcceptFailure(errno: EBADF) == .listenerClosed)
        }
    }

    /// The files a loop sends from: one descriptor per file however many answers use it.
    @Suite struct DirectFileTableTests {
        @Test func answersShareOneDescriptorPerFileUntilTheLastIsDone() throws {
            let path = FileManager.default.temporaryDirectory.appendingPathComponent("table-\(UUID().uuidString)").path
            try Data(repeating: 1, count: 100).write(to: URL(fileURLWithPath: path))
            defer { try? FileManager.default.removeItem(atPath: path) }
            let packets = SharedBytes([1, 2])
            let runs: [DirectAnswer.Run] = [
                .file(path: path, offset: 0, length: 40), .memory(packets.whole),
                .file(path: path, offset: 40, length: 60),
            ]
            var table = DirectFileTable()
            let first = try table.acquire(runs).get()
            let second = try table.acquire(runs).get()
            #expect(first[0] >= 0 && first[1] == -1 && first[2] == first[0] && second == first)
            #expect(table.openCount == 1)
            table.release(runs)
            #expect(table.openCount == 1)
            table.release(runs)
            #expect(table.openCount == 0)
        }

        @Test func aFileShorterThanItsRunsIsRefusedAndNothingStaysOpen() throws {
            let path = FileManager.default.temporaryDirectory.appendingPathComponent("table-\(UUID().uuidString)").path
            try Data(repeating: 1, count: 10).write(to: URL(fileURLWithPath: path))
            defer { try? FileManager.default.removeItem(atPath: path) }
            var table = DirectFileTable()
            let runs: [DirectAnswer.Run] = [
                .file(path: path, offset: 0, length: 5), .file(path: "/nonexistent/x.ts", offset: 0, length: 1),
            ]
            #expect(throws: DirectFileFailure(path: "/nonexistent/x.ts", code: ENOENT)) {
                try table.acquire(runs).get()
            }
            #expect(table.openCount == 0)
            let short = DirectAnswer.Run.file(path: path, offset: 5, length: UInt64.max - 2)
            #expect(throws: DirectFileFailure(path: path, code: 0)) { try table.acquire([short]).get() }
            #expect(table.openCount == 0)
        }
    }

    /// The direct path over real sockets: answers byte for byte what
    /// libmicrohttpd would, hands every other request over at its first byte.
    @Suite struct DirectPathServerTests {
        /// A server whose `/d/` routes are direct: `/d/seg` is a file-backed
        /// head and tail around memory, `/d/slow` a delayed answer, the rest an echo.
        final class Fixture {
            let directory: URL
            let segment: [UInt8]
            let server: HTTPServer
            let logger = MemoryLogger()

            init(configuration: HTTPServer.Configuration = HTTPServer.Configuration(), host: String = "127.0.0.1")
                throws
            {
                directory = FileManager.default.temporaryDirectory.appendingPathComponent(
                    "direct-\(UUID().uuidString)")
                try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
                let path = directory.appendingPathComponent("seg.ts").path
                let segment = (0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
                try Data(segment).write(to: URL(fileURLWithPath: path))
                self.segment = segment
                let shared = SharedBytes(segment, file: path)
                let gone = SharedBytes(segment, file: directory.appendingPathComponent("gone.ts").path)
                let shortPath = directory.appendingPathComponent("short.ts").path
                try Data(segment.prefix(10)).write(to: URL(fileURLWithPath: shortPath))
                let short = SharedBytes(segment, file: shortPath)
                var configuration = configuration
                configuration.directPrefixes = ["/d/"]
                configuration.logger = logger
                server = try HTTPServer.start(host: host, port: 0, configuration: configuration) { request in
                    switch request.path {
                    case "/d/seg":
                        return HTTPResponse(
                            headers: HTTPHeaders([("Content-Type", "video/mp2t")]),
                            body: .parts([
                                shared.slice(0..<1000), SharedBytes(Array("ID3".utf8)).whole,
                                shared.slice(1000..<shared.count),
                            ]))
                    case "/d/gone":
                        return HTTPResponse(body: .parts([gone.slice(0..<500), gone.slice(500..<gone.count)]))
                    case "/d/short":
                        return HTTPResponse(body: .parts([short.whole]))
                    case "/d/gone-file":
                        var response = HTTPResponse(body: .file(path: gone.file ?? "", offset: 0, length: 10))
                        response.headers.set("Access-Control-Allow-Origin", "*")
                        return response
                    case "/d/slow":
                        return HTTPResponse(status: 200, body: .bytes([1]), delivery: .delayed(milliseconds: 10))
                    default:
                        return .text(
                            "\(request.method) \(request.path) \(request.headers["X-Probe"] ?? "-")",
                            contentType: "text/plain")
                    }
                }
            }

            var expectedSegment: [UInt8] { Array(segment[0..<1000]) + Array("ID3".utf8) + Array(segment[1000...]) }

            deinit {
                server.shutdown()
                try? FileManager.default.removeItem(at: directory)
            }
        }

        @Test func aTaggedSegmentIsSentWholeFromFileAndMemory() throws {
            let fixture = try Fixture()
            let response = try Loopback.get("/d/seg", port: fixture.server.port)
            #expect(response.status == 200 && response.body == fixture.expectedSegment)
            #expect(response.headers["Content-Length"] == "\(fixture.expectedSegment.count)")
            #expect(
                response.headers["Content-Type"] == "video/mp2t" && response.headers["Date"]?.hasSuffix(" GMT") == true)
        }

        @Test func oneConnectionMovesFromTheDirectPathToTheDaemonAndStaysThere() throws {
            let fixture = try Fixture()
            let connection = try LoopbackConnection(port: fixture.server.port)
            for _ in 0..<3 { #expect(try connection.request("GET", "/d/seg").body == fixture.expectedSegment) }
            #expect(try connection.request("GET", "/d/x", headers: [("X-Probe", "1")]).text == "GET /d/x 1")
            #expect(try connection.request("POST", "/p", body: [1, 2]).text == "POST /p -")
            // Now libmicrohttpd's: the direct route still answers, the same bytes.
            #expect(try connection.request("GET", "/d/seg").body == fixture.expectedSegment)
        }

        @Test func pipelinedDirectAndOtherRequestsAreAnsweredInOrder() throws {
            let fixture = try Fixture()
            let connection = try LoopbackConnection(port: fixture.server.port)
            try connection.send(
                "GET /d/seg HTTP/1.1\r\nHost: x\r\n\r\nGET /d/e HTTP/1.1\r\nHost: x\r\n\r\n"
                    + "HEAD /d/e HTTP/1.1\r\nHost: x\r\n\r\nGET /e HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(try connection.readResponse().body == fixture.expectedSegment)
            #expect(try connection.readResponse().text == "GET /d/e -")
            let head = try connection.readResponse(toHead: true)
            #expect(head.status == 200 && head.headers["Content-Length"] == "11")
            #expect(try connection.readResponse().text == "GET /e -")
        }

        @Test func connectionCloseIsHonoured() throws {
            let fixture = try Fixture()
            let connection = try LoopbackConnection(port: fixture.server.port)
            try connection.send("GET /d/seg HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
            let bytes = try connection.readToEnd()
            #expect(bytes.count > fixture.expectedSegment.count)
            #expect(String(decoding: bytes.prefix(200), as: UTF8.self).contains("Connection: close\r\n"))
        }

        @Test func anOversizedHeadIsRefusedByTheDaemon() throws {
            let fixture = try Fixture(configuration: HTTPServer.Configuration(maxHeaderBytes: 2048))
            let response = try Loopback.get(
                "/d/seg", port: fixture.server.port, headers: [("X-Long", String(repeating: "a", count: 4096))])
            #expect(response.status == 431)
        }

        @Test func aDeliveryTheDirectPathCannotSendIsA500AndLogged() throws {
            let fixture = try Fixture()
            #expect(try Loopback.get("/d/slow", port: fixture.server.port).status == 500)
            #expect(fixture.logger.loggedMessages.contains { $0.contains("/d/slow") })
        }

        @Test func aClientLeavingMidAnswerDoesNotStopTheServer() throws {
            let fixture = try Fixture()
            for _ in 0..<20 {
                let leaving = try LoopbackConnection(port: fixture.server.port)
                try leaving.send("GET /d/seg HTTP/1.1\r\nHost: x\r\n\r\nGET /d/seg HTTP/1.1\r\nHost: x\r\n\r\n")
            }
            #expect(try Loopback.get("/d/seg", port: fixture.server.port).body == fixture.expectedSegment)
            // The leavers' answers end (cut or sent); none stays in flight.
            let deadline = Date().addingTimeInterval(10)
            while fixture.server.requestsInFlight > 0, Date() < deadline { usleep(10_000) }
            #expect(fixture.server.requestsInFlight == 0)
        }

        @Test func theAccessLogRecordsDirectAnswers() throws {
            let fixture = try Fixture()
            _ = try Loopback.get("/d/seg?v=1", port: fixture.server.port)
            fixture.server.shutdown()
            let entry = try #require(fixture.logger.accessEntries.first { $0.target == "/d/seg?v=1" })
            #expect(entry.method == "GET" && entry.status == 200 && entry.completed)
            #expect(entry.bodyBytes == fixture.expectedSegment.count)
        }

        @Test func servesOverIPv6() throws {
            let fixture = try Fixture(host: "::1")
            let connection = try LoopbackConnection(port: fixture.server.port, host: "::1")
            #expect(try connection.request("GET", "/d/seg").body == fixture.expectedSegment)
            #expect(try connection.request("GET", "/x").text == "GET /x -")
        }

        @Test func anIdleConnectionIsClosedAfterTheTimeout() throws {
            let fixture = try Fixture(configuration: HTTPServer.Configuration(connectionTimeoutSeconds: 1))
            let connection = try LoopbackConnection(port: fixture.server.port, timeoutSeconds: 20)
            #expect(try connection.request("GET", "/d/seg").body == fixture.expectedSegment)
            // The server, not the client's 20 s receive timeout, ends this read.
            let (bytes, errorCode) = connection.readUntilClosed()
            #expect(bytes.isEmpty)
            #expect(errorCode != EAGAIN && errorCode != EWOULDBLOCK)
        }

        @Test func aConnectionBeyondTheLimitWaitsUntilAnotherCloses() throws {
            let fixture = try Fixture(configuration: HTTPServer.Configuration(maxConnections: 1, threadCount: 1))
            var first: LoopbackConnection? = try LoopbackConnection(port: fixture.server.port)
            #expect(try first?.request("GET", "/x").status == 200)
            let second = try LoopbackConnection(port: fixture.server.port)
            try second.send("GET /d/seg HTTP/1.1\r\nHost: x\r\n\r\n")
            // Over the limit nothing is read; this can only pass wrongly on a
            // server too slow to answer in 200 ms, never fail on a slow machine.
            second.setReceiveTimeout(milliseconds: 200)
            #expect(throws: LoopbackError.self) { try second.readResponse() }
            first = nil
            second.setReceiveTimeout(milliseconds: 15_000)
            #expect(try second.readResponse().body == fixture.expectedSegment)
        }

        /// The file behind an answer is opened before the head goes out: a
        /// missing or short one is sent from the memory copy the body has,
        /// and a body that is only a file is a 500 with the route's CORS
        /// headers; the connection lives on either way.
        @Test func aMissingOrShortFileIsSentFromMemoryOrIsA500BeforeAnyOfTheAnswer() throws {
            let fixture = try Fixture()
            let connection = try LoopbackConnection(port: fixture.server.port)
            #expect(try connection.request("GET", "/d/gone").body == fixture.segment)
            #expect(try connection.request("GET", "/d/short").body == fixture.segment)
            let error = try connection.request("GET", "/d/gone-file")
            #expect(error.status == 500 && error.headers["Access-Control-Allow-Origin"] == "*")
            #expect(try connection.request("GET", "/d/seg").body == fixture.expectedSegment)
            #expect(fixture.logger.loggedMessages.contains { $0.contains("gone.ts") })
            #expect(fixture.logger.loggedMessages.contains { $0.contains("short.ts is shorter") })
        }

        /// A client that half-closes with its head unfinished is closed at
        /// once, not after the idle timeout.
        @Test func aHeadLeftUnfinishedByAHalfCloseEndsTheConnection() throws {
            let fixture = try Fixture(configuration: HTTPServer.Configuration(connectionTimeoutSeconds: 60))
            let connection = try LoopbackConnection(port: fixture.server.port, timeoutSeconds: 20)
            try connection.send("GET /d/seg HTTP/1.1\r\nHo")
            connection.shutdownSending()
            // The server, not the client's 20 s receive timeout, ends this read.
            let (bytes, errorCode) = connection.readUntilClosed()
            #expect(bytes.isEmpty && errorCode != EAGAIN && errorCode != EWOULDBLOCK)
        }

        /// Without exactly one Host the request is left to the daemon's
        /// path, which answers 400 as RFC 9112 §3.2 asks.
        @Test func anHTTP11RequestWithoutHostIsLeftToTheDaemon() throws {
            let fixture = try Fixture()
            let connection = try LoopbackConnection(port: fixture.server.port)
            try connection.send("GET /d/seg HTTP/1.1\r\n\r\n")
            let response = try connection.readResponse()
            #expect(response.status == 400)
            #expect(String(decoding: response.body, as: UTF8.self).contains("Host"))
        }

        /// A client that sent more after its last request still gets that
        /// answer whole: closing with unread input would reset the
        /// connection and drop what the kernel had not yet delivered.
        @Test func theLastAnswerSurvivesInputTheServerDidNotRead() throws {
            let fixture = try Fixture()
            let connection = try LoopbackConnection(port: fixture.server.port)
            try connection.send(
                "GET /d/seg HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\nGET /d/seg HTTP/1.1\r\nHost: x\r\n\r\n")
            // Not reading yet: most of the answer waits in the server's
            // send queue when it has finished with the connection.
            usleep(300_000)
            let bytes = try connection.readToEnd()
            #expect(bytes.count > fixture.expectedSegment.count)
            #expect(bytes.suffix(fixture.expectedSegment.count).elementsEqual(fixture.expectedSegment))
        }

        /// More pipelined requests than one turn serves: the connection is
        /// served again without a new edge from its socket.
        @Test func manyPipelinedRequestsAreAllAnsweredInOrder() throws {
            let fixture = try Fixture(configuration: HTTPServer.Configuration(threadCount: 1))
            let connection = try LoopbackConnection(port: fixture.server.port)
            let count = DirectLoop.requestsPerTurn * 3 + 1
            try connection.send((0..<count).map { "GET /d/e\($0) HTTP/1.1\r\nHost: x\r\n\r\n" }.joined())
            for index in 0..<count { #expect(try connection.readResponse().text == "GET /d/e\(index) -") }
        }

        /// A head sent a few bytes at a time ends with libmicrohttpd, which
        /// reads it incrementally, and is answered the same.
        @Test func aTricklingHeadIsStillAnswered() throws {
            let fixture = try Fixture()
            let connection = try LoopbackConnection(port: fixture.server.port)
            let head = Array("GET /d/seg HTTP/1.1\r\nHost: x\r\nX-Probe: 1\r\n\r\n".utf8)
            for start in stride(from: 0, to: head.count, by: 5) {
                try connection.send(Array(head[start..<min(head.count, start + 5)]))
                usleep(5_000)
            }
            #expect(try connection.readResponse().body == fixture.expectedSegment)
            #expect(try connection.request("GET", "/d/x", headers: [("X-Probe", "2")]).text == "GET /d/x 2")
        }

        @Test func shutdownClosesConnectionsBetweenRequests() throws {
            let fixture = try Fixture()
            let idle = try LoopbackConnection(port: fixture.server.port, timeoutSeconds: 20)
            #expect(try idle.request("GET", "/d/seg").status == 200)
            let handedOn = try LoopbackConnection(port: fixture.server.port, timeoutSeconds: 20)
            #expect(try handedOn.request("GET", "/x").status == 200)
            let started = Date()
            fixture.server.shutdown()
            #expect(Date().timeIntervalSince(started) < 5)
            #expect(idle.readUntilClosed().bytes.isEmpty && handedOn.readUntilClosed().bytes.isEmpty)
            #expect(throws: LoopbackError.self) { try LoopbackConnection(port: fixture.server.port) }
        }
    }
#endif
