// libFuzzer entry point for the playlist parser, compiled into one module
// with the InterludeHLS sources by scripts/fuzz-hls.sh (so no import).
// Beyond "no crash", it checks that what the writer produces reads back to
// an equal playlist, and runs every consumer of a parsed playlist.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTest(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let parser = HLSParser(options: HLSParserOptions(maximumInputSize: 1 << 20, maximumLineLength: 1 << 16))
    // The stored live stitch state's line format reads anything without trapping.
    _ = try? LiveStitchState(text: String(decoding: bytes, as: UTF8.self))
    // The recovering parse reads whatever the strict one reads, and the same way.
    let recovered = try? parser.parseRecovering(bytes)
    if let recovered {
        _ = HLSValidator.validate(recovered.playlist)
        _ = HLSWriter.bytes(recovered.playlist)
    }
    guard let playlist = try? parser.parse(bytes) else { return 0 }
    guard let recovered, recovered.skippedLineErrors.isEmpty, recovered.playlist == playlist else {
        fatalError("the recovering parse disagrees with the strict parse on a playlist without errors")
    }
    let written = HLSWriter.bytes(playlist)
    guard let reparsed = try? parser.parse(written) else {
        fatalError("written playlist does not parse:\n\(String(decoding: written, as: UTF8.self))")
    }
    if reparsed != playlist {
        fatalError("written playlist reads back different:\n\(String(decoding: written, as: UTF8.self))")
    }
    _ = HLSValidator.validate(playlist)
    if case .media(let media) = playlist {
        let breaks = media.adBreaks
        let pod = AdPod(ads: [AdPod.Ad(segments: [AdSegment(uri: "ad.ts", duration: 6)])])
        if let first = breaks.first {
            _ = try? media.replacingAdBreak(first, with: pod)
        }
        if let spliced = try? media.insertingAdPod(pod, at: media.segments.count / 2) {
            _ = HLSWriter.bytes(spliced)
            _ = HLSValidator.compareReloads(previous: media, current: spliced)
        }
        // The live stitcher on the input as an origin window, twice (the second
        // reload with the state the first left), in both modes, checked.
        let pods = LiveStitchPods(
            pod: { _ in pod }, slate: { seconds, _ in [AdSegment(uri: "slate.ts", duration: seconds)] },
            interstitialAssetURI: { _ in "pod.m3u8" })
        for mode in [LiveStitchTimeline.Mode.replace, .interstitials] {
            var timeline = LiveStitchTimeline(options: .init(mode: mode))
            let first = try? timeline.stitch(media, pods: pods)
            let second = try? timeline.stitch(media, pods: pods)
            if let first, let second {
                _ = LiveReloadChecker.check([first, second])
                _ = HLSWriter.bytes(second)
            }
        }
    }
    return 0
}
