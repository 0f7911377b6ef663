import Foundation

extension LiveStitchTimeline {
    /// Records the breaks whose start is in the window, and ends the open
    /// ones the window shows ending.
    func updateRecords(_ state: inout LiveStitchState, window: inout OriginWindow, pods: some LiveStitchPodProvider)
        throws(HLSError)
    {
        guard window.count > 0 else { return }
        // Keyed by the record's origin start; a handful at most, so no hashing.
        var matched = SmallMap<AdBreak>()
        for detected in window.breaks {
            let first = window.sequence(at: detected.segmentRange.lowerBound)
            if detected.startsInPlaylist {
                if state.breaks.contains(where: { $0.originStart == first }) {
                    matched[first] = detected
                } else if mayStartBreak(at: first, in: state) {
                    let record = try makeRecord(for: detected, at: first, window: &window, pods: pods)
                    state.breaks.append(record)
                    matched[first] = detected
                }
            } else if let record = state.breaks.last(where: { $0.contains(first) }) {
                // The window begins inside a break recorded earlier.
                matched[record.originStart] = detected
            }
            // Otherwise the stream began inside this break: its content plays.
        }
        for index in state.breaks.indices where state.breaks[index].end == nil {
            let next = index + 1 < state.breaks.count ? state.breaks[index + 1] : nil
            try advance(
                &state.breaks[index], window: &window, detected: matched[state.breaks[index].originStart],
                nextStart: next?.originStart, nextIsReplaced: next?.isReplaced ?? false, pods: pods)
        }
    }

    /// A break may start at `sequence` when it comes after every recorded one
    /// (an open one then ends where it starts).
    private func mayStartBreak(at sequence: UInt64, in state: LiveStitchState) -> Bool {
        guard sequence >= state.settled.throughSequence else { return false }
        guard let last = state.breaks.last else { return true }
        if let end = last.originEnd { return sequence >= end }
        return sequence > last.originStart
    }

    private func makeRecord(
        for detected: AdBreak, at first: UInt64, window: inout OriginWindow, pods: some LiveStitchPodProvider
    ) throws(HLSError) -> LiveBreakRecord {
        let origin = window.playlist
        let lower = detected.segmentRange.lowerBound
        let request = LiveBreakRequest(
            breakID: detected.id ?? "cue-\(first)", originStartSequence: first, startDate: origin.dateAtBoundary(lower),
            plannedDuration: detected.plannedDuration, style: detected.style, scte35Out: detected.scte35Out)
        let isReplaced: Bool
        switch options.mode {
        case .replace:
            if let pod = try window.pod(for: request, from: pods) {
                try AdSplicer.validate(pod)
                try AdSplicer.validateContainers(
                    pod, contentMap: origin.keyAndMapInForce(at: min(lower, origin.segments.count - 1)).map,
                    contentFollows: true)
                isReplaced = true
            } else {
                isReplaced = false
            }
        case .interstitials:
            isReplaced = try pods.interstitialAssetURI(for: request) != nil
        }
        let base: UInt64
        let markers: [HLSTag]
        if lower < origin.segments.count {
            let segment = origin.segments[lower]
            base = segment.isDiscontinuity ? segment.discontinuitySequence &- 1 : segment.discontinuitySequence
            markers = segment.tags.filter(\.isSourceAdMarker)
        } else {
            base = origin.segments.last?.discontinuitySequence ?? origin.discontinuitySequence
            markers = origin.trailingTags.filter(\.isSourceAdMarker)
        }
        let key = origin.keyInForce(before: lower)
        return LiveBreakRecord(
            request: request, isReplaced: isReplaced, originDiscontinuityBase: base,
            contentIsEncrypted: key.map { $0.attributes.string("METHOD") != "NONE" } ?? false,
            slateSegmentDuration: options.slateSegmentDuration ?? Double(origin.targetDuration ?? 6),
            sourceMarkers: markers.map { String(decoding: HLSWriter.line($0), as: UTF8.self) },
            anchor: ElapsedAnchor(sequence: first, elapsed: 0), end: nil)
    }

    /// Ends an open break when the window shows its end (its end marker, its
    /// planned duration, the maximum duration, the next break's start, or
    /// markers that stopped), else moves its anchor to the live edge.
    private func advance(
        _ record: inout LiveBreakRecord, window: inout OriginWindow, detected: AdBreak?, nextStart: UInt64?,
        nextIsReplaced: Bool, pods: some LiveStitchPodProvider
    ) throws(HLSError) {
        // A window older than the break says nothing about its end.
        guard record.originStart <= window.sequence(at: window.count),
            let start = startTime(of: record, in: window, detected: detected)
        else { return }
        let tolerance = CueBreakScanner.tolerance
        let startIndex = window.index(of: record.originStart) ?? 0
        var end: Int?
        func propose(_ index: Int) { end = min(end ?? index, index) }
        if let detected, detected.isComplete { propose(max(startIndex, detected.segmentRange.upperBound)) }
        if detected == nil, record.originStart < window.firstSequence,
            let index = window.firstEndMarker(endingBreakStartedBy: record.request.scte35Out)
        {
            // The start left the window without continuation markers: the
            // first end marker in it ends the break.
            propose(index)
        }
        if let nextStart, let index = window.index(of: nextStart) { propose(index) }
        for (limit, applies) in [
            (record.request.plannedDuration ?? 0, record.request.plannedDuration != nil),
            (options.maximumBreakDuration, true),
        ] where applies {
            var index = max(startIndex, 0)
            while index < window.count, window.time(at: index) - start < limit - tolerance { index += 1 }
            if window.time(at: index) - start >= limit - tolerance { propose(max(index, startIndex)) }
        }
        guard let endIndex = end, endIndex < window.count, window.sequence(at: endIndex) >= record.originStart else {
            record.anchor = ElapsedAnchor(
                sequence: window.sequence(at: window.count), elapsed: window.time(at: window.count) - start)
            return
        }
        let resume = window.playlist.segments[endIndex]
        let originEnd = window.sequence(at: endIndex)
        let contentDuration = window.time(at: endIndex) - start
        var outputCount = Int(originEnd - record.originStart)
        var added = 0
        var removed = 0
        if record.isReplaced, options.mode == .replace {
            let pod = try window.pod(for: record.request, from: pods)
            let layout = BreakLayout(
                record: record, pod: pod, limit: contentDuration, isClosed: true, tolerance: options.fitTolerance,
                window: &window, pods: pods)
            outputCount = layout.segments.count
            // Content resumes after a DISCONTINUITY, unless the origin has one
            // there or the next break's pod (with its own) follows at once.
            let nextPodFollows = nextStart == originEnd && nextIsReplaced
            added = layout.runCount + (resume.isDiscontinuity || nextPodFollows ? 0 : 1)
            // The origin's own DISCONTINUITY tags inside the break go with its segments.
            let before = resume.isDiscontinuity ? resume.discontinuitySequence &- 1 : resume.discontinuitySequence
            removed = Int(truncatingIfNeeded: before &- record.originDiscontinuityBase)
        }
        record.end = LiveBreakRecord.End(
            originCount: Int(originEnd - record.originStart), contentDuration: contentDuration,
            outputCount: outputCount, discontinuitiesAdded: added, originDiscontinuitiesRemoved: removed)
    }

    /// Seconds from the window's start to the break's start (negative once
    /// the start slid out), nil when the window says nothing about it.
    func startTime(of record: LiveBreakRecord, in window: OriginWindow, detected: AdBreak? = nil) -> Double? {
        if let end = record.end, let originEnd = record.originEnd, let index = window.index(of: originEnd) {
            return window.time(at: index) - end.contentDuration
        }
        if let index = window.index(of: record.anchor.sequence) {
            return window.time(at: index) - record.anchor.elapsed
        }
        if let detected { return detected.startTime }
        if let date = record.request.startDate, let time = window.playlist.time(atDate: date) { return time }
        return nil
    }

    /// Folds the breaks that ended long before the window into the offsets.
    func settle(_ state: inout LiveStitchState, window: OriginWindow) {
        while let first = state.breaks.first, let end = first.originEnd,
            end &+ options.settleAfterSegments <= window.firstSequence
        {
            state.settled.sequenceOffset += first.sequenceDelta
            state.settled.discontinuityOffset += first.discontinuityDelta
            state.settled.throughSequence = end
            state.breaks.removeFirst()
        }
    }
}

extension MediaPlaylist {
    /// The EXT-X-KEY in force for a segment at boundary `index` (what the
    /// header and the segments before it set), nil for none.
    func keyInForce(before index: Int) -> HLSTag? {
        var key: HLSTag?
        for tag in tags where tag.hasName(HLSTagName.key) { key = tag }
        for segment in segments.prefix(index) {
            for tag in segment.tags where tag.hasName(HLSTagName.key) { key = tag }
        }
        return key
    }

    /// The EXT-X-KEY and EXT-X-MAP in force at segment `index`, its own included.
    func keyAndMapInForce(at index: Int) -> (key: HLSTag?, map: HLSTag?) {
        var key: HLSTag?
        var map: HLSTag?
        for tag in tags {
            if tag.hasName(HLSTagName.key) { key = tag } else if tag.hasName(HLSTagName.map) { map = tag }
        }
        for segment in segments.prefix(index + 1) {
            for tag in segment.tags {
                if tag.hasName(HLSTagName.key) { key = tag } else if tag.hasName(HLSTagName.map) { map = tag }
            }
        }
        return (key, map)
    }
}

/// A few values keyed by origin sequence number, searched in order.
struct SmallMap<Value> {
    private var entries: [(key: UInt64, value: Value)] = []

    subscript(key: UInt64) -> Value? {
        get { entries.first { $0.key == key }?.value }
        set {
            if let index = entries.firstIndex(where: { $0.key == key }) {
                if let newValue { entries[index].value = newValue } else { entries.remove(at: index) }
            } else if let newValue {
                entries.append((key, newValue))
            }
        }
    }
}
