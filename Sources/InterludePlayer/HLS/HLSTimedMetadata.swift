import Foundation
import InterludeHLS

/// Timed metadata waiting for the playhead: an ID3 frame from a segment or
/// a date range's client attributes, due at a stream time.
struct HLSScheduledMetadata: Sendable, Hashable {
    /// Where a report comes from, so that it is made once.
    enum Source: Sendable, Hashable {
        /// Frame `frame` of the ID3 PES packets of segment `sequence`, counted across its packets.
        case id3(sequence: UInt64, frame: Int)
        /// The date range with this ID.
        case dateRange(String)
    }

    /// Stream seconds.
    var time: TimeInterval
    /// What the delegate receives.
    var values: [String: String]
    var source: Source
}

/// How ID3 frames are reported: one dictionary per frame, keyed by the
/// frame ID without AVFoundation's `id3/` (DAI.md section 1), the way the
/// IMA SDK reads `["TXXX": "google_…"]`.
enum HLSTimedMetadataValues {
    /// `TXXX` → `["TXXX": value]` (plus `"description"` when it has one);
    /// `PRIV` → `["PRIV": owner, "data": hex]`; another text frame →
    /// `[id: text]`; any other frame → `[id: hex of its data]`.
    static func values(of frame: ID3Frame) -> [String: String] {
        switch frame {
        case .userText(let description, let value):
            return description.isEmpty ? ["TXXX": value] : ["TXXX": value, "description": description]
        case .privateData(let owner, let data):
            return ["PRIV": owner, "data": hex(data)]
        case .text(let id, let value):
            return [id: value]
        case .other(let id, let data):
            return [id: hex(data)]
        }
    }

    static func hex(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        text.reserveCapacity(bytes.count * 2)
        for byte in bytes {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: text, as: UTF8.self)
    }
}

/// What the display keeps of a downloaded segment's bytes: the PTS its
/// media starts at and its timed-ID3 PES packets. The bytes themselves are
/// dropped once read.
struct HLSSegmentContents: Sendable, Hashable {
    /// The first video PES's PTS (the first audio one without video), 90 kHz.
    var firstMediaPTS: UInt64?
    /// The timed-ID3 PES packets, in stream order.
    var metadata: [TimedID3Metadata]
    /// The bytes parsed as a transport stream (transport packets were found).
    var isTransportStream: Bool
    /// Damaged packets, sections, PES packets or ID3 frames skipped.
    var issueCount: Int
    /// The first of them, for the log.
    var firstIssue: String?

    /// Contents of a segment that is not read (encrypted, or no bytes).
    static let unread = HLSSegmentContents(
        firstMediaPTS: nil, metadata: [], isTransportStream: false, issueCount: 0, firstIssue: nil)

    /// Reads `bytes` with one ``TSDemuxer`` pass. Bytes that are not a
    /// transport stream (fMP4, packed audio) give no metadata and no
    /// issues; damage inside a transport stream is counted and skipped.
    static func read(_ bytes: some Collection<UInt8>) -> HLSSegmentContents {
        var demuxer = TSDemuxer()
        var metadata: [TimedID3Metadata] = []
        var issueCount = 0
        var firstIssue: String?
        for event in demuxer.feed(bytes) + demuxer.finish() {
            switch event {
            case .timedMetadata(let item): metadata.append(item)
            case .issue(let issue):
                issueCount += 1
                firstIssue = firstIssue ?? "\(issue)"
            case .programMap: break
            }
        }
        // No transport packet at all: fMP4 or packed audio, not damage.
        guard demuxer.programMap != nil || demuxer.packetCount > 0 else { return .unread }
        return HLSSegmentContents(
            firstMediaPTS: demuxer.firstVideoPTS ?? demuxer.firstAudioPTS, metadata: metadata,
            isTransportStream: true, issueCount: issueCount, firstIssue: firstIssue)
    }
}

/// Maps PTS to stream time. A segment's ID3 frames are placed by their
/// distance from the segment's first media PTS; a segment without media
/// PTS uses the last anchor of its discontinuity (timestamps run on within
/// one, and reset at a DISCONTINUITY), and without one the segment's start.
/// A frame lands inside its own segment whatever its PTS says.
enum HLSPresentationTime {
    /// PTS is 33 bits at 90 kHz.
    static let ptsModulus: Int64 = 1 << 33

    /// Seconds from `anchor` to `pts`, the shorter way round the 33-bit wrap.
    static func seconds(from anchor: UInt64, to pts: UInt64) -> TimeInterval {
        let mask = UInt64(ptsModulus - 1)
        var delta = (Int64(pts & mask) - Int64(anchor & mask)) % ptsModulus
        if delta > ptsModulus / 2 { delta -= ptsModulus }
        if delta < -ptsModulus / 2 { delta += ptsModulus }
        return Double(delta) / 90_000
    }

    /// The metadata of `contents` scheduled on `segment`'s stream times;
    /// updates `anchors` (PTS and stream time per discontinuity sequence).
    static func schedule(
        _ contents: HLSSegmentContents, of segment: HLSTimelineSegment,
        anchors: inout [UInt64: (pts: UInt64, time: TimeInterval)]
    ) -> [HLSScheduledMetadata] {
        let anchor: (pts: UInt64, time: TimeInterval)?
        if let pts = contents.firstMediaPTS {
            anchor = (pts, segment.start)
            anchors[segment.discontinuitySequence] = anchor
        } else {
            anchor = anchors[segment.discontinuitySequence]
        }
        var scheduled: [HLSScheduledMetadata] = []
        var frameIndex = 0
        for item in contents.metadata {
            var time = segment.start
            if let anchor { time = anchor.time + seconds(from: anchor.pts, to: item.pts) }
            time = min(max(time, segment.start), segment.end)
            for frame in item.frames {
                scheduled.append(
                    HLSScheduledMetadata(
                        time: time, values: HLSTimedMetadataValues.values(of: frame),
                        source: .id3(sequence: segment.sequence, frame: frameIndex)))
                frameIndex += 1
            }
        }
        // Stream order already; PES packets whose PTS go backwards are put in time order.
        return scheduled.enumerated().sorted { ($0.element.time, $0.offset) < ($1.element.time, $1.offset) }.map(
            \.element)
    }
}
