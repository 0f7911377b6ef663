import Foundation

/// Finds the breaks marked by CUE-OUT / CUE-OUT-CONT / CUE-IN, by Adobe's
/// EXT-X-CUE / EXT-X-CUE-CONT, by EXT-X-SCTE35 and by EXT-OATCLS-SCTE35 or
/// EXT-X-SPLICEPOINT-SCTE35, one segment's tags at a time.
///
/// A break ends at its CUE-IN (or a SCTE-35 payload that returns to the
/// network); without one, at the first segment boundary that reaches its
/// planned duration; without either, it is still open at the end of the
/// playlist. A new CUE-OUT while a break is open ends the open one there.
struct CueBreakScanner {
    private let playlist: MediaPlaylist
    private var breaks: [AdBreak] = []
    /// The index in ``breaks`` of the break still open. Breaks are edited in
    /// place: `AdBreak` is large, and copying it in and out of an optional
    /// was most of the scan's time.
    private var openIndex: Int?
    /// The SCTE-35 section that started the open break, if any: what ends
    /// it, and what is a part of it, depends on it.
    private var openSection: SpliceInfoSection?
    /// True once a DATERANGE was seen, so the DATERANGE pass can be skipped otherwise.
    private(set) var sawDateRange = false

    init(playlist: MediaPlaylist) { self.playlist = playlist }

    mutating func scan(_ tags: [HLSTag], at index: Int) {
        closeIfPlannedDurationReached(at: index)
        var sawCueOut = false
        var payloadTags: [HLSTag] = []
        var scte35Tags: [HLSTag] = []
        for tag in tags where !tag.isComment {
            if tag.hasName(HLSTagName.cueOut) {
                sawCueOut = true
                start(.cueOut, at: index, planned: CueMarkerValue.duration(tag.valueText), payload: nil, line: tag.line)
            } else if tag.hasName(HLSTagName.cueOutCont) {
                continueBreak(tag, at: index)
            } else if tag.hasName(HLSTagName.cueIn) {
                close(at: index, scte35In: nil)
            } else if tag.hasName(HLSTagName.adobeCue) {
                switch CueMarkerValue.adobeCue(tag.valueText) {
                case .spliceOut(let duration):
                    start(.adobeCue, at: index, planned: duration, payload: nil, line: tag.line)
                case .spliceIn: close(at: index, scte35In: nil)
                case .other: break
                }
            } else if tag.hasName(HLSTagName.adobeCueCont) {
                continueBreak(tag, at: index, style: .adobeCue)
            } else if tag.hasName(HLSTagName.oatclsSCTE35) || tag.hasName(HLSTagName.splicePointSCTE35) {
                payloadTags.append(tag)
            } else if tag.hasName(HLSTagName.scte35) {
                scte35Tags.append(tag)
            } else if tag.hasName(HLSTagName.asset) {
                // SCTE-35 enhanced: the CAID or UPID of the avail, next to its CUE-OUT.
                if let openIndex, breaks[openIndex].segmentRange.lowerBound == index {
                    breaks[openIndex].asset = tag.attributes
                } else {
                    pendingAsset = tag.attributes
                }
            } else if tag.hasName(HLSTagName.dateRange) {
                sawDateRange = true
            }
        }
        // An OATCLS or SPLICEPOINT payload next to a CUE-OUT belongs to it;
        // alone, the payload itself says whether the break starts or ends.
        for tag in payloadTags {
            let bytes = tag.valueText.flatMap(MediaPlaylist.payloadBytes)
            let section = bytes.flatMap(SpliceInfoSection.init(cueBytes:))
            if sawCueOut, let openIndex, breaks[openIndex].segmentRange.lowerBound == index,
                breaks[openIndex].scte35Out == nil
            {
                breaks[openIndex].scte35Out = bytes
                openSection = section
                if breaks[openIndex].plannedDuration == nil {
                    breaks[openIndex].plannedDuration = section?.durationSeconds
                }
                continue
            }
            guard let bytes, let section else { continue }
            let style: AdMarkerStyle = tag.name == HLSTagName.oatclsSCTE35 ? .oatcls : .splicePoint
            scanPayload(
                section, bytes: bytes, style: style, planned: section.durationSeconds, at: index, line: tag.line)
        }
        for tag in scte35Tags { scanSCTE35(tag, at: index, besideCueOut: sawCueOut) }
        if let asset = pendingAsset, let openIndex, breaks[openIndex].segmentRange.lowerBound == index {
            breaks[openIndex].asset = asset
        }
        pendingAsset = nil
    }

    /// An `EXT-X-SCTE35`: next to a CUE-OUT it is that break's payload (a
    /// packager writing both marks one avail twice); alone, its `CUE-OUT` /
    /// `CUE-IN` attribute, or else its payload, starts, continues or ends a break.
    private mutating func scanSCTE35(_ tag: HLSTag, at index: Int, besideCueOut: Bool) {
        let cue = CueMarkerValue.scte35Tag(tag.valueText)
        let duration = cue.duration ?? cue.section?.durationSeconds
        if besideCueOut, cue.state == .out || cue.state == .fromPayload, let openIndex,
            breaks[openIndex].segmentRange.lowerBound == index, breaks[openIndex].style != .scte35Cue
        {
            if breaks[openIndex].scte35Out == nil {
                breaks[openIndex].scte35Out = cue.payload
                openSection = cue.section
            }
            if breaks[openIndex].plannedDuration == nil { breaks[openIndex].plannedDuration = duration }
            return
        }
        if cue.state == .fromPayload {
            guard let section = cue.section, let payload = cue.payload else { return }
            scanPayload(section, bytes: payload, style: .scte35Cue, planned: duration, at: index, line: tag.line)
            return
        }
        guard let effect = cue.effect else { return }
        switch effect {
        case .start:
            // Repeated on every segment of the break by some packagers: one break.
            if let openIndex, cue.payload != nil, breaks[openIndex].scte35Out == cue.payload { return }
            start(.scte35Cue, at: index, planned: duration, payload: cue.payload, section: cue.section, line: tag.line)
        case .continuation:
            continueBreak(
                elapsed: cue.elapsed, duration: duration, payload: cue.payload, at: index, line: tag.line,
                style: .scte35Cue)
        case .end:
            if openIndex == nil, let last = breaks.indices.last, breaks[last].segmentRange.upperBound == index {
                // The break already ended here by its duration: the payload is its end.
                breaks[last].scte35In = cue.payload
            }
            close(at: index, scte35In: cue.payload)
        }
    }

    /// A payload that is the only marker (OATCLS, SPLICEPOINT, EXT-X-SCTE35
    /// without CUE-OUT / CUE-IN): it starts a break or ends the open one,
    /// unless it marks a part of the open break (an ad's start or end inside
    /// a placement opportunity), which it then leaves as it is.
    private mutating func scanPayload(
        _ section: SpliceInfoSection, bytes: [UInt8], style: AdMarkerStyle, planned: Double?, at index: Int, line: Int
    ) {
        if section.isCueOut, !section.isNested(inBreakStartedBy: openSection) {
            // Repeated on every segment of the break by some packagers: one break.
            if let openIndex, breaks[openIndex].scte35Out == bytes { return }
            start(style, at: index, planned: planned, payload: bytes, section: section, line: line)
        } else if section.isCueIn || section.isCancellation {
            if openIndex == nil, let last = breaks.indices.last, breaks[last].segmentRange.upperBound == index,
                section.endsBreak(startedBy: breaks[last].scte35Out.flatMap(SpliceInfoSection.init(cueBytes:)))
            {
                // The break already ended here by its duration: the payload is its end.
                breaks[last].scte35In = bytes
            }
            if openIndex != nil, endsOpenBreak(section) { close(at: index, scte35In: bytes) }
        }
    }

    /// True when `section` ends the open break: the end or cancel of its
    /// own event, or an end of its kind that names no event of a break
    /// already closed (a repeated or late end of the break before it).
    private func endsOpenBreak(_ section: SpliceInfoSection) -> Bool {
        switch section.ending(ofBreakStartedBy: openSection) {
        case .none: return false
        case .byEvent: return true
        case .byKind: return !closedStarts.contains { section.ending(ofBreakStartedBy: $0) == .byEvent }
        }
    }

    /// The SCTE-35 starts of the last few breaks closed, newest last.
    private var closedStarts: [SpliceInfoSection] = []

    /// An EXT-X-ASSET written before the CUE-OUT it belongs to.
    private var pendingAsset: HLSAttributeList?

    mutating func finish() -> [AdBreak] {
        closeIfPlannedDurationReached(at: playlist.segments.count)
        if let openIndex {
            breaks[openIndex].segmentRange = breaks[openIndex].segmentRange.lowerBound..<playlist.segments.count
            self.openIndex = nil
        }
        return breaks
    }

    /// A CUE-OUT-CONT: fills in the open break's duration, or opens the
    /// break that began before the playlist (its start is the elapsed time
    /// back from here). One that continues a break already ended here
    /// (by duration) is not a new break.
    private mutating func continueBreak(_ tag: HLSTag, at index: Int, style: AdMarkerStyle = .cueOut) {
        if let openIndex {
            // Read only when the CUE-OUT gave no duration: one of these follows every break segment.
            if breaks[openIndex].plannedDuration == nil {
                breaks[openIndex].plannedDuration = CueMarkerValue.continuation(tag.valueText).duration
            }
            return
        }
        let (elapsed, duration) = CueMarkerValue.continuation(tag.valueText)
        let payload = tag.valueText.flatMap { CueMarkerValue.field("SCTE35", in: $0) }.flatMap(
            MediaPlaylist.payloadBytes)
        continueBreak(elapsed: elapsed, duration: duration, payload: payload, at: index, line: tag.line, style: style)
    }

    /// A continuation read already: fills in the open break's duration, or
    /// opens the break that began `elapsed` seconds before boundary `index`.
    private mutating func continueBreak(
        elapsed: Double?, duration: Double?, payload: [UInt8]?, at index: Int, line: Int, style: AdMarkerStyle
    ) {
        if let openIndex {
            if breaks[openIndex].plannedDuration == nil { breaks[openIndex].plannedDuration = duration }
            return
        }
        let startTime = playlist.boundaryTime(index) - (elapsed ?? 0)
        if let last = breaks.last, startTime < last.startTime + (last.actualDuration ?? 0) + Self.tolerance {
            return
        }
        start(style, at: index, planned: duration, payload: payload, line: line, elapsed: elapsed ?? 0)
    }

    /// Segment boundaries within this of the planned end count as reaching it
    /// (29.97 fps media rarely lands on the announced second).
    static let tolerance = 0.1

    /// Ends the open break at boundary `index` when that reaches its planned
    /// duration, unless the markers say it runs on: a continuation on the
    /// segment at `index` (a break that overran its announced length), or
    /// an explicit end further on that comes before any other break's
    /// start (MediaConvert writes `CUE-OUT:4` and its CUE-IN three 10 s
    /// segments later). The planned duration only ends a break that no
    /// marker ends.
    private mutating func closeIfPlannedDurationReached(at index: Int) {
        guard let openIndex, let planned = breaks[openIndex].plannedDuration,
            index > breaks[openIndex].segmentRange.lowerBound,
            playlist.boundaryTime(index) >= breaks[openIndex].startTime + planned - Self.tolerance,
            !markersContinueBreak(at: index)
        else { return }
        close(at: index, scte35In: nil)
    }

    /// True when boundary `index` carries a continuation of a break, or an
    /// end marker comes at or after it before any marker of another kind.
    private func markersContinueBreak(at index: Int) -> Bool {
        var position = index
        while position <= playlist.segments.count {
            let groups =
                position < playlist.segments.count
                ? [playlist.segments[position].tags, playlist.segments[position].tagsAfterInfo]
                : [playlist.trailingTags]
            for tags in groups {
                for tag in tags where !tag.isComment {
                    switch Self.markerKind(tag) {
                    case .continuation: if position == index { return true }
                    case .end: return true
                    case .other: return false
                    case nil: continue
                    }
                }
            }
            position += 1
        }
        return false
    }

    private enum MarkerKind { case continuation, end, other }

    /// What a tag says about an open break: it continues it, ends it, is
    /// some other marker (a start, or a payload to decode), or nothing.
    private static func markerKind(_ tag: HLSTag) -> MarkerKind? {
        if tag.hasName(HLSTagName.cueOutCont) || tag.hasName(HLSTagName.adobeCueCont) { return .continuation }
        if tag.hasName(HLSTagName.cueIn) { return .end }
        if tag.hasName(HLSTagName.adobeCue) {
            switch CueMarkerValue.adobeCue(tag.valueText) {
            case .spliceIn: return .end
            case .spliceOut: return .other
            case .other: return nil
            }
        }
        if tag.hasName(HLSTagName.scte35) {
            switch CueMarkerValue.scte35Tag(tag.valueText).state {
            case .continuation: return .continuation
            case .back: return .end
            case .out, .fromPayload: return .other
            }
        }
        if tag.hasName(HLSTagName.cueOut) || tag.hasName(HLSTagName.oatclsSCTE35)
            || tag.hasName(HLSTagName.splicePointSCTE35) || tag.hasName(HLSTagName.dateRange)
        {
            return .other
        }
        return nil
    }

    private mutating func close(at index: Int, scte35In: [UInt8]?) {
        guard let openIndex else { return }
        breaks[openIndex].segmentRange = breaks[openIndex].segmentRange.lowerBound..<index
        breaks[openIndex].actualDuration = playlist.boundaryTime(index) - breaks[openIndex].startTime
        breaks[openIndex].isComplete = true
        breaks[openIndex].scte35In = scte35In
        self.openIndex = nil
        if let openSection {
            if closedStarts.count == 4 { closedStarts.removeFirst() }
            closedStarts.append(openSection)
        }
        openSection = nil
    }

    private mutating func start(
        _ style: AdMarkerStyle, at index: Int, planned: Double?, payload: [UInt8]?, section: SpliceInfoSection? = nil,
        line: Int, elapsed: Double = 0
    ) {
        close(at: index, scte35In: nil)
        openSection = section ?? payload.flatMap(SpliceInfoSection.init(cueBytes:))
        let date = playlist.dateAtBoundary(index).map { $0.addingTimeInterval(-elapsed) }
        openIndex = breaks.count
        breaks.append(
            AdBreak(
                style: style, startTime: playlist.boundaryTime(index) - elapsed, startDate: date,
                plannedDuration: planned,
                segmentRange: index..<index, isComplete: false, scte35Out: payload, line: line))
    }
}
