import Foundation
import InterludeServerTestSupport
import InterludeTestSupport
import Testing

@testable import InterludeServer

/// The console in a real browser: headless Chromium, driven over the
/// DevTools protocol by `scripts/console-browser.py`, against an in-process
/// server. Screenshots land in `.build/console/` for a person to look at.
@Suite(.serialized) struct ConsoleBrowserTests {
    struct Inspection: Decodable {
        var kind: String?
        var ads: [String]
        var hops: [Int]
        var codes: [Int]
        var refusedStatus: Int?
    }

    struct Observed: Decodable {
        var error: String?
        var pageLoaded: Bool?
        var good: Inspection?
        var wrapper: Inspection?
        var broken: Inspection?
        var refused: Inspection?
        var sessionListed: Bool?
        var sessionBeaconsShown: Int?
        var sessionMissing: String?
        var streamID: String?
        var streamListed: Bool?
        var timelineEvents: Int?
        var verifiedBeforePlay: Int?
        var eventsVerified: Int?
        var timelineVerifiedEvents: Int?
        var timelineSeconds: Double?
        var tableVerifiedRows: Int?
        var timelineSpans: [String]?
        var preview: String?
        var beaconsShown: Int?
        var axis: String?
    }

    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// Runs the driver against `baseURL`; its one JSON line decoded. Chromium
    /// runs for seconds: it is waited for on a thread of its own, not on one
    /// of the concurrency pool's (two, on a 2-core machine).
    static func drive(_ baseURL: String, extraArguments: [String] = []) async throws -> Observed {
        let screenshots = packageRoot.appendingPathComponent(".build/console").path
        let arguments =
            [
                "python3", packageRoot.appendingPathComponent("scripts/console-browser.py").path, baseURL,
                "--screenshot-dir", screenshots,
            ] + extraArguments
        let data = try await onOwnThread {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = arguments
            let output = Pipe()
            process.standardOutput = output
            process.standardError = FileHandle.nullDevice
            try process.run()
            let data = output.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            return data
        }
        let line = String(decoding: data, as: UTF8.self).split(separator: "\n").last.map(String.init) ?? ""
        return try JSONDecoder().decode(Observed.self, from: Data(line.utf8))
    }

    @Test func theInspectorAndASessionShowInChromium() async throws {
        let (server, directory) = try ConsoleTestServer.start()
        defer {
            server.shutdown()
            directory.remove()
        }
        let observed = try await Self.drive(server.baseURL)
        #expect(observed.error == nil)
        #expect(observed.pageLoaded == true)
        // A good tag: the test catalog's pod of two.
        #expect(observed.good?.kind == "vast")
        #expect(observed.good?.ads == ["alpha", "bravo"])
        #expect(observed.good?.codes == [])
        // A wrapper chain: two wrappers, then the inline ad, hop by hop.
        #expect(observed.wrapper?.hops == [0, 1, 2])
        #expect(observed.wrapper?.ads == ["alpha"])
        // A broken tag: XML parsing error, VAST code 100.
        #expect(observed.broken?.kind == "invalid")
        #expect(observed.broken?.codes.contains(100) == true)
        // A host outside loopback: refused.
        #expect(observed.refused?.refusedStatus == 403)
        // A client-side session with three beacons, one owed beacon missing.
        #expect(observed.sessionListed == true)
        #expect(observed.sessionBeaconsShown == 3)
        #expect(observed.sessionMissing?.contains("creativeView") == true)
    }

    /// How the driver registers a VOD stream and gets its pods (as the VTP
    /// does: cue points at 0, 60 and 120 s of 120 s of content), then plays
    /// the pre-roll by verifying its events while the monitor is open.
    static let streamSteps = """
        {"register": {"path": "\(PodServingTest.vodPath)", "body": {}},
         "setup": [{"method": "POST",
                    "path": "/ondemand/pods/api/v1/network/interlude/streams/[[STREAMID]]/adpods",
                    "body": {"encoding_profiles": [{"profile_name": "360p", "type": "media",
                                                    "container_type": "mpeg2ts"}],
                             "ad_tag": "https://example.com/vmap", "cuepoints": [0, 60, 120],
                             "content_duration_seconds": 120}}],
         "play_break": 0}
        """

    @Test func theMonitorShowsAStreamsBreakAsItPlays() async throws {
        let (server, directory) = try ConsoleTestServer.start()
        defer {
            server.shutdown()
            directory.remove()
        }
        let steps = directory.url.appendingPathComponent("stream-steps.json")
        try Data(Self.streamSteps.utf8).write(to: steps)
        let observed = try await Self.drive(
            server.baseURL,
            extraArguments: [
                "--stream-steps", steps.path, "--timeout", "10", "--streams-only",
            ])
        #expect(observed.error == nil)
        let id = try #require(observed.streamID)
        #expect(observed.streamListed == true)
        // Three pods' events drawn, none verified before the pre-roll plays.
        #expect((observed.timelineEvents ?? 0) > 0)
        #expect(observed.verifiedBeforePlay == 0)
        let played = try #require(observed.eventsVerified)
        #expect(played > 0)
        // Within the driver's 10 s: every event of the pre-roll shown verified, on the timeline and in the table.
        #expect(observed.timelineVerifiedEvents == played)
        #expect(observed.tableVerifiedRows == played)
        #expect(observed.timelineSpans?.contains("content") == true)
        #expect(observed.timelineSpans?.contains("break") == true)
        #expect(observed.timelineSpans?.contains("ad") == true)
        let content = try #require(TestAdServer.catalog.podServing.vodContent.first)
        #expect(observed.preview == "\(server.baseURL)/vtp/stream_id/\(id)/video/\(content.contentID).m3u8")
        // The pre-roll's server-side beacons reached the collector and are drawn.
        #expect((observed.beaconsShown ?? 0) > 0)
    }

    /// A live stream whose player (no VTP) asks for pod 3 of 30 s, then plays it.
    static let liveSteps = """
        {"register": {"path": "\(PodServingTest.livePath)", "body": {}},
         "setup": [{"method": "GET",
                    "path": "/linear/pods/v1/hls/network/interlude/custom_asset/interlude-live/pod/3.m3u8?stream_id=[[STREAMID]]&pd=30000"}],
         "play_break": 0}
        """

    @Test func theMonitorShowsALiveStreamsPodOnTheWallClock() async throws {
        let (server, directory) = try ConsoleTestServer.start()
        defer {
            server.shutdown()
            directory.remove()
        }
        let steps = directory.url.appendingPathComponent("live-steps.json")
        try Data(Self.liveSteps.utf8).write(to: steps)
        let observed = try await Self.drive(
            server.baseURL,
            extraArguments: [
                "--stream-steps", steps.path, "--timeout", "10", "--streams-only", "--screenshot-name",
                "console-monitor-live.png",
            ])
        #expect(observed.error == nil)
        let id = try #require(observed.streamID)
        #expect(observed.streamListed == true)
        #expect(observed.verifiedBeforePlay == 0)
        let played = try #require(observed.eventsVerified)
        #expect(played > 0)
        #expect(observed.timelineVerifiedEvents == played)
        #expect(observed.timelineSpans?.contains("break") == true)
        #expect(observed.timelineSpans?.contains("ad") == true)
        #expect(observed.axis == "wall")
        #expect(observed.preview == "\(server.baseURL)/vtp/stream_id/\(id)/live/interlude-live.m3u8")
    }
}
