import Foundation
import Interlude
import Testing

@testable import InterludeCLI

/// `interlude play` exits only once the beacons it owes are sent: its
/// journal lives in a per-process folder no later run replays, so a ping
/// still in flight at exit would be lost.
@Suite("play session beacons")
@MainActor
struct PlaySessionBeaconTests {
    /// Serves a wrapper whose target is gone; its Error URL answers only
    /// after a while, as a slow tracking server does.
    final class SlowErrorURLClient: HTTPClient, @unchecked Sendable {
        private let lock = NSLock()
        private var answered: [String] = []
        var answeredErrorPings: [String] { lock.withLock { answered } }

        func send(_ request: HTTPRequest) async throws -> HTTPResponse {
            let url = request.url.absoluteString
            if url == "http://127.0.0.1:9/tag" {
                let wrapper = """
                    <VAST version="4.2"><Ad id="w"><Wrapper><AdSystem>w</AdSystem>
                    <VASTAdTagURI>http://127.0.0.1:9/gone</VASTAdTagURI>
                    <Impression>http://127.0.0.1:9/imp</Impression><Error>http://127.0.0.1:9/err?c=[ERRORCODE]</Error>
                    </Wrapper></Ad></VAST>
                    """
                return HTTPResponse(statusCode: 200, body: Data(wrapper.utf8), url: request.url)
            }
            if url.hasPrefix("http://127.0.0.1:9/err") {
                for _ in 0..<50 { await Task.yield() }
                // An attempt the queue gave up on (its timeout, on a loaded machine) is not an answer.
                try Task.checkCancellation()
                lock.withLock { answered.append(url) }
                return HTTPResponse(statusCode: 200, body: Data(), url: request.url)
            }
            return HTTPResponse(statusCode: 404, body: Data(), url: request.url)
        }
    }

    @Test func aFailedLoadReturnsOnlyAfterItsErrorPingsAreSent() async {
        var options = PlayCommand.Options()
        options.tag = URL(string: "http://127.0.0.1:9/tag")
        options.json = true
        let client = SlowErrorURLClient()
        let session = PlaySession(options: options, output: TerminalOutput(json: true), httpClient: client)
        let code = await session.run()
        #expect(code == 1)
        // The wrapper's target answered 404: error 301 for the wrapper's Error URL.
        #expect(client.answeredErrorPings == ["http://127.0.0.1:9/err?c=301"])
    }
}
