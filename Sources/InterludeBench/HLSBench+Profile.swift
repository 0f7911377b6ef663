import InterludeHLS

/// `hls-bench --profile FILE [STEP]`: loops one path long enough for
/// `perf record`. STEP is `parse`, `adbreaks`, `replace`, `splice` or
/// `stitch` (the live stitcher's steady reload);
/// `steps` prints the time of each part of the live splice.
func runHLSProfile(arguments: [String]) throws {
    let name = arguments.first ?? "live.m3u8"
    let text = HLSBenchPlaylists.all.first { $0.0 == name }?.1 ?? HLSBenchPlaylists.live
    let bytes = Array(text.utf8)
    if arguments.count > 1 {
        // Step by step, to see where a splice spends its time.
        let playlist = try HLSParser().parseMedia(bytes)
        guard let adBreak = playlist.adBreaks.first else {
            print("\(name) has no ad break to splice")
            return
        }
        let spliced = try playlist.replacingAdBreak(adBreak, with: HLSBenchPlaylists.threeAdPod)
        if arguments[1] == "replace" {
            for _ in 0..<1_000_000 { _ = try? playlist.replacingAdBreak(adBreak, with: HLSBenchPlaylists.threeAdPod) }
            return
        }
        if arguments[1] == "splice" {
            for _ in 0..<1_000_000 {
                guard var parsed = try? HLSParser().parseMedia(bytes), let found = parsed.adBreaks.first else {
                    continue
                }
                _ = try? parsed.replaceAdBreak(found, with: HLSBenchPlaylists.threeAdPod)
                _ = HLSWriter.bytes(parsed)
            }
            return
        }
        if arguments[1] == "stitch" {
            // The live stitcher's steady reload (HLSLiveBench), for perf record.
            var warmed = LiveStitchTimeline()
            _ = try warmed.stitch(bytes: bytes, pods: HLSLiveBench.Pods())
            for _ in 0..<1_000_000 {
                var timeline = warmed
                _ = try? timeline.stitch(bytes: bytes, pods: HLSLiveBench.Pods())
            }
            return
        }
        if arguments[1] == "adbreaks" {
            for _ in 0..<3_000_000 { _ = playlist.adBreaks }
            return
        }
        if arguments[1] == "parse" {
            for _ in 0..<1_000_000 { _ = try? HLSParser().parseMedia(bytes) }
            return
        }
        print("parse", HLSBenchResult.measure { _ = try? HLSParser().parseMedia(bytes) })
        print("adBreaks", HLSBenchResult.measure { _ = playlist.adBreaks })
        print(
            "replace (copy)",
            HLSBenchResult.measure { _ = try? playlist.replacingAdBreak(adBreak, with: HLSBenchPlaylists.threeAdPod) })
        print(
            "parse+replace in place",
            HLSBenchResult.measure {
                guard var parsed = try? HLSParser().parseMedia(bytes) else { return }
                _ = try? parsed.replaceAdBreak(adBreak, with: HLSBenchPlaylists.threeAdPod)
            })
        print(
            "updateTimeline",
            HLSBenchResult.measure {
                var copy = spliced
                copy.updateTimeline()
            })
        print("write", HLSBenchResult.measure { _ = HLSWriter.bytes(spliced) })
        return
    }
    for _ in 0..<20 { _ = try HLSBenchResult(name: name, bytes: bytes) }
    return
}
