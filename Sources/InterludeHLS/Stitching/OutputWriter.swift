import Foundation

/// Builds the viewer's playlist segment by segment for ``LiveStitchTimeline``.
struct OutputWriter {
    let options: LiveStitchTimeline.Options
    let origin: MediaPlaylist
    var segments: [MediaSegment] = []
    /// The output media sequence and discontinuity sequence numbers of the first segment written.
    var firstSequence: UInt64?
    var firstDiscontinuity: UInt64 = 0
    /// The number the next segment gets, and the discontinuity number so far,
    /// counting pod segments outside the window too: an empty output still
    /// says where the stream stands.
    var nextSequence: UInt64?
    var currentDiscontinuity: UInt64 = 0
    /// The record whose interstitial the next content segment announces.
    var interstitialRecord: LiveBreakRecord?
    private var longest = 0.0

    init(options: LiveStitchTimeline.Options, origin: MediaPlaylist) {
        self.options = options
        self.origin = origin
        segments.reserveCapacity(origin.segments.count + 4)
    }

    private var hasDates: Bool { origin.segments.first?.programDateTime != nil }

    /// Writes the pod segments of `record` that fall inside the window:
    /// those starting at or after the window's start that the origin has
    /// covered (all of them once the break ended).
    mutating func writeBreak(
        _ record: LiveBreakRecord, pod: AdPod?, startTime: Double, window: inout OriginWindow,
        pods: some LiveStitchPodProvider, firstSequence: UInt64, discontinuityBase: UInt64
    ) {
        let limit = record.end?.contentDuration ?? (window.time(at: window.count) - startTime)
        let layout = BreakLayout(
            record: record, pod: pod, limit: limit, isClosed: record.end != nil, tolerance: options.fitTolerance,
            window: &window, pods: pods)
        var discontinuity = discontinuityBase
        let passesThrough = options.passesMarkersThrough
        let sourceHasCueOut = record.sourceMarkers.contains {
            $0.hasPrefix("#" + HLSTagName.cueOut + ":") || $0 == "#" + HLSTagName.cueOut
        }
        let planned = record.request.plannedDuration.map { HLSNumberFormat.fixed($0, fractionDigits: 3) }
        for (index, placed) in layout.segments.enumerated() {
            if placed.startsRun { discontinuity += 1 }
            // A segment that began before the window's first segment has left it.
            guard startTime + placed.offset >= -0.001 else { continue }
            var tags: [HLSTag] = []
            tags.reserveCapacity(index == 0 ? 4 + record.sourceMarkers.count : 3)
            if placed.startsRun { tags.append(HLSTag(HLSTagName.discontinuity)) }
            // Repeated on every pod segment so a window that starts mid-ad still says it.
            if record.contentIsEncrypted {
                tags.append(HLSTag(HLSTagName.key, attributes: HLSAttributeList(["METHOD": .enumerated("NONE")])))
            }
            if let mapURI = placed.mapURI {
                tags.append(HLSTag(HLSTagName.map, attributes: HLSAttributeList(["URI": .quoted(mapURI)])))
            }
            if placed.startsRun, let date = record.request.startDate {
                tags.append(
                    HLSTag(
                        HLSTagName.programDateTime, .text(HLSDateFormat.format(date.addingTimeInterval(placed.offset))))
                )
            }
            if index == 0 {
                if passesThrough {
                    tags += record.sourceMarkers.compactMap(HLSTag.init(line:))
                } else if options.writesDateRanges, let date = record.request.startDate {
                    tags.append(Self.breakStartDateRange(record, date: date))
                }
            } else if passesThrough, sourceHasCueOut {
                let text =
                    planned.map { HLSNumberFormat.cueOutContinuation(elapsed: placed.offset, total: $0) }
                    ?? "ElapsedTime=" + HLSNumberFormat.fixed(placed.offset, fractionDigits: 3)
                tags.append(HLSTag(HLSTagName.cueOutCont, .text(text)))
            }
            append(
                MediaSegment(uri: placed.uri, duration: placed.duration, tags: tags),
                sequence: firstSequence + UInt64(index), discontinuity: discontinuity,
                date: placed.startsRun ? record.request.startDate?.addingTimeInterval(placed.offset) : nil)
        }
        nextSequence = firstSequence + UInt64(layout.segments.count)
        currentDiscontinuity = discontinuity
    }

    /// Writes one origin content segment: its tags without the origin's ad
    /// markers (unless they pass through), and where content resumes after a
    /// pod, DISCONTINUITY, its date, key and initialization section again.
    mutating func writeContent(
        _ segment: MediaSegment, at index: Int, sequence: UInt64, discontinuity: UInt64,
        resuming: LiveBreakRecord?, interstitialURI: String?
    ) {
        let passesThrough = options.passesMarkersThrough
        // Filtered only when there is a marker to drop: most segments have none.
        var tags = segment.tags
        if !passesThrough, tags.contains(where: \.isSourceAdMarker) { tags.removeAll(where: \.isSourceAdMarker) }
        var after = segment.tagsAfterInfo
        if !passesThrough, after.contains(where: \.isSourceAdMarker) { after.removeAll(where: \.isSourceAdMarker) }
        if let record = resuming, options.mode == .replace {
            var added: [HLSTag] = []
            if !segment.isDiscontinuity { added.append(HLSTag(HLSTagName.discontinuity)) }
            if passesThrough, segment.tag(HLSTagName.cueIn) == nil { added.append(HLSTag(HLSTagName.cueIn)) }
            if let date = segment.programDateTime, segment.tag(HLSTagName.programDateTime) == nil {
                added.append(HLSTag(HLSTagName.programDateTime, .text(HLSDateFormat.format(date))))
            }
            let (key, map) = origin.keyAndMapInForce(at: index)
            if let key, segment.tag(HLSTagName.key) == nil, record.contentIsEncrypted { added.append(key) }
            if let map, segment.tag(HLSTagName.map) == nil { added.append(map) }
            if !passesThrough, options.writesDateRanges, let date = record.request.startDate, let end = record.end {
                var attributes = HLSAttributeList([
                    "ID": .quoted(record.request.breakID), "START-DATE": .quoted(HLSDateFormat.format(date)),
                ])
                attributes["DURATION"] = HLSAttributeValue(
                    kind: .decimalFloatingPoint, text: HLSNumberFormat.fixed(end.contentDuration, fractionDigits: 3))
                added.append(HLSTag(HLSTagName.dateRange, attributes: attributes))
            }
            tags = added + tags
        }
        if let interstitialURI, let record = interstitialRecord, let date = segment.programDateTime {
            tags.append(Self.interstitialDateRange(record, assetURI: interstitialURI, date: date))
        }
        interstitialRecord = nil
        let output = MediaSegment(
            uri: segment.uri, duration: segment.duration, title: segment.title, tags: tags, tagsAfterInfo: after)
        let dated = output.tag(HLSTagName.programDateTime) != nil
        append(output, sequence: sequence, discontinuity: discontinuity, date: dated ? segment.programDateTime : nil)
        nextSequence = sequence + 1
        currentDiscontinuity = discontinuity
    }

    /// Appends a segment and places it on the output's timeline with the
    /// cursor the parser uses, from what the writer knows (its date is
    /// `date` when it carries a PROGRAM-DATE-TIME), so no tag is read again.
    private mutating func append(_ segment: MediaSegment, sequence: UInt64, discontinuity: UInt64, date: Date?) {
        var segment = segment
        var marks = SegmentTimelineMarks()
        marks.isDiscontinuity = segment.isDiscontinuity
        marks.date = date
        if firstSequence == nil {
            firstSequence = sequence
            firstDiscontinuity = marks.isDiscontinuity && discontinuity > 0 ? discontinuity - 1 : discontinuity
            cursor = TimelineCursor(sequence: sequence, discontinuity: firstDiscontinuity)
        }
        cursor?.place(&segment, at: segments.count, marks: marks)
        longest = max(longest, segment.duration.value)
        segments.append(segment)
    }

    private var cursor: TimelineCursor?

    /// The DATERANGE on a stitched break's first segment.
    static func breakStartDateRange(_ record: LiveBreakRecord, date: Date) -> HLSTag {
        var attributes = HLSAttributeList([
            "ID": .quoted(record.request.breakID), "START-DATE": .quoted(HLSDateFormat.format(date)),
        ])
        if let planned = record.request.plannedDuration {
            attributes["PLANNED-DURATION"] = HLSAttributeValue(
                kind: .decimalFloatingPoint, text: HLSNumberFormat.fixed(planned, fractionDigits: 3))
        }
        return HLSTag(HLSTagName.dateRange, attributes: attributes)
    }

    /// The interstitial DATERANGE announcing a live break: the pod's playlist
    /// replaces the break's content (X-RESUME-OFFSET its duration), snapped
    /// to segment boundaries, not skippable.
    static func interstitialDateRange(_ record: LiveBreakRecord, assetURI: String, date: Date) -> HLSTag {
        let planned = record.request.plannedDuration
        return Interstitial.liveReplacement(assetURI: assetURI, duration: planned)
            .dateRange(id: record.request.breakID, startDate: date, plannedDuration: planned).tag
    }

    /// The playlist: the origin's header with the output's numbers, the
    /// segments, and the origin's trailing tags.
    func playlist() -> MediaPlaylist {
        var header = origin.tags
        var result = MediaPlaylist(tags: [], segments: [], trailingTags: [])
        result.tags = header
        result.setHeaderTag(HLSTagName.mediaSequence, .text(String(firstSequence ?? 0)))
        result.setHeaderTag(HLSTagName.discontinuitySequence, .text(String(firstDiscontinuity)))
        let target = max(
            origin.targetDuration ?? 0, options.minimumTargetDuration ?? 0, HLSNumberFormat.wholeSeconds(longest))
        result.setHeaderTag(HLSTagName.targetDuration, .text(String(target)))
        header = result.tags
        let trailing =
            options.passesMarkersThrough ? origin.trailingTags : origin.trailingTags.filter { !$0.isSourceAdMarker }
        var segments = segments
        cursor?.backfillDates(&segments)
        return MediaPlaylist(tags: header, segments: segments, trailingTags: trailing, timelineIsDerived: true)
    }
}

extension HLSTag {
    /// Reads one tag line (`#EXT-X-CUE-OUT:30`) as the parser would; nil when it is not one.
    init?(line: String) {
        var bytes = Array(line.utf8)
        guard bytes.first == UInt8(ascii: "#") else { return nil }
        let count = bytes.count
        let read: HLSTag? = bytes.withUnsafeMutableBufferPointer { buffer in
            let readOnly = UnsafeBufferPointer(buffer)
            return try? HLSTagReader.read(
                readOnly, HLSLineReader.Line(start: 0, end: count, number: 0, mayReferenceVariable: false)
            ).tag
        }
        guard let read else { return nil }
        self = read
    }
}
