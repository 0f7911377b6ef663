import Foundation
import InterludeServerTestSupport
import InterludeTestSupport
import Testing

@testable import InterludeServer

@Suite struct ConsoleStreamRouteTests {
    struct Listing: Decodable {
        struct Entry: Decodable {
            var streamID: String
            var kind: String
            var breaks: Int
            var eventsVerified: Int
            var expired: Bool
        }
        var streams: [Entry]
    }

    struct Report: Decodable {
        struct Stream: Decodable {
            struct Break: Decodable {
                struct Ad: Decodable {
                    struct Event: Decodable {
                        var id: String
                        var offset: Int
                    }
                    var id: String
                    var offset: Int
                    var duration: Int
                    var events: [Event]
                }
                var id: String
                var duration: Int
                var ads: [Ad]
            }
            var breaks: [Break]
        }
        struct Timeline: Decodable {
            struct Span: Decodable, Equatable {
                var kind: String
                var start: Double
                var duration: Double
                var breakID: String?
                var adID: String?
            }
            struct Event: Decodable {
                var id: String
                var adID: String
                var breakID: String
                var at: Double
                var verifiedAt: String?
                var beaconsSent: Int
                var state: String
            }
            struct Arrival: Decodable {
                var eventID: String?
                var ad: String
                var event: String
                var at: Double?
            }
            var axis: String
            var duration: Double
            var now: Double?
            var spans: [Span]
            var events: [Event]
            var beacons: [Arrival]
        }
        var stream: Stream
        var timeline: Timeline
        var preview: String?
        var previewUnavailable: String?
    }

    static func report(_ id: String, port: UInt16) throws -> Report {
        let response = try Loopback.get("/api/console/streams/\(id)", port: port)
        #expect(response.status == 200, "\(response.text)")
        #expect(response.headers["Cache-Control"] == "no-store")
        return try JSONDecoder().decode(Report.self, from: response.data)
    }

    /// Equal to within float rounding (times are milliseconds summed as seconds).
    static func close(_ actual: [Double], _ expected: [Double]) -> Bool {
        actual.count == expected.count && zip(actual, expected).allSatisfy { abs($0 - $1) < 1e-6 }
    }

    @Test func streamsAreListedNewestFirstWithTheirBreaksAndVerifications() throws {
        let (server, directory) = try ConsoleTestServer.start()
        defer {
            server.shutdown()
            directory.remove()
        }
        let port = server.port
        let live = try PodServingTest.register(port: port)
        let (vod, metadata) = try PodServingTest.vodStreamWithPods(port: port)
        let first = try #require(PodServingTest.eventIDs(metadata).first)
        #expect(try PodServingTest.verify(vod, first, port: port) == 204)
        let response = try Loopback.get("/api/console/streams", port: port)
        #expect(response.status == 200)
        let listing = try JSONDecoder().decode(Listing.self, from: response.data)
        #expect(listing.streams.map(\.streamID) == [vod, live])
        #expect(listing.streams.map(\.kind) == ["vod", "live"])
        // Cue points 0, 60 and 120 of 120 s of content: three breaks.
        #expect(listing.streams.map(\.breaks) == [3, 0])
        #expect(listing.streams.map(\.eventsVerified) == [1, 0])
        #expect(listing.streams.allSatisfy { !$0.expired })
        let limited = try JSONDecoder().decode(
            Listing.self, from: try Loopback.get("/api/console/streams?limit=1", port: port).data)
        #expect(limited.streams.map(\.streamID) == [vod])
    }

    @Test func aVODTimelineStitchesEachPodIntoTheContentAtItsCuePoint() throws {
        let (server, directory) = try ConsoleTestServer.start()
        defer {
            server.shutdown()
            directory.remove()
        }
        let port = server.port
        let (id, _) = try PodServingTest.vodStreamWithPods(port: port)
        let report = try Self.report(id, port: port)
        let timeline = report.timeline
        #expect(timeline.axis == "stream")
        #expect(timeline.now == nil)
        let pods = report.stream.breaks
        #expect(pods.map(\.id) == ["vod_0", "vod_1", "vod_2"])
        let seconds = { (milliseconds: Int) in Double(milliseconds) / 1000 }
        // Stream time: pre-roll, 60 s of content, mid-roll, 60 s of content, post-roll.
        let starts = [0, seconds(pods[0].duration) + 60, seconds(pods[0].duration + pods[1].duration) + 120]
        let breakSpans = timeline.spans.filter { $0.kind == "break" }
        #expect(breakSpans.map(\.breakID) == ["vod_0", "vod_1", "vod_2"])
        #expect(Self.close(breakSpans.map(\.start), starts))
        #expect(Self.close(breakSpans.map(\.duration), pods.map { seconds($0.duration) }))
        let contentSpans = timeline.spans.filter { $0.kind == "content" }
        let contentStarts = [starts[0] + seconds(pods[0].duration), starts[1] + seconds(pods[1].duration)]
        #expect(Self.close(contentSpans.map(\.start), contentStarts))
        #expect(Self.close(contentSpans.map(\.duration), [60, 60]))
        #expect(Self.close([timeline.duration], [starts[2] + seconds(pods[2].duration)]))
        // Each ad where the pod plays it; each event where the ad reaches it.
        for (index, pod) in pods.enumerated() {
            for ad in pod.ads {
                let span = try #require(timeline.spans.first { $0.kind == "ad" && $0.adID == ad.id })
                #expect(
                    Self.close(
                        [span.start, span.duration], [starts[index] + seconds(ad.offset), seconds(ad.duration)]))
                for event in ad.events {
                    let placed = try #require(timeline.events.first { $0.id == event.id })
                    #expect(Self.close([placed.at], [starts[index] + seconds(ad.offset + event.offset)]))
                    #expect(placed.breakID == pod.id)
                    #expect(placed.state == "pending")
                }
            }
        }
        #expect(timeline.events.count == pods.flatMap(\.ads).flatMap(\.events).count)
        // The network's VOD content (the test server made no media to match the plan's length against).
        let content = try #require(TestAdServer.catalog.podServing.vodContent.first)
        #expect(report.preview == "\(server.baseURL)/vtp/stream_id/\(id)/video/\(content.contentID).m3u8")
    }

    @Test func verifiedEventsAndTheirServerSideBeaconsAppearOnTheTimeline() throws {
        let (server, directory) = try ConsoleTestServer.start()
        defer {
            server.shutdown()
            directory.remove()
        }
        let port = server.port
        let (id, _) = try PodServingTest.vodStreamWithPods(port: port)
        let before = try Self.report(id, port: port)
        let preroll = try #require(before.stream.breaks.first)
        let played = preroll.ads.flatMap(\.events).map(\.id)
        for event in played { #expect(try PodServingTest.verify(id, event, port: port) == 204) }
        #expect(server.waitForServerSideBeacons(timeout: 30))
        let after = try Self.report(id, port: port)
        let verified = after.timeline.events.filter { $0.verifiedAt != nil }
        #expect(verified.map(\.id) == played)
        #expect(verified.allSatisfy { $0.state == "verified" && $0.beaconsSent > 0 })
        #expect(after.timeline.events.filter { $0.breakID != preroll.id }.allSatisfy { $0.state == "pending" })
        // Every beacon the collector received for the stream is one of the played events', at its place.
        #expect(!after.timeline.beacons.isEmpty)
        let places = Dictionary(uniqueKeysWithValues: after.timeline.events.map { ($0.id, $0.at) })
        for beacon in after.timeline.beacons {
            let event = try #require(beacon.eventID, "\(beacon.ad) \(beacon.event)")
            #expect(played.contains(event))
            #expect(beacon.at == places[event])
        }
        // The pre-roll's first ad's start fires impression, creativeView and start.
        let firstAd = try #require(preroll.ads.first)
        let startBeacons = after.timeline.beacons.filter { $0.eventID == firstAd.events.first?.id }.map(\.event)
        #expect(Set(startBeacons).isSuperset(of: ["impression", "start"]))
        // Those beacons are the stream's (collector session = stream ID), not a client-side session of their own.
        let sessions = try Loopback.get("/api/console/sessions", port: port)
        #expect(sessions.status == 200)
        #expect(!sessions.text.contains(id))
    }

    @Test func aLiveStreamIsDrawnOnTheWallClockWithItsChannelAsThePreview() throws {
        let (server, directory) = try ConsoleTestServer.start()
        defer {
            server.shutdown()
            directory.remove()
        }
        let port = server.port
        let id = try PodServingTest.register(port: port)
        // A player (no VTP) asks for pod 3 of 30 s: decided now, drawn where it was decided.
        let pod = try Loopback.get(
            "/linear/pods/v1/hls/network/interlude/custom_asset/interlude-live/pod/3.m3u8?stream_id=\(id)&pd=30000",
            port: port)
        #expect(pod.status == 200, "\(pod.text)")
        let report = try Self.report(id, port: port)
        #expect(report.timeline.axis == "wall")
        #expect(report.timeline.now != nil)
        #expect(report.timeline.spans.allSatisfy { $0.start >= 0 })
        let breakSpan = try #require(report.timeline.spans.first { $0.kind == "break" })
        #expect(breakSpan.breakID == "pod_3")
        #expect(breakSpan.duration == 30)
        // The pod fills its 30 s: ads, then slate to the end.
        let inside = report.timeline.spans.filter { $0.breakID == "pod_3" && $0.kind != "break" }
        #expect(abs(inside.map(\.duration).reduce(0, +) - 30) < 0.001)
        #expect(report.timeline.duration >= breakSpan.start + 30)
        let channel = try #require(
            TestAdServer.catalog.podServing.liveStream(customAssetKey: "interlude-live", network: "interlude"))
        #expect(report.preview == "\(server.baseURL)/vtp/stream_id/\(id)/live/\(channel.channel).m3u8")
    }

    @Test func unknownMalformedHugeAndBinaryStreamIDsAreJSONErrors() throws {
        let (server, directory) = try ConsoleTestServer.start()
        defer {
            server.shutdown()
            directory.remove()
        }
        let port = server.port
        // Unknown, malformed, huge, path-escaping: no such stream. Bytes that are not UTF-8: a bad request.
        let cases: [(id: String, status: Int)] = [
            ("00000000-0000-4000-8000-000000000000", 404), ("not-a-stream", 404),
            (String(repeating: "a", count: 4000), 404), ("..%2F..%2Fetc%2Fpasswd", 404), ("%00%FF%FE", 400),
        ]
        for (id, status) in cases {
            let response = try Loopback.get("/api/console/streams/\(id)", port: port)
            #expect(response.status == status, "\(id.prefix(40))")
            #expect(ConsoleTestServer.error(of: response)?.status == status, "\(id.prefix(40))")
        }
        for limit in ["0", "501", "-1", "x", "%FF"] {
            let response = try Loopback.get("/api/console/streams?limit=\(limit)", port: port)
            #expect(response.status == 400, "\(limit)")
            #expect(ConsoleTestServer.error(of: response)?.status == 400)
        }
        let crossSite = try Loopback.get(
            "/api/console/streams", port: port, headers: [("Origin", "http://attacker.example")])
        #expect(crossSite.status == 403)
        #expect(ConsoleTestServer.error(of: crossSite) != nil)
        // A body on a GET is ignored; binary bytes do not reach a parser.
        let binary = try Loopback.get(
            "/api/console/streams", port: port, method: "GET", headers: [("Content-Type", "application/octet-stream")],
            body: (0..<4096).map { UInt8($0 % 256) })
        #expect(binary.status == 200)
        // A body over the server's limit is refused before any route runs, as JSON.
        let huge = try Loopback.get(
            "/api/console/streams/00000000-0000-4000-8000-000000000000", port: port, method: "GET",
            headers: [("Content-Type", "application/json")], body: Array(repeating: UInt8(ascii: "{"), count: 2 << 20))
        #expect(huge.status == 413)
        #expect(ConsoleTestServer.error(of: huge)?.status == 413)
    }
}
