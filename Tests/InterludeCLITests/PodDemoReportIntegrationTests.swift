import Foundation
import Interlude
import InterludeServer
import InterludeServerTestSupport
import InterludeTestSupport
import InterludeVAST
import Testing

@testable import InterludeCLI

/// The demo's report against the real server of the demo's catalog (no
/// ffmpeg: nominal media): a VOD stream registered and stitched over HTTP,
/// its events verified over HTTP, the server's beacons sent to its own
/// collector, then the report built from the store and the collector as
/// the demo builds it.
@Suite("Pod-serving demo report against the server", .serialized)
struct PodDemoReportIntegrationTests {
    static func json(_ response: LoopbackResponse) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: response.data) as? [String: Any])
    }

    /// Waits (on this task, up to 20 s) until the server has no beacon of the stream left to send.
    static func beaconsSettled(_ server: AdServer, streamID: String) async throws {
        for _ in 0..<200 {
            let pending = try server.sessionStore.activity(streamID: streamID).beaconsPending.values.reduce(0, +)
            if pending == 0 { return }
            try await Task.sleep(nanoseconds: 100_000_000)
        }
        Issue.record("the server's beacons of \(streamID) were still pending after 20 s")
    }

    static func report(_ server: AdServer, streamID: String, appEvents: [AdEvent], sent: [String: Int]) throws
        -> PodStreamReport
    {
        try server.store.flush()
        return PodStreamReport(
            label: "VOD", streamID: streamID, decisions: try server.sessionStore.decisions(streamID: streamID),
            appEvents: appEvents, verificationsSent: sent,
            verified: Set(try server.sessionStore.activity(streamID: streamID).verifiedEvents.keys),
            beacons: try server.store.beacons(session: streamID), owing: .everyBreak)
    }

    @Test func aStreamVerifiedOverHTTPIsCompleteOnceItsLastVerificationAndBeaconsArrive() async throws {
        let directory = TemporaryDirectory()
        try FileManager.default.createDirectory(
            at: directory.url.appendingPathComponent("media"), withIntermediateDirectories: true)
        let server = try AdServer.start(
            AdServer.Configuration(
                host: "127.0.0.1", port: 0, dataDirectory: directory.url, catalog: PodDemo.catalog(liveSpeed: 1),
                generatesMedia: false, http: HTTPServer.Configuration(threadCount: 2)))
        defer { server.shutdown() }
        let registration = try Loopback.get(
            "/ondemand/pods/api/v1/network/interlude/stream_registration", port: server.port, method: "POST")
        #expect(registration.status == 201)
        let streamID = try #require(try Self.json(registration)["stream_id"] as? String)
        let verificationBase = try #require(try Self.json(registration)["media_verification_url"] as? String)
        // URLComponents keeps the trailing slash the event ID is appended after.
        let verificationPath = try #require(URLComponents(string: verificationBase)?.path)
        // The VTP's first rendition request has the stream's pods decided.
        let rendition = try Loopback.get("/vtp/stream_id/\(streamID)/video/test-film/360p.m3u8", port: server.port)
        #expect(rendition.status == 200, "\(rendition.text)")
        let decisions = try server.sessionStore.decisions(streamID: streamID)
        // The demo's catalog: a pre-roll, mid-rolls at 8 s and 20 s and a post-roll, each 16 s: 3 + 5 + 8 s of ads.
        #expect(decisions.count == 4)
        #expect(decisions.allSatisfy { $0.ads.count == 3 && $0.duration == 16_000 })

        // What an app playing all of it receives (the ads' IDs are the metadata's, the server's ad IDs).
        var appEvents: [AdEvent] = []
        for decision in decisions {
            appEvents.append(AdEvent(type: .adBreakStarted, adData: ["breakId": decision.breakID]))
            for podAd in decision.ads {
                let inLine = InLine()
                let ad = Interlude.Ad(
                    resolved: ResolvedAd(
                        ad: InterludeVAST.Ad(id: podAd.adID, content: .inLine(inLine)), inLine: inLine),
                    podInfo: AdPodInfo(adPosition: podAd.position, totalAds: decision.ads.count))
                appEvents += PodStreamReport.adEventTypes.map { AdEvent(type: $0, ad: ad) }
            }
            appEvents.append(AdEvent(type: .adBreakEnded, adData: ["breakId": decision.breakID]))
        }
        // Every event verified over HTTP but the last one.
        let events = decisions.flatMap(\.events)
        let last = try #require(events.last)
        var sent: [String: Int] = [:]
        for event in events.dropLast() {
            let answer = try Loopback.get(verificationPath + event.id, port: server.port)
            #expect(answer.status == 204)
            sent[event.id, default: 0] += 1
        }
        try await Self.beaconsSettled(server, streamID: streamID)
        let partial = try Self.report(server, streamID: streamID, appEvents: appEvents, sent: sent)
        #expect(!partial.isComplete)
        let lastAd = try #require(decisions.last?.ads.last?.adID)
        #expect(
            Set(partial.problems.map(\.text)) == [
                "✘ missing: verification complete of \(lastAd) sent (owed 1, got 0)",
                "✘ missing: verification complete of \(lastAd) accepted (owed 1, got 0)",
                "✘ missing: beacon complete of \(lastAd) (owed 1, got 0)",
            ])

        // The last verification, and a second try of it (404: verified once), complete the stream.
        #expect(try Loopback.get(verificationPath + last.id, port: server.port).status == 204)
        #expect(try Loopback.get(verificationPath + last.id, port: server.port).status == 404)
        sent[last.id, default: 0] += 1
        try await Self.beaconsSettled(server, streamID: streamID)
        let complete = try Self.report(server, streamID: streamID, appEvents: appEvents, sent: sent)
        #expect(complete.problems.map(\.text) == [])
        #expect(complete.isComplete)
        // 12 ads, each with impression, creativeView, start, three quartiles and complete.
        #expect(complete.owedBeacons.values.reduce(0, +) == 12 * 7)
        #expect(
            complete.text().contains("✔ 4 breaks, 12 ads: 68 app events, 60 verifications and 84 server-side beacons"))
    }
}
