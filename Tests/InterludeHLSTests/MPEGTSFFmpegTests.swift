import Foundation
import Testing

@testable import InterludeHLS

/// Injected segments checked by libavformat, an independent reader: ffprobe
/// must see a `timed_id3` data stream with a packet at each PTS written and
/// the frame ID in its data, and ffmpeg must decode the segment with no
/// error. libavformat drops the first five bytes of each such PES (DAI.md
/// section 4), so the checks are on count, PTS and frame ID, not raw bytes.
/// Skipped, with a message, where ffmpeg is not installed (CI installs it).
@Suite struct MPEGTSFFmpegTests {
    static let ffprobe = MPEGTSFixture.tool("ffprobe")
    static let ffmpeg = MPEGTSFixture.tool("ffmpeg")

    static func probe(_ path: String) throws -> [String: Any] {
        let result = try MPEGTSFixture.run(
            Self.ffprobe!, ["-v", "error", "-show_streams", "-show_packets", "-show_data", "-of", "json", path])
        #expect(result.status == 0, "ffprobe: \(result.error)")
        return (try JSONSerialization.jsonObject(with: result.output) as? [String: Any]) ?? [:]
    }

    static func injected() throws -> [UInt8] {
        let tags: [(pts: UInt64, tag: ID3Tag)] = [
            (pts: 132_000, tag: ID3Tag(frames: [.userText(description: "", value: "google_start_0")])),
            (pts: 154_500, tag: ID3Tag(frames: [.userText(description: "", value: "google_firstquartile_0")])),
            (pts: 177_000, tag: ID3Tag(frames: [.privateData(owner: "interlude", data: [1, 2, 3])])),
        ]
        return try TSMetadataInjector.inject(tags, into: MPEGTSFixture.segment)
    }

    @Test(.enabled(if: ffprobe != nil, "ffprobe is not installed: install ffmpeg (scripts/install-deps.sh)"))
    func ffprobeSeesATimedID3StreamWithPacketsAtTheWrittenPTS() throws {
        let probe = try MPEGTSFixture.withTemporaryFile(Self.injected(), Self.probe)
        let streams = probe["streams"] as? [[String: Any]] ?? []
        let id3 = streams.first { $0["codec_name"] as? String == "timed_id3" }
        #expect(id3?["codec_type"] as? String == "data")
        #expect(streams.count == 3)
        let index = id3?["index"] as? Int
        let packets = (probe["packets"] as? [[String: Any]] ?? []).filter { $0["stream_index"] as? Int == index }
        #expect(packets.compactMap { $0["pts"] as? Int } == [132_000, 154_500, 177_000])
        // -show_data prints hex dumps whose right-hand column holds the ASCII.
        let data = packets.map { ($0["data"] as? String ?? "").replacingOccurrences(of: "\n", with: "") }
        #expect(data.count == 3)
        if data.count == 3 {
            #expect(data[0].contains("TXXX"))
            #expect(data[1].contains("TXXX"))
            #expect(data[2].contains("PRIV"))
        }
    }

    @Test(.enabled(if: ffmpeg != nil, "ffmpeg is not installed: install ffmpeg (scripts/install-deps.sh)"))
    func ffmpegDecodesTheInjectedSegmentWithoutError() throws {
        let result = try MPEGTSFixture.withTemporaryFile(Self.injected()) { path in
            try MPEGTSFixture.run(Self.ffmpeg!, ["-v", "error", "-i", path, "-map", "0", "-f", "null", "-"])
        }
        #expect(result.status == 0)
        #expect(result.error.isEmpty, "ffmpeg said: \(result.error)")
    }

    @Test(.enabled(if: ffprobe != nil, "ffprobe is not installed: install ffmpeg (scripts/install-deps.sh)"))
    func theHLSDemuxerSeesTheMetadataOfEverySegment() throws {
        // Two segments with a DISCONTINUITY between them, as a pod's ads are served.
        let first = try TSMetadataInjector.inject(
            [(pts: 132_000, tag: ID3Tag(frames: [.userText(description: "", value: "google_a")]))],
            into: MPEGTSFixture.segment)
        let second = try TSMetadataInjector.inject(
            [(pts: 140_000, tag: ID3Tag(frames: [.userText(description: "", value: "google_b")]))],
            into: MPEGTSFixture.segment)
        let playlist = """
            #EXTM3U
            #EXT-X-VERSION:3
            #EXT-X-TARGETDURATION:1
            #EXT-X-PLAYLIST-TYPE:VOD
            #EXTINF:1.0,
            a.ts
            #EXT-X-DISCONTINUITY
            #EXTINF:1.0,
            b.ts
            #EXT-X-ENDLIST

            """
        let result = try MPEGTSFixture.withTemporaryFile(first) { path in
            let directory = URL(fileURLWithPath: path).deletingLastPathComponent()
            try Data(first).write(to: directory.appendingPathComponent("a.ts"))
            try Data(second).write(to: directory.appendingPathComponent("b.ts"))
            let playlistPath = directory.appendingPathComponent("pod.m3u8").path
            try Data(playlist.utf8).write(to: URL(fileURLWithPath: playlistPath))
            return try MPEGTSFixture.run(
                Self.ffprobe!,
                ["-v", "error", "-show_packets", "-select_streams", "d", "-of", "json", playlistPath])
        }
        let json = (try JSONSerialization.jsonObject(with: result.output) as? [String: Any]) ?? [:]
        let packets = json["packets"] as? [[String: Any]] ?? []
        #expect(packets.compactMap { $0["pts"] as? Int } == [132_000, 140_000], "ffprobe: \(result.error)")
    }

    @Test(.enabled(if: ffprobe != nil, "ffprobe is not installed: install ffmpeg (scripts/install-deps.sh)"))
    func aDeclaredSegmentWithoutMetadataStillProbesAsTheOriginal() throws {
        let declared = try TSMetadataInjector.declaringID3Stream(in: MPEGTSFixture.segment)
        let probe = try MPEGTSFixture.withTemporaryFile(declared, Self.probe)
        let streams = probe["streams"] as? [[String: Any]] ?? []
        #expect(streams.compactMap { $0["codec_name"] as? String } == ["h264", "aac", "timed_id3"])
        let mediaPackets = (probe["packets"] as? [[String: Any]] ?? []).filter { ($0["stream_index"] as? Int ?? 9) < 2 }
        let original = try MPEGTSFixture.withTemporaryFile(MPEGTSFixture.segment, Self.probe)
        let originalPackets = original["packets"] as? [[String: Any]] ?? []
        #expect(mediaPackets.count == originalPackets.count)
        #expect(mediaPackets.compactMap { $0["pts"] as? Int } == originalPackets.compactMap { $0["pts"] as? Int })
    }
}
