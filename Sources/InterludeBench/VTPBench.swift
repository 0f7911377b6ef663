import Foundation
import InterludeHLS
import InterludeServer

/// `interlude-bench vtp`: the CPU of one live reload as the VTP answers it
/// (issue 12), in thread CPU time: a 6-segment window of a simulated
/// channel (4 s segments) with one 8 s break replaced by a two-ad pod, its
/// stitch state loaded from and stored to the SQLite session store, and
/// the parts on their own. The reference in the same run is the stateless
/// splice of the same window (parse, find the break, replace it, write).
enum VTPBench {
    /// The pod every break gets: a 3 s ad, then a 5 s ad in two segments,
    /// with pod serving's segment URIs (what the VTP writes).
    struct Pods: LiveStitchPodProvider {
        static let streamID = "0f8c2a1e-6b7d-4e5f-9a0b-1c2d3e4f5a6b"

        func pod(for request: LiveBreakRequest) throws(HLSError) -> AdPod? {
            let base =
                "/linear/pods/v1/seg/network/interlude/custom_asset/bench-live/ad_break_id/\(request.breakID)/profile/360p/"
            let query = "?stream_id=\(Self.streamID)&pd=8000"
            return AdPod(
                ads: [
                    AdPod.Ad(segments: [AdSegment(uri: "\(base)0.ts\(query)", duration: 3)]),
                    AdPod.Ad(segments: [
                        AdSegment(uri: "\(base)1.ts\(query)", duration: 4),
                        AdSegment(uri: "\(base)2.ts\(query)", duration: 1),
                    ]),
                ], id: request.breakID)
        }

        func slate(duration: Double, for request: LiveBreakRequest) -> [AdSegment] {
            [AdSegment(uri: "/vtp/slate/360p/\(Int(duration * 1000))/0.ts", duration: duration)]
        }
    }

    static func run() throws {
        let content = ContentCatalog(
            segmentDuration: 4, profiles: [EncodingProfile(id: "360p", width: 640, height: 360, videoBitrate: 700)],
            channels: [
                CatalogChannel(
                    id: "bench-live", title: "Bench Live", sourceDuration: 24, windowSegments: 6, breakInterval: 24,
                    breakDuration: 8, signaling: .dateRange)
            ])
        let catalog = Catalog(creatives: [], content: content)
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("interlude-vtp-bench-\(getpid())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let library = MediaLibrary(
            catalog: catalog, plan: MediaPlan(catalog: catalog, dataDirectory: directory, fontFile: nil),
            dataDirectory: directory)
        guard let channel = library.liveChannel("bench-live"), let liveBreak = channel.liveBreak(100_000) else {
            throw VTPBenchError("no bench channel")
        }
        // The window of 6: two content segments, the 8 s break, two content segments (and its CUE-IN).
        func window(firstSequence: Int) -> MediaPlaylist? {
            channel.mediaPlaylist(profile: "360p", at: channel.startDate(ofSegment: firstSequence + 6))
        }
        let first = liveBreak.firstSequence - 2
        guard let origin = window(firstSequence: first) else { throw VTPBenchError("no window") }
        let pods = Pods()
        var warmed = LiveStitchTimeline()
        for sequence in (first - 8)...first {
            if let earlier = window(firstSequence: sequence) { _ = try warmed.stitch(earlier, pods: pods) }
        }
        let steady = warmed
        var check = steady
        let output = try check.stitch(origin, pods: pods)
        let bytes = HLSWriter.bytes(output)
        guard output.segments.filter({ $0.uri.contains("/ad_break_id/") }).count == 3 else {
            throw VTPBenchError(
                "the window does not have its break replaced:\n\(String(decoding: bytes, as: UTF8.self))")
        }
        let store = try SQLiteSessionStore(path: directory.appendingPathComponent("streams.sqlite").path)
        defer { store.close() }
        try store.mergeLiveStitchState(steady.state, streamID: Pods.streamID, rendition: "360p")
        var moved = steady.state
        moved.breaks.append(
            LiveBreakRecord.benchRecord(from: moved.breaks.last, shiftedBy: 6))

        let stitchAndWrite = HLSLiveBench.measureCPU {
            var timeline = steady
            if let stitched = try? timeline.stitch(origin, pods: pods) { _ = HLSWriter.bytes(stitched) }
        }
        let stitchOnly = HLSLiveBench.measureCPU {
            var timeline = steady
            _ = try? timeline.stitch(origin, pods: pods)
        }
        // The VTP reads each origin window once for all its viewers (PreparedOriginWindow).
        let prepared = try PreparedOriginWindow(origin)
        let prepare = HLSLiveBench.measureCPU { _ = try? PreparedOriginWindow(origin) }
        let preparedStitchAndWrite = HLSLiveBench.measureCPU {
            var timeline = steady
            if let stitched = try? timeline.stitch(prepared, pods: pods) { _ = HLSWriter.bytes(stitched) }
        }
        let preparedStitchOnly = HLSLiveBench.measureCPU {
            var timeline = steady
            _ = try? timeline.stitch(prepared, pods: pods)
        }
        let write = HLSLiveBench.measureCPU { _ = HLSWriter.bytes(output) }
        let load = HLSLiveBench.measureCPU {
            _ = try? store.liveStitchState(streamID: Pods.streamID, rendition: "360p")
        }
        let encoded = steady.state.text
        let decode = HLSLiveBench.measureCPU { _ = try? LiveStitchState(text: encoded) }
        let json = try JSONEncoder().encode(steady.state)
        let jsonDecode = HLSLiveBench.measureCPU { _ = try? JSONDecoder().decode(LiveStitchState.self, from: json) }
        let encode = HLSLiveBench.measureCPU { _ = steady.state.text }
        let jsonEncode = HLSLiveBench.measureCPU { _ = try? JSONEncoder().encode(steady.state) }
        let unchanged = HLSLiveBench.measureCPU {
            _ = try? store.mergeLiveStitchState(steady.state, streamID: Pods.streamID, rendition: "360p")
        }
        // A write every time: the moved state over a stored one, under a new stream each call.
        var written = 0
        let changed =
            HLSLiveBench.measureCPU {
                written += 1
                let streamID = "bench-\(written)"
                _ = try? store.mergeLiveStitchState(steady.state, streamID: streamID, rendition: "360p")
                _ = try? store.mergeLiveStitchState(moved, streamID: streamID, rendition: "360p")
            } / 2
        let reload = HLSLiveBench.measureCPU {
            guard let state = try? store.liveStitchState(streamID: Pods.streamID, rendition: "360p") else { return }
            var timeline = LiveStitchTimeline(state: state)
            guard let stitched = try? timeline.stitch(prepared, pods: pods) else { return }
            _ = HLSWriter.bytes(stitched)
            if timeline.state != state {
                _ = try? store.mergeLiveStitchState(timeline.state, streamID: Pods.streamID, rendition: "360p")
            }
        }
        let originWindow = HLSLiveBench.measureCPU { _ = window(firstSequence: first) }
        let originBytes = HLSWriter.bytes(origin)
        let stateless = HLSLiveBench.measureCPU {
            guard var parsed = try? HLSParser().parseMedia(originBytes), let found = parsed.adBreaks.first,
                let pod = try? pods.pod(for: LiveBreakRequest(breakID: found.id ?? "b", originStartSequence: 0))
            else { return }
            guard (try? parsed.replaceAdBreak(found, with: pod)) != nil else { return }
            _ = HLSWriter.bytes(parsed)
        }
        func text(_ value: Double) -> String { String(format: "%8.2f µs", value) }
        print(
            """
            interlude-bench vtp — \(ProcessInfo.processInfo.activeProcessorCount) cores, \(Date())
            One live reload of a 6-segment window (4 s segments) with one 8 s break replaced by a two-ad pod,
            \(bytes.count) bytes out, \(encoded.utf8.count)-byte stored state (\(json.count) as JSON); thread CPU time, best of 7 runs:
              stitch per viewer, window prepared once (stitch + HLSWriter)   \(text(preparedStitchAndWrite))
                of which stitch \(text(preparedStitchOnly)), write \(text(write))
              the same from the raw window (breaks found on each stitch)     \(text(stitchAndWrite))
                of which stitch \(text(stitchOnly))
              prepare the origin window (once per window, shared)           \(text(prepare))
              store: load the state (SQLite SELECT, decoded text cached)      \(text(load))
              state decode when the stored text changed (line format)       \(text(decode))
                the same state as JSON: decode \(text(jsonDecode)), encode \(text(jsonEncode))
              state encode (line format)                                    \(text(encode))
              store: state unchanged (read, merge, compare, no write)         \(text(unchanged))
              store: state changed, one write (BEGIN IMMEDIATE … COMMIT, WAL) \(text(changed))
              whole reload as the VTP runs it (load, stitch, write, store)    \(text(reload))
                (the window prepared once, as the VTP does per channel window)
              origin window of the simulated channel (once per window, shared) \(text(originWindow))
              reference, same run: stateless parse + replaceAdBreak + write  \(text(stateless))
            """)
    }
}

struct VTPBenchError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

extension LiveBreakRecord {
    /// A copy of `record` (or nothing) moved `segments` later, so a stored
    /// state gains a break (the state-changed case of the bench).
    fileprivate static func benchRecord(from record: LiveBreakRecord?, shiftedBy segments: UInt64) -> LiveBreakRecord {
        guard var copy = record else { preconditionFailure("the warmed state has a break") }
        copy.request.originStartSequence += segments
        copy.request.breakID += "-next"
        copy.anchor.sequence += segments
        return copy
    }
}
