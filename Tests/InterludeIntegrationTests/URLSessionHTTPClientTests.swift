import Foundation
import InterludeServer
import InterludeServerTestSupport
import InterludeVAST
import Testing

@testable import Interlude

/// The default HTTP client against the reference server over loopback: its
/// limits (size, redirects, schemes, whole-exchange deadline) are what keep
/// a bad ad server from holding or flooding the SDK.
@Suite("URLSessionHTTPClient over loopback", .serialized)
struct URLSessionHTTPClientTests {
    private static func get(_ url: String, timeout: TimeInterval = 8) -> Interlude.HTTPRequest {
        Interlude.HTTPRequest(url: URL(string: url)!, timeout: timeout)
    }

    private static func failure(of request: Interlude.HTTPRequest, with client: URLSessionHTTPClient) async
        -> HTTPClientError?
    {
        do {
            let response = try await client.send(request)
            Issue.record("\(request.url) answered \(response.statusCode)")
            return nil
        } catch {
            return error as? HTTPClientError
        }
    }

    @Test func answersStatusBodyHeadersAndFinalURL() async throws {
        let (server, directory) = try TestAdServer.start()
        defer {
            server.shutdown()
            directory.remove()
        }
        let response = try await URLSessionHTTPClient().send(Self.get("\(server.baseURL)/vast?session=c1"))
        #expect(response.statusCode == 200)
        #expect(response.headers["content-type"]?.contains("xml") == true)
        #expect(try VASTParser().parseVAST(response.body).document.ads.count >= 1)
        #expect(response.url.absoluteString == "\(server.baseURL)/vast?session=c1")
        let missing = try await URLSessionHTTPClient().send(Self.get("\(server.baseURL)/faults/status/404"))
        #expect(missing.statusCode == 404)
    }

    @Test func aBodyOverTheLimitIsCancelled() async throws {
        let (server, directory) = try TestAdServer.start()
        defer {
            server.shutdown()
            directory.remove()
        }
        let client = URLSessionHTTPClient(maxResponseSize: 512)
        let error = await Self.failure(of: Self.get("\(server.baseURL)/vast?session=c2"), with: client)
        #expect(error == .responseTooLarge(limit: 512))
    }

    @Test func redirectsAreFollowedUpToTheLimit() async throws {
        let (server, directory) = try TestAdServer.start()
        defer {
            server.shutdown()
            directory.remove()
        }
        let client = URLSessionHTTPClient(maxHTTPRedirects: 3)
        let followed = try await client.send(Self.get("\(server.baseURL)/faults/redirect/2?session=c3"))
        #expect(followed.statusCode == 200)
        #expect(followed.url.path == "/vast")
        let error = await Self.failure(of: Self.get("\(server.baseURL)/faults/redirect/5?session=c3"), with: client)
        #expect(error == .tooManyRedirects)
    }

    @Test func aRedirectToAnotherSchemeIsRefused() async throws {
        let (server, directory) = try TestAdServer.start()
        defer {
            server.shutdown()
            directory.remove()
        }
        let client = URLSessionHTTPClient()
        let file = await Self.failure(of: Self.get("\(server.baseURL)/faults/redirect-scheme"), with: client)
        #expect(file == .unsupportedScheme("file"))
        let fileWithHost = await Self.failure(
            of: Self.get("\(server.baseURL)/faults/redirect-scheme?to=file%3A%2F%2Flocalhost%2Fetc%2Fpasswd"),
            with: client)
        #expect(fileWithHost == .unsupportedScheme("file"))
        let ftp = await Self.failure(
            of: Self.get("\(server.baseURL)/faults/redirect-scheme?to=ftp%3A%2F%2F127.0.0.1%2Fvast.xml"), with: client)
        #expect(ftp == .unsupportedScheme("ftp"))
    }

    @Test func onlyHTTPAndHTTPSAreRequested() async {
        for url in ["file:///etc/passwd", "ftp://127.0.0.1/vast.xml", "javascript:alert(1)"] {
            let error = await Self.failure(of: Self.get(url), with: URLSessionHTTPClient())
            #expect(error == .unsupportedScheme(URL(string: url)!.scheme!))
        }
    }

    // The drip would take minutes to complete (and then succeed), so `.timedOut`
    // shows the deadline held; the time limit only guards against a hang.
    @Test(.timeLimit(.minutes(1)))
    func aDrippingServerMeetsTheWholeExchangeDeadline() async throws {
        let (server, directory) = try TestAdServer.start()
        defer {
            server.shutdown()
            directory.remove()
        }
        // 8 bytes every 200 ms: never idle long enough for an idle timeout.
        let error = await Self.failure(
            of: Self.get("\(server.baseURL)/faults/drip?chunk=8&interval_ms=200", timeout: 1),
            with: URLSessionHTTPClient())
        #expect(error == .timedOut)
    }

    // The call ends as cancelled, not by its 30 s deadline (`.timedOut`) nor by
    // the 60 s answer; the time limit only guards against a hang.
    @Test(.timeLimit(.minutes(1)), arguments: [0, 1, 50])
    func cancellingTheCallerEndsTheCallPromptly(yieldsBeforeCancelling: Int) async throws {
        let (server, directory) = try TestAdServer.start()
        defer {
            server.shutdown()
            directory.remove()
        }
        let client = URLSessionHTTPClient()
        // Cancelled before the call starts, as it starts, or while it waits on a 60 s delay.
        let call = Task { try await client.send(Self.get("\(server.baseURL)/faults/delay/60000", timeout: 30)) }
        for _ in 0..<yieldsBeforeCancelling { await Task.yield() }
        call.cancel()
        do {
            _ = try await call.value
            Issue.record("a cancelled call answered")
        } catch let error as HTTPClientError {
            #expect(error == .cancelled)
        } catch {
            #expect(error is CancellationError, "\(error)")
        }
    }

    @Test func aLargeBodyArrivesWhole() async throws {
        let (server, directory) = try TestAdServer.start()
        defer {
            server.shutdown()
            directory.remove()
        }
        // 8 MiB in the transfer's own chunks (16 KiB each on Linux): over 500 appends.
        var bytes = [UInt8](repeating: 0, count: 8 << 20)
        for index in stride(from: 0, to: bytes.count, by: 4096) {
            bytes[index] = UInt8(truncatingIfNeeded: index >> 12)
        }
        try Data(bytes).write(to: directory.url.appendingPathComponent("media/large.bin"))
        let client = URLSessionHTTPClient(maxResponseSize: 32 << 20)
        let response = try await client.send(Self.get("\(server.baseURL)/media/large.bin", timeout: 60))
        #expect(response.statusCode == 200)
        #expect(response.body.count == bytes.count)
        #expect(response.body == Data(bytes))
    }

    @Test func cancellingIsReportedAsCancelledNotAsATimeout() async throws {
        let (server, directory) = try TestAdServer.start()
        defer {
            server.shutdown()
            directory.remove()
        }
        let client = URLSessionHTTPClient()
        let call = Task { try await client.send(Self.get("\(server.baseURL)/faults/delay/60000", timeout: 30)) }
        for _ in 0..<50 { await Task.yield() }  // under way, waiting on the server's 60 s delay
        call.cancel()
        await #expect(throws: HTTPClientError.cancelled) { try await call.value }
    }

    /// A cancel can land at any point of `send`: before the exchange is
    /// recorded, between that and the transfer's start, or during it. Each
    /// must end the call at once as cancelled, never by its deadline as a
    /// timeout (a cancel that arrived before the exchange was recorded used to
    /// be lost, and the call ended 30 s later as `.timedOut`).
    @Test(.timeLimit(.minutes(2))) func aCancelAtAnyMomentIsReportedAsCancelledAtOnce() async throws {
        let (server, directory) = try TestAdServer.start()
        defer {
            server.shutdown()
            directory.remove()
        }
        let client = URLSessionHTTPClient()
        var outcomes: [String: Int] = [:]
        for round in 0..<400 {
            let call = Task { try await client.send(Self.get("\(server.baseURL)/faults/delay/60000", timeout: 20)) }
            for _ in 0..<(round % 64) { await Task.yield() }
            call.cancel()
            do {
                _ = try await call.value
                outcomes["answered", default: 0] += 1
            } catch let error as HTTPClientError {
                outcomes["\(error)", default: 0] += 1
            } catch {
                outcomes["\(type(of: error))", default: 0] += 1
            }
        }
        #expect(outcomes == ["cancelled": 400])
    }

    @Test func responsesAreNeverCached() {
        // Ad responses are cache-busted and personal: no URLCache, so nothing
        // is looked up before a request or written to disk after it.
        #expect(URLSessionHTTPClient().session.configuration.urlCache == nil)
    }
}
