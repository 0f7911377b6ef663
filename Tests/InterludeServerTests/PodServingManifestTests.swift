import Foundation
import InterludeHLS
import InterludeServerTestSupport
import InterludeTestSupport
import Testing

@testable import InterludeServer

/// Live pod manifests over real HTTP (the library's nominal media: no
/// ffmpeg): the multivariant, each profile's media playlist re-parsed with
/// InterludeHLS and summing to `pd`, and what they refuse.
@Suite struct PodServingManifestTests {
    private typealias Test = PodServingTest

    static let podPath = "/linear/pods/v1/hls/network/interlude/custom_asset/interlude-live"

    /// GETs `path` (absolute or relative to `base`) and parses it.
    private func playlist(_ uri: String, relativeTo base: String, port: UInt16) throws -> (HLSPlaylist, String) {
        let resolved = try #require(URL(string: uri, relativeTo: URL(string: "http://127.0.0.1:\(port)\(base)")))
        let target = TestAdServer.target(of: resolved.absoluteString)
        let response = try Loopback.get(target, port: port)
        #expect(response.status == 200, "\(target): \(response.text)")
        #expect(response.headers["Content-Type"] == "application/vnd.apple.mpegurl")
        return (try HLSParser().parse(response.body), target)
    }

    @Test(arguments: [30_000, 45_500, 61_234, 120_000, 1_000])
    func everyProfilePlaylistReparsesAndSumsToPD(pd: Int) throws {
        let (server, directory) = try Test.start()
        defer {
            server.shutdown()
            directory.remove()
        }
        let id = try Test.register(port: server.port)
        let path = "\(Self.podPath)/pod/3.m3u8?stream_id=\(id)&pd=\(pd)"
        let (top, _) = try playlist(path, relativeTo: "/", port: server.port)
        guard case .multivariant(let multivariant) = top else {
            Issue.record("the pod manifest is not a multivariant playlist")
            return
        }
        #expect(multivariant.variants.map { $0.resolution?.height } == [360, 540, 720])
        #expect(multivariant.variants.allSatisfy { $0.codecs == "avc1.4d401f,mp4a.40.2" && $0.frameRate == 30 })
        #expect(multivariant.variants.allSatisfy { ($0.bandwidth ?? 0) > 0 && ($0.averageBandwidth ?? 0) > 0 })
        let decision = try #require(
            try server.sessionStore.decisions(streamID: id).first { $0.breakID == "pod_3" })
        for variant in multivariant.variants {
            let (media, target) = try playlist(variant.uri, relativeTo: path, port: server.port)
            guard case .media(let playlist) = media else {
                Issue.record("\(variant.uri) is not a media playlist")
                continue
            }
            // Stated to the millisecond, the segments add up to pd exactly.
            let stated = playlist.segments.map { Int(($0.duration.value * 1000).rounded()) }.reduce(0, +)
            #expect(stated == pd, "\(target)")
            #expect(playlist.segments.allSatisfy { $0.duration.text.split(separator: ".").last?.count == 3 })
            #expect(playlist.hasEndList)
            #expect(playlist.playlistType == "VOD")
            let longest = playlist.segments.map { Int($0.duration.value.rounded()) }.max() ?? 0
            #expect(playlist.targetDuration == max(1, longest))
            // A DISCONTINUITY at each ad after the first, and before the slate.
            let boundaries =
                max(0, decision.ads.count - 1) + (decision.slateDuration > 0 && !decision.ads.isEmpty ? 1 : 0)
            #expect(playlist.segments.filter(\.isDiscontinuity).count >= boundaries)
            #expect(playlist.segments.first?.isDiscontinuity == false)
            #expect(playlist.segments.allSatisfy { $0.uri.hasPrefix("/linear/pods/v1/seg/network/interlude/") })
        }
    }

    @Test func theSamePodIsTheSameForItsViewerAndDifferentBreaksDifferAsTheyMay() throws {
        let (server, directory) = try Test.start()
        defer {
            server.shutdown()
            directory.remove()
        }
        let id = try Test.register(port: server.port)
        let first = try Loopback.get(
            "\(Self.podPath)/pod/3/profile/360p.m3u8?stream_id=\(id)&pd=45000", port: server.port)
        let again = try Loopback.get(
            "\(Self.podPath)/pod/3/profile/360p.m3u8?stream_id=\(id)&pd=45000", port: server.port)
        #expect(first.status == 200)
        #expect(first.body == again.body)
        let named = try Loopback.get(
            "\(Self.podPath)/ad_break_id/halftime-1.m3u8?stream_id=\(id)&pd=20000", port: server.port)
        #expect(named.status == 200)
        #expect(named.text.contains("halftime-1/profile/360p.m3u8?stream_id=\(id)&pd=20000"))
        let breaks = try server.sessionStore.decisions(streamID: id).map(\.breakID)
        #expect(breaks == ["pod_3", "halftime-1"])
        // Another pd for a decided break is refused; the pod stays as decided.
        let conflict = try Loopback.get("\(Self.podPath)/pod/3.m3u8?stream_id=\(id)&pd=30000", port: server.port)
        #expect(conflict.status == 409)
    }

    @Test func metadataResolvesEveryEventOfEveryDecidedBreak() throws {
        let (server, directory) = try Test.start()
        defer {
            server.shutdown()
            directory.remove()
        }
        let id = try Test.register(port: server.port)
        for (pod, pd) in [(1, 16_000), (2, 30_000), (7, 45_000)] {
            #expect(
                try Loopback.get("\(Self.podPath)/pod/\(pod).m3u8?stream_id=\(id)&pd=\(pd)", port: server.port).status
                    == 200)
        }
        let metadata = try Test.json(try Loopback.get("/pods/v1/streams/\(id)/metadata", port: server.port))
        let tags = try #require(metadata["tags"] as? [String: [String: String]])
        let ads = try #require(metadata["ads"] as? [String: [String: Any]])
        let breaks = try #require(metadata["ad_breaks"] as? [String: [String: Any]])
        #expect(Set(breaks.keys) == ["pod_1", "pod_2", "pod_7"])
        #expect(breaks["pod_2"]?["duration"] as? Double == 30)
        for decision in try server.sessionStore.decisions(streamID: id) {
            for ad in decision.ads {
                #expect(ads[ad.adID]?["ad_break_id"] as? String == decision.breakID)
                #expect(ads[ad.adID]?["slate"] as? Bool == false)
                for event in ad.events {
                    let matches = tags.filter { event.id.hasPrefix($0.key) }
                    #expect(matches.count == 1, "\(event.id)")
                    #expect(
                        matches.first?.value == [
                            "ad": ad.adID, "ad_break_id": decision.breakID, "type": event.type.rawValue,
                        ])
                }
            }
            if decision.slateDuration > 0 {
                #expect(ads["\(decision.breakID)_slate"]?["slate"] as? Bool == true)
            }
        }
        // Verification works for live events as for VOD ones.
        let event = try #require(try server.sessionStore.decisions(streamID: id).first?.events.first)
        #expect(try Test.verify(id, event.id, port: server.port) == 204)
    }

    @Test func badPodRequestsAre4xxJSONAndDecideNothing() throws {
        let clock = PodTestClock()
        let (server, directory) = try Test.start(clock: clock.serverClock)
        defer {
            server.shutdown()
            directory.remove()
        }
        let id = try Test.register(port: server.port)
        let vod = try Test.register(Test.vodPath, port: server.port)
        let cases: [(String, Int)] = [
            ("\(Self.podPath)/pod/3.m3u8?stream_id=\(id)", 400),
            ("\(Self.podPath)/pod/3.m3u8?stream_id=\(id)&pd=999", 400),
            ("\(Self.podPath)/pod/3.m3u8?stream_id=\(id)&pd=300001", 400),
            ("\(Self.podPath)/pod/3.m3u8?stream_id=\(id)&pd=abc", 400),
            ("\(Self.podPath)/pod/3.m3u8?stream_id=\(id)&pd=-5000", 400),
            ("\(Self.podPath)/pod/-1.m3u8?stream_id=\(id)&pd=30000", 400),
            ("\(Self.podPath)/pod/9999999999.m3u8?stream_id=\(id)&pd=30000", 400),
            ("\(Self.podPath)/pod/x.m3u8?stream_id=\(id)&pd=30000", 400),
            ("\(Self.podPath)/ad_break_id/Upper.m3u8?stream_id=\(id)&pd=30000", 400),
            ("\(Self.podPath)/ad_break_id/%2E%2E.m3u8?stream_id=\(id)&pd=30000", 400),
            ("\(Self.podPath)/episode/3.m3u8?stream_id=\(id)&pd=30000", 400),
            ("\(Self.podPath)/pod/3.mpd?stream_id=\(id)&pd=30000", 404),
            ("\(Self.podPath)/pod/3.m3u8?pd=30000", 400),
            ("\(Self.podPath)/pod/3.m3u8?stream_id=../../etc&pd=30000", 404),
            ("\(Self.podPath)/pod/3.m3u8?stream_id=11111111-2222-4333-8444-555555555555&pd=30000", 404),
            ("\(Self.podPath)/pod/3.m3u8?stream_id=\(vod)&pd=30000", 404),
            ("/linear/pods/v1/hls/network/interlude/custom_asset/other/pod/3.m3u8?stream_id=\(id)&pd=30000", 404),
            ("/linear/pods/v1/hls/network/nobody/custom_asset/interlude-live/pod/3.m3u8?stream_id=\(id)&pd=30000", 404),
            ("\(Self.podPath)/pod/3/profile/%2E%2E%2F1080p.m3u8?stream_id=\(id)&pd=30000", 404),
        ]
        for (path, status) in cases {
            let response = try Loopback.get(path, port: server.port)
            #expect(response.status == status, "\(path): \(response.text)")
            #expect(response.headers["Content-Type"] == "application/json", "\(path)")
        }
        #expect(try server.sessionStore.decisions(streamID: id).isEmpty)
        // Segments of a decided pod: out of range, unknown profile, other extension.
        #expect(
            try Loopback.get("\(Self.podPath)/pod/3.m3u8?stream_id=\(id)&pd=30000", port: server.port).status == 200)
        let segments = "/linear/pods/v1/seg/network/interlude/custom_asset/interlude-live/pod/3/profile"
        for (path, status) in [
            ("\(segments)/360p/999.ts?stream_id=\(id)&pd=30000", 404),
            ("\(segments)/360p/-1.ts?stream_id=\(id)&pd=30000", 404),
            ("\(segments)/360p/0.aac?stream_id=\(id)&pd=30000", 404),
            ("\(segments)/4k/0.ts?stream_id=\(id)&pd=30000", 404),
            ("\(segments)/..%2F..%2Fbeacons.sqlite/0.ts?stream_id=\(id)&pd=30000", 404),
            ("\(segments)/360p/0.ts?stream_id=\(id)&pd=40000", 409),
        ] {
            #expect(try Loopback.get(path, port: server.port).status == status, "\(path)")
        }
        clock.advance(by: 9 * 3600)
        #expect(
            try Loopback.get("\(Self.podPath)/pod/4.m3u8?stream_id=\(id)&pd=30000", port: server.port).status == 410)
        #expect(try server.sessionStore.decisions(streamID: id).map(\.breakID) == ["pod_3"])
    }

    @Test func aNetworkThatRequiresTokensWantsOneOnThePodManifest() throws {
        let clock = PodTestClock()
        var catalog = Test.catalog
        catalog.podServing.networks[1].apiKey = nil
        let (server, directory) = try Test.start(catalog: catalog, clock: clock.serverClock)
        defer {
            server.shutdown()
            directory.remove()
        }
        let key = try #require(Hex.decode(Test.authKeyHex))
        let id = try Test.registerSigned(network: "secured", asset: "interlude-live", port: server.port)
        let path = "/linear/pods/v1/hls/network/secured/custom_asset/interlude-live/pod/5.m3u8?stream_id=\(id)&pd=30000"
        #expect(try Loopback.get(path, port: server.port).status == 401)
        let wrongPD = PodAuthToken.sign(
            [
                "custom_asset_key": "interlude-live", "network_code": "secured", "exp": "1800000600",
                "pod_id": "5", "pd": "45000",
            ],
            key: key)
        #expect(try Loopback.get(path + "&auth-token=\(wrongPD)", port: server.port).status == 401)
        // Google signs a pod ID as pod_id, an ad break ID as ad_break_id.
        let underTheOtherName = PodAuthToken.sign(
            [
                "custom_asset_key": "interlude-live", "network_code": "secured", "exp": "1800000600",
                "ad_break_id": "5", "pd": "30000",
            ],
            key: key)
        #expect(try Loopback.get(path + "&auth-token=\(underTheOtherName)", port: server.port).status == 401)
        let token = PodAuthToken.sign(
            [
                "custom_asset_key": "interlude-live", "network_code": "secured", "exp": "1800000600",
                "pod_id": "5", "pd": "30000",
            ],
            key: key)
        let multivariant = try Loopback.get(path + "&auth-token=\(token)", port: server.port)
        #expect(multivariant.status == 200)
        // The variants carry the token on, and each profile playlist and segment is checked too.
        // `=` is escaped in a query value; `~` is unreserved (RFC 3986).
        let encoded = token.replacingOccurrences(of: "=", with: "%3D")
        #expect(multivariant.text.contains("&auth-token=\(encoded)"))
        let base = "/linear/pods/v1/hls/network/secured/custom_asset/interlude-live"
        let segmentBase = "/linear/pods/v1/seg/network/secured/custom_asset/interlude-live"
        let query = "?stream_id=\(id)&pd=30000"
        #expect(try Loopback.get("\(base)/pod/5/profile/360p.m3u8\(query)", port: server.port).status == 401)
        #expect(try Loopback.get("\(segmentBase)/pod/5/profile/360p/0.ts\(query)", port: server.port).status == 401)
        // The server has no media: past the token, the answer is 503 (and 401 comes first).
        #expect(
            try Loopback.get("\(base)/pod/5/profile/360p.m3u8\(query)&auth-token=\(encoded)", port: server.port)
                .status != 401)
        // A profile playlist or segment without its token decides nothing.
        #expect(try Loopback.get("\(base)/pod/6/profile/360p.m3u8\(query)", port: server.port).status == 401)
        #expect(try Loopback.get("\(segmentBase)/pod/6/profile/360p/0.ts\(query)", port: server.port).status == 401)
        #expect(try server.sessionStore.decisions(streamID: id).map(\.breakID) == ["pod_5"])
        let breakPath = path.replacingOccurrences(of: "/pod/5.m3u8", with: "/ad_break_id/b-7.m3u8")
        let breakToken = PodAuthToken.sign(
            [
                "custom_asset_key": "interlude-live", "network_code": "secured", "exp": "1800000600",
                "ad_break_id": "b-7", "pd": "30000",
            ],
            key: key)
        #expect(try Loopback.get(breakPath + "&auth-token=\(breakToken)", port: server.port).status == 200)
    }
}
