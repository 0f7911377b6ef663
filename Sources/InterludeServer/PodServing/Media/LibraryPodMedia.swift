import Foundation
import InterludeHLS

/// ``PodMediaSource`` over the server's ``MediaLibrary``: its ladder, its
/// conditioned ads and slate. Segment files are read once, and prepared for
/// timed metadata once (``TSMetadataInjector`` finds where packets go), so a
/// request writes only its few ID3 packets and sends them between runs of
/// the shared segment (each where the stream reaches the tag's time), which
/// are never copied.
final class LibraryPodMedia: PodMediaSource {
    /// A segment ready for timed metadata: its bytes (PMT declaring the ID3
    /// stream) and how to write and place the packets.
    struct Prepared: Sendable {
        let bytes: SharedBytes
        let packetizer: TSMetadataPacketizer
    }

    let library: MediaLibrary
    let profiles: [PodProfile]
    private let durations: [String: Int]
    private let prepared: BoundedCache<String, Prepared>

    /// `cacheLimit` segments stay prepared in memory (the default catalog's
    /// ads and slate are about 400).
    init(library: MediaLibrary, catalog: Catalog, cacheLimit: Int = 4096) {
        self.library = library
        profiles = library.profiles.map { profile in
            PodProfile(
                id: profile.id, width: profile.width, height: profile.height, bandwidth: profile.bandwidth,
                averageBandwidth: profile.averageBandwidth, codecs: profile.codecs,
                frameRate: Double(profile.frameRate))
        }
        var durations: [String: Int] = [:]
        for creative in catalog.creatives {
            guard let ad = library.ad(creative.id), !library.profiles.isEmpty else { continue }
            // The longest profile's, so each profile's segments fit in the time decided.
            let lengths = library.profiles.compactMap { profile in
                ad.renditions[profile.id].map { Int(($0.totalDuration * 1000).rounded()) }
            }
            guard lengths.count == library.profiles.count, let longest = lengths.max(), longest > 0 else { continue }
            durations[creative.id] = longest
        }
        self.durations = durations
        prepared = BoundedCache(limit: cacheLimit)
    }

    func adDuration(creativeID: String) -> Int? { durations[creativeID] }

    func adSegments(creativeID: String, profile: String) -> [PodSegment]? {
        library.ad(creativeID)?.renditions[profile].map { segments in
            segments.map { Self.segment($0, breaksTimeline: false) }
        }
    }

    func slate(profile: String, milliseconds: Int) -> [PodSegment] {
        let frameTicks = library.profile(profile)?.frameTicks ?? 3000
        let segments = library.slate(profile: profile, duration: Double(milliseconds) / 1000)
        return segments.enumerated().map { index, segment in
            Self.segment(
                segment,
                breaksTimeline: index > 0 && !segment.continues(after: segments[index - 1], frameTicks: frameTicks))
        }
    }

    func filePath(of segment: PodSegment) -> String {
        library.dataDirectory.appendingPathComponent(segment.path).path
    }

    func tagged(_ segment: PodSegment, with events: [(pts: UInt64, eventID: String)]) throws(PodMediaError)
        -> [SharedBytes.Slice]
    {
        let ready: Prepared
        if let cached = prepared[segment.path] {
            ready = cached
        } else {
            let path = filePath(of: segment)
            guard let data = FileManager.default.contents(atPath: path) else {
                throw PodMediaError(isMissing: true, message: "segment file \(segment.path) is missing")
            }
            do {
                let original = Array(data)
                let injector = try TSMetadataInjector(segment: original)
                // Conditioned segments already declare the ID3 stream, so
                // their bytes are the file's and can be sent from it.
                let bytes =
                    injector.segment == original
                    ? SharedBytes(injector.segment, file: path) : SharedBytes(injector.segment)
                ready = Prepared(bytes: bytes, packetizer: injector.packetizer)
            } catch {
                throw PodMediaError(isMissing: false, message: "segment \(segment.path): \(error)")
            }
            prepared.store(ready, for: segment.path)
        }
        let runs: [(offset: Int, packets: [UInt8])]
        do {
            runs = try ready.packetizer.placedPackets(
                events.map { (pts: $0.pts, tag: ID3Tag(frames: [.userText(description: "", value: $0.eventID)])) })
        } catch {
            throw PodMediaError(isMissing: false, message: "segment \(segment.path): \(error)")
        }
        // The shared bytes between the packets, each tag where the stream reaches its time.
        var slices: [SharedBytes.Slice] = []
        slices.reserveCapacity(runs.count * 2 + 1)
        var copied = 0
        for run in runs {
            if run.offset > copied { slices.append(ready.bytes.slice(copied..<run.offset)) }
            slices.append(SharedBytes(run.packets).whole)
            copied = run.offset
        }
        if copied < ready.bytes.count { slices.append(ready.bytes.slice(copied..<ready.bytes.count)) }
        return slices
    }

    private static func segment(_ file: SegmentFile, breaksTimeline: Bool) -> PodSegment {
        PodSegment(
            path: file.path, duration: file.duration, byteCount: file.byteCount, firstPTS: file.firstPTS,
            breaksTimeline: breaksTimeline)
    }
}
