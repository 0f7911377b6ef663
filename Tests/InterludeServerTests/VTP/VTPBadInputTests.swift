import Foundation
import InterludeHLS
import InterludeTestSupport
import Testing

@testable import InterludeServer

/// What the VTP answers to requests it cannot serve and origins that fail:
/// a JSON error with the status the README lists, or its documented
/// fallback; the server stays up.
@Suite struct VTPBadInputTests {
    private typealias Test = VTPTest

    @Test func unknownStreamsContentAndProfilesAre404() async throws {
        let clock = PodTestClock()
        let (server, directory) = try Test.start(clock: clock)
        defer {
            server.shutdown()
            directory.remove()
        }
        let port = server.port
        let live = try await Test.registerLive(port: port, asset: "test-live")
        let vod = try await Test.registerVOD(port: port)
        let unknown = "00000000-0000-4000-8000-000000000000"
        try await Test.expectError(
            "/vtp/stream_id/\(unknown)/live/test-live.m3u8", port: port, status: 404, containing: "no stream")
        try await Test.expectError(
            "/vtp/stream_id/\(unknown)/video/test-film/360p.m3u8", port: port, status: 404, containing: "no stream")
        try await Test.expectError(
            "/vtp/stream_id/not-a-uuid/live/test-live/360p.m3u8", port: port, status: 404, containing: "no stream")
        try await Test.expectError(
            "/vtp/stream_id/\(live)/live/nowhere.m3u8", port: port, status: 404, containing: "no live channel")
        try await Test.expectError(
            "/vtp/stream_id/\(vod)/video/nothing/360p.m3u8", port: port, status: 404, containing: "no VOD content")
        try await Test.expectError(
            "/vtp/stream_id/\(live)/live/test-live/4k.m3u8", port: port, status: 404, containing: "no profile")
        try await Test.expectError(
            "/vtp/stream_id/\(vod)/video/test-film/4k.m3u8", port: port, status: 404, containing: "no profile")
        try await Test.expectError(
            "/vtp/stream_id/\(live)/live/test-live/360p.ts", port: port, status: 404, containing: ".m3u8")
        try await Test.expectError(
            "/vtp/stream_id/..%2F..%2Fetc/live/test-live/360p.m3u8", port: port, status: 404, containing: "no stream")
        try await Test.expectError(
            "/vtp/stream_id/\(live)/live/..%2Ftest-live/360p.m3u8", port: port, status: 404, containing: "channel")
        // Options the VTP does not know.
        try await Test.expectError(
            "/vtp/stream_id/\(live)/live/test-live/360p.m3u8?mode=ssai", port: port, status: 400, containing: "mode")
        try await Test.expectError(
            "/vtp/stream_id/\(vod)/video/test-film.m3u8?markers=keep", port: port, status: 400, containing: "markers")
        // Expired streams.
        clock.advance(by: 9 * 3600)
        try await Test.expectError(
            "/vtp/stream_id/\(live)/live/test-live/360p.m3u8", port: port, status: 410, containing: "expired")
        try await Test.expectError(
            "/vtp/stream_id/\(vod)/video/test-film.m3u8", port: port, status: 410, containing: "expired")
    }

    @Test func aStreamOfTheWrongKindOrNetworkIsRefused() async throws {
        let clock = PodTestClock()
        let (server, directory) = try Test.start(clock: clock)
        defer {
            server.shutdown()
            directory.remove()
        }
        let port = server.port
        let live = try await Test.registerLive(port: port, asset: "test-live")
        let vod = try await Test.registerVOD(port: port)
        let otherLive = try await Test.registerLive(port: port, network: "other", asset: "other-live")
        try await Test.expectError(
            "/vtp/stream_id/\(vod)/live/test-live/360p.m3u8", port: port, status: 400, containing: "VOD stream")
        try await Test.expectError(
            "/vtp/stream_id/\(vod)/live/test-live.m3u8", port: port, status: 400, containing: "VOD stream")
        try await Test.expectError(
            "/vtp/stream_id/\(live)/video/test-film/360p.m3u8", port: port, status: 400, containing: "live stream")
        // The stream's asset plays another channel, or the content is another network's.
        try await Test.expectError(
            "/vtp/stream_id/\(live)/live/test-live-cue/360p.m3u8", port: port, status: 403, containing: "plays channel")
        try await Test.expectError(
            "/vtp/stream_id/\(otherLive)/live/test-live/360p.m3u8", port: port, status: 403, containing: "plays channel"
        )
        try await Test.expectError(
            "/vtp/stream_id/\(vod)/video/other-film/360p.m3u8", port: port, status: 403, containing: "network interlude"
        )
        // A VOD stream whose pods were planned for other content (120 s, through adpods) is refused.
        let planned = try await Test.registerVOD(port: port)
        let body =
            #"{"encoding_profiles":[{"profile_name":"360p"}],"ad_tag":"https://example.com/vmap","content_duration_seconds":120}"#
        let pods = try PodServingTest.post(
            "/ondemand/pods/api/v1/network/interlude/streams/\(planned)/adpods", port: port, body: body,
            contentType: "application/json")
        #expect(pods.status == 200, "\(pods.text)")
        try await Test.expectError(
            "/vtp/stream_id/\(planned)/video/test-film/360p.m3u8", port: port, status: 409,
            containing: "planned for content of 120")
        // Nothing was stored for the refused requests.
        #expect(try server.sessionStore.liveStitchStates(streamID: live).isEmpty)
        #expect(try server.sessionStore.vodPlan(streamID: vod) == nil)
    }

    @Test func failingOriginsAreClearErrorsAndTheServerStaysUp() async throws {
        let clock = PodTestClock()
        // The server's own fault routes stand in for a broken origin; its catalog points there.
        let (faults, faultDirectory) = try PodServingTest.start()
        defer {
            faults.shutdown()
            faultDirectory.remove()
        }
        let base = "http://127.0.0.1:\(faults.port)"
        var catalog = Test.catalog()
        let origins: [(String, String)] = [
            ("slow", "\(base)/faults/delay/3000"), ("gone", "\(base)/faults/status/404"),
            ("garbage", "\(base)/faults/malformed"), ("reset", "\(base)/faults/reset"),
            ("live-as-vod", "\(base)/origin/live/interlude-live.m3u8"),
            ("media-for-multivariant", "\(base)/origin/vod/interlude-film/360p.m3u8"),
        ]
        for (id, url) in origins {
            catalog.content.channels.append(CatalogChannel(id: "bad-\(id)", title: "Bad", origin: url))
            catalog.content.titles.append(CatalogTitle(id: "bad-\(id)-vod", title: "Bad", origin: url))
        }
        catalog.podServing = {
            var pods = PodServingCatalog.defaults(for: catalog.content)
            pods.podRules = catalog.podServing.podRules
            return pods
        }()
        let (server, directory) = try Test.start(clock: clock, catalog: catalog, originTimeout: 0.5)
        defer {
            server.shutdown()
            directory.remove()
        }
        let port = server.port
        let expected: [(String, Int, String)] = [
            ("slow", 504, "did not answer"), ("gone", 502, "HTTP 404"), ("garbage", 502, "not a playlist"),
            ("reset", 502, "unreachable"), ("media-for-multivariant", 502, "media playlist where a multivariant"),
        ]
        for (id, status, text) in expected {
            let stream = try await Test.registerLive(port: port, asset: "bad-\(id)")
            try await Test.expectError(
                "/vtp/stream_id/\(stream)/live/bad-\(id).m3u8", port: port, status: status, containing: text)
            try await Test.expectError(
                "/vtp/stream_id/\(stream)/live/bad-\(id)/360p.m3u8", port: port, status: status, containing: text)
            let vod = try await Test.registerVOD(port: port)
            try await Test.expectError(
                "/vtp/stream_id/\(vod)/video/bad-\(id)-vod/360p.m3u8", port: port, status: status, containing: text)
        }
        // A live channel where VOD content was expected.
        let vod = try await Test.registerVOD(port: port)
        try await Test.expectError(
            "/vtp/stream_id/\(vod)/video/bad-live-as-vod-vod/360p.m3u8", port: port, status: 502,
            containing: "no ENDLIST")
        #expect(try await Test.get("/health", port: port).status == 200)
    }

    @Test func anOriginWhoseVariantIsAMultivariantIs502() async throws {
        let clock = PodTestClock()
        let (server, directory, origin) = try VTPLiveTests.start(clock: clock)
        defer {
            server.shutdown()
            origin.shutdown()
            directory.remove()
        }
        let stream = try await Test.registerLive(port: server.port, asset: "ext-nested")
        try await Test.expectError(
            "/vtp/stream_id/\(stream)/live/ext-nested/360p.m3u8", port: server.port, status: 502,
            containing: "multivariant playlist where a media playlist was expected")
    }

    @Test func aDeltaUpdateFromTheOriginIs502() async throws {
        let clock = PodTestClock()
        let (server, directory, origin) = try VTPLiveTests.start(clock: clock)
        defer {
            server.shutdown()
            origin.shutdown()
            directory.remove()
        }
        let stream = try await Test.registerLive(port: server.port, asset: "ext-delta")
        try await Test.expectError(
            "/vtp/stream_id/\(stream)/live/ext-delta/360p.m3u8", port: server.port, status: 502,
            containing: "EXT-X-SKIP")
    }

    @Test func aMarkerThatNeverClosesEndsAtTheLongestPod() async throws {
        let clock = PodTestClock()
        let now = Int((clock.now.timeIntervalSince(Test.epoch) / 4).rounded(.down))
        // 20 s pods at most; the break opens two segments after the first reload's edge.
        let (server, directory, origin) = try VTPLiveTests.start(
            clock: clock, maxPodDuration: 20_000, openBreakStart: now + 1)
        defer {
            server.shutdown()
            origin.shutdown()
            directory.remove()
        }
        let id = try await Test.registerLive(port: server.port, asset: "ext-neverCloses")
        var replay = LiveReplay(port: server.port, streamID: id, channel: "ext-neverCloses")
        for _ in 0..<20 {
            try await replay.reload()
            clock.advance(by: 4)
        }
        // 20 s of pod, then the content again for good.
        #expect(replay.completeBreaks("360p").map { ($0 * 1000).rounded() } == [20_000])
        #expect(replay.stream("360p").suffix(6).allSatisfy { !LiveReplay.isPod($0) })
    }

    @Test func overlappingBreaksEachGetTheirPod() async throws {
        let clock = PodTestClock()
        let (server, directory, origin) = try VTPLiveTests.start(clock: clock)
        defer {
            server.shutdown()
            origin.shutdown()
            directory.remove()
        }
        let id = try await Test.registerLive(port: server.port, asset: "ext-overlapping")
        var replay = LiveReplay(port: server.port, streamID: id, channel: "ext-overlapping")
        for _ in 0..<24 {
            try await replay.reload()
            clock.advance(by: 4)
        }
        // The first break ends where the second starts (8 s), the second lasts its 8 s: 16 s of pods back to back.
        let breaks = replay.completeBreaks("360p")
        #expect(!breaks.isEmpty)
        #expect(breaks.allSatisfy { abs($0 - 16) < 0.0005 }, "\(breaks)")
        let segments = replay.stream("360p").filter(LiveReplay.isPod)
        #expect(
            Set(
                segments.compactMap {
                    $0.uri.components(separatedBy: "/ad_break_id/").last?.split(separator: "/").first
                }
            ).count >= 2)
    }

    @Test func aBreakNoAdFitsIsFilledWithSlateAndAVODPodWithoutAdsLeavesTheContent() async throws {
        let clock = PodTestClock()
        var catalog = Test.catalog()
        // 4 s breaks, and only the 8 s creative may fill pods: no ad fits (live), nor in 2 s VOD pods.
        catalog.content.channels.append(
            CatalogChannel(
                id: "short-breaks", title: "Test Live", sourceDuration: 24, windowSegments: 5, breakInterval: 24,
                breakDuration: 4, signaling: .cue))
        catalog.podServing.liveStreams.append(PodLiveStream(customAssetKey: "short-breaks", channel: "short-breaks"))
        catalog.podServing.podRules.creatives = ["test-ad-8s"]
        catalog.podServing.podRules.vodPodDuration = 2
        let (server, directory) = try Test.start(clock: clock, catalog: catalog)
        defer {
            server.shutdown()
            directory.remove()
        }
        let id = try await Test.registerLive(port: server.port, asset: "short-breaks")
        var replay = LiveReplay(port: server.port, streamID: id, channel: "short-breaks")
        for _ in 0..<20 {
            try await replay.reload()
            clock.advance(by: 4)
        }
        #expect(replay.completeBreaks("360p").allSatisfy { abs($0 - 4) < 0.0005 })
        #expect(!replay.completeBreaks("360p").isEmpty)
        let metadata = try await Test.json("/pods/v1/streams/\(id)/metadata", port: server.port)
        let ads = (metadata["ads"] as? [String: [String: Any]] ?? [:]).values
        #expect(!ads.isEmpty && ads.allSatisfy { $0["slate"] as? Bool == true })
        // VOD: pods with no ad are not stitched; the content plays as it is.
        let vod = try await Test.registerVOD(port: server.port)
        let (playlist, _) = try await Test.media("/vtp/stream_id/\(vod)/video/test-film/360p.m3u8", port: server.port)
        #expect(playlist.segments.count == 8)
        #expect(playlist.segments.allSatisfy { $0.uri.hasPrefix("/origin/vod/test-film/360p/") })
    }

    @Test func slateURIsOutsideTheLibraryAre404() async throws {
        let clock = PodTestClock()
        let (server, directory) = try Test.start(clock: clock)
        defer {
            server.shutdown()
            directory.remove()
        }
        let port = server.port
        try await Test.expectError("/vtp/slate/4k/4000/0.ts", port: port, status: 404, containing: "no profile")
        try await Test.expectError("/vtp/slate/360p/0/0.ts", port: port, status: 404, containing: "slate length")
        try await Test.expectError("/vtp/slate/360p/99999999/0.ts", port: port, status: 404, containing: "slate length")
        try await Test.expectError("/vtp/slate/360p/4000/9.ts", port: port, status: 404, containing: "segments 0–3")
        try await Test.expectError(
            "/vtp/slate/360p/4000/..%2F..%2Fstreams.sqlite", port: port, status: 404, containing: "slate segment")
        // Nominal media (not made): the URI is valid but there is no file.
        try await Test.expectError(
            "/vtp/slate/360p/4000/0.ts", port: port, status: 503, containing: "has not been made")
    }
}
