import Foundation
import InterludeHLS

/// `interlude-bench ts [FILE]`: the MPEG-TS toolkit on one segment (FILE, or
/// a 4 s 1280×720 H.264/AAC segment made with ffmpeg, or a generated stand-in
/// without ffmpeg): preparing an injector (with and without a PMT rewrite),
/// adding five ID3 tags per request, and demuxing; each beside a plain copy
/// of the same bytes measured in the same run, and the demuxer beside
/// `ffprobe` reading the same segment's timed-ID3 packets.
enum TSBench {
    static let tags: [(pts: UInt64, tag: ID3Tag)] = ["start", "firstquartile", "midpoint", "thirdquartile", "complete"]
        .enumerated().map { index, event in
            (
                pts: 900_000 + UInt64(index) * 90_000,
                tag: ID3Tag(frames: [.userText(description: "", value: "google_\(event)_1234567890")])
            )
        }

    static func run(arguments: [String]) throws {
        let (segment, source) = try loadSegment(arguments.first)
        let megabytes = Double(segment.count) / 1_048_576
        print("interlude-bench ts — \(source), \(segment.count) bytes (\(segment.count / 188) packets)")
        let declared = try TSMetadataInjector.declaringID3Stream(in: segment)
        let undeclared = try TSMetadataInjector(segment: segment).rewroteProgramMap
        let injector = try TSMetadataInjector(segment: declared)
        let injected = try injector.injecting(tags)
        var sink = 0

        var destination = [UInt8](repeating: 0, count: segment.count)
        let copy = measure {
            destination.withUnsafeMutableBufferPointer { target in
                _ = segment.withUnsafeBufferPointer { memcpy(target.baseAddress!, $0.baseAddress!, segment.count) }
            }
            sink &+= Int(destination[destination.count / 2])
        }
        // What serving a copy costs at least: a new array of the segment's bytes.
        let allocateAndCopy = measure {
            let copied = [UInt8](unsafeUninitializedCapacity: segment.count) { target, count in
                _ = segment.withUnsafeBufferPointer { memcpy(target.baseAddress!, $0.baseAddress!, segment.count) }
                count = segment.count
            }
            sink &+= Int(copied[copied.count / 2])
        }
        let inject = measure { sink &+= (try? injector.injecting(tags))?.count ?? 0 }
        let packetsOnly = measure { sink &+= (try? injector.metadataPackets(tags))?.count ?? 0 }
        let prepare = measure { sink &+= (try? TSMetadataInjector(segment: declared))?.insertionOffset ?? 0 }
        let rewrite = measure { sink &+= (try? TSMetadataInjector(segment: segment))?.insertionOffset ?? 0 }
        let demux = measure { sink &+= (try? TSSegmentSummary(segment: injected))?.timedMetadata.count ?? 0 }
        let incremental = measure {
            var demuxer = TSDemuxer()
            var start = 0
            while start < injected.count {
                sink &+= demuxer.feed(injected[start..<min(injected.count, start + 65_536)]).count
                start += 65_536
            }
            sink &+= demuxer.finish().count
        }

        func line(_ label: String, _ microseconds: Double, bytes: Int = segment.count) {
            let rate = Double(bytes) / 1_048_576 / (microseconds / 1e6)
            print(
                "  \(label.padding(toLength: 52, withPad: " ", startingAt: 0)) \(format(microseconds)) µs  "
                    + "\(String(format: "%8.0f", rate)) MB/s  \(format(microseconds / megabytes)) µs per MB")
        }
        print("reference (same run):")
        line("memcpy of the segment into a reused buffer", copy)
        line("a new array holding the segment's bytes", allocateAndCopy)
        print("per request, shared bytes prepared once:")
        line("injecting 5 TXXX tags (copy + 5 PES packets)", inject)
        line("  of which the 5 metadata packets alone", packetsOnly)
        print("once per segment:")
        line("prepare a declared segment (scan, no rewrite)", prepare)
        line(undeclared ? "prepare with the PMT rewritten (every PMT)" : "prepare (PMT already declared)", rewrite)
        print("reading (player, server checks):")
        line("TSSegmentSummary (demux, 5 ID3 PES)", demux, bytes: injected.count)
        line("TSDemuxer fed 64 KiB chunks", incremental, bytes: injected.count)
        print(String(format: "  injection costs %.2fx a new array of the segment's bytes", inject / allocateAndCopy))
        // ffprobe once over the segment and once over it 21 times in a row: the
        // difference is its reading time without the process start.
        if let once = try ffprobeMicroseconds(injected),
            let repeated = try ffprobeMicroseconds(Array([[UInt8]](repeating: injected, count: 21).joined())),
            repeated > once
        {
            let perSegment = (repeated - once) / 20
            line("ffprobe -show_packets, ID3 stream (one process)", once, bytes: injected.count)
            line("ffprobe per segment, process start taken out", perSegment, bytes: injected.count)
            print(
                String(
                    format: "  demuxer vs ffprobe without its start: %.1fx faster", perSegment / demux))
        } else {
            print("  ffprobe comparison skipped (ffprobe not found, or the timing was lost in noise)")
        }
        if sink == 42 { print("") }  // keeps the measured work from being optimised away
    }

    /// FILE, else a real segment from ffmpeg, else a generated one.
    static func loadSegment(_ path: String?) throws -> ([UInt8], String) {
        if let path { return ([UInt8](try Data(contentsOf: URL(fileURLWithPath: path))), path) }
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("interlude-ts-bench-720p-4s.ts")
        if let bytes = try? Data(contentsOf: url) {
            return ([UInt8](bytes), "ffmpeg 1280x720 4 s (cached \(url.path))")
        }
        if let ffmpeg = tool("ffmpeg") {
            let arguments = [
                "-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=size=1280x720:rate=30", "-f", "lavfi", "-i",
                "sine=frequency=440:sample_rate=48000", "-t", "4", "-c:v", "libx264", "-preset", "veryfast", "-g",
                "120",
                "-b:v", "1900k", "-maxrate", "1900k", "-bufsize", "3800k", "-c:a", "aac", "-b:a", "128k", "-ac", "2",
                "-f", "mpegts", url.path,
            ]
            if try runTool(ffmpeg, arguments) == 0, let bytes = try? Data(contentsOf: url) {
                return ([UInt8](bytes), "ffmpeg 1280x720 4 s (\(url.path))")
            }
        }
        return (try generatedSegment(), "generated stand-in (ffmpeg not found)")
    }

    /// About 1 MB: PAT/PMT every 40 packets, 4 s of 30 fps video PES of ~8 KB, AAC PES every 1024 samples.
    static func generatedSegment() throws -> [UInt8] {
        var output: [UInt8] = []
        var counters: [UInt16: UInt8] = [:]
        let pmt = ProgramMapTable(
            pcrPID: 0x100, streams: [.init(streamType: .h264, pid: 0x100), .init(streamType: .aacADTS, pid: 0x101)])
        func tables() throws {
            output += try ProgramAssociationTable(programs: [.init(number: 1, pid: 0x1000)])
                .encodedPackets(continuityCounter: &counters[0, default: 0])
            output += try pmt.encodedPackets(pid: 0x1000, continuityCounter: &counters[0x1000, default: 0])
        }
        try tables()
        for frame in 0..<120 {
            let pts = UInt64(126_000 + frame * 3000)
            output += try PESPacket(
                streamID: 0xE0, pts: pts, payload: [UInt8](repeating: UInt8(frame & 0xFF), count: 8000)
            )
            .encodedPackets(pid: 0x100, continuityCounter: &counters[0x100, default: 0])
            if frame % 2 == 0 {
                output += try PESPacket(streamID: 0xC0, pts: pts, payload: [UInt8](repeating: 0x21, count: 700))
                    .encodedPackets(pid: 0x101, continuityCounter: &counters[0x101, default: 0])
            }
            if frame % 3 == 0 { try tables() }
        }
        return output
    }

    static func ffprobeMicroseconds(_ bytes: [UInt8]) throws -> Double? {
        guard let ffprobe = tool("ffprobe") else { return nil }
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("interlude-ts-bench-injected.ts")
        try Data(bytes).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        let clock = ContinuousClock()
        var best = Double.infinity
        for _ in 0..<5 {
            let elapsed = try clock.measure {
                _ = try runTool(
                    ffprobe, ["-v", "error", "-show_packets", "-select_streams", "d", "-of", "compact", url.path])
            }
            best = min(best, Double(elapsed.components.seconds) * 1e6 + Double(elapsed.components.attoseconds) / 1e12)
        }
        return best
    }

    static func tool(_ name: String) -> String? {
        (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin").split(separator: ":").map { "\($0)/\(name)" }
            .first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    static func runTool(_ executable: String, _ arguments: [String]) throws -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.standardError
        try process.run()
        process.waitUntilExit()
        return process.terminationStatus
    }

    /// The best of seven batches of about 50 ms, in microseconds per call.
    static func measure(_ body: () -> Void) -> Double {
        let clock = ContinuousClock()
        var iterations = 1
        while clock.measure({ for _ in 0..<iterations { body() } }) < .milliseconds(50) { iterations *= 2 }
        var best = Double.infinity
        for _ in 0..<7 {
            let elapsed = clock.measure { for _ in 0..<iterations { body() } }
            let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
            best = min(best, seconds * 1e6 / Double(iterations))
        }
        return best
    }

    static func format(_ microseconds: Double) -> String { String(format: "%9.1f", microseconds) }
}
