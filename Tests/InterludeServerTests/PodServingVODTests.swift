import Foundation
import InterludeHLS
import InterludeServerTestSupport
import InterludeTestSupport
import Testing

@testable import InterludeServer

/// VOD ad pods for the VTP and the stitched timeline the metadata gives.
@Suite struct PodServingVODTests {
    private typealias Test = PodServingTest

    private func adPods(_ id: String, _ body: String, port: UInt16, network: String = "interlude") throws
        -> LoopbackResponse
    {
        try Test.post(
            "/ondemand/pods/api/v1/network/\(network)/streams/\(id)/adpods", port: port, body: body,
            contentType: "application/json")
    }

    @Test func metadataWaitsWith202UntilTheVTPAsksForPods() throws {
        let (server, directory) = try Test.start()
        defer {
            server.shutdown()
            directory.remove()
        }
        let id = try Test.register(Test.vodPath, port: server.port)
        let pending = try Loopback.get("/pods/v1/streams/\(id)/metadata", port: server.port)
        #expect(pending.status == 202)
        #expect(pending.headers["Retry-After"] == "1")
        #expect(try Test.json(pending)["status"] as? String == "pending")
    }

    @Test func adPodsListEachPodWithItsInsertionTimeAdsAndManifests() throws {
        let (server, directory) = try Test.start()
        defer {
            server.shutdown()
            directory.remove()
        }
        let id = try Test.register(Test.vodPath, port: server.port)
        let response = try adPods(
            id,
            #"{"encoding_profiles":[{"profile_name":"hd","video_settings":{"resolution":{"width":1280,"height":720}}}],"ad_tag":"https://example.com/tag","cuepoints":[0,45.5],"content_duration_seconds":90}"#,
            port: server.port)
        #expect(response.status == 200, "\(response.text)")
        let json = try Test.json(response)
        #expect(json["stream_id"] as? String == id)
        let pods = try #require(json["ad_pods"] as? [[String: Any]])
        #expect(pods.map { $0["type"] as? String } == ["pre", "mid"])
        #expect(pods.map { $0["start"] as? Double } == [0, 45.5])
        // Each pod: alpha (6 s) then bravo (10 s) or the other way round, 16 s in all.
        #expect(pods.map { $0["duration"] as? Double } == [16, 16])
        #expect(pods.map { $0["stream_start"] as? Double } == [0, 61.5])
        #expect(pods[1]["midroll_index"] as? Int == 1)
        // `hd` is served in the ladder's profile of its height.
        let uris = try #require(pods[0]["manifest_uris"] as? [String: String])
        #expect(
            uris["hd"]
                == "http://127.0.0.1:\(server.port)/ondemand/pods/api/v1/network/interlude/streams/\(id)/pods/0/profile/720p.m3u8"
        )
        let ads = try #require(pods[0]["ads"] as? [[String: Any]])
        #expect(Set(ads.compactMap { $0["creative_id"] as? String }) == ["alpha", "bravo"])
        #expect(ads.map { $0["position"] as? Int } == [1, 2])
        // A second request gets the same pods even with other cuepoints.
        let again = try adPods(
            id, #"{"encoding_profiles":[{"profile_name":"540p"}],"ad_tag":"x","cuepoints":[10]}"#, port: server.port)
        let repeated = try #require(try Test.json(again)["ad_pods"] as? [[String: Any]])
        #expect(repeated.map { $0["start"] as? Double } == [0, 45.5])
    }

    @Test func eachPodsManifestReparsesAndLastsWhatTheTimelineSays() throws {
        let (server, directory) = try Test.start()
        defer {
            server.shutdown()
            directory.remove()
        }
        let id = try Test.register(Test.vodPath, port: server.port)
        let response = try adPods(
            id,
            #"{"encoding_profiles":[{"profile_name":"360p"},{"profile_name":"720p"}],"ad_tag":"x","cuepoints":[0,30]}"#,
            port: server.port)
        let pods = try #require(try Test.json(response)["ad_pods"] as? [[String: Any]])
        for pod in pods {
            let duration = try #require(pod["duration"] as? Double)
            let uris = try #require(pod["manifest_uris"] as? [String: String])
            #expect(Set(uris.keys) == ["360p", "720p"])
            for uri in uris.values {
                let playlist = try Loopback.get(TestAdServer.target(of: uri), port: server.port)
                #expect(playlist.status == 200)
                let media = try HLSParser().parseMedia(playlist.body)
                let stated = media.segments.map { Int(($0.duration.value * 1000).rounded()) }.reduce(0, +)
                #expect(stated == Int((duration * 1000).rounded()))
                #expect(
                    media.segments.filter(\.isDiscontinuity).count == (pod["ads"] as? [Any])?.count.advanced(by: -1))
                // Relative segment URIs name the pod's profile; the media is not made here (503).
                let first = try #require(media.segments.first?.uri)
                let segment = try #require(URL(string: first, relativeTo: URL(string: uri)))
                #expect(
                    try Loopback.get(TestAdServer.target(of: segment.absoluteString), port: server.port).status == 503)
            }
        }
        let base = "/ondemand/pods/api/v1/network/interlude/streams/\(id)/pods"
        #expect(try Loopback.get("\(base)/9/profile/360p.m3u8", port: server.port).status == 404)
        #expect(try Loopback.get("\(base)/x/profile/360p.m3u8", port: server.port).status == 400)
        #expect(try Loopback.get("\(base)/0/profile/4k.m3u8", port: server.port).status == 404)
        #expect(try Loopback.get("\(base)/0/profile/360p/99.ts", port: server.port).status == 404)
    }

    @Test func withoutCuepointsTheCatalogsAdRulesPlaceThePods() throws {
        let (server, directory) = try Test.start()
        defer {
            server.shutdown()
            directory.remove()
        }
        let id = try Test.register(Test.vodPath, port: server.port)
        // The test catalog: a pre-roll, a mid-roll at 30 s and a post-roll.
        let response = try adPods(
            id, #"{"encoding_profiles":[{"profile_name":"360p"}],"ad_tag":"x","content_duration_seconds":40}"#,
            port: server.port)
        let pods = try #require(try Test.json(response)["ad_pods"] as? [[String: Any]])
        #expect(pods.map { $0["type"] as? String } == ["pre", "mid", "post"])
        #expect(pods.map { $0["start"] as? Double } == [0, 30, 40])
    }

    @Test func metadataIsTheStitchedTimelineInStreamTime() throws {
        let (server, directory) = try Test.start()
        defer {
            server.shutdown()
            directory.remove()
        }
        let (id, metadata) = try Test.vodStreamWithPods(port: server.port)
        #expect(metadata["stream_id"] as? String == id)
        #expect(metadata["content_duration"] as? Double == 120)
        #expect(metadata["duration"] as? Double == 168)
        let breaks = try #require(metadata["breaks"] as? [[String: Any]])
        #expect(breaks.map { $0["start"] as? Double } == [0, 76, 152])
        #expect(breaks.map { $0["content_time"] as? Double } == [0, 60, 120])
        let ads = try #require(breaks[1]["ads"] as? [[String: Any]])
        let first = try #require(ads.first)
        let duration = try #require(first["duration"] as? Double)
        #expect(first["start"] as? Double == 76)
        #expect((ads.last?["start"] as? Double) == 76 + duration)
        #expect(first["clickthrough_url"] as? String != nil)
        let events = try #require(first["events"] as? [[String: Any]])
        let times = events.compactMap { $0["time"] as? Double }
        let expected = [76, 76 + duration / 4, 76 + duration / 2, 76 + duration * 3 / 4, 76 + duration - 0.033]
        #expect(times.count == 5)
        #expect(zip(times, expected).allSatisfy { abs($0 - $1) < 0.0005 })
        let tags = try #require(metadata["tags"] as? [String: [String: String]])
        for event in events {
            let id = try #require(event["id"] as? String)
            let matches = tags.filter { id.hasPrefix($0.key) }
            #expect(matches.count == 1)
            #expect(matches.first?.value["type"] == event["type"] as? String)
        }
        // Google's schema alongside the timeline: every tag names an ad and a break the document has.
        let googleAds = try #require(metadata["ads"] as? [String: [String: Any]])
        let googleBreaks = try #require(metadata["ad_breaks"] as? [String: [String: Any]])
        let timelineAds = breaks.flatMap { ($0["ads"] as? [[String: Any]]) ?? [] }
        #expect(Set(googleAds.keys) == Set(timelineAds.compactMap { $0["id"] as? String }))
        #expect(googleBreaks.count == breaks.count)
        for entry in breaks {
            let id = try #require(entry["id"] as? String)
            #expect(googleBreaks[id]?["type"] as? String == entry["type"] as? String)
        }
        for tag in tags.values {
            #expect(googleAds[tag["ad"] ?? ""]?["ad_break_id"] as? String == tag["ad_break_id"])
            #expect(googleBreaks[tag["ad_break_id"] ?? ""] != nil)
        }
        #expect(googleAds[first["id"] as? String ?? ""]?["duration"] as? Double == duration)
    }

    @Test func badAdPodsRequestsAre4xxAndStoreNoPlan() throws {
        let (server, directory) = try Test.start()
        defer {
            server.shutdown()
            directory.remove()
        }
        let id = try Test.register(Test.vodPath, port: server.port)
        let live = try Test.register(port: server.port)
        let good = #"{"encoding_profiles":[{"profile_name":"360p"}],"ad_tag":"x"}"#
        let cases: [(String, String, String, Int)] = [
            (id, "{", "interlude", 400),
            (id, "[]", "interlude", 400),
            (id, #"{"ad_tag":"x"}"#, "interlude", 400),
            (id, #"{"encoding_profiles":[],"ad_tag":"x"}"#, "interlude", 400),
            (id, #"{"encoding_profiles":[{"profile_name":"360p"}]}"#, "interlude", 400),
            (id, #"{"encoding_profiles":[{"profile_name":"../x"}],"ad_tag":"x"}"#, "interlude", 400),
            (id, #"{"encoding_profiles":[{"profile_name":"a"},{"profile_name":"a"}],"ad_tag":"x"}"#, "interlude", 400),
            (id, #"{"encoding_profiles":[{"profile_name":"a","type":"iframe"}],"ad_tag":"x"}"#, "interlude", 400),
            (id, #"{"encoding_profiles":[{"profile_name":"a"}],"ad_tag":"x","cuepoints":[-1]}"#, "interlude", 400),
            (id, #"{"encoding_profiles":[{"profile_name":"a"}],"ad_tag":"x","cuepoints":[5,5]}"#, "interlude", 400),
            (
                id,
                #"{"encoding_profiles":[{"profile_name":"a"}],"ad_tag":"x","cuepoints":[50],"content_duration_seconds":40}"#,
                "interlude", 400
            ),
            (
                id, #"{"encoding_profiles":[{"profile_name":"a"}],"ad_tag":"x","content_duration_seconds":0}"#,
                "interlude", 400
            ),
            (id, good, "nobody", 404),
            (live, good, "interlude", 404),
            ("11111111-2222-4333-8444-555555555555", good, "interlude", 404),
            ("%2E%2E", good, "interlude", 404),
        ]
        for (stream, body, network, status) in cases {
            let response = try adPods(stream, body, port: server.port, network: network)
            #expect(response.status == status, "\(body): \(response.text)")
        }
        #expect(try server.sessionStore.vodPlan(streamID: id) == nil)
        #expect(try Loopback.get("/pods/v1/streams/\(id)/metadata", port: server.port).status == 202)
    }
}
