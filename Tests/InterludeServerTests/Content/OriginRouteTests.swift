import Foundation
import InterludeHLS
import InterludeServerTestSupport
import InterludeTestSupport
import Testing

@testable import InterludeServer

/// `/origin/…` over real HTTP, on a stopped clock, without ffmpeg.
@Suite struct OriginRouteTests {
    static let now = CatalogChannel.defaultEpoch.addingTimeInterval(3_600 + 17.5)

    static func start(_ directory: TemporaryDirectory, clock: ServerClock = .fixed(now)) throws -> AdServer {
        try AdServer.start(
            .init(
                host: "127.0.0.1", port: 0, dataDirectory: directory.url, catalog: .podServingTest,
                generatesMedia: false,
                http: HTTPServer.Configuration(threadCount: 2), clock: clock))
    }

    @Test func liveMultivariantAndMediaPlaylistsParseAndMatchTheLibrary() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let server = try Self.start(directory)
        defer { server.shutdown() }
        let top = try Loopback.get("/origin/live/test-live.m3u8", port: server.port)
        #expect(top.status == 200)
        #expect(top.headers["Content-Type"] == "application/vnd.apple.mpegurl")
        guard case .multivariant(let multivariant) = try HLSParser().parse(top.body) else {
            Issue.record("not a multivariant playlist")
            return
        }
        #expect(multivariant.variants.map(\.uri) == ["test-live/180p.m3u8", "test-live/360p.m3u8"])
        let media = try Loopback.get("/origin/live/test-live/360p.m3u8", port: server.port)
        #expect(media.status == 200)
        let expected = try #require(server.media.liveChannel("test-live")?.mediaPlaylist(profile: "360p", at: Self.now))
        #expect(media.body == HLSWriter.bytes(expected))
        guard case .media(let playlist) = try HLSParser().parse(media.body) else {
            Issue.record("not a media playlist")
            return
        }
        // 3617.5 s after the epoch: 904 segments complete, the window is the last 5.
        #expect(playlist.mediaSequence == 899)
        #expect(playlist.segments.count == 5)
        #expect(playlist.segments.first?.uri == "360p/\(SegmentNaming.name(899 % 6))")
    }

    @Test func twoServersOnOneCatalogAndClockAnswerTheSameBytes() throws {
        let first = TemporaryDirectory()
        let second = TemporaryDirectory()
        defer {
            first.remove()
            second.remove()
        }
        let one = try Self.start(first)
        let two = try Self.start(second)
        defer {
            one.shutdown()
            two.shutdown()
        }
        for path in [
            "/origin/live/test-live/180p.m3u8", "/origin/live/test-live-cue/360p.m3u8",
            "/origin/vod/test-film/360p.m3u8",
            "/origin/vod/test-film.m3u8",
        ] {
            let a = try Loopback.get(path, port: one.port)
            let b = try Loopback.get(path, port: two.port)
            #expect(a.status == 200)
            #expect(a.body == b.body, "\(path) differs between processes")
        }
    }

    @Test func vodPlaylistsEndAndListEverySegment() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let server = try Self.start(directory)
        defer { server.shutdown() }
        let media = try Loopback.get("/origin/vod/test-film/180p.m3u8", port: server.port)
        guard case .media(let playlist) = try HLSParser().parse(media.body) else {
            Issue.record("not a media playlist")
            return
        }
        #expect(playlist.hasEndList)
        #expect(playlist.playlistType == "VOD")
        #expect(playlist.totalDuration == 30)
        #expect(playlist.segments.count == 8)
    }

    @Test func unknownIDsProfilesAndSegmentsAre404JSON() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let server = try Self.start(directory)
        defer { server.shutdown() }
        for path in [
            "/origin/live/nope.m3u8", "/origin/live/nope/360p.m3u8", "/origin/live/test-live/4k.m3u8",
            "/origin/vod/nope.m3u8", "/origin/vod/test-film/4k.m3u8", "/origin/vod/test-film/360p/99999.ts",
            "/origin/vod/test-film/360p/abc.ts", "/origin/live/test-live.json",
            // Not made (no ffmpeg in this server): a clear 404, not a crash.
            "/origin/vod/test-film/360p/00000.ts", "/origin/live/test-live/360p/00001.ts",
        ] {
            let response = try Loopback.get(path, port: server.port)
            #expect(response.status == 404, "\(path) answered \(response.status)")
            #expect(response.headers["Content-Type"] == "application/json")
            #expect(response.text.contains("\"error\""))
        }
    }

    @Test func pathTraversalNeverLeavesTheLibrary() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let server = try Self.start(directory)
        defer { server.shutdown() }
        for path in [
            "/origin/vod/test-film/360p/..%2F..%2F..%2Fbeacons.sqlite", "/origin/vod/..%2Fbeacons.sqlite",
            "/origin/vod/test-film/..%2F..%2Fmedia/00000.ts", "/origin/live/test-live/360p/%2e%2e%2f00000.ts",
            "/origin/vod/test-film/360p/00000.ts%00", "/origin/vod/%2e%2e/360p.m3u8",
        ] {
            let response = try Loopback.get(path, port: server.port)
            #expect([400, 404].contains(response.status), "\(path) answered \(response.status)")
            #expect(!response.text.contains("SQLite"))
        }
    }

    @Test func aChannelBeforeItsFirstSegmentAnswers503WithRetryAfter() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let server = try Self.start(directory, clock: .fixed(CatalogChannel.defaultEpoch.addingTimeInterval(-10)))
        defer { server.shutdown() }
        let response = try Loopback.get("/origin/live/test-live/360p.m3u8", port: server.port)
        #expect(response.status == 503)
        #expect(response.headers["Retry-After"] == "4")
    }

    @Test func theLiveWindowFollowsTheInjectedClock() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let manual = ManualClock(now: Self.now.timeIntervalSince1970)
        let server = try Self.start(directory, clock: ServerClock { Date(timeIntervalSince1970: manual.now) })
        defer { server.shutdown() }
        var sequences: [UInt64] = []
        for _ in 0..<4 {
            let response = try Loopback.get("/origin/live/test-live/180p.m3u8", port: server.port)
            guard case .media(let playlist) = try HLSParser().parse(response.body) else { return }
            sequences.append(playlist.mediaSequence)
            manual.advance(by: 4)
        }
        #expect(sequences == [899, 900, 901, 902])
    }
}
