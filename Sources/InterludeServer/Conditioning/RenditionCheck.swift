import Foundation
import InterludeHLS

/// Turns the segments ffmpeg wrote for a rendition into its manifest, and
/// refuses a rendition that is not what the ladder promises: another codec,
/// profile or level, audio that is not 48 kHz stereo AAC-LC, or segments
/// whose PTS durations break the GOP-per-segment layout.
enum RenditionCheck {
    static func manifest(for entry: MediaPlan.Entry, in work: URL, segmentDuration: Double, dataDirectory: URL)
        throws(MediaError) -> RenditionManifest
    {
        let label = "\(entry.directory)"
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: work.path)
                .filter { SegmentNaming.index($0) != nil }.sorted()
        } catch {
            throw MediaError("\(label): cannot list segments: \(error.localizedDescription)")
        }
        guard !names.isEmpty else { throw MediaError("\(label): ffmpeg wrote no segments") }
        var probes: [(name: String, size: Int, probe: SegmentProbe)] = []
        for name in names {
            let file = work.appendingPathComponent(name)
            guard let data = FileManager.default.contents(atPath: file.path) else {
                throw MediaError("\(label)/\(name): cannot read")
            }
            var bytes = [UInt8](data)
            if entry.isConditioned {
                bytes = try declareTimedMetadata(bytes, file: file, label: "\(label)/\(name)")
            }
            guard let probe = SegmentProbe.probe(bytes) else {
                throw MediaError("\(label)/\(name): no video PES with a PTS")
            }
            probes.append((name, bytes.count, probe))
        }
        let profile = entry.profile
        let head = probes[0].probe
        let codecs = "\(head.videoCodec ?? "none"),\(head.audioCodec ?? "none")"
        guard codecs == profile.codecs else {
            throw MediaError("\(label): the encoder wrote \(codecs), the ladder states \(profile.codecs)")
        }
        guard head.audioSampleRate == EncodingProfile.audioSampleRate,
            head.audioChannels == EncodingProfile.audioChannels
        else {
            throw MediaError(
                "\(label): audio is \(head.audioSampleRate ?? 0) Hz, \(head.audioChannels ?? 0) channels; "
                    + "the ladder needs 48000 Hz stereo")
        }
        var segments: [SegmentFile] = []
        for (index, item) in probes.enumerated() {
            let end =
                index + 1 < probes.count
                ? probes[index + 1].probe.firstVideoPTS : item.probe.lastVideoPTS + profile.frameTicks
            let ticks = end >= item.probe.firstVideoPTS ? end - item.probe.firstVideoPTS : 0
            segments.append(
                SegmentFile(
                    path: "\(entry.directory)/\(item.name)", duration: Double(ticks) / 90_000, byteCount: item.size,
                    firstPTS: item.probe.firstVideoPTS))
        }
        try checkDurations(segments, probes: probes.map(\.probe), entry: entry, segmentDuration: segmentDuration)
        return RenditionManifest(contentHash: entry.contentHash, codecs: codecs, segments: segments)
    }

    /// Rewrites the segment's PMT once to declare the timed-ID3 stream
    /// (stream_type 0x15, metadata descriptor `ID3 `, PID 0x0102) that pod
    /// serving fills per viewer, so those requests only insert packets.
    private static func declareTimedMetadata(_ bytes: [UInt8], file: URL, label: String) throws(MediaError) -> [UInt8] {
        let rewritten: [UInt8]
        do {
            rewritten = try TSMetadataInjector.declaringID3Stream(in: bytes)
        } catch {
            throw MediaError("\(label): cannot declare the timed-ID3 stream: \(error)")
        }
        do {
            try Data(rewritten).write(to: file)
        } catch {
            throw MediaError("\(label): cannot write: \(error.localizedDescription)")
        }
        return rewritten
    }

    private static func checkDurations(
        _ segments: [SegmentFile], probes: [SegmentProbe], entry: MediaPlan.Entry, segmentDuration: Double
    ) throws(MediaError) {
        let frame = 1 / Double(entry.profile.frameRate)
        let label = entry.directory
        func expect(_ index: Int, _ seconds: Double) throws(MediaError) {
            guard abs(segments[index].duration - seconds) < frame / 2 else {
                throw MediaError(
                    "\(label)/\(SegmentNaming.name(index)): \(segments[index].duration) s of video where \(seconds) s "
                        + "were due (a GOP per segment)")
            }
        }
        switch entry.recipe {
        case .slate:
            let fps = entry.profile.frameRate
            guard segments.count == MediaPlan.slateRunSeconds + fps - 1 else {
                throw MediaError(
                    "\(label): \(segments.count) slate segments, \(MediaPlan.slateRunSeconds + fps - 1) due")
            }
            for index in 0..<MediaPlan.slateRunSeconds { try expect(index, 1) }
            for length in 1..<max(2, fps) where length < fps {
                try expect(MediaPlan.slateRunSeconds + length - 1, Double(length) * frame)
            }
        case .pattern(_, let duration, _):
            let count = Int((duration / segmentDuration).rounded(.up))
            guard segments.count == count else {
                throw MediaError("\(label): \(segments.count) segments where \(count) were due")
            }
            for index in 0..<(count - 1) { try expect(index, segmentDuration) }
            try expect(count - 1, duration - Double(count - 1) * segmentDuration)
        case .transcode:
            for index in 0..<(segments.count - 1) { try expect(index, segmentDuration) }
            guard segments[segments.count - 1].duration <= segmentDuration + frame / 2 else {
                throw MediaError("\(label): the last segment is longer than \(segmentDuration) s")
            }
        }
    }
}
