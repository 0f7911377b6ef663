import Foundation
import Interlude
import InterludeHLS
import InterludeServerTestSupport
import InterludeTestSupport
import Testing

@testable import InterludePlayer

/// The display over real HTTP (URLSession against a loopback origin) with
/// real segments made by ffmpeg and timed ID3 injected into them; the
/// display's clock is a manual one. Skipped, with a message, without ffmpeg.
@Suite(.serialized, .enabled(if: HLSMediaFixture.isAvailable, HLSMediaFixture.skipMessage))
@MainActor
struct HLSStreamDisplayLoopbackTests {
    static func fixture() async throws -> HLSMediaFixture { try await HLSMediaFixture.shared() }

    /// Stream seconds where low segment `index` of a playlist of low segments starts.
    static func start(of index: Int, _ fixture: HLSMediaFixture) -> Double {
        fixture.durations.prefix(index).reduce(0, +)
    }

    @Test func aRealVODPlaysToItsEndReportingItsID3FrameAtItsPTS() async throws {
        let fixture = try await Self.fixture()
        let origin = try LoopbackOrigin()
        defer { origin.shutdown() }
        let segment1 = try fixture.low(1, withTXXX: "google_start_1", at: 0.5)
        origin.set(
            "/vod/index.m3u8", .playlist(fixture.vodPlaylist((0..<4).map { "s\($0).ts" }, segments: [0, 1, 2, 3])))
        for index in 0..<4 { origin.set("/vod/s\(index).ts", .segment(index == 1 ? segment1 : fixture.low[index])) }
        let driver = LoopbackDriver()
        driver.display.load(origin.url("/vod/index.m3u8"), subtitles: nil)
        await driver.run(for: 0)
        driver.display.play()
        await driver.run(for: 10)
        #expect(driver.recorder.milestones == ["load", "start", "complete"])
        #expect(driver.recorder.metadata.map(\.values) == [["TXXX": "google_start_1"]])
        let expected = Self.start(of: 1, fixture) + 0.5
        #expect(driver.recorder.metadata.map(\.time).allSatisfy { abs($0 - expected) < 0.001 })
        let status = driver.display.status
        #expect(status.segmentsDownloaded == 4)
        #expect(status.transportStreamIssues == 0)
        let bytes = fixture.low.enumerated().map { $0.offset == 1 ? segment1.count : $0.element.count }.reduce(0, +)
        #expect(status.bytesDownloaded > bytes)
        #expect(status.stallCount == 0)
        #expect(abs(driver.display.totalMediaTime - fixture.durations.reduce(0, +)) < 1e-9)
    }

    @Test func aMultivariantPlaylistPlaysTheVariantUnderTheCap() async throws {
        let fixture = try await Self.fixture()
        let origin = try LoopbackOrigin()
        defer { origin.shutdown() }
        origin.set(
            "/main.m3u8",
            .playlist(
                """
                #EXTM3U
                #EXT-X-STREAM-INF:BANDWIDTH=200000,RESOLUTION=320x180
                high/index.m3u8
                #EXT-X-STREAM-INF:BANDWIDTH=80000,RESOLUTION=160x90
                low/index.m3u8

                """))
        let names = (0..<4).map { "s\($0).ts" }
        for rendition in ["low", "high"] {
            origin.set("/\(rendition)/index.m3u8", .playlist(fixture.vodPlaylist(names, segments: [0, 1, 2, 3])))
            let segments = rendition == "low" ? fixture.low : fixture.high
            for index in 0..<4 { origin.set("/\(rendition)/s\(index).ts", .segment(segments[index])) }
        }
        let driver = LoopbackDriver(.init(variant: .highestBandwidth(maximumBandwidth: 100_000), speed: 4))
        driver.display.load(origin.url("/main.m3u8"), subtitles: nil)
        driver.display.play()
        await driver.run(for: 3)
        #expect(driver.recorder.milestones == ["load", "start", "complete"])
        #expect(driver.display.status.variant?.url == origin.url("/low/index.m3u8"))
        #expect(origin.requestedPaths.allSatisfy { !$0.hasPrefix("/high") })
        #expect(origin.requestCount("/low/s3.ts") == 1)
    }

    @Test func aDiscontinuityWhereTimestampsGoBackIsFollowed() async throws {
        // s0 s1 | s0 s1 again: after the discontinuity the PTS restart where they began.
        let fixture = try await Self.fixture()
        let origin = try LoopbackOrigin()
        defer { origin.shutdown() }
        let segment1 = try fixture.low(1, withTXXX: "google_mid", at: 0.5)
        origin.set(
            "/d/index.m3u8",
            .playlist(
                fixture.vodPlaylist(
                    ["a.ts", "b.ts", "a.ts", "b.ts"], segments: [0, 1, 0, 1], discontinuityBefore: [2])
            ))
        origin.set("/d/a.ts", .segment(fixture.low[0]))
        origin.set("/d/b.ts", .segment(segment1))
        let driver = LoopbackDriver(.init(speed: 2))
        driver.display.load(origin.url("/d/index.m3u8"), subtitles: nil)
        driver.display.play()
        await driver.run(for: 6)
        let first = fixture.durations[0] + 0.5
        let second = 2 * fixture.durations[0] + fixture.durations[1] + 0.5
        let times = driver.recorder.metadata.map(\.time)
        #expect(times.count == 2)
        if times.count == 2 {
            #expect(abs(times[0] - first) < 0.001)
            #expect(abs(times[1] - second) < 0.001)
        }
        #expect(driver.display.status.discontinuitiesSeen == 1)
        #expect(driver.recorder.milestones.last == "complete")
    }

    @Test func aLiveWindowIsReloadedAndEachFrameIsReportedOnceInOrder() async throws {
        let fixture = try await Self.fixture()
        let origin = try LoopbackOrigin()
        defer { origin.shutdown() }
        // Segment n is low segment n % 4; every low segment 1 carries its number.
        for number in 0..<40 {
            let bytes =
                number % 4 == 1 ? try fixture.low(1, withTXXX: "google_n\(number)", at: 0.5) : fixture.low[number % 4]
            origin.set("/live/seg\(number).ts", .segment(bytes))
        }
        func window(at time: TimeInterval) -> String {
            // One new 2 s segment every 2 s; five in the window.
            let newest = 4 + Int(time / 2)
            let first = newest - 4
            var lines = [
                "#EXTM3U", "#EXT-X-TARGETDURATION:2", "#EXT-X-SERVER-CONTROL:HOLD-BACK=5",
                "#EXT-X-MEDIA-SEQUENCE:\(first)",
            ]
            for number in first...newest { lines += ["#EXTINF:\(fixture.durations[number % 4]),", "seg\(number).ts"] }
            return lines.joined(separator: "\n") + "\n"
        }
        let driver = LoopbackDriver()
        origin.set("/live/index.m3u8", .playlist(window(at: 0)))
        driver.display.loadStream(origin.url("/live/index.m3u8"), subtitles: nil)
        driver.display.play()
        await driver.run(for: 29) { now in origin.set("/live/index.m3u8", .playlist(window(at: now))) }
        let values = driver.recorder.metadata.compactMap { $0.values["TXXX"] }
        // The window is 10 s; 5 s of hold-back starts playback at segment 2 (4 s),
        // and 29 s later the playhead is at 33 s: frames 0.5 s into segments 5, 9 and 13.
        #expect(values == ["google_n5", "google_n9", "google_n13"])
        let times = driver.recorder.metadata.map(\.time)
        #expect(times == times.sorted())
        let status = driver.display.status
        #expect(status.isLive)
        #expect(status.stallCount == 0)
        #expect(status.error == nil)
        // A reload every 2 s after a change (half of that after none), never faster.
        let reloads = origin.requestCount("/live/index.m3u8")
        #expect(reloads >= 14 && reloads <= 30)
    }

    @Test func aMissingSegmentOverHTTPIsADisplayError() async throws {
        let fixture = try await Self.fixture()
        let origin = try LoopbackOrigin()
        defer { origin.shutdown() }
        origin.set("/vod/index.m3u8", .playlist(fixture.vodPlaylist(["s0.ts", "gone.ts"], segments: [0, 1])))
        origin.set("/vod/s0.ts", .segment(fixture.low[0]))
        let driver = LoopbackDriver()
        driver.display.load(origin.url("/vod/index.m3u8"), subtitles: nil)
        driver.display.play()
        await driver.run(for: 5)
        #expect(driver.recorder.calls.filter { $0 == "error" }.count == 1)
        #expect(driver.display.status.error?.httpStatus == 404)
        #expect(driver.display.status.error?.message.contains("gone.ts answered HTTP 404") == true)
    }

    @Test func aSegmentThatStallsTimesOut() async throws {
        let fixture = try await Self.fixture()
        let origin = try LoopbackOrigin()
        defer { origin.shutdown() }
        origin.set("/vod/index.m3u8", .playlist(fixture.vodPlaylist(["s0.ts"], segments: [0])))
        origin.set(
            "/vod/s0.ts",
            LoopbackOrigin.Resource(
                contentType: "video/mp2t", body: fixture.low[0], delivery: .delayed(milliseconds: 5000)))
        let driver = LoopbackDriver(.init(segmentTimeout: 0.5, retryLimit: 0))
        driver.display.load(origin.url("/vod/index.m3u8"), subtitles: nil)
        driver.display.play()
        await driver.run(for: 1)
        #expect(driver.display.status.error?.code == .timedOut)
    }

    @Test func aStreamURLThatIsNotHLSIsADisplayError() async throws {
        let origin = try LoopbackOrigin()
        defer { origin.shutdown() }
        origin.set("/page", LoopbackOrigin.Resource(contentType: "text/html", body: Array("<html></html>".utf8)))
        let driver = LoopbackDriver()
        driver.display.load(origin.url("/page"), subtitles: nil)
        await driver.run(for: 1)
        #expect(driver.display.status.error?.code == .notHLS)
        #expect(driver.display.status.error?.message.contains("text/html") == true)
    }

    @Test func damagedTransportStreamsAreSkippedOverAndCounted() async throws {
        let fixture = try await Self.fixture()
        let origin = try LoopbackOrigin()
        defer { origin.shutdown() }
        // s0: the PMT's CRC broken in every copy; s1: cut in the middle of a packet;
        // s2: an ID3 PES whose tag size has its high bit set, then a good one.
        var brokenPMT = fixture.low[0]
        for packet in stride(from: 0, to: brokenPMT.count, by: 188) {
            let pid = UInt16(brokenPMT[packet + 1] & 0x1F) << 8 | UInt16(brokenPMT[packet + 2])
            if pid == 0x1000 { brokenPMT[packet + 28] ^= 0xFF }  // inside the CRC_32
        }
        let truncated = Array(fixture.low[1].prefix(fixture.low[1].count / 2 + 77))
        let badTag: [UInt8] = [0x49, 0x44, 0x33, 4, 0, 0, 0x80, 0x7F, 0x7F, 0x7F] + Array(repeating: 0x41, count: 20)
        let injector = try TSMetadataInjector(segment: fixture.low[2])
        // One packet, counter 15, so the good PES after it (counter 0) runs on without a break.
        var counter: UInt8 = 15
        let badPES = try PESPacket(streamID: PESPacket.privateStream1, pts: fixture.firstVideoPTS[2], payload: badTag)
            .encodedPackets(pid: injector.metadataPID, continuityCounter: &counter)
        let unknownFrame = ID3Tag(frames: [.other(id: "XYZW", data: [1, 2]), .userText(description: "", value: "ok")])
        let good = try injector.metadataPackets([(pts: fixture.firstVideoPTS[2] + 45_000, tag: unknownFrame)])
        let damagedID3 =
            Array(injector.segment[..<injector.insertionOffset]) + badPES + good
            + Array(injector.segment[injector.insertionOffset...])
        let names = ["s0.ts", "s1.ts", "s2.ts", "s3.ts"]
        origin.set("/bad/index.m3u8", .playlist(fixture.vodPlaylist(names, segments: [0, 1, 2, 3])))
        for (name, bytes) in zip(names, [brokenPMT, truncated, damagedID3, fixture.low[3]]) {
            origin.set("/bad/\(name)", .segment(bytes))
        }
        let driver = LoopbackDriver(.init(speed: 4))
        driver.display.load(origin.url("/bad/index.m3u8"), subtitles: nil)
        driver.display.play()
        await driver.run(for: 3)
        #expect(driver.recorder.milestones == ["load", "start", "complete"])
        #expect(driver.display.status.transportStreamIssues > 0)
        // The bad tag is skipped; the good one's frames both arrive, the unknown one as hex.
        #expect(driver.recorder.metadata.map(\.values) == [["XYZW": "0102"], ["TXXX": "ok"]])
    }
}
