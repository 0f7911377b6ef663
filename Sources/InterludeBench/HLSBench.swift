import Foundation
import InterludeHLS

/// `interlude-bench hls [DIR]`: times parse, write and parse+splice+write of
/// a 900-segment VOD playlist, a 6-segment live window with a CUE-OUT/CUE-IN
/// break and an 8-variant multivariant playlist (generated, or read from DIR
/// as vod.m3u8, live.m3u8 and multivariant.m3u8), then times the Python
/// `m3u8` package on the same files through scripts/bench-m3u8.py; then the
/// live stitcher's per-reload CPU with its state (`HLSLiveBench`).
/// `--profile FILE [STEP]` runs one path in a loop for `perf record` instead.
func runHLSBench(arguments: [String]) throws {
    if arguments.first == "--profile" {
        try runHLSProfile(arguments: Array(arguments.dropFirst()))
        return
    }
    let directory: URL
    if let path = arguments.first {
        directory = URL(fileURLWithPath: path)
    } else {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("interlude-hls-bench")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        for (name, text) in HLSBenchPlaylists.all {
            try Data(text.utf8).write(to: directory.appendingPathComponent(name))
        }
    }
    print("InterludeHLS benchmark, playlists in \(directory.path)")
    print("file               bytes  parse µs  write µs  parse+splice+write µs")
    var results: [String: HLSBenchResult] = [:]
    for (name, _) in HLSBenchPlaylists.all {
        let bytes = [UInt8](try Data(contentsOf: directory.appendingPathComponent(name)))
        let result = try HLSBenchResult(name: name, bytes: bytes)
        results[name] = result
        let splice = result.spliceMicroseconds.map { format($0) } ?? "-"
        print(
            "\(pad(name, 17)) \(pad(String(bytes.count), 6, left: true))  \(pad(format(result.parseMicroseconds), 8, left: true))  \(pad(format(result.writeMicroseconds), 8, left: true))  \(pad(splice, 21, left: true))"
        )
    }
    let liveBytes = [UInt8](try Data(contentsOf: directory.appendingPathComponent("live.m3u8")))
    HLSLiveBench.print(try HLSLiveBench.run(liveBytes: liveBytes))
    guard let python = HLSBenchPython.run(directory: directory) else {
        print("Python m3u8 comparison skipped (python3 with `m3u8` and scripts/bench-m3u8.py not found)")
        return
    }
    print("\nPython m3u8 \(python.version) on the same files")
    print("file               m3u8 parse µs  m3u8 parse+dump µs  parse ratio  parse+write ratio")
    for (name, _) in HLSBenchPlaylists.all {
        guard let ours = results[name], let theirs = python.files[name] else { continue }
        let parseRatio = theirs.parse / ours.parseMicroseconds
        let roundTripRatio = (theirs.parse + theirs.dump) / (ours.parseMicroseconds + ours.writeMicroseconds)
        print(
            "\(pad(name, 17)) \(pad(format(theirs.parse), 14, left: true))  \(pad(format(theirs.parse + theirs.dump), 18, left: true))  \(pad(String(format: "%.1fx", parseRatio), 11, left: true))  \(pad(String(format: "%.1fx", roundTripRatio), 17, left: true))"
        )
    }
}

private func format(_ microseconds: Double) -> String {
    microseconds < 10 ? String(format: "%.2f", microseconds) : String(format: "%.1f", microseconds)
}

private func pad(_ text: String, _ width: Int, left: Bool = false) -> String {
    let padding = String(repeating: " ", count: max(0, width - text.count))
    return left ? padding + text : text + padding
}

/// Times of one playlist, best of several batches, in microseconds per playlist.
struct HLSBenchResult {
    var parseMicroseconds: Double
    var writeMicroseconds: Double
    var spliceMicroseconds: Double?

    init(name: String, bytes: [UInt8]) throws {
        let parser = HLSParser()
        let playlist = try parser.parse(bytes)
        parseMicroseconds = Self.measure { _ = try? parser.parse(bytes) }
        writeMicroseconds = Self.measure { _ = HLSWriter.bytes(playlist) }
        guard case .media(let media) = playlist else { return }
        let pod = HLSBenchPlaylists.threeAdPod
        if !media.adBreaks.isEmpty {
            // Live: replace the break the source announced (the stitcher's job).
            spliceMicroseconds = Self.measure {
                guard var parsed = try? parser.parseMedia(bytes), let found = parsed.adBreaks.first else { return }
                guard (try? parsed.replaceAdBreak(found, with: pod)) != nil else { return }
                _ = HLSWriter.bytes(parsed)
            }
        } else {
            // VOD: insert a mid-roll at the middle segment boundary.
            let boundary = media.segments.count / 2
            spliceMicroseconds = Self.measure {
                guard var parsed = try? parser.parseMedia(bytes), (try? parsed.insertAdPod(pod, at: boundary)) != nil
                else { return }
                _ = HLSWriter.bytes(parsed)
            }
        }
    }

    /// Runs `body` in batches of about 50 ms and returns the best batch's time per call.
    static func measure(_ body: () -> Void) -> Double {
        let clock = ContinuousClock()
        var iterations = 1
        while true {
            let elapsed = clock.measure { for _ in 0..<iterations { body() } }
            if elapsed > .milliseconds(50) { break }
            iterations *= 2
        }
        var best = Double.infinity
        for _ in 0..<7 {
            let elapsed = clock.measure { for _ in 0..<iterations { body() } }
            let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
            best = min(best, seconds * 1e6 / Double(iterations))
        }
        return best
    }
}
