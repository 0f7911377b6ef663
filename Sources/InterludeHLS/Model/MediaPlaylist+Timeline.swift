import Foundation

// MARK: Timeline

extension MediaPlaylist {
    /// Derives each segment's media sequence, discontinuity sequence, start
    /// time and program date time from the tags. The parser derives the same
    /// while reading (both go through one cursor, so they cannot differ); call
    /// it after editing ``segments`` by hand.
    ///
    /// A segment's discontinuity sequence number is EXT-X-DISCONTINUITY-SEQUENCE
    /// plus the EXT-X-DISCONTINUITY tags on it and on the segments before it,
    /// the first segment's own tag included (as hls.js counts): only then does
    /// RFC 8216bis 6.2.2 hold, "if the server removes an EXT-X-DISCONTINUITY
    /// tag … it MUST increment … so that the Discontinuity Sequence Numbers of
    /// the segments still in the Media Playlist remain unchanged".
    public mutating func updateTimeline() {
        updateTimeline(from: 0)
    }

    /// Derives the timeline from segment `start` on, trusting the segments
    /// before it (a splice changes only what follows its boundary).
    mutating func updateTimeline(from start: Int) {
        let start = min(start, segments.count)
        var cursor: TimelineCursor
        if start == 0 {
            cursor = TimelineCursor(sequence: mediaSequence, discontinuity: discontinuitySequence)
        } else {
            let previous = segments[start - 1]
            cursor = TimelineCursor(
                sequence: previous.mediaSequence &+ 1, discontinuity: previous.discontinuitySequence)
            cursor.time = previous.startTime + previous.duration.value
            // Dates carry forward, so a dateless previous segment means no
            // segment before `start` has one.
            cursor.date = previous.programDateTime.map { $0.addingTimeInterval(previous.duration.value) }
            cursor.firstDatedIndex = cursor.date == nil ? nil : 0
        }
        // Fields are set in place: copying segments out and back costs a
        // retain and release per stored string and array.
        for index in start..<segments.count {
            let marks = SegmentTimelineMarks(segments[index])
            cursor.place(&segments[index], at: index, marks: marks)
        }
        cursor.backfillDates(&segments)
    }
}

/// What a segment's own tags (before and after its EXTINF) say about its
/// place on the timeline: the parser collects these while reading, the
/// playlist reads them from the tags; both hand them to ``TimelineCursor``.
struct SegmentTimelineMarks {
    /// An EXT-X-DISCONTINUITY precedes the URI.
    var isDiscontinuity = false
    /// The last EXT-X-PROGRAM-DATE-TIME before the URI that parsed.
    var date: Date?
    /// SKIPPED-SEGMENTS of an EXT-X-SKIP (delta updates).
    var skippedSegments: UInt64 = 0

    init() {}

    init(_ segment: MediaSegment) {
        for tag in segment.tags { note(tag) }
        for tag in segment.tagsAfterInfo { note(tag) }
    }

    mutating func note(_ tag: HLSTag) {
        if tag.hasName(HLSTagName.discontinuity) {
            isDiscontinuity = true
        } else if tag.hasName(HLSTagName.programDateTime) {
            if case .text(let text) = tag.value, let parsed = HLSDateFormat.parse(text) { date = parsed }
        } else if tag.hasName(HLSTagName.skip) {
            skippedSegments &+= tag.attributes.integer("SKIPPED-SEGMENTS") ?? 0
        }
    }
}

/// Walks the segments in order and gives each its sequence numbers, start
/// time and date: the one derivation of the timeline.
struct TimelineCursor {
    var sequence: UInt64
    var discontinuity: UInt64
    var time = 0.0
    var date: Date?
    var firstDatedIndex: Int?

    init(sequence: UInt64, discontinuity: UInt64) {
        self.sequence = sequence
        self.discontinuity = discontinuity
    }

    mutating func place(_ segment: inout MediaSegment, at index: Int, marks: SegmentTimelineMarks) {
        // A delta update stands for SKIPPED-SEGMENTS segments before this one.
        sequence &+= marks.skippedSegments
        if marks.isDiscontinuity { discontinuity &+= 1 }
        if let explicit = marks.date {
            date = explicit
            if firstDatedIndex == nil { firstDatedIndex = index }
        }
        let duration = segment.duration.value
        segment.mediaSequence = sequence
        segment.discontinuitySequence = discontinuity
        segment.startTime = time
        segment.programDateTime = date
        sequence &+= 1
        time += duration
        date = date.map { $0.addingTimeInterval(duration) }
    }

    /// Segments before the first PROGRAM-DATE-TIME still map to dates
    /// (RFC 8216bis 4.4.4.6), counted back from the first dated one.
    func backfillDates(_ segments: inout [MediaSegment]) {
        guard let firstDatedIndex, firstDatedIndex > 0, let anchor = segments[firstDatedIndex].programDateTime else {
            return
        }
        let anchorTime = segments[firstDatedIndex].startTime
        for index in 0..<firstDatedIndex {
            segments[index].programDateTime = anchor.addingTimeInterval(segments[index].startTime - anchorTime)
        }
    }
}
