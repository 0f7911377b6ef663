import Foundation
import InterludeHLS
import InterludeTestSupport
import Testing

@testable import InterludeServer

/// The VTP's VOD stitching over real HTTP: a 30 s title (4 s segments) with
/// the catalog's pre-roll, mid-roll at 12 s and post-roll, 8 s pods.
@Suite struct VTPVODTests {
    private typealias Test = VTPTest

    /// Stream seconds from the catalog: pre-roll [0, 8), content to 12 s,
    /// mid-roll [20, 28), content to 30 s, post-roll [46, 54).
    static let expectedBreaks: [(start: Double, duration: Double)] = [(0, 8), (20, 8), (46, 8)]

    private func isPod(_ segment: MediaSegment) -> Bool { segment.uri.hasPrefix("/ondemand/pods/api/v1/") }

    @Test func theMultivariantListsEveryProfileWithTheRequestsOptions() async throws {
        let clock = PodTestClock()
        let (server, directory) = try Test.start(clock: clock)
        defer {
            server.shutdown()
            directory.remove()
        }
        let id = try await Test.registerVOD(port: server.port)
        let plain = try await Test.multivariant("/vtp/stream_id/\(id)/video/test-film.m3u8", port: server.port)
        #expect(plain.variants.map(\.uri) == ["test-film/180p.m3u8", "test-film/360p.m3u8"])
        #expect(plain.variants.map { $0.resolution?.height } == [180, 360])
        #expect(plain.variants.allSatisfy { $0.codecs == "avc1.4d401f,mp4a.40.2" && ($0.bandwidth ?? 0) > 0 })
        let options = try await Test.multivariant(
            "/vtp/stream_id/\(id)/video/test-film.m3u8?mode=interstitials&markers=passthrough", port: server.port)
        #expect(options.variants.first?.uri == "test-film/180p.m3u8?mode=interstitials&markers=passthrough")
    }

    @Test func everyRenditionHasItsPodsWhereTheMetadataSaysTheyAre() async throws {
        let clock = PodTestClock()
        let (server, directory) = try Test.start(clock: clock)
        defer {
            server.shutdown()
            directory.remove()
        }
        let id = try await Test.registerVOD(port: server.port)
        var renditions: [MediaPlaylist] = []
        for profile in ["180p", "360p"] {
            let (playlist, text) = try await Test.media(
                "/vtp/stream_id/\(id)/video/test-film/\(profile).m3u8", port: server.port)
            renditions.append(playlist)
            #expect(playlist.hasEndList && playlist.playlistType == "VOD")
            let runs = Test.runs(of: playlist, where: isPod)
            #expect(runs.count == 3, "\(text)")
            for (run, expected) in zip(runs, Self.expectedBreaks) {
                #expect(abs(run.start - expected.start) < 0.0005 && abs(run.duration - expected.duration) < 0.0005)
            }
            #expect(abs(playlist.totalDuration - 54) < 0.0005)
            // In and out of every pod: a DISCONTINUITY (the first segment needs none to start).
            for (index, segment) in playlist.segments.enumerated() where index > 0 {
                if isPod(segment) != isPod(playlist.segments[index - 1]) { #expect(segment.isDiscontinuity) }
            }
            // Dates run on from the stream's registration, without a gap.
            let anchor = try #require(playlist.segments.first?.programDateTime)
            #expect(abs(anchor.timeIntervalSince(clock.now)) < 0.001)
            for segment in playlist.segments {
                let date = try #require(segment.programDateTime)
                #expect(abs(date.timeIntervalSince(anchor) - segment.startTime) < 0.002)
            }
            // One DATERANGE per break: ID, START-DATE at the pod, DURATION, the break ID again for clients.
            let ranges = playlist.segments.flatMap(\.dateRanges)
            #expect(ranges.map(\.id) == ["vod_0", "vod_1", "vod_2"])
            for (range, expected) in zip(ranges, Self.expectedBreaks) {
                #expect(range.attributes.string(VODStitcher.breakIDAttribute) == range.id)
                #expect(abs((range.startDate?.timeIntervalSince(anchor) ?? -1) - expected.start) < 0.002)
                #expect(range.attributes.double("DURATION") == expected.duration)
            }
            #expect(HLSValidator.validate(.media(playlist)).filter { $0.severity == .error }.isEmpty)
            let podURIs = playlist.segments.filter(isPod).map(\.uri)
            #expect(podURIs.allSatisfy { $0.contains("/streams/\(id)/pods/") && $0.contains("/profile/\(profile)/") })
        }
        // Renditions align segment for segment, so a player can switch.
        #expect(renditions[0].segments.map(\.duration) == renditions[1].segments.map(\.duration))
        #expect(renditions[0].segments.map(\.isDiscontinuity) == renditions[1].segments.map(\.isDiscontinuity))
        // The metadata the SDK reads says the same.
        let metadata = try await Test.json("/pods/v1/streams/\(id)/metadata", port: server.port)
        let breaks = try #require(metadata["breaks"] as? [[String: Any]])
        #expect(breaks.map { $0["id"] as? String } == ["vod_0", "vod_1", "vod_2"])
        #expect(breaks.map { $0["type"] as? String } == ["pre", "mid", "post"])
        for (entry, expected) in zip(breaks, Self.expectedBreaks) {
            #expect(entry["start"] as? Double == expected.start)
            #expect(entry["duration"] as? Double == expected.duration)
        }
    }

    @Test func aRenditionIsTheSameOnEveryRequestAndFromAnotherProcess() async throws {
        let clock = PodTestClock()
        let (first, directory) = try Test.start(clock: clock)
        defer {
            first.shutdown()
            directory.remove()
        }
        let id = try await Test.registerVOD(port: first.port)
        let path = "/vtp/stream_id/\(id)/video/test-film/360p.m3u8"
        let once = try await Test.get(path, port: first.port)
        let again = try await Test.get(path, port: first.port)
        let (second, _) = try Test.start(clock: clock, directory: directory)
        defer { second.shutdown() }
        // The other process asks for the other rendition first: the plan is the stored one.
        let other = try await Test.get("/vtp/stream_id/\(id)/video/test-film/180p.m3u8", port: second.port)
        let elsewhere = try await Test.get(path, port: second.port)
        #expect(once.status == 200 && other.status == 200)
        #expect(once.body == again.body)
        #expect(once.body == elsewhere.body)
    }

    @Test func interstitialsLeaveTheContentAndAnnounceEachPod() async throws {
        let clock = PodTestClock()
        let (server, directory) = try Test.start(clock: clock)
        defer {
            server.shutdown()
            directory.remove()
        }
        let id = try await Test.registerVOD(port: server.port)
        let (playlist, _) = try await Test.media(
            "/vtp/stream_id/\(id)/video/test-film/360p.m3u8?mode=interstitials", port: server.port)
        #expect(playlist.segments.count == 8)
        #expect(!playlist.segments.contains(where: isPod))
        #expect(abs(playlist.totalDuration - 30) < 0.0005)
        #expect(playlist.segments.first?.programDateTime != nil)
        let ranges = playlist.segments.flatMap(\.dateRanges)
        #expect(ranges.map(\.id) == ["vod_0", "vod_1", "vod_2"])
        let anchor = try #require(playlist.segments.first?.programDateTime)
        for (range, contentTime) in zip(ranges, [0.0, 12, 30]) {
            #expect(range.attributes.string("CLASS") == "com.apple.hls.interstitial")
            #expect(range.attributes.double("X-RESUME-OFFSET") == 0)
            #expect(range.attributes.string("X-RESTRICT") == "SKIP,JUMP")
            #expect(range.attributes.string(VODStitcher.breakIDAttribute) == range.id)
            #expect(abs((range.startDate?.timeIntervalSince(anchor) ?? -1) - contentTime) < 0.002)
            // The asset is the pod's own playlist in this profile, and it answers.
            let asset = try #require(range.attributes.string("X-ASSET-URI"))
            #expect(asset.hasSuffix("/profile/360p.m3u8"))
            let pod = try await Test.media(asset, port: server.port).playlist
            #expect(abs(pod.totalDuration - 8) < 0.0005)
        }
        #expect(ranges.first?.attributes.string("CUE") == "PRE")
        #expect(ranges.last?.attributes.string("CUE") == "POST")
    }

    @Test func encryptedContentHasClearPodsBetweenItsKeys() async throws {
        let clock = PodTestClock()
        let fixture = FixtureLiveOrigin(epoch: Test.epoch, now: { clock.now })
        let origin = try fixture.serve()
        defer { origin.shutdown() }
        let (server, directory) = try Test.start(
            clock: clock, catalog: Test.catalog(fixtureBase: "http://127.0.0.1:\(origin.port)/fixture"))
        defer {
            server.shutdown()
            directory.remove()
        }
        let id = try await Test.registerVOD(port: server.port)
        let (playlist, text) = try await Test.media("/vtp/stream_id/\(id)/video/ext-vod/360p.m3u8", port: server.port)
        // 24 s of content: pre-roll, mid-roll at 12 s, post-roll.
        #expect(Test.runs(of: playlist, where: isPod).map(\.start) == [0, 20, 40], "\(text)")
        // The pre-roll plays before the content's first key (nothing to clear); later pods are METHOD=NONE.
        var method: String?
        for segment in playlist.segments {
            if let key = segment.keys.last { method = key.attributes.string("METHOD") }
            if isPod(segment) {
                #expect(method == (segment.startTime < 8 ? nil : "NONE"), "\(segment.uri)")
            } else {
                #expect(method == "AES-128", "\(segment.uri)")
            }
        }
        #expect(
            playlist.segments.filter { !isPod($0) }.allSatisfy {
                $0.uri.hasPrefix("http://127.0.0.1:\(origin.port)/fixture/vod/360p/")
            })
    }
}
