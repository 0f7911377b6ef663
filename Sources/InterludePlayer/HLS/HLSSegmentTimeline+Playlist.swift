import Foundation
import InterludeHLS

extension HLSSegmentTimeline {
    /// The segments of `playlist` with URLs resolved against `url`, byte
    /// ranges made absolute and keys followed, at the playlist's own times
    /// (its first segment at 0).
    static func segments(of playlist: MediaPlaylist, url: URL) -> Result<[HLSTimelineSegment], HLSStreamError> {
        var result: [HLSTimelineSegment] = []
        result.reserveCapacity(playlist.segments.count)
        var encrypted = false
        var previousRange: (uri: String, end: UInt64)?
        for segment in playlist.segments {
            // A key applies to every later segment until the next key (RFC 8216bis 4.4.4.4).
            for key in segment.keys {
                encrypted = (key.attributes.string("METHOD") ?? "NONE") != "NONE"
            }
            guard let resolved = URL(string: segment.uri, relativeTo: url)?.absoluteURL, resolved.isHTTPOrHTTPS else {
                return .failure(
                    HLSStreamError(
                        .undecodablePlaylist,
                        "the playlist \(url.absoluteString) names a segment \"\(segment.uri)\" (line \(segment.line)) that is not an http(s) URL",
                        url: url))
            }
            var range: ClosedRange<UInt64>?
            if let text = segment.byteRange {
                guard let parsed = parseByteRange(text, uri: segment.uri, previous: previousRange) else {
                    return .failure(
                        HLSStreamError(
                            .undecodablePlaylist,
                            "the playlist \(url.absoluteString) has an unusable EXT-X-BYTERANGE \"\(text)\" (line \(segment.line))",
                            url: url))
                }
                range = parsed
                previousRange = (segment.uri, parsed.upperBound)
            } else {
                previousRange = nil
            }
            let duration = segment.duration.value
            result.append(
                HLSTimelineSegment(
                    sequence: segment.mediaSequence, discontinuitySequence: segment.discontinuitySequence,
                    start: segment.startTime, duration: duration.isFinite ? max(0, duration) : 0, url: resolved,
                    byteRange: range, programDateTime: segment.programDateTime,
                    isDiscontinuity: segment.isDiscontinuity, isGap: segment.isGap, isEncrypted: encrypted))
        }
        return .success(result)
    }

    /// `length[@offset]` as first…last byte; without an offset the range
    /// follows the previous segment's range of the same resource (RFC 8216bis 4.4.4.2).
    static func parseByteRange(_ text: String, uri: String, previous: (uri: String, end: UInt64)?) -> ClosedRange<
        UInt64
    >? {
        let parts = text.split(separator: "@", maxSplits: 1, omittingEmptySubsequences: false)
        guard let length = UInt64(parts[0].trimmingCharacters(in: .whitespaces)), length > 0 else { return nil }
        let offset: UInt64
        if parts.count == 2 {
            guard let given = UInt64(parts[1].trimmingCharacters(in: .whitespaces)) else { return nil }
            offset = given
        } else if let previous, previous.uri == uri {
            offset = previous.end + 1
        } else {
            offset = 0
        }
        let (last, overflow) = offset.addingReportingOverflow(length - 1)
        return overflow ? nil : offset...last
    }

    /// The date ranges of `playlist` that carry client attributes, merged
    /// by ID (RFC 8216bis 4.4.5.1: later tags with the same ID add
    /// attributes) and placed through PROGRAM-DATE-TIME on `window` (the
    /// playlist's segments as placed on the timeline). Without any date in
    /// the playlist a range starts with the segment its tag precedes.
    static func dateRanges(of playlist: MediaPlaylist, placedOn window: ArraySlice<HLSTimelineSegment>)
        -> [HLSTimelineDateRange]
    {
        var ranges: [HLSTimelineDateRange] = []
        var indexByID: [String: Int] = [:]
        let dated = window.filter { $0.programDateTime != nil }
        for (segmentIndex, tag) in playlist.allTags where tag.name == HLSTagName.dateRange && !tag.isComment {
            let range = DateRange(tag: tag)
            guard let id = range.id else { continue }
            var values: [String: String] = [:]
            for attribute in range.attributes where attribute.name.hasPrefix("X-") {
                values[attribute.name] = attribute.value.text
            }
            if let existing = indexByID[id] {
                ranges[existing].values.merge(values) { first, _ in first }
                if ranges[existing].end == nil, let end = range.resolvedEndDate {
                    ranges[existing].end = streamTime(of: end, dated: dated)
                }
                continue
            }
            guard !values.isEmpty else { continue }
            let start: TimeInterval
            if let date = range.startDate, let placed = streamTime(of: date, dated: dated) {
                start = placed
            } else {
                let position = window.startIndex + max(0, segmentIndex)
                start = position < window.endIndex ? window[position].start : (window.last?.end ?? 0)
            }
            indexByID[id] = ranges.count
            ranges.append(
                HLSTimelineDateRange(
                    id: id, start: start, end: range.resolvedEndDate.flatMap { streamTime(of: $0, dated: dated) },
                    values: values))
        }
        return ranges.sorted { $0.start < $1.start }
    }

    /// Stream time of `date` through the last dated segment starting at or
    /// before it (or the first one, for a date before them all).
    static func streamTime(of date: Date, dated: [HLSTimelineSegment]) -> TimeInterval? {
        guard let first = dated.first, let firstDate = first.programDateTime else { return nil }
        var anchor = first
        var anchorDate = firstDate
        for segment in dated {
            guard let segmentDate = segment.programDateTime, segmentDate <= date else { break }
            anchor = segment
            anchorDate = segmentDate
        }
        return anchor.start + date.timeIntervalSince(anchorDate)
    }
}
