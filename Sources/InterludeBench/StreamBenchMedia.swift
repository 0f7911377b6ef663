import Foundation
import Interlude
import InterludeHLS

/// The media of `interlude-bench stream`: the shared content ladder
/// (360p 800 kbps, 540p 1600 kbps, 720p 2800 kbps, H.264 + AAC, 4 s
/// segments with a one-segment GOP) made once with ffmpeg, each segment
/// carrying one TXXX frame at its first video PTS as a pod-serving stream
/// does, and a live origin that serves it as a looping live channel.
struct StreamBenchMedia: Sendable {
    struct Rendition: Sendable {
        var name: String
        var width: Int
        var height: Int
        var bandwidth: Int
        /// Segments in order, with the TXXX frame injected.
        var segments: [Data]
        var durations: [Double]
    }

    static let segmentCount = 5
    static let segmentDuration = 4.0
    var renditions: [Rendition]

    /// Every segment's bytes, all renditions.
    var allSegments: [Data] { renditions.flatMap(\.segments) }

    /// Encodes the ladder into `directory` (kept: the next run reuses it).
    static func make(in directory: URL, ffmpeg: String) throws -> StreamBenchMedia {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let ladder = [("360p", 640, 360, 800), ("540p", 960, 540, 1600), ("720p", 1280, 720, 2800)]
        var renditions: [Rendition] = []
        for (name, width, height, kbps) in ladder {
            let playlist = directory.appendingPathComponent("\(name).m3u8")
            if !FileManager.default.fileExists(atPath: playlist.path) {
                try StreamBenchTools.run(
                    ffmpeg,
                    [
                        "-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=size=\(width)x\(height):rate=30", "-f",
                        "lavfi", "-i", "sine=frequency=440:sample_rate=48000", "-t",
                        "\(Int(segmentDuration) * segmentCount)", "-c:v", "libx264", "-preset", "ultrafast",
                        "-profile:v", "main", "-g", "120", "-keyint_min", "120", "-sc_threshold", "0", "-b:v",
                        "\(kbps)k", "-maxrate", "\(kbps)k", "-bufsize", "\(kbps)k", "-c:a", "aac", "-b:a", "128k",
                        "-ac", "2", "-f", "hls", "-hls_time", "4", "-hls_playlist_type", "vod",
                        "-hls_segment_filename", directory.appendingPathComponent("\(name)-%d.ts").path, playlist.path,
                    ])
            }
            let text = try String(contentsOf: playlist, encoding: .utf8)
            var segments: [Data] = []
            var durations: [Double] = []
            for line in text.split(separator: "\n") {
                if line.hasPrefix("#EXTINF:") {
                    durations.append(Double(line.dropFirst(8).prefix { $0 != "," }) ?? segmentDuration)
                } else if !line.hasPrefix("#") {
                    let bytes = [UInt8](try Data(contentsOf: directory.appendingPathComponent(String(line))))
                    let injector = try TSMetadataInjector(segment: bytes)
                    let tag = ID3Tag(frames: [.userText(description: "", value: "google_\(name)_\(segments.count)")])
                    segments.append(Data(try injector.injecting([(pts: injector.firstVideoPTS ?? 0, tag: tag)])))
                }
            }
            guard segments.count == segmentCount else {
                throw StreamBenchTools.Failure(
                    "ffmpeg wrote \(segments.count) segments for \(name), not \(segmentCount)")
            }
            let bits = Double(segments.map(\.count).reduce(0, +) * 8) / durations.reduce(0, +)
            renditions.append(
                Rendition(
                    name: name, width: width, height: height, bandwidth: Int(bits * 1.1), segments: segments,
                    durations: durations))
        }
        return StreamBenchMedia(renditions: renditions)
    }
}

/// A live channel over ``StreamBenchMedia`` on a clock: segment n becomes
/// available at `n × 4 s` after the start (five exist at once), the window
/// holds the last six, the source loops with a DISCONTINUITY at each wrap,
/// and every segment carries PROGRAM-DATE-TIME. Answers from memory, as an
/// ``HTTPClient`` (the display's own CPU) or behind an HTTP server.
struct StreamBenchOrigin: Sendable {
    let media: StreamBenchMedia
    let clock: any AdClock
    let start: TimeInterval
    static let windowSize = 6
    static let epoch = Date(timeIntervalSince1970: 1_700_000_000)

    init(media: StreamBenchMedia, clock: any AdClock) {
        self.media = media
        self.clock = clock
        self.start = clock.now
    }

    /// The answer for `path` (`/live/main.m3u8`, `/live/<rendition>.m3u8`, `/live/<rendition>/<n>.ts`).
    func respond(path: String) -> (status: Int, contentType: String, body: Data) {
        let parts = path.split(separator: "/").map(String.init)
        guard parts.count >= 2, parts[0] == "live" else { return (404, "text/plain", Data()) }
        if parts.count == 2, parts[1] == "main.m3u8" {
            var lines = ["#EXTM3U", "#EXT-X-INDEPENDENT-SEGMENTS"]
            for rendition in media.renditions {
                lines.append(
                    "#EXT-X-STREAM-INF:BANDWIDTH=\(rendition.bandwidth),RESOLUTION=\(rendition.width)x\(rendition.height),CODECS=\"avc1.4d401f,mp4a.40.2\""
                )
                lines.append("\(rendition.name).m3u8")
            }
            return (200, "application/vnd.apple.mpegurl", Data((lines.joined(separator: "\n") + "\n").utf8))
        }
        if parts.count == 2, parts[1].hasSuffix(".m3u8"),
            let rendition = media.renditions.first(where: { "\($0.name).m3u8" == parts[1] })
        {
            return (200, "application/vnd.apple.mpegurl", Data(window(rendition).utf8))
        }
        if parts.count == 3, let rendition = media.renditions.first(where: { $0.name == parts[1] }),
            let number = Int(parts[2].replacingOccurrences(of: ".ts", with: "")), number >= 0
        {
            return (200, "video/mp2t", rendition.segments[number % rendition.segments.count])
        }
        return (404, "text/plain", Data())
    }

    private func window(_ rendition: StreamBenchMedia.Rendition) -> String {
        let count = rendition.segments.count
        let newest = Int((clock.now - start) / StreamBenchMedia.segmentDuration) + count - 1
        let first = max(0, newest - Self.windowSize + 1)
        var lines = [
            "#EXTM3U", "#EXT-X-VERSION:3", "#EXT-X-TARGETDURATION:4", "#EXT-X-MEDIA-SEQUENCE:\(first)",
            "#EXT-X-DISCONTINUITY-SEQUENCE:\(first / count)",
        ]
        for number in first...newest {
            if number > first, number % count == 0 { lines.append("#EXT-X-DISCONTINUITY") }
            let date = Self.epoch.addingTimeInterval(Double(number) * StreamBenchMedia.segmentDuration)
            lines.append("#EXT-X-PROGRAM-DATE-TIME:\(HLSDateFormat.format(date))")
            lines.append("#EXTINF:\(rendition.durations[number % count]),")
            lines.append("\(rendition.name)/\(number).ts")
        }
        return lines.joined(separator: "\n") + "\n"
    }
}

/// ``StreamBenchOrigin`` as the display's HTTP client: no sockets, so the
/// CPU measured is the display's.
struct StreamBenchOriginClient: HTTPClient {
    let origin: StreamBenchOrigin

    func send(_ request: Interlude.HTTPRequest) async throws -> Interlude.HTTPResponse {
        let answer = origin.respond(path: request.url.path)
        return Interlude.HTTPResponse(
            statusCode: answer.status, headers: ["Content-Type": answer.contentType], body: answer.body,
            url: request.url)
    }
}

/// A clock `factor` times faster than the system clock: a run at 20×
/// plays twenty stream seconds a second with every timer, reload and
/// segment in the same proportion, so the work per stream hour is that of 1×.
struct ScaledClock: AdClock {
    let base = SystemClock()
    let factor: Double

    var now: TimeInterval { base.now * factor }

    func sleep(until deadline: TimeInterval) async throws { try await base.sleep(until: deadline / factor) }
}

enum StreamBenchTools {
    struct Failure: Error, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = description }
    }

    /// The path of an executable on PATH, or nil.
    static func tool(_ name: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return path.split(separator: ":").map { "\($0)/\(name)" }.first {
            FileManager.default.isExecutableFile(atPath: $0)
        }
    }

    /// Runs a tool to its end; its standard output, or a failure with its standard error.
    @discardableResult
    static func run(_ executable: String, _ arguments: [String]) throws -> Data {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let output = Pipe()
        let error = Pipe()
        process.standardOutput = output
        process.standardError = error
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        let message = String(decoding: error.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw Failure("\(executable) failed (\(process.terminationStatus)): \(message)")
        }
        return data
    }
}
