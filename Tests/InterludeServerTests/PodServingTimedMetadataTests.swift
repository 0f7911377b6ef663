import Foundation
import InterludeHLS
import InterludeServerTestSupport
import InterludeTestSupport
import Testing

@testable import InterludeServer

/// Live pod segments of real conditioned media (``Catalog/podServingTest``,
/// made once with ffmpeg), read back by ffprobe, an independent demuxer:
/// each ad's five events are `timed_id3` packets at the PTS the spec puts
/// them (the segment's first PTS plus the event's offset into it) with the
/// event ID in their TXXX frame. libavformat drops the first five bytes of
/// each such PES (DAI.md §4), so the checks are count, PTS and frame ID.
@Suite(.enabled(if: PodMediaTools.available, "ffmpeg/ffprobe not installed; real-media pod tests skipped"))
struct PodServingTimedMetadataTests {
    static let ffprobe = PodMediaTools.ffprobe
    static let ffmpeg = PodMediaTools.ffmpeg

    /// The small catalog's media, made once for the suite.
    static let media: Result<TemporaryDirectory, MediaError> = {
        let directory = TemporaryDirectory(prefix: "interlude-pod-media")
        let plan = MediaPlan(
            catalog: Catalog.podServingTest, dataDirectory: directory.url, fontFile: MediaGenerator.findFont())
        do throws(MediaError) {
            _ = try MediaBuilder.system(dataDirectory: directory.url).build(plan)
            return .success(directory)
        } catch {
            return .failure(error)
        }
    }()

    /// The build, waited for on a thread of its own (it takes a minute of ffmpeg).
    static let building = Task { try await onOwnThread { try media.get() } }

    private func start() async throws -> AdServer {
        let directory = try await Self.building.value
        let server = try AdServer.start(
            AdServer.Configuration(
                host: "127.0.0.1", port: 0, dataDirectory: directory.url, catalog: .podServingTest,
                generatesMedia: false, http: HTTPServer.Configuration(threadCount: 2)))
        #expect(server.media.isComplete)
        return server
    }

    private func run(_ tool: String, _ arguments: [String]) throws -> (status: Int32, output: Data, errors: String) {
        // posix_spawn, not Foundation's `Process` (its `run()` crashes now and then on Linux).
        let outcome = try ChildProcess.run(tool, arguments)
        return (outcome.status, Data(outcome.output), String(decoding: outcome.errors, as: UTF8.self))
    }

    /// ffprobe's `timed_id3` packets of a segment: PTS and the bytes of their data.
    private func id3Packets(_ bytes: [UInt8]) throws -> [(pts: Int, data: [UInt8])] {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("pod-\(UUID().uuidString).ts")
        try Data(bytes).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let result = try run(
            Self.ffprobe!, ["-v", "error", "-show_streams", "-show_packets", "-show_data", "-of", "json", file.path])
        #expect(result.status == 0, "ffprobe: \(result.errors)")
        let json = try #require(try JSONSerialization.jsonObject(with: result.output) as? [String: Any])
        let streams = json["streams"] as? [[String: Any]] ?? []
        guard let index = streams.first(where: { $0["codec_name"] as? String == "timed_id3" })?["index"] as? Int
        else { return [] }
        let packets = json["packets"] as? [[String: Any]] ?? []
        let position = { (packet: [String: Any]) in Int(packet["pos"] as? String ?? "") ?? -1 }
        // Where each tag sits, as ffprobe reads it: the next video PES in the file is not earlier than
        // the tag (a tag ahead of the video at the head stalled GStreamer).
        let videoIndex = streams.first { $0["codec_type"] as? String == "video" }?["index"] as? Int
        let video = packets.filter { $0["stream_index"] as? Int == videoIndex }
        let tags = packets.filter { $0["stream_index"] as? Int == index }
        for tag in tags {
            let pts = (tag["pts"] as? Int) ?? -1
            if let next = video.first(where: { position($0) > position(tag) }) {
                #expect(
                    (next["pts"] as? Int ?? -1) >= pts, "ID3 at PTS \(pts) sits before video at \(next["pts"] ?? "?")")
            }
        }
        return tags.map { (($0["pts"] as? Int) ?? -1, Self.dumpBytes($0["data"] as? String ?? "")) }
    }

    /// The bytes of ffprobe's `-show_data` dump (`00000000: 4944 3304 …  ID3.`).
    static func dumpBytes(_ dump: String) -> [UInt8] {
        var bytes: [UInt8] = []
        for line in dump.split(separator: "\n") {
            guard let colon = line.firstIndex(of: ":") else { continue }
            let hex = line[line.index(after: colon)...].prefix(41).replacingOccurrences(of: " ", with: "")
            bytes += Hex.decode(hex) ?? []
        }
        return bytes
    }

    /// Where the spec puts an event, in ms into an ad of `duration` ms.
    private func offset(_ type: PodEventType, duration: Int) -> Int {
        switch type {
        case .start: 0
        case .firstQuartile: duration / 4
        case .midpoint: duration / 2
        case .thirdQuartile: duration * 3 / 4
        case .complete: duration - 33
        }
    }

    @Test func eachAdsFiveEventsAreTimedID3AtTheirPTSWithTheirIDs() async throws {
        let server = try await start()
        defer { server.shutdown() }
        let id = try PodServingTest.register(
            "/ssai/pods/api/v1/network/interlude/custom_asset/test-live/stream", port: server.port)
        let pod = "/linear/pods/v1/hls/network/interlude/custom_asset/test-live/pod/1"
        #expect(try Loopback.get("\(pod).m3u8?stream_id=\(id)&pd=20000", port: server.port).status == 200)
        let decision = try #require(try server.sessionStore.decisions(streamID: id).first)
        // 3 + 5 + 8 s of ads and 4 s of slate fill the 20 s pod.
        #expect(decision.ads.map(\.creativeID).sorted() == ["test-ad-3s", "test-ad-5s", "test-ad-8s"])
        for profile in server.media.profiles {
            let playlist = try Loopback.get(
                "\(pod)/profile/\(profile.id).m3u8?stream_id=\(id)&pd=20000", port: server.port)
            let media = try HLSParser().parseMedia(playlist.body)
            #expect(media.segments.map { Int(($0.duration.value * 1000).rounded()) }.reduce(0, +) == 20_000)
            var found: [(pts: Int, data: [UInt8])] = []
            for segment in media.segments {
                let response = try Loopback.get(segment.uri, port: server.port)
                #expect(response.status == 200)
                #expect(response.headers["Content-Type"] == "video/mp2t")
                found += try id3Packets(response.body)
            }
            // Where each event must be, from the conditioned segments themselves.
            var expected: [(pts: Int, id: String)] = []
            for ad in decision.ads {
                let segments = try #require(server.media.ad(ad.creativeID)?.renditions[profile.id])
                var starts: [Int] = []
                var elapsed = 0.0
                for segment in segments {
                    starts.append(Int((elapsed * 1000).rounded()))
                    elapsed += segment.duration
                }
                for event in ad.events {
                    let at = offset(event.type, duration: ad.duration)
                    let index = starts.lastIndex { $0 <= at } ?? 0
                    expected.append((Int(segments[index].firstPTS) + (at - starts[index]) * 90, event.id))
                }
            }
            #expect(found.count == decision.ads.count * 5, "\(profile.id)")
            #expect(found.map(\.pts) == expected.map(\.pts), "\(profile.id)")
            for (packet, event) in zip(found, expected) {
                let text = String(decoding: packet.data, as: UTF8.self)
                #expect(text.contains("TXXX"), "\(profile.id)")
                #expect(text.contains(event.id), "\(profile.id): \(event.id)")
            }
        }
    }

    @Test func aTaggedSegmentDecodesWithoutErrorAndOthersAreTheSharedBytes() async throws {
        let server = try await start()
        defer { server.shutdown() }
        let id = try PodServingTest.register(
            "/ssai/pods/api/v1/network/interlude/custom_asset/test-live/stream", port: server.port)
        let pod = "/linear/pods/v1/hls/network/interlude/custom_asset/test-live/pod/2"
        let playlist = try Loopback.get("\(pod)/profile/360p.m3u8?stream_id=\(id)&pd=12000", port: server.port)
        let media = try HLSParser().parseMedia(playlist.body)
        let first = try Loopback.get(try #require(media.segments.first?.uri), port: server.port)
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("pod-\(UUID().uuidString).ts")
        try Data(first.body).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let decode = try run(
            Self.ffmpeg!, ["-v", "error", "-i", file.path, "-map", "0:v", "-map", "0:a", "-f", "null", "-"])
        #expect(decode.status == 0)
        #expect(decode.errors.isEmpty, "ffmpeg said: \(decode.errors)")
        // The slate at the end carries no event: served as the file it is.
        let last = try Loopback.get(try #require(media.segments.last?.uri), port: server.port)
        let decision = try #require(try server.sessionStore.decisions(streamID: id).first)
        #expect(decision.slateDuration > 0)
        let slate = try #require(server.media.slate(profile: "360p", duration: 1).first)
        #expect(try id3Packets(last.body).isEmpty)
        #expect(last.body == Array(try Data(contentsOf: server.media.fileURL(for: slate))))
    }
}

extension PodServingTimedMetadataTests {
    /// VOD pod segments carry their events as live ones do, with the IDs the
    /// metadata resolves: Google's clients learn VOD ad events this way.
    @Test func vodPodSegmentsCarryTheMetadatasEventIDsAsTimedID3() async throws {
        let server = try await start()
        defer { server.shutdown() }
        let (id, metadata) = try PodServingTest.vodStreamWithPods(port: server.port)
        let expected = PodServingTest.eventIDs(metadata)
        #expect(expected.count >= 5)
        let profile = try #require(server.media.profiles.first).id
        var found: [String] = []
        for entry in metadata["breaks"] as? [[String: Any]] ?? [] {
            let index = try #require(entry["index"] as? Int)
            let path = "/ondemand/pods/api/v1/network/interlude/streams/\(id)/pods/\(index)/profile/\(profile).m3u8"
            let playlist = try Loopback.get(path, port: server.port)
            #expect(playlist.status == 200, "\(playlist.text)")
            let base = URL(string: "http://127.0.0.1\(path)")
            for segment in try HLSParser().parseMedia(playlist.body).segments {
                let url = try #require(URL(string: segment.uri, relativeTo: base))
                let response = try Loopback.get(url.path, port: server.port)
                #expect(response.status == 200)
                for packet in try id3Packets(response.body) {
                    let text = String(decoding: packet.data, as: UTF8.self)
                    #expect(text.contains("TXXX"))
                    found += expected.filter { text.contains($0) }
                }
            }
        }
        #expect(found == expected)
    }

    /// A conditioned segment already declares the ID3 stream, so its tagged
    /// form is the file's bytes around the packets added: the direct path
    /// sends those runs from the file with `sendfile` rather than copying them.
    @Test func aConditionedSegmentsTaggedFormIsFileBackedAroundThePackets() async throws {
        let server = try await start()
        defer { server.shutdown() }
        let media = LibraryPodMedia(library: server.media, catalog: .podServingTest)
        let segment = try #require(media.adSegments(creativeID: "test-ad-3s", profile: "180p")?.first)
        let slices = try media.tagged(segment, with: [(pts: segment.firstPTS, eventID: "google_test")])
        #expect(slices.count == 3)
        let path = media.filePath(of: segment)
        #expect(slices[0].bytes.file == path && slices[2].bytes.file == path)
        #expect(slices[1].bytes.file == nil && !slices[1].range.isEmpty)
        let file = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
        #expect(slices[0].bytes.whole.array == file)
    }
}

/// ffprobe and ffmpeg, when installed.
enum PodMediaTools {
    static let ffprobe = MediaGenerator.findExecutable("ffprobe")
    static let ffmpeg = MediaGenerator.findExecutable("ffmpeg")
    static var available: Bool { ffprobe != nil && ffmpeg != nil }
}
