import Foundation
import InterludeHLS
import InterludeServer
import Testing

/// Real HLS media made with ffmpeg once per test run, in a temporary
/// directory: two renditions (160×90 and 320×180, H.264 + AAC in MPEG-TS)
/// of the same 8 s, cut by ffmpeg's HLS muxer into 2 s segments. Facts the
/// tests compare with (durations, first video PTS) are read from ffmpeg's
/// own playlist and from ffprobe, not from the code under test.
struct HLSMediaFixture: Sendable {
    /// ffmpeg's segments of the low rendition, in order.
    let low: [[UInt8]]
    /// ffmpeg's segments of the high rendition, in order.
    let high: [[UInt8]]
    /// The EXTINF durations ffmpeg wrote for the low rendition.
    let durations: [Double]
    /// The PTS of the first video packet of each low segment, as ffprobe reads it.
    let firstVideoPTS: [UInt64]

    static let ffmpeg = tool("ffmpeg")
    static let ffprobe = tool("ffprobe")
    static let isAvailable = ffmpeg != nil && ffprobe != nil
    static let skipMessage: Comment = "ffmpeg/ffprobe are not installed: install ffmpeg (scripts/install-deps.sh)"

    /// The fixture, made on first use (once, however many tests ask at the same time).
    static func shared() async throws(FixtureError) -> HLSMediaFixture {
        do { return try await cache.fixture() } catch let error as FixtureError { throw error } catch {
            throw FixtureError(description: "\(error)")
        }
    }

    private static let cache = Cache()

    private actor Cache {
        private var making: Task<HLSMediaFixture, any Error>?

        func fixture() async throws -> HLSMediaFixture {
            if let making { return try await making.value }
            let task = Task { () async throws -> HLSMediaFixture in try await HLSMediaFixture.make() }
            making = task
            return try await task.value
        }
    }

    struct FixtureError: Error, CustomStringConvertible {
        var description: String
    }

    private static func make() async throws(FixtureError) -> HLSMediaFixture {
        guard let ffmpeg, let ffprobe else { throw FixtureError(description: "ffmpeg or ffprobe is not installed") }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "interlude-hls-\(UUID().uuidString)")
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        } catch {
            throw FixtureError(description: "cannot create \(directory.path): \(error)")
        }
        defer { try? FileManager.default.removeItem(at: directory) }
        let low = try await encode(ffmpeg, size: "160x90", bitrate: "40k", name: "low", in: directory)
        let high = try await encode(ffmpeg, size: "320x180", bitrate: "120k", name: "high", in: directory)
        var firstPTS: [UInt64] = []
        for index in low.files.indices {
            let result = try await run(
                ffprobe,
                [
                    "-v", "error", "-select_streams", "v:0", "-show_entries", "packet=pts", "-of", "csv=p=0",
                    "-read_intervals", "%+#1", low.files[index].path,
                ], in: directory)
            let text = String(decoding: result, as: UTF8.self).split(separator: "\n").first.map(String.init) ?? ""
            guard let pts = UInt64(text.trimmingCharacters(in: CharacterSet(charactersIn: " ,\r"))) else {
                throw FixtureError(
                    description: "ffprobe gave no first video PTS for \(low.files[index].lastPathComponent)")
            }
            firstPTS.append(pts)
        }
        return HLSMediaFixture(
            low: try low.files.map(read), high: try high.files.map(read), durations: low.durations,
            firstVideoPTS: firstPTS)
    }

    private static func encode(_ ffmpeg: String, size: String, bitrate: String, name: String, in directory: URL)
        async throws(FixtureError) -> (files: [URL], durations: [Double])
    {
        let playlist = directory.appendingPathComponent("\(name).m3u8")
        _ = try await run(
            ffmpeg,
            [
                "-v", "error", "-f", "lavfi", "-i", "testsrc2=size=\(size):rate=30", "-f", "lavfi", "-i",
                "sine=frequency=440:sample_rate=48000", "-t", "8", "-c:v", "libx264", "-preset", "veryfast", "-g",
                "30", "-keyint_min", "30", "-sc_threshold", "0", "-b:v", bitrate, "-c:a", "aac", "-b:a", "16k", "-ac",
                "1", "-f", "hls", "-hls_time", "2", "-hls_playlist_type", "vod", "-hls_segment_filename",
                directory.appendingPathComponent("\(name)%d.ts").path, playlist.path,
            ], in: directory)
        let text = (try? String(contentsOf: playlist, encoding: .utf8)) ?? ""
        var files: [URL] = []
        var durations: [Double] = []
        for line in text.split(separator: "\n") {
            if line.hasPrefix("#EXTINF:") {
                durations.append(Double(line.dropFirst(8).prefix { $0 != "," }) ?? 0)
            } else if !line.hasPrefix("#") {
                files.append(directory.appendingPathComponent(String(line)))
            }
        }
        guard files.count == 4, durations.count == 4 else {
            throw FixtureError(description: "ffmpeg wrote \(files.count) segments, not 4:\n\(text)")
        }
        return (files, durations)
    }

    private static func read(_ url: URL) throws(FixtureError) -> [UInt8] {
        do { return [UInt8](try Data(contentsOf: url)) } catch {
            throw FixtureError(description: "cannot read \(url.path): \(error)")
        }
    }

    /// Runs a tool, niced (other tests keep their CPU), without blocking a
    /// thread of the concurrency pool: it runs on a thread of its own, through
    /// `ChildProcess` (posix_spawn), not Foundation's `Process`, whose `run()`
    /// crashes now and then on Linux (swift-corelibs-foundation #5472; a CI
    /// run of the tests died of it here).
    private static func run(_ executable: String, _ arguments: [String], in directory: URL) async throws(FixtureError)
        -> Data
    {
        let (tool, toolArguments) = nice.map { ($0, ["-n", "10", executable] + arguments) } ?? (executable, arguments)
        let result = await withCheckedContinuation {
            (continuation: CheckedContinuation<Result<ChildProcess.Outcome, ChildProcessError>, Never>) in
            Thread {
                continuation.resume(
                    returning: Result { () throws(ChildProcessError) in
                        try ChildProcess.run(tool, toolArguments)
                    })
            }.start()
        }
        let outcome: ChildProcess.Outcome
        switch result {
        case .success(let value): outcome = value
        case .failure(let error): throw FixtureError(description: "cannot run \(executable): \(error)")
        }
        guard outcome.status == 0 else {
            let message = String(decoding: outcome.errors, as: UTF8.self)
            throw FixtureError(description: "\(executable) \(arguments.joined(separator: " ")) failed: \(message)")
        }
        return Data(outcome.output)
    }

    private static let nice = tool("nice")

    private static func tool(_ name: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for directory in path.split(separator: ":") {
            let candidate = "\(directory)/\(name)"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }

    // MARK: Playlists and metadata for the tests

    /// A VOD media playlist over `names`, each with the low rendition's
    /// duration of `segments[i]`; `discontinuityBefore` marks segments.
    func vodPlaylist(_ names: [String], segments: [Int], discontinuityBefore: Set<Int> = [], extra: String = "")
        -> String
    {
        var lines = ["#EXTM3U", "#EXT-X-VERSION:3", "#EXT-X-TARGETDURATION:2", "#EXT-X-PLAYLIST-TYPE:VOD"]
        if !extra.isEmpty { lines.append(extra) }
        for (position, name) in names.enumerated() {
            if discontinuityBefore.contains(position) { lines.append("#EXT-X-DISCONTINUITY") }
            lines += ["#EXTINF:\(durations[segments[position]]),", name]
        }
        lines.append("#EXT-X-ENDLIST")
        return lines.joined(separator: "\n") + "\n"
    }

    /// Low segment `index` with a TXXX frame `value` `offset` seconds after its first video frame.
    func low(_ index: Int, withTXXX value: String, at offset: Double) throws -> [UInt8] {
        let pts = firstVideoPTS[index] + UInt64(offset * 90_000)
        let tag = ID3Tag(frames: [.userText(description: "", value: value)])
        return try TSMetadataInjector.inject([(pts: pts, tag: tag)], into: low[index])
    }
}
