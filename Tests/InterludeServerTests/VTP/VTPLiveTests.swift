import Foundation
import InterludeHLS
import InterludeTestSupport
import Testing

@testable import InterludeServer

/// The VTP's live stitching over real HTTP, reload after reload on a manual
/// clock, in every marker style: the simulated channels (DATERANGE
/// SCTE35-OUT/IN, CUE-OUT with DURATION / CUE-OUT-CONT / CUE-IN) and an
/// external origin for the rest.
@Suite struct VTPLiveTests {
    private typealias Test = VTPTest

    /// A channel of each marker style: the simulated ones (8 s breaks every
    /// 24 s) and the fixture's (8 s breaks every 40 s).
    static let channels =
        ["test-live", "test-live-cue"]
        + FixtureLiveOrigin.Style.allCases
        .filter { $0 != .neverCloses && $0 != .overlapping }.map { "ext-\($0.rawValue)" }

    /// Starts the fixture origin and a server over it at `clock`.
    static func start(clock: PodTestClock, maxPodDuration: Int = 300_000, openBreakStart: Int = 0) throws -> (
        server: AdServer, directory: TemporaryDirectory, origin: HTTPServer
    ) {
        var fixture = FixtureLiveOrigin(epoch: Test.epoch, now: { clock.now })
        fixture.openBreakStart = openBreakStart
        let origin = try fixture.serve()
        let (server, directory) = try Test.start(
            clock: clock,
            catalog: Test.catalog(
                fixtureBase: "http://127.0.0.1:\(origin.port)/fixture", maxPodDuration: maxPodDuration))
        return (server, directory, origin)
    }

    @Test(arguments: channels)
    func twentyFourReloadsKeepTheNumberingAndResumeContentOnTime(channel: String) async throws {
        let clock = PodTestClock()
        let (server, directory, origin) = try Self.start(clock: clock)
        defer {
            server.shutdown()
            origin.shutdown()
            directory.remove()
        }
        let id = try await Test.registerLive(port: server.port, asset: channel)
        var replay = LiveReplay(port: server.port, streamID: id, channel: channel)
        // Uneven steps: players reload early and late.
        let steps: [Double] = [4, 4, 2, 6, 4, 3, 5, 4]
        for index in 0..<24 {
            try await replay.reload()
            clock.advance(by: steps[index % steps.count])
        }
        let segments = replay.stream("360p")
        // Pod segments come from pod serving with the viewer's stream ID (its ID3); a pod cut short
        // where a break without a duration ends is filled with the VTP's slate.
        let pods = segments.filter(LiveReplay.isPod).filter { !$0.uri.hasPrefix("/vtp/slate/") }
        #expect(!pods.isEmpty, "no break was stitched")
        #expect(pods.allSatisfy { $0.uri.contains("stream_id=\(id)") })
        #expect(
            pods.allSatisfy {
                $0.uri.hasPrefix("/linear/pods/v1/seg/network/interlude/custom_asset/\(channel)/ad_break_id/")
            })
        if channel != "ext-cueOutWithoutDuration" && channel != "ext-adobePrimetime" {
            #expect(!segments.contains { $0.uri.hasPrefix("/vtp/slate/") }, "a pod filling its break needs no slate")
        }
        // Every break the content surrounds lasts what the origin's did: content resumes on time.
        let breaks = replay.completeBreaks("360p")
        #expect(!breaks.isEmpty)
        #expect(breaks.allSatisfy { abs($0 - 8) < 0.0005 }, "\(breaks)")
        // The origin's markers are gone, DISCONTINUITY marks the splices.
        let text = replay.texts["360p"]?.joined() ?? ""
        for marker in [
            "#EXT-X-CUE-OUT", "#EXT-X-CUE-IN", "#EXT-OATCLS-SCTE35", "#EXT-X-SPLICEPOINT-SCTE35", "SCTE35-OUT",
            "#EXT-X-CUE:", "#EXT-X-CUE-CONT", "#EXT-X-SCTE35",
        ] {
            #expect(!text.contains(marker), "\(marker) passed through")
        }
        // Each stitched break has its DATERANGE, with the pod's break ID that the metadata knows.
        let metadata = try await Test.json("/pods/v1/streams/\(id)/metadata", port: server.port)
        let known = Set((metadata["ad_breaks"] as? [String: Any] ?? [:]).keys)
        let tagged = Set(
            segments.flatMap(\.dateRanges).compactMap { $0.attributes.string(VODStitcher.breakIDAttribute) })
        #expect(!tagged.isEmpty && tagged.isSubset(of: known), "\(tagged) vs \(known)")
    }

    @Test func twoProcessesOnOneDataDirectoryAnswerEveryReloadAlike() async throws {
        let clock = PodTestClock()
        let (first, directory, origin) = try Self.start(clock: clock)
        defer {
            first.shutdown()
            origin.shutdown()
            directory.remove()
        }
        let (second, _) = try Test.start(clock: clock, catalog: first.configuration.catalog, directory: directory)
        defer { second.shutdown() }
        for channel in ["test-live", "ext-oatcls"] {
            let id = try await Test.registerLive(port: first.port, asset: channel)
            var checker = LiveReloadChecker()
            for index in 0..<22 {
                let servers = index % 2 == 0 ? [first, second] : [second, first]
                let path = "/vtp/stream_id/\(id)/live/\(channel)/360p.m3u8"
                let answered = try await [Test.get(path, port: servers[0].port), Test.get(path, port: servers[1].port)]
                #expect(answered.allSatisfy { $0.status == 200 })
                #expect(answered[0].body == answered[1].body, "reload \(index) differs between the processes")
                let found = checker.check(try HLSParser().parseMedia(answered[0].body))
                #expect(found.isEmpty, "\(found.prefix(3).map(\.description))")
                clock.advance(by: 4)
            }
        }
    }

    @Test func aRenditionJoiningLateIsNumberedLikeTheOthers() async throws {
        let clock = PodTestClock()
        let (server, directory) = try Test.start(clock: clock)
        defer {
            server.shutdown()
            directory.remove()
        }
        let id = try await Test.registerLive(port: server.port, asset: "test-live")
        var replay = LiveReplay(port: server.port, streamID: id, channel: "test-live")
        for index in 0..<24 {
            // 360p joins in the middle of a break whose start has left the window.
            try await replay.reload(index < 9 ? ["180p"] : ["180p", "360p"])
            clock.advance(by: 4)
        }
        #expect(replay.stream("360p").contains(where: LiveReplay.isPod))
    }

    @Test func interstitialsAnnounceThePodAndKeepTheContent() async throws {
        let clock = PodTestClock()
        let (server, directory) = try Test.start(clock: clock)
        defer {
            server.shutdown()
            directory.remove()
        }
        let id = try await Test.registerLive(port: server.port, asset: "test-live")
        var replay = LiveReplay(port: server.port, streamID: id, channel: "test-live", query: "?mode=interstitials")
        for _ in 0..<20 {
            try await replay.reload()
            clock.advance(by: 4)
        }
        let segments = replay.stream("360p")
        #expect(!segments.contains(where: LiveReplay.isPod))
        let interstitials = segments.flatMap(\.dateRanges).filter(\.isInterstitial)
        #expect(!interstitials.isEmpty)
        for range in interstitials {
            #expect(range.attributes.double("X-RESUME-OFFSET") == 8)
            #expect(range.attributes.string("X-RESTRICT") == "SKIP,JUMP")
            #expect(range.attributes.string(VODStitcher.breakIDAttribute) != nil)
            let asset = try #require(range.attributes.string("X-ASSET-URI"))
            #expect(asset.contains("stream_id=\(id)") && asset.contains("pd=8000"))
            let pod = try await Test.multivariant(asset, port: server.port)
            #expect(pod.variants.count == 2)
        }
        // The anchor RFC 8216bis asks for: every segment carries PROGRAM-DATE-TIME.
        #expect(segments.allSatisfy { $0.tag(HLSTagName.programDateTime) != nil })
    }

    @Test(arguments: ["test-live-cue", "ext-scte35Enhanced", "ext-dateRange"])
    func markersPassThroughWhenAskedAndNumberingHolds(channel: String) async throws {
        let clock = PodTestClock()
        let (server, directory, origin) = try Self.start(clock: clock)
        defer {
            server.shutdown()
            origin.shutdown()
            directory.remove()
        }
        let id = try await Test.registerLive(port: server.port, asset: channel)
        var replay = LiveReplay(port: server.port, streamID: id, channel: channel, query: "?markers=passthrough")
        for _ in 0..<20 {
            try await replay.reload()
            clock.advance(by: 4)
        }
        let text = replay.texts["360p"]?.joined() ?? ""
        #expect(text.contains(channel == "ext-dateRange" ? "SCTE35-OUT" : "#EXT-X-CUE-OUT"))
        #expect(replay.stream("360p").contains(where: LiveReplay.isPod))
        #expect(replay.completeBreaks("360p").allSatisfy { abs($0 - 8) < 0.0005 })
    }
}

extension VTPLiveTests {
    /// A network that checks tokens checks every pod request, segments
    /// included, so the VTP signs one per break and passes it on in the
    /// stitched playlist's pod URIs: the viewer never sees a 401.
    @Test func onANetworkThatChecksTokensThePodSegmentsCarryTheVTPsToken() async throws {
        let clock = PodTestClock()
        var catalog = Test.catalog()
        catalog.podServing.networks.append(
            PodNetwork(code: "keyed", authKey: PodServingTest.authKeyHex, requiresAuthToken: true))
        catalog.podServing.liveStreams.append(
            PodLiveStream(customAssetKey: "keyed-live", channel: "test-live", network: "keyed"))
        let (server, directory) = try Test.start(clock: clock, catalog: catalog)
        defer {
            server.shutdown()
            directory.remove()
        }
        let id = try PodServingTest.registerSigned(network: "keyed", asset: "keyed-live", port: server.port)
        var replay = LiveReplay(port: server.port, streamID: id, channel: "test-live")
        for _ in 0..<12 {
            try await replay.reload()
            clock.advance(by: 4)
        }
        let pods = replay.stream("360p").filter(LiveReplay.isPod).filter { !$0.uri.hasPrefix("/vtp/slate/") }
        let first = try #require(pods.first, "no break was stitched")
        #expect(pods.allSatisfy { $0.uri.contains("&auth-token=") })
        // This server's ladder has no segment files: past the token, a pod segment is a 503.
        let signed = try await Test.get(first.uri, port: server.port)
        #expect(signed.status == 503, "\(first.uri): \(signed.status) \(signed.text.prefix(300))")
        let unsigned = try #require(first.uri.range(of: "&auth-token="))
        #expect(try await Test.get(String(first.uri[..<unsigned.lowerBound]), port: server.port).status == 401)
    }
}
