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
        var inSection: SpliceInfoSection?
        /// For `END-ON-NEXT=YES`: the START-DATE of the next range of its CLASS.
        var followingStart: Date?
    }

    /// A break as made from its range, with what settling ends and nesting needs.
    private struct Found {
        var adBreak: AdBreak
        /// True when DURATION, END-DATE, END-ON-NEXT or SCTE35-IN of its own ID ended it.
        var endedByMarker: Bool
        var outSection: SpliceInfoSection?

        /// Where the break ends, as far as the playlist says.
        var extent: Double { adBreak.actualDuration ?? adBreak.plannedDuration ?? .infinity }

        /// True when `end` comes after this break's start and ends it (a
        /// segmentation end ends its own start type's break), and names no
        /// other break's event.
        func canBeEnded(by end: SeparateEnd) -> Bool {
            adBreak.style == .dateRange
                && (adBreak.segmentRange.lowerBound < end.index || !adBreak.startsInPlaylist)
                && (end.ownerStart == nil || end.ownerStart == adBreak.scte35Out)
                && (end.section?.endsBreak(startedBy: outSection) ?? true)
        }
    }

    /// An end written as a range of its own ID (its start had another ID,
    /// or left the window without one).
    private struct SeparateEnd {
        var index: Int
        var bytes: [UInt8]?
        var section: SpliceInfoSection?
        /// The SCTE-35 start of the latest break before it whose event it
        /// ends or cancels by ID; nil when it names none (it then ends a
        /// break of its kind).
        var ownerStart: [UInt8]?
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
        Self.resolveEndOnNext(order, &entries)
        var found: [Found] = []
        var unmatchedEnds: [SeparateEnd] = []
        for id in order {
            guard let entry = entries[id] else { continue }
            if entry.outBytes == nil, !entry.range.isInterstitial {
                guard let inIndex = entry.inIndex else { continue }
                if Self.startDate(of: entry.range) == nil || entry.range.duration == nil {
                    // An end whose start had another ID (or left the window without one).
                    unmatchedEnds.append(SeparateEnd(index: inIndex, bytes: entry.inBytes, section: entry.inSection))
                    continue
                }
            }
            found.append(makeBreak(id: id, entry))
        }
        Self.findOwners(of: &unmatchedEnds, in: found)
        found = Self.droppingNested(found, ends: unmatchedEnds, playlist: playlist)
        for end in unmatchedEnds { Self.settle(end, in: &found, playlist: playlist) }
        return found.map(\.adBreak)
    }

    /// An end with its own ID ends the latest break before it that it ends
    /// (a segmentation end ends its own start type's break), when no marker
    /// of the break's own ended it: also one the window shows reaching its
    /// planned duration, since an early return comes before that.
    private static func settle(
        _ end: SeparateEnd, in found: inout [Found],
        playlist: MediaPlaylist
    ) {
        guard
            let open = found.lastIndex(where: { $0.canBeEnded(by: end) }),
            !found[open].endedByMarker,
            !found[open].adBreak.isComplete || found[open].adBreak.segmentRange.upperBound >= end.index
        else { return }
        let start = found[open].adBreak.segmentRange.lowerBound
        found[open].adBreak.segmentRange = start..<max(start, end.index)
        found[open].adBreak.actualDuration = playlist.boundaryTime(end.index) - found[open].adBreak.startTime
        found[open].adBreak.isComplete = true
        found[open].adBreak.scte35In = end.bytes
        found[open].endedByMarker = true
    }

    /// Gives each end the break whose event it names by ID, looked up by
    /// event ID so a long DVR window costs its number of breaks.
    private static func findOwners(of ends: inout [SeparateEnd], in found: [Found]) {
        guard !ends.isEmpty else { return }
        var byEvent: [UInt32: [Int]] = [:]
        for (offset, candidate) in found.enumerated() where candidate.adBreak.style == .dateRange {
            for id in candidate.outSection?.eventIDs ?? [] { byEvent[id, default: []].append(offset) }
        }
        for position in ends.indices {
            guard let section = ends[position].section else { continue }
            let end = ends[position]
            var owner: Int?
            for id in section.eventIDs {
                for offset in byEvent[id] ?? [] where offset > (owner ?? -1) {
                    let candidate = found[offset].adBreak
                    if candidate.segmentRange.lowerBound < end.index || !candidate.startsInPlaylist,
                        section.ending(ofBreakStartedBy: found[offset].outSection) == .byEvent
                    {
                        owner = offset
                    }
                }
            }
            ends[position].ownerStart = owner.flatMap { found[$0].adBreak.scte35Out }
        }
    }

    /// Drops the ranges that mark a part of another break (an ad's own
    /// range inside its placement opportunity's, see
    /// ``SpliceInfoSection/isNested(inBreakStartedBy:)``): packagers write a
    /// DATERANGE for every SCTE-35 message, and the part would otherwise cut
    /// the break it is in. Of two starting together, the longer is the break.
    /// A break covers what starts before its end, the end an end with its
    /// own ID gives it included (so a range after an opportunity closed that
    /// way is a break of its own). Breaks are walked in start order and
    /// only those still open at a start are compared: a long DVR window's
    /// breaks cost their number, not its square.
    private static func droppingNested(
        _ found: [Found], ends: [SeparateEnd],
        playlist: MediaPlaylist
    ) -> [Found] {
        guard found.count > 1 else { return found }
        let sorted = found.sorted {
            $0.adBreak.startTime != $1.adBreak.startTime
                ? $0.adBreak.startTime < $1.adBreak.startTime : $0.extent > $1.extent
        }
        var kept: [Found] = []
        kept.reserveCapacity(sorted.count)
        var open: [(outer: Found, end: Double)] = []
        for candidate in sorted {
            let start = candidate.adBreak.startTime
            open.removeAll { $0.end - CueBreakScanner.tolerance <= start }
            let isPart =
                candidate.adBreak.style == .dateRange
                && open.contains { outer in
                    outer.outer.adBreak.style == .dateRange
                        && candidate.outSection?.isNested(inBreakStartedBy: outer.outer.outSection) == true
                }
            guard !isPart else { continue }
            kept.append(candidate)
            open.append((candidate, start + settledExtent(of: candidate, ends: ends, playlist: playlist)))
        }
        return kept
    }

    /// How long `found` runs: its own extent, or up to the first end with
    /// its own ID that ends it (what ``settle(_:in:playlist:)`` will apply).
    private static func settledExtent(
        of found: Found, ends: [SeparateEnd], playlist: MediaPlaylist
    ) -> Double {
        guard !found.endedByMarker else { return found.extent }
        let adBreak = found.adBreak
        guard let end = ends.first(where: found.canBeEnded(by:)) else { return found.extent }
        return min(found.extent, playlist.boundaryTime(end.index) - adBreak.startTime)
    }

    /// `END-ON-NEXT=YES`: the range ends where the next range of its CLASS
    /// starts (RFC 8216bis 4.4.5.1: its Following Range), once that range is
    /// in the playlist.
    private static func resolveEndOnNext(_ order: [String], _ entries: inout [String: Entry]) {
        guard order.contains(where: { entries[$0]?.range.endsOnNext == true }) else { return }
        // Each CLASS's START-DATEs in order, so each range finds its Following Range by a search.
        var startsByClass: [String: [Date]] = [:]
        for id in order {
            guard let range = entries[id]?.range, let rangeClass = range.dateRangeClass, let start = range.startDate
            else { continue }
            startsByClass[rangeClass, default: []].append(start)
        }
        for key in startsByClass.keys { startsByClass[key]?.sort() }
        for id in order {
            guard let entry = entries[id], entry.range.endsOnNext, let rangeClass = entry.range.dateRangeClass,
                let start = entry.range.startDate, let starts = startsByClass[rangeClass]
            else { continue }
            // The first START-DATE after this one.
            var low = 0
            var high = starts.count
            while low < high {
                let middle = (low + high) / 2
                if starts[middle] <= start { low = middle + 1 } else { high = middle }
            }
            entries[id]?.followingStart = low < starts.count ? starts[low] : nil
        }
    }

    /// Decodes the SCTE-35 attributes of one tag, once: SCTE35-OUT and
    /// SCTE35-IN by name, SCTE35-CMD by what its section says.
    private static func readSCTE35(_ range: DateRange, into entry: inout Entry, at index: Int) {
        if entry.outBytes == nil, let bytes = range.scte35Out {
            entry.outBytes = bytes
            entry.outSection = SpliceInfoSection(cueBytes: bytes)
        }
        if let bytes = range.scte35In {
            entry.inBytes = bytes
            entry.inSection = SpliceInfoSection(cueBytes: bytes)
            entry.inIndex = index
        }
        if let bytes = range.scte35Command, let section = SpliceInfoSection(cueBytes: bytes) {
            if section.isCueOut, entry.outBytes == nil {
                entry.outBytes = bytes
                entry.outSection = section
            } else if section.isCueIn || section.isCancellation {
                entry.inBytes = bytes
                entry.inSection = section
                entry.inIndex = index
            }
        }
    }

    private func makeBreak(id: String, _ entry: Entry) -> Found {
        let range = entry.range
        let isInterstitial = range.isInterstitial
        var startIndex = entry.firstIndex
        var startTime = playlist.boundaryTime(startIndex)
        let startDate = Self.startDate(of: range)
        if let date = startDate, let time = playlist.time(atDate: date) {
            // By date: a DATERANGE may be written before its time, or stay
            // in the window after its start slid out.
            startIndex = playlist.boundaryIndex(atOrAfter: date)
            startTime = time
        }
        var actual = range.duration
        if actual == nil, let startDate, let endDate = range.endDate ?? entry.followingStart {
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
        let adBreak = AdBreak(
            style: isInterstitial ? .interstitial : .dateRange, id: id, startTime: startTime,
            startDate: startDate, plannedDuration: planned, actualDuration: complete ? actual : nil,
            segmentRange: max(startIndex, 0)..<max(startIndex, endIndex), isComplete: complete,
            scte35Out: entry.outBytes, scte35In: entry.inBytes, interstitial: interstitial, line: range.line)
        return Found(adBreak: adBreak, endedByMarker: endedByMarker, outSection: entry.outSection)
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
    /// The index of the first segment that starts at or after `date`, a
    /// segment whose PROGRAM-DATE-TIME is up to 0.1 s before it included
    /// (packagers round dates to the millisecond, and a START-DATE a
    /// millisecond after its segment's date means that segment);
    /// `segments.count` past the end; 0 before the start.
    func boundaryIndex(atOrAfter date: Date) -> Int {
        var low = 0
        var high = segments.count
        while low < high {
            let middle = (low + high) / 2
            guard let start = segments[middle].programDateTime else { return segments.count }
            if start.timeIntervalSince(date) < -CueBreakScanner.tolerance { low = middle + 1 } else { high = middle }
        }
        return low
    }

    /// Seconds from the start of the first segment to `date`, measured from
    /// the dated segment at or before it, so a PROGRAM-DATE-TIME that jumps
    /// at a discontinuity (or drifts from the EXTINF sums over a long
    /// window) does not move it; a date within 0.1 s of a segment's is that
    /// segment's start. Negative before the first segment; nil without
    /// dates.
    func time(atDate date: Date) -> Double? {
        guard let first = segments.first?.programDateTime else { return nil }
        let index = boundaryIndex(atOrAfter: date)
        if index < segments.count, let start = segments[index].programDateTime,
            abs(start.timeIntervalSince(date)) <= CueBreakScanner.tolerance
        {
            return segments[index].startTime
        }
        if index > 0, let start = segments[index - 1].programDateTime {
            return segments[index - 1].startTime + date.timeIntervalSince(start)
        }
        return date.timeIntervalSince(first)
    }
}
