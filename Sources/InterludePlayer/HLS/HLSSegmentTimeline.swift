import Foundation
import InterludeHLS

/// One media segment placed on the stream's timeline, with what playback
/// knows about it.
struct HLSTimelineSegment: Sendable, Hashable {
    /// The media sequence number (RFC 8216bis 4.4.3.2).
    var sequence: UInt64
    /// The discontinuity sequence number (RFC 8216bis 4.4.3.3).
    var discontinuitySequence: UInt64
    /// Stream seconds.
    var start: TimeInterval
    /// The `EXTINF` duration, seconds.
    var duration: TimeInterval
    /// The segment's resolved URL.
    var url: URL
    /// The bytes of the resource it occupies (`EXT-X-BYTERANGE`), first…last.
    var byteRange: ClosedRange<UInt64>?
    /// Its `EXT-X-PROGRAM-DATE-TIME`, given or carried.
    var programDateTime: Date?
    /// `EXT-X-DISCONTINUITY` precedes it.
    var isDiscontinuity: Bool
    /// Marked `EXT-X-GAP`: never downloaded, played over.
    var isGap: Bool
    /// Under an `EXT-X-KEY` other than NONE: its bytes cannot be read.
    var isEncrypted: Bool

    /// Downloaded and read.
    var isBuffered = false
    /// Given up on (failed under the skip policy, or gone from the live
    /// window before it could be downloaded): played over as a gap.
    var isSkipped = false
    /// The timed metadata read from its bytes, in stream order.
    var metadata: [HLSScheduledMetadata] = []

    var end: TimeInterval { start + duration }
    /// The playhead may pass through it.
    var isPlayable: Bool { isBuffered || isGap || isSkipped }
}

/// A date range of the latest playlist with client attributes, placed on the timeline.
struct HLSTimelineDateRange: Sendable, Hashable {
    var id: String
    /// Stream seconds of `START-DATE`.
    var start: TimeInterval
    /// Stream seconds of `END-DATE` (or START-DATE + DURATION), if known.
    var end: TimeInterval?
    /// The `X-` attributes by name, values as written (quotes removed).
    var values: [String: String]
}

/// The segments of a media playlist across reloads, each placed on one
/// stream timeline by its media sequence number, so that a segment keeps
/// its stream time however the live window slides (RFC 8216bis 6.3.2: "a
/// client MAY use the segment Media Sequence Number to track the location
/// of a Media Segment within a Playlist when the Playlist is reloaded").
struct HLSSegmentTimeline: Sendable, Hashable {
    /// Segments in sequence order: the latest window and, before it, those
    /// the playhead has not passed yet.
    private(set) var segments: [HLSTimelineSegment] = []
    /// The index of the latest playlist's first segment.
    private(set) var windowStartIndex = 0
    /// The latest playlist has `EXT-X-ENDLIST`.
    private(set) var isEnded = false
    /// `EXT-X-TARGETDURATION` (at least 1, as hls.js reads it).
    private(set) var targetDuration: TimeInterval = 1
    /// `HOLD-BACK` of `EXT-X-SERVER-CONTROL`, if given.
    private(set) var holdBack: TimeInterval?
    /// `EXT-X-START` as (TIME-OFFSET, PRECISE), if given.
    private(set) var startOffset: (offset: TimeInterval, precise: Bool)?
    private(set) var mediaSequence: UInt64 = 0
    private(set) var discontinuitySequence: UInt64 = 0
    /// The latest playlist's date ranges with client attributes, by start.
    private(set) var dateRanges: [HLSTimelineDateRange] = []
    private(set) var hasLoaded = false

    /// What one playlist added.
    struct Update: Sendable, Hashable {
        var newSegments = 0
        var newDiscontinuities = 0
        var newEncrypted = 0
        /// Known segments whose discontinuity sequence number the playlist changed (RFC 8216bis 6.2.2 says it must not).
        var sequenceMismatches = 0
    }

    static func == (lhs: HLSSegmentTimeline, rhs: HLSSegmentTimeline) -> Bool {
        lhs.segments == rhs.segments && lhs.windowStartIndex == rhs.windowStartIndex && lhs.isEnded == rhs.isEnded
            && lhs.mediaSequence == rhs.mediaSequence && lhs.dateRanges == rhs.dateRanges
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(segments.count)
        hasher.combine(mediaSequence)
    }

    var window: ArraySlice<HLSTimelineSegment> { segments[windowStartIndex...] }
    /// The end of the last segment.
    var end: TimeInterval { segments.last?.end ?? 0 }
    /// The start of the window's first segment.
    var windowStart: TimeInterval { segments.count > windowStartIndex ? segments[windowStartIndex].start : end }

    /// Places `playlist` (fetched from `url`) on the timeline.
    mutating func update(with playlist: MediaPlaylist, url: URL) -> Result<Update, HLSStreamError> {
        if hasLoaded && playlist.mediaSequence < mediaSequence {
            return .failure(
                HLSStreamError(
                    .inconsistentPlaylist,
                    "the live playlist \(url.absoluteString) went back from MEDIA-SEQUENCE \(mediaSequence) to \(playlist.mediaSequence)",
                    url: url))
        }
        let placed: [HLSTimelineSegment]
        switch Self.segments(of: playlist, url: url) {
        case .success(let segments): placed = segments
        case .failure(let error): return .failure(error)
        }
        var update = Update()
        let offset = placementOffset(for: placed)
        let lastKnown = segments.last?.sequence
        var firstWindowIndex: Int?
        for var segment in placed {
            if let lastKnown, segment.sequence <= lastKnown {
                if let index = index(ofSequence: segment.sequence) {
                    firstWindowIndex = firstWindowIndex ?? index
                    if segments[index].discontinuitySequence != segment.discontinuitySequence {
                        update.sequenceMismatches += 1
                    }
                }
                continue
            }
            segment.start += offset
            firstWindowIndex = firstWindowIndex ?? segments.count
            segments.append(segment)
            update.newSegments += 1
            if segment.isDiscontinuity { update.newDiscontinuities += 1 }
            if segment.isEncrypted { update.newEncrypted += 1 }
        }
        windowStartIndex = firstWindowIndex ?? segments.count
        hasLoaded = true
        isEnded = playlist.hasEndList
        targetDuration = Double(max(1, playlist.targetDuration ?? Int(placed.map(\.duration).max()?.rounded(.up) ?? 1)))
        holdBack = playlist.serverControl?.double("HOLD-BACK")
        startOffset = playlist.start?.double("TIME-OFFSET").map { ($0, playlist.start?["PRECISE"]?.isYes ?? false) }
        mediaSequence = playlist.mediaSequence
        discontinuitySequence = playlist.discontinuitySequence
        dateRanges = Self.dateRanges(of: playlist, placedOn: segments[windowStartIndex...])
        return .success(update)
    }

    /// How far the new playlist's own timeline (its first segment at 0) is
    /// shifted on ours: known segments keep their place, and segments after
    /// a hole (the window slid past segments never seen) follow by their
    /// dates, or by target durations without dates.
    private func placementOffset(for placed: [HLSTimelineSegment]) -> TimeInterval {
        guard let last = segments.last else { return 0 }
        for segment in placed {
            if let index = index(ofSequence: segment.sequence) { return segments[index].start - segment.start }
        }
        guard let first = placed.first, first.sequence > last.sequence else { return 0 }
        var start = last.end + Double(first.sequence - last.sequence - 1) * targetDuration
        if let lastDate = last.programDateTime, let firstDate = first.programDateTime {
            start = max(last.end, last.end + firstDate.timeIntervalSince(lastDate.addingTimeInterval(last.duration)))
        }
        return start - first.start
    }

    /// The index of the segment with media sequence number `sequence`.
    func index(ofSequence sequence: UInt64) -> Int? {
        guard let first = segments.first, sequence >= first.sequence else { return nil }
        let guess = Int(sequence - first.sequence)
        if guess < segments.count, segments[guess].sequence == sequence { return guess }
        // Only a hole in the numbering (a window that slid past segments) moves it.
        var low = 0
        var high = segments.count
        while low < high {
            let middle = (low + high) / 2
            if segments[middle].sequence < sequence { low = middle + 1 } else { high = middle }
        }
        return low < segments.count && segments[low].sequence == sequence ? low : nil
    }

    /// The segment containing stream time `time` (`inside`), or the first
    /// one after it (`inside` false: `time` is in a hole or before the
    /// first); nil past the last.
    func position(of time: TimeInterval) -> (index: Int, inside: Bool)? {
        var low = 0
        var high = segments.count
        while low < high {
            let middle = (low + high) / 2
            if segments[middle].start <= time + HLSTime.epsilon { low = middle + 1 } else { high = middle }
        }
        let candidate = low - 1
        if candidate >= 0, time < segments[candidate].end - HLSTime.epsilon { return (candidate, true) }
        return low < segments.count ? (low, false) : nil
    }

    /// How far the playhead at `time` can go on what is playable without a
    /// hole: `time` itself when its segment is not playable.
    func playableEnd(from time: TimeInterval) -> TimeInterval {
        guard let (first, inside) = position(of: time), inside else { return time }
        var end = time
        var index = first
        while index < segments.count, segments[index].isPlayable,
            index == first || abs(segments[index].start - end) < HLSTime.contiguity
        {
            end = segments[index].end
            index += 1
        }
        return end
    }

    /// The first segment from `time` on that needs downloading and starts
    /// before `limit`; segments before the window are gone and never asked for.
    func nextDownload(from time: TimeInterval, before limit: TimeInterval) -> Int? {
        guard let (first, _) = position(of: time) else { return nil }
        var index = max(first, windowStartIndex)
        while index < segments.count {
            let segment = segments[index]
            if index > first, segment.start >= limit { return nil }
            if !segment.isPlayable { return index }
            index += 1
        }
        return nil
    }

    mutating func markBuffered(_ index: Int, metadata: [HLSScheduledMetadata]) {
        segments[index].isBuffered = true
        segments[index].metadata = metadata
    }

    mutating func markSkipped(_ index: Int) { segments[index].isSkipped = true }

    /// Forgets what was downloaded of segments that end before `time` (no
    /// back buffer: a seek back downloads again, as players do without one)
    /// and drops those that also left the live window.
    mutating func discardPlayed(before time: TimeInterval) {
        var dropped = 0
        while dropped < windowStartIndex, segments[dropped].end <= time - HLSTime.epsilon { dropped += 1 }
        if dropped > 0 {
            segments.removeFirst(dropped)
            windowStartIndex -= dropped
        }
        // Every segment before the playhead's ends at or before it; walk
        // back from the nearest until one holds nothing.
        var index = (position(of: time)?.index ?? segments.count) - 1
        while index >= 0, segments[index].isBuffered || !segments[index].metadata.isEmpty {
            segments[index].isBuffered = false
            segments[index].metadata = []
            index -= 1
        }
    }

    /// Forgets every download (a seek outside the buffer).
    mutating func discardBuffer() {
        for index in segments.indices where segments[index].isBuffered {
            segments[index].isBuffered = false
            segments[index].metadata = []
        }
    }
}

/// Tolerances for comparing stream times.
enum HLSTime {
    /// Times this close are equal (floating-point sums of EXTINF).
    static let epsilon = 1e-6
    /// Segments this close follow each other without a hole.
    static let contiguity = 0.05
}
