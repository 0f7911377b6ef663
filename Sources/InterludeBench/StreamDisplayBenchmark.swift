import Foundation
import Interlude
import InterludeHLS
import InterludePlayer
import InterludeServer

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `interlude-bench display`: what `HLSStreamDisplay` costs.
///
/// 1. CPU per hour of a 3-rendition live stream at 1×, and resident memory
///    over a long run: the display plays the top variant of the live origin
///    on a clock `factor` times faster than real time (every tick, reload
///    and segment scales with it, so the work per stream hour is that of
///    1×); `getrusage` before and after gives the CPU, `/proc` the memory
///    every ten stream minutes. The origin answers from memory, so the CPU
///    is the display's own (scheduling, playlists, the TS/ID3 reader).
/// 2. The same over real HTTP (URLSession to a loopback server in this
///    process): display, URLSession and server together, an upper bound.
/// 3. The ID3 reader (`TSDemuxer`, as the display reads each segment) on
///    the same segments as `ffprobe` listing their timed-ID3 packets, per
///    CPU second.
@MainActor
enum StreamDisplayBenchmark {
    /// Counts what the display reports.
    final class Counter: VideoDisplayDelegate {
        var metadata = 0
        var progress = 0
        var errors: [String] = []
        func videoDisplayDidLoad(_ display: any VideoDisplay) {}
        func videoDisplayDidStart(_ display: any VideoDisplay) {}
        func videoDisplayDidPause(_ display: any VideoDisplay) {}
        func videoDisplayDidResume(_ display: any VideoDisplay) {}
        func videoDisplayDidComplete(_ display: any VideoDisplay) {}
        func videoDisplayDidClick(_ display: any VideoDisplay) {}
        func videoDisplay(_ display: any VideoDisplay, didReceiveError error: Error) { errors.append("\(error)") }
        func videoDisplay(
            _ display: any VideoDisplay, didProgressToMediaTime mediaTime: TimeInterval, totalTime: TimeInterval
        ) { progress += 1 }
        func videoDisplay(_ display: any VideoDisplay, didReceiveTimedMetadata metadata: [String: String]) {
            self.metadata += 1
        }
    }

    static func run(arguments: [String]) async -> Int32 {
        var hours = 2.0
        var factor = 20.0
        var loopbackHours = 0.5
        var index = 0
        while index < arguments.count {
            let value = index + 1 < arguments.count ? Double(arguments[index + 1]) : nil
            switch (arguments[index], value) {
            case ("--hours", let value?): hours = value
            case ("--factor", let value?): factor = value
            case ("--loopback-hours", let value?): loopbackHours = value
            default:
                FileHandle.standardError.write(
                    Data("usage: interlude-bench display [--hours H] [--factor F] [--loopback-hours H]\n".utf8))
                return 2
            }
            index += 2
        }
        guard let ffmpeg = StreamBenchTools.tool("ffmpeg"), let ffprobe = StreamBenchTools.tool("ffprobe") else {
            FileHandle.standardError.write(Data("interlude-bench display: needs ffmpeg and ffprobe on PATH\n".utf8))
            return 1
        }
        let media: StreamBenchMedia
        do {
            media = try StreamBenchMedia.make(
                in: FileManager.default.temporaryDirectory.appendingPathComponent("interlude-bench-stream-media"),
                ffmpeg: ffmpeg)
        } catch {
            FileHandle.standardError.write(Data("interlude-bench display: \(error)\n".utf8))
            return 1
        }
        print("interlude-bench display — \(ProcessInfo.processInfo.processorCount) cores, \(Date())")
        for rendition in media.renditions {
            let bytes = rendition.segments.map(\.count).reduce(0, +)
            print(
                "  \(rendition.name): \(rendition.segments.count) × 4 s segments, \(bytes / 1024) KiB, BANDWIDTH \(rendition.bandwidth)"
            )
        }
        let inMemory = await playLive(media, hours: hours, factor: factor, overHTTP: false)
        let loopback = await playLive(media, hours: loopbackHours, factor: factor, overHTTP: true)
        let reader = readerThroughput(media, ffprobe: ffprobe)
        return inMemory && loopback && reader ? 0 : 1
    }

    /// Plays the live channel's top variant for `hours` of stream time at `factor`×.
    static func playLive(_ media: StreamBenchMedia, hours: Double, factor: Double, overHTTP: Bool) async -> Bool {
        guard hours > 0 else { return true }
        let clock = ScaledClock(factor: factor)
        let origin = StreamBenchOrigin(media: media, clock: clock)
        var server: HTTPServer?
        let client: any HTTPClient
        let base: String
        if overHTTP {
            do {
                server = try HTTPServer.start(host: "127.0.0.1", port: 0) { request in
                    let answer = origin.respond(path: request.path)
                    return InterludeServer.HTTPResponse(
                        status: answer.status, headers: HTTPHeaders([("Content-Type", answer.contentType)]),
                        body: .bytes([UInt8](answer.body)))
                }
            } catch {
                print("  cannot start the loopback server: \(error)")
                return false
            }
            client = URLSessionHTTPClient(maxResponseSize: 64 << 20)
            base = "http://127.0.0.1:\(server?.port ?? 0)"
        } else {
            client = StreamBenchOriginClient(origin: origin)
            base = "http://bench.origin"
        }
        defer { server?.shutdown() }
        let display = HLSStreamDisplay(httpClient: client, clock: clock)
        let counter = Counter()
        display.delegate = counter
        let label =
            overHTTP ? "over loopback HTTP (URLSession + server in process)" : "origin in memory (the display alone)"
        print(String(format: "live, top variant, %.1f h of stream at %.0f×, %@:", hours, factor, label))
        display.loadStream(URL(string: "\(base)/live/main.m3u8")!, subtitles: nil)
        display.play()
        let sampleEvery = 600.0  // stream seconds
        let samples = max(1, Int((hours * 3600 / sampleEvery).rounded()))
        try? await clock.sleep(for: 60)  // past startup
        let cpuStart = ManagerBenchmark.cpuSeconds()
        let streamStart = display.currentMediaTime
        var resident: [Double] = []
        for _ in 0..<samples {
            try? await clock.sleep(for: sampleEvery)
            resident.append(ManagerBenchmark.residentMiB())
        }
        let cpu = ManagerBenchmark.cpuSeconds() - cpuStart
        let streamSeconds = display.currentMediaTime - streamStart
        let status = display.status
        display.reset()
        let perHour = cpu / max(streamSeconds, 1) * 3600
        print(
            String(
                format:
                    "  CPU %.2f s per stream hour = %.3f%% of one core at 1× (target < 1%%); %.0f s of stream played",
                perHour, perHour / 3600 * 100, streamSeconds))
        print(
            "  \(status.segmentsDownloaded) segments, \(status.bytesDownloaded / 1_048_576) MiB, \(status.playlistLoads) playlist loads (\(status.unchangedReloads) unchanged), \(counter.metadata) ID3 frames reported, \(counter.progress) progress reports, \(status.stallCount) stalls, \(status.discontinuitiesSeen) discontinuities"
        )
        print(
            "  resident MiB every 10 stream minutes: "
                + resident.map { String(format: "%.1f", $0) }.joined(separator: " "))
        if resident.count > 1 {
            print(
                String(
                    format: "  growth from the first sample to the last: %+.2f MiB (target: flat)",
                    resident[resident.count - 1] - resident[0]))
        }
        if !counter.errors.isEmpty || status.error != nil {
            print("  errors: \(counter.errors) \(status.error.map { "\($0)" } ?? "")")
            return false
        }
        return true
    }

    /// The display's TS/ID3 reader against ffprobe on the same bytes: the
    /// segments repeated to about 100 MiB, so ffprobe's start-up (measured
    /// apart, on one segment) is a small part of its time. Throughput is per
    /// CPU second (`getrusage` of this process, and of the finished ffprobe
    /// children), which other work on a shared machine disturbs far less than
    /// wall time.
    static func readerThroughput(_ media: StreamBenchMedia, ffprobe: String) -> Bool {
        let once = media.allSegments
        let repeats = max(1, 100 * 1_048_576 / max(1, once.map(\.count).reduce(0, +)))
        let segments = Array(repeating: once, count: repeats).flatMap { $0 }
        let bytes = segments.map(\.count).reduce(0, +)
        let directory = FileManager.default.temporaryDirectory
        let path = directory.appendingPathComponent("interlude-bench-all.ts")
        let single = directory.appendingPathComponent("interlude-bench-one.ts")
        var joined = Data()
        for segment in segments { joined.append(segment) }
        guard (try? joined.write(to: path)) != nil, (try? once[0].write(to: single)) != nil else { return false }
        defer {
            try? FileManager.default.removeItem(at: path)
            try? FileManager.default.removeItem(at: single)
        }
        print(
            "ID3 reader on \(once.count) segments × \(repeats) (\(bytes / 1_048_576) MiB, all three renditions), 2 s or more each:"
        )

        var frames = 0
        var passes = 0
        let started = Date()
        let cpuStarted = ManagerBenchmark.cpuSeconds()
        while Date().timeIntervalSince(started) < 2 || passes < 2 {
            frames = 0
            for segment in segments {
                var demuxer = TSDemuxer()
                for event in demuxer.feed(segment) + demuxer.finish() {
                    if case .timedMetadata(let item) = event { frames += item.frames.count }
                }
            }
            passes += 1
        }
        let ours = Double(bytes * passes) / (ManagerBenchmark.cpuSeconds() - cpuStarted) / 1_048_576

        func probe(_ file: URL) -> (seconds: Double, packets: Int) {
            let begun = childCPUSeconds()
            let output =
                (try? StreamBenchTools.run(
                    ffprobe,
                    ["-v", "error", "-select_streams", "d", "-show_entries", "packet=pts", "-of", "csv=p=0", file.path]))
                ?? Data()
            let packets = String(decoding: output, as: UTF8.self).split(separator: "\n").filter { !$0.isEmpty }.count
            return (childCPUSeconds() - begun, packets)
        }
        let startup = (0..<5).map { _ in probe(single).seconds }.min() ?? 0
        var probeSeconds: [Double] = []
        var probePackets = 0
        while probeSeconds.reduce(0, +) < 2 || probeSeconds.count < 2 {
            let pass = probe(path)
            probeSeconds.append(pass.seconds)
            probePackets = pass.packets
        }
        let perPass = probeSeconds.reduce(0, +) / Double(probeSeconds.count)
        let theirs = Double(bytes) / perPass / 1_048_576
        let theirsWithoutStartup = Double(bytes) / max(perPass - startup, 1e-6) / 1_048_576
        print(
            String(
                format: "  TSDemuxer (as HLSStreamDisplay reads segments): %8.1f MiB per CPU second, %d ID3 frames",
                ours,
                frames))
        print(
            String(
                format:
                    "  ffprobe listing timed_id3 packets:              %8.1f MiB per CPU second, %d packets (%.1f without its %.3f CPU s start-up)",
                theirs, probePackets, theirsWithoutStartup, startup))
        print(
            String(
                format: "  ratio: %.1f× ffprobe (%.1f× without its start-up)", ours / theirs,
                ours / theirsWithoutStartup))
        return frames == segments.count && probePackets == segments.count
    }

    /// CPU seconds (user + system) of this process's finished children.
    static func childCPUSeconds() -> Double {
        var usage = rusage()
        #if os(Linux)
            getrusage(__rusage_who_t(RUSAGE_CHILDREN.rawValue), &usage)
        #else
            getrusage(RUSAGE_CHILDREN, &usage)
        #endif
        return Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) / 1e6 + Double(usage.ru_stime.tv_sec)
            + Double(usage.ru_stime.tv_usec) / 1e6
    }
}
