import Foundation
import InterludeHLS

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The live stitcher's per-reload CPU: parse the origin window, find its
/// breaks, stitch with the stored state (`LiveStitchTimeline`), write.
enum HLSLiveBench {
    /// The bench's pod for every break: `HLSBenchPlaylists.threeAdPod`.
    struct Pods: LiveStitchPodProvider {
        func pod(for request: LiveBreakRequest) throws(HLSError) -> AdPod? { HLSBenchPlaylists.threeAdPod }
        func slate(duration: Double, for request: LiveBreakRequest) -> [AdSegment] {
            [AdSegment(uri: "https://ads.example.com/slate/1080p/\(Int(duration * 1000)).ts", duration: duration)]
        }
    }

    struct Result {
        /// One reload of live.m3u8 with its break already recorded (the steady state).
        var steadyReload: Double
        /// The stateless splice of the same window in the same run (the reference).
        var statelessSplice: Double
        /// Mean per reload over 40 reloads sliding across a break, state carried.
        var slidingReload: Double
        /// Parts of the steady reload.
        var parse: Double
        var stitch: Double
        var write: Double
    }

    /// Like `HLSBenchResult.measure`, in this thread's CPU time: on a shared
    /// machine the wall clock also counts the time other processes ran.
    static func measureCPU(_ body: () -> Void) -> Double {
        func now() -> Double {
            var time = timespec()
            clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
            return Double(time.tv_sec) * 1e6 + Double(time.tv_nsec) / 1e3
        }
        var iterations = 1
        while true {
            let start = now()
            for _ in 0..<iterations { body() }
            if now() - start > 50_000 { break }
            iterations *= 2
        }
        var best = Double.infinity
        for _ in 0..<7 {
            let start = now()
            for _ in 0..<iterations { body() }
            best = min(best, (now() - start) / Double(iterations))
        }
        return best
    }

    static func run(liveBytes: [UInt8]) throws -> Result {
        let parser = HLSParser()
        let pods = Pods()
        var warmed = LiveStitchTimeline()
        _ = try warmed.stitch(bytes: liveBytes, pods: pods)
        let steady = warmed
        let steadyReload = measureCPU {
            var timeline = steady
            _ = try? timeline.stitch(bytes: liveBytes, pods: pods, parser: parser)
        }
        let statelessSplice = measureCPU {
            guard var parsed = try? parser.parseMedia(liveBytes), let found = parsed.adBreaks.first else { return }
            guard (try? parsed.replaceAdBreak(found, with: HLSBenchPlaylists.threeAdPod)) != nil else { return }
            _ = HLSWriter.bytes(parsed)
        }
        let origin = try parser.parseMedia(liveBytes)
        let stitched = try warmed.stitch(origin, pods: pods)
        let parse = measureCPU { _ = try? parser.parseMedia(liveBytes) }
        let stitch = measureCPU {
            var timeline = steady
            _ = try? timeline.stitch(origin, pods: pods)
        }
        let write = measureCPU { _ = HLSWriter.bytes(stitched) }
        let windows = (0..<40).map { Array(slidingWindow(edge: 1045 + $0).utf8) }
        let sliding =
            measureCPU {
                var timeline = LiveStitchTimeline()
                for window in windows { _ = try? timeline.stitch(bytes: window, pods: pods, parser: parser) }
            } / Double(windows.count)
        return Result(
            steadyReload: steadyReload, statelessSplice: statelessSplice, slidingReload: sliding, parse: parse,
            stitch: stitch, write: write)
    }

    /// live.m3u8's shape as a channel: 6 s segments, an 18 s break every
    /// 60 s, the 6-segment window ending at `edge`.
    static func slidingWindow(edge: Int) -> String {
        let first = edge - 5
        let epoch = Date(timeIntervalSince1970: 1_714_564_800)
        var text = "#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:6\n#EXT-X-MEDIA-SEQUENCE:\(first)\n"
        for n in first...edge {
            let phase = n % 10
            if n == first {
                text += "#EXT-X-PROGRAM-DATE-TIME:\(HLSDateFormat.format(epoch.addingTimeInterval(Double(n) * 6)))\n"
            }
            if phase == 3 { text += "#EXT-X-CUE-OUT:18.000\n" }
            if phase == 4 || phase == 5 {
                text += "#EXT-X-CUE-OUT-CONT:ElapsedTime=\(Double(phase - 3) * 6),Duration=18.000\n"
            }
            if phase == 6 { text += "#EXT-X-CUE-IN\n" }
            text += "#EXTINF:6.000,\nlive/1080p/\(n).ts\n"
        }
        return text
    }

    static func print(_ result: Result) {
        Swift.print(
            "\nLive stitching, one reload of live.m3u8 (6 segments, one 18 s break replaced by a 3-ad pod), thread CPU time"
        )
        Swift.print(
            "  LiveStitchTimeline, state carried (parse, detect, stitch, write): \(String(format: "%.2f", result.steadyReload)) µs"
        )
        Swift.print(
            "    of which parse \(String(format: "%.2f", result.parse)) µs, detect+stitch \(String(format: "%.2f", result.stitch)) µs, write \(String(format: "%.2f", result.write)) µs"
        )
        Swift.print(
            "  40 reloads sliding over breaks, per reload:                    \(String(format: "%.2f", result.slidingReload)) µs"
        )
        Swift.print(
            "  reference, stateless parse+replaceAdBreak+write, same run:     \(String(format: "%.2f", result.statelessSplice)) µs"
        )
    }
}
