import Foundation

/// Finds the breaks marked by EXT-X-DATERANGE: SCTE35-OUT / SCTE35-IN,
/// SCTE35-CMD carrying a break start or end (time_signal), and
/// interstitials. Tags sharing an ID describe one range (RFC 8216bis
/// 4.4.5.1); each SCTE-35 attribute is decoded once per range.
struct DateRangeBreakScanner {
    /// One range as merged from its tags.
    private struct Entry {
        var range: DateRange
        /// The segment the first tag was written before.
        var firstIndex: Int
        /// The segment the tag carrying the end (SCTE35-IN) was written before.
        var inIndex: Int?
        var outBytes: [UInt8]?
        var inBytes: [UInt8]?
        var outSection: SpliceInfoSection?
    }

    private let playlist: MediaPlaylist

    init(playlist: MediaPlaylist) { self.playlist = playlist }

    func scan() -> [AdBreak] {
        var order: [String] = []
        var entries: [String: Entry] = [:]
        for index in 0...playlist.segments.count {
            let tags = index < playlist.segments.count ? playlist.segments[index].tags : playlist.trailingTags
            for tag in tags where tag.hasName(HLSTagName.dateRange) {
                let range = DateRange(tag: tag)
                guard let id = range.id else { continue }
                if var entry = entries[id] {
                    for attribute in range.attributes.attributes where entry.range.attributes[attribute.name] == nil {
                        entry.range.attributes[attribute.name] = attribute.value
                    }
                    Self.readSCTE35(range, into: &entry, at: index)
                    entries[id] = entry
                } else {
                    order.append(id)
                    var entry = Entry(range: range, firstIndex: index)
                    Self.readSCTE35(range, into: &entry, at: index)
                    entries[id] = entry
                }
            }
        }
        var breaks: [AdBreak] = []
        var unmatchedEnds: [(index: Int, bytes: [UInt8]?)] = []
        for id in order {
            guard let entry = entries[id] else { continue }
            if entry.outBytes == nil, !entry.range.isInterstitial {
                guard let inIndex = entry.inIndex else { continue }
                if Self.startDate(of: entry.range) == nil || entry.range.duration == nil {
                    // An end whose start had another ID (or left the window without one).
                    unmatchedEnds.append((inIndex, entry.inBytes))
                    continue
                }
            }
            breaks.append(makeBreak(id: id, entry))
        }
        // An end with its own ID closes the latest open break before it.
        for end in unmatchedEnds {
            guard
                let open = breaks.lastIndex(where: {
                    !$0.isComplete && $0.style == .dateRange && $0.segmentRange.lowerBound <= end.index
                })
            else { continue }
            breaks[open].segmentRange = breaks[open].segmentRange.lowerBound..<end.index
            breaks[open].actualDuration = playlist.boundaryTime(end.index) - breaks[open].startTime
            breaks[open].isComplete = true
            breaks[open].scte35In = end.bytes
        }
        return breaks
    }

    /// Decodes the SCTE-35 attributes of one tag, once: SCTE35-OUT and
    /// SCTE35-IN by name, SCTE35-CMD by what its section says.
    private static func readSCTE35(_ range: DateRange, into entry: inout Entry, at index: Int) {
        if entry.outBytes == nil, let bytes = range.scte35Out {
            entry.outBytes = bytes
            entry.outSection = try? SpliceInfoSection(bytes: bytes)
        }
        if let bytes = range.scte35In {
            entry.inBytes = bytes
            entry.inIndex = index
        }
        if let bytes = range.scte35Command, let section = try? SpliceInfoSection(bytes: bytes) {
            if section.isCueOut, entry.outBytes == nil {
                entry.outBytes = bytes
                entry.outSection = section
            } else if section.isCueIn {
                entry.inBytes = bytes
                entry.inIndex = index
            }
        }
    }

    private func makeBreak(id: String, _ entry: Entry) -> AdBreak {
        let range = entry.range
        let isInterstitial = range.isInterstitial
        var startIndex = entry.firstIndex
        var startTime = playlist.boundaryTime(startIndex)
        let startDate = Self.startDate(of: range)
        if let date = startDate, let first = playlist.segments.first?.programDateTime {
            // By date: a DATERANGE may be written before its time, or stay
            // in the window after its start slid out.
            startIndex = playlist.boundaryIndex(atOrAfter: date)
            startTime = date.timeIntervalSince(first)
        }
        var actual = range.duration
        if actual == nil, let startDate, let endDate = range.endDate {
            actual = endDate.timeIntervalSince(startDate)
        }
        let planned = range.plannedDuration ?? entry.outSection?.durationSeconds
        let interstitial = isInterstitial ? Interstitial(range) : nil
        var covered = actual
        var endedByMarker = actual != nil
        if covered == nil, let inIndex = entry.inIndex {
            covered = playlist.boundaryTime(inIndex) - startTime
            endedByMarker = true
        }
        if covered == nil { covered = planned }
        // An interstitial plays over the primary content; without an
        // X-RESUME-OFFSET it resumes where it left (the asset's own length
        // is not in the playlist), so it covers no segments.
        if let interstitial { covered = interstitial.resumeOffset ?? covered ?? 0 }
        var endIndex = playlist.segments.count
        var reached = false
        if let covered {
            let end = startTime + covered - CueBreakScanner.tolerance
            endIndex = max(startIndex, 0)
            while endIndex < playlist.segments.count, playlist.boundaryTime(endIndex) < end { endIndex += 1 }
            reached = playlist.boundaryTime(endIndex) >= end
        }
        if actual == nil, let inIndex = entry.inIndex, inIndex < endIndex {
            // An early return: the SCTE35-IN comes before the planned end.
            endIndex = inIndex
        }
        if actual == nil, endedByMarker || reached { actual = playlist.boundaryTime(endIndex) - startTime }
        let complete = endedByMarker || reached || (isInterstitial && covered != nil)
        return AdBreak(
            style: isInterstitial ? .interstitial : .dateRange, id: id, startTime: startTime,
            startDate: startDate, plannedDuration: planned, actualDuration: complete ? actual : nil,
            segmentRange: max(startIndex, 0)..<max(startIndex, endIndex), isComplete: complete,
            scte35Out: entry.outBytes, scte35In: entry.inBytes, interstitial: interstitial, line: range.line)
    }

    /// START-DATE, or END-DATE less DURATION for an end tag written without
    /// one (Elemental's SCTE35-IN tag).
    private static func startDate(of range: DateRange) -> Date? {
        if let start = range.startDate { return start }
        if let end = range.endDate, let duration = range.duration { return end.addingTimeInterval(-duration) }
        return nil
    }
}

extension MediaPlaylist {
    /// The index of the first segment that starts at or after `date` (within
    /// a millisecond), `segments.count` past the end; 0 before the start.
    func boundaryIndex(atOrAfter date: Date) -> Int {
        var low = 0
        var high = segments.count
        while low < high {
            let middle = (low + high) / 2
            guard let start = segments[middle].programDateTime else { return segments.count }
            if start.timeIntervalSince(date) < -0.0005 { low = middle + 1 } else { high = middle }
        }
        return low
    }
}
