import Foundation

extension MediaPlaylist {
    /// A copy with `pod` inserted before segment `boundary`; see
    /// `AdSplicer.insert(_:into:at:)`. `splicer` defaults to DATERANGE markers.
    public func insertingAdPod(_ pod: AdPod, at boundary: Int, splicer: AdSplicer = AdSplicer()) throws(HLSError)
        -> MediaPlaylist
    {
        try splicer.insert(pod, into: self, at: boundary)
    }

    /// Inserts `pod` before segment `boundary` in place; see ``insertingAdPod(_:at:splicer:)``.
    public mutating func insertAdPod(_ pod: AdPod, at boundary: Int, splicer: AdSplicer = AdSplicer()) throws(HLSError)
    {
        try splicer.insert(pod, into: &self, at: boundary)
    }

    /// A copy with the segments of `adBreak` replaced by `pod`; see
    /// `AdSplicer.replace(_:in:with:)`. `splicer` defaults to DATERANGE markers.
    public func replacingAdBreak(_ adBreak: AdBreak, with pod: AdPod, splicer: AdSplicer = AdSplicer()) throws(HLSError)
        -> MediaPlaylist
    {
        try splicer.replace(adBreak, in: self, with: pod)
    }

    /// Replaces the segments of `adBreak` with `pod` in place, which spares
    /// copying the playlist; see ``replacingAdBreak(_:with:splicer:)``.
    public mutating func replaceAdBreak(_ adBreak: AdBreak, with pod: AdPod, splicer: AdSplicer = AdSplicer())
        throws(HLSError)
    {
        try splicer.replace(adBreak, in: &self, with: pod)
    }

    /// True for a playlist that will not change: `PLAYLIST-TYPE:VOD` or an ENDLIST.
    var isVOD: Bool { playlistType == "VOD" || hasEndList }

    /// The wall-clock date at segment boundary `index`, nil without PROGRAM-DATE-TIME.
    func dateAtBoundary(_ index: Int) -> Date? {
        if index < segments.count { return segments[index].programDateTime }
        guard let last = segments.last, let date = last.programDateTime else { return nil }
        return date.addingTimeInterval(last.duration.value)
    }

    /// Prepares the content segment at `index` (the first after a pod) to
    /// resume: DISCONTINUITY, the content's key and initialization section
    /// again, its wall-clock date, and CUE-IN when the break used CUE-OUT.
    mutating func resume(at index: Int, context: ResumeContext, cueIn: Bool) {
        guard index < segments.count else {
            if cueIn { trailingTags.insert(HLSTag(HLSTagName.cueIn), at: 0) }
            return
        }
        var added: [HLSTag] = []
        added.reserveCapacity(5 + segments[index].tags.count)
        if !segments[index].isDiscontinuity { added.append(HLSTag(HLSTagName.discontinuity)) }
        if cueIn { added.append(HLSTag(HLSTagName.cueIn)) }
        if let date = context.resumeDate, segments[index].tag(HLSTagName.programDateTime) == nil {
            added.append(HLSTag(HLSTagName.programDateTime, .text(HLSDateFormat.format(date))))
        }
        if let key = context.resumeKey, segments[index].tag(HLSTagName.key) == nil { added.append(key) }
        if let map = context.resumeMap, segments[index].tag(HLSTagName.map) == nil { added.append(map) }
        added.append(contentsOf: segments[index].tags)
        segments[index].tags = added
    }

    /// Raises TARGETDURATION when an ad segment rounds above it (RFC 8216bis 4.4.3.1).
    mutating func raiseTargetDuration(for pod: AdPod) {
        var longest = 0
        for ad in pod.ads {
            for segment in ad.segments { longest = max(longest, HLSNumberFormat.wholeSeconds(segment.duration)) }
        }
        if let target = targetDuration, longest > target { targetDuration = longest }
    }
}

extension MediaPlaylist {
    /// Moves DATERANGEs that describe content after `date` later by `seconds`:
    /// one that starts at or after it moves whole, and one that spans it
    /// ends later (END-DATE, DURATION and PLANNED-DURATION grow), because
    /// the content it covers now plays later. Ranges are found by date, not
    /// by position, since a DATERANGE may be written well before its time.
    mutating func shiftDateRanges(after date: Date, by seconds: Double) {
        for index in segments.indices {
            segments[index].tags.shiftDateRanges(after: date, by: seconds)
            segments[index].tagsAfterInfo.shiftDateRanges(after: date, by: seconds)
        }
        trailingTags.shiftDateRanges(after: date, by: seconds)
    }
}

extension [HLSTag] {
    fileprivate mutating func shiftDateRanges(after date: Date, by seconds: Double) {
        // Compared at the format's resolution (milliseconds): a boundary date
        // derived by adding up 6.006 s durations is a few hundred nanoseconds
        // off the START-DATE written for the same instant.
        let boundary = HLSDateFormat.milliseconds(since1970: date)
        func milliseconds(_ value: Date) -> Int64 { HLSDateFormat.milliseconds(since1970: value) }
        for index in indices where self[index].hasName(HLSTagName.dateRange) {
            guard case .attributes(var list) = self[index].value,
                let start = list.string("START-DATE").flatMap(HLSDateFormat.parse)
            else { continue }
            let end = list.string("END-DATE").flatMap(HLSDateFormat.parse)
            if milliseconds(start) >= boundary {
                // The whole range is content after the insert: it moves as one.
                list["START-DATE"] = .quoted(HLSDateFormat.format(start.addingTimeInterval(seconds)))
                if let end { list["END-DATE"] = .quoted(HLSDateFormat.format(end.addingTimeInterval(seconds))) }
            } else {
                // Started before the insert: it ends later only if it runs past it.
                if let end, milliseconds(end) > boundary {
                    list["END-DATE"] = .quoted(HLSDateFormat.format(end.addingTimeInterval(seconds)))
                }
                for name in ["DURATION", "PLANNED-DURATION"] {
                    if let length = list.double(name), milliseconds(start.addingTimeInterval(length)) > boundary {
                        list[name] = .decimal(length + seconds)
                    }
                }
            }
            self[index].value = .attributes(list)
        }
    }
}

extension MediaSegment {
    /// Moves the segment's explicit PROGRAM-DATE-TIME tags by `seconds`.
    mutating func shiftProgramDateTime(by seconds: Double) {
        for index in tags.indices where tags[index].hasName(HLSTagName.programDateTime) {
            if case .text(let text) = tags[index].value, let date = HLSDateFormat.parse(text) {
                tags[index].value = .text(HLSDateFormat.format(date.addingTimeInterval(seconds)))
            }
        }
    }
}

/// What the content around a splice needs, read before the playlist changes.
struct ResumeContext {
    /// The content was encrypted where the ads start, so ads need METHOD=NONE.
    var contentIsEncrypted: Bool
    /// The key in force where content resumes.
    var resumeKey: HLSTag?
    /// The initialization section in force where content resumes.
    var resumeMap: HLSTag?
    /// The wall-clock date at which content resumes.
    var resumeDate: Date?

    init(playlist: MediaPlaylist, adStart: Int, contentResume: Int, resumeDate: Date?) {
        // One forward pass finds the key in force at both boundaries and the map.
        // The ads go in before segment `adStart`, so its own KEY does not cover them.
        var key: HLSTag?
        var map: HLSTag?
        var startKey: HLSTag?
        for tag in playlist.tags where tag.hasName(HLSTagName.key) || tag.hasName(HLSTagName.map) {
            if tag.hasName(HLSTagName.key) { key = tag } else { map = tag }
        }
        let end = min(max(adStart, contentResume), playlist.segments.count - 1)
        if end >= 0 {
            for index in 0...end {
                if index == adStart { startKey = key }
                for tag in playlist.segments[index].tags {
                    if tag.hasName(HLSTagName.key) { key = tag } else if tag.hasName(HLSTagName.map) { map = tag }
                }
                for tag in playlist.segments[index].tagsAfterInfo {
                    if tag.hasName(HLSTagName.key) { key = tag } else if tag.hasName(HLSTagName.map) { map = tag }
                }
            }
        }
        if adStart > end { startKey = key }
        contentIsEncrypted = startKey.map { $0.attributes.string("METHOD") != "NONE" } ?? false
        resumeKey = key
        resumeMap = map
        self.resumeDate = resumeDate
    }
}
