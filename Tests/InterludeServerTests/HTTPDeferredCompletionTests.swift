import Foundation
import InterludeServerTestSupport
import Testing

@testable import InterludeServer

/// Answers handed to a completion (`HTTPResponse.deferred(completing:)`):
/// the connection waits without holding a polling thread, and the answer
/// goes out when the work completes, from whichever thread it does.
@Suite struct HTTPDeferredCompletionTests {
    @Test func aParkedRequestIsAnsweredWhenAnotherRequestCompletesIt() throws {
        let parked = Locked<(@Sendable (HTTPResponse) -> Void)?>(nil)
        let server = try HTTPServer.start(
            host: "127.0.0.1", port: 0, configuration: HTTPServer.Configuration(threadCount: 1)
        ) { request in
            switch request.path {
            case "/park":
                return .deferred(completing: { complete in parked.withLock { $0 = complete } })
            default:
                guard let complete = parked.withLock({ $0 }) else { return HTTPResponse(status: 409) }
                complete(.text("completed by \(request.path)", contentType: "text/plain", status: 201))
                return .noContent
            }
        }
        defer { server.shutdown() }
        let waiting = try LoopbackConnection(port: server.port)
        try waiting.send("GET /park HTTP/1.1\r\nHost: x\r\n\r\n")
        // The one polling thread still serves other connections; retry until /park is parked.
        let other = try LoopbackConnection(port: server.port)
        var status = 409
        while status == 409 { status = try other.request("GET", "/release").status }
        #expect(status == 204)
        let answer = try waiting.readResponse()
        #expect(answer.status == 201)
        #expect(answer.text == "completed by /release")
    }

    @Test func aSecondCompletionIsIgnored() throws {
        let server = try HTTPServer.start(host: "127.0.0.1", port: 0, configuration: HTTPServer.Configuration()) {
            _ in
            .deferred(completing: { complete in
                Thread {
                    complete(.text("first", contentType: "text/plain"))
                    complete(.text("second", contentType: "text/plain"))
                }.start()
            })
        }
        defer { server.shutdown() }
        let connection = try LoopbackConnection(port: server.port)
        #expect(try connection.request("GET", "/a").text == "first")
        #expect(try connection.request("GET", "/b").text == "first")
    }
}
