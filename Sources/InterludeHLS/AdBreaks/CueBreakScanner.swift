import Foundation

/// Finds the breaks marked by CUE-OUT / CUE-OUT-CONT / CUE-IN and by
/// EXT-OATCLS-SCTE35 or EXT-X-SPLICEPOINT-SCTE35, one segment's tags at a time.
struct CueBreakScanner {
    private let playlist: MediaPlaylist
    private var breaks: [AdBreak] = []
    /// The index in ``breaks`` of the break still open. Breaks are edited in
    /// place: `AdBreak` is large, and copying it in and out of an optional
    /// was most of the scan's time.
    private var openIndex: Int?
    /// True once a DATERANGE was seen, so the DATERANGE pass can be skipped otherwise.
    private(set) var sawDateRange = false

    init(playlist: MediaPlaylist) { self.playlist = playlist }

    mutating func scan(_ tags: [HLSTag], at index: Int) {
        var sawCueOut = false
        var payloadTags: [HLSTag] = []
        for tag in tags where !tag.isComment {
            if tag.hasName(HLSTagName.cueOut) {
                sawCueOut = true
                start(.cueOut, at: index, planned: CueMarkerValue.duration(tag.valueText), payload: nil, line: tag.line)
            } else if tag.hasName(HLSTagName.cueOutCont) {
                if openIndex == nil {
                    // The window begins inside a break that started earlier.
                    let (elapsed, duration) = CueMarkerValue.continuation(tag.valueText)
                    let payload = tag.valueText.flatMap { CueMarkerValue.field("SCTE35", in: $0) }.flatMap(
                        MediaPlaylist.payloadBytes)
                    start(
                        .cueOut, at: index, planned: duration, payload: payload, line: tag.line, elapsed: elapsed ?? 0)
                }
            } else if tag.hasName(HLSTagName.cueIn) {
                close(at: index, scte35In: nil)
            } else if tag.hasName(HLSTagName.oatclsSCTE35) || tag.hasName(HLSTagName.splicePointSCTE35) {
                payloadTags.append(tag)
            } else if tag.hasName(HLSTagName.dateRange) {
                sawDateRange = true
            }
        }
        // An OATCLS or SPLICEPOINT payload next to a CUE-OUT belongs to it;
        // alone, the payload itself says whether the break starts or ends.
        for tag in payloadTags {
            let bytes = tag.valueText.flatMap(MediaPlaylist.payloadBytes)
            if sawCueOut, let openIndex, breaks[openIndex].segmentRange.lowerBound == index,
                breaks[openIndex].scte35Out == nil
            {
                breaks[openIndex].scte35Out = bytes
                continue
            }
            guard let bytes, let section = try? SpliceInfoSection(bytes: bytes) else { continue }
            let style: AdMarkerStyle = tag.name == HLSTagName.oatclsSCTE35 ? .oatcls : .splicePoint
            if section.isCueOut {
                start(style, at: index, planned: section.durationSeconds, payload: bytes, line: tag.line)
            } else if section.isCueIn {
                close(at: index, scte35In: bytes)
            }
        }
    }

    mutating func finish() -> [AdBreak] {
        if let openIndex {
            breaks[openIndex].segmentRange = breaks[openIndex].segmentRange.lowerBound..<playlist.segments.count
            self.openIndex = nil
        }
        return breaks
    }

    private mutating func close(at index: Int, scte35In: [UInt8]?) {
        guard let openIndex else { return }
        breaks[openIndex].segmentRange = breaks[openIndex].segmentRange.lowerBound..<index
        breaks[openIndex].actualDuration = playlist.boundaryTime(index) - breaks[openIndex].startTime
        breaks[openIndex].isComplete = true
        breaks[openIndex].scte35In = scte35In
        self.openIndex = nil
    }

    private mutating func start(
        _ style: AdMarkerStyle, at index: Int, planned: Double?, payload: [UInt8]?, line: Int, elapsed: Double = 0
    ) {
        close(at: index, scte35In: nil)
        let date = playlist.dateAtBoundary(index).map { $0.addingTimeInterval(-elapsed) }
        openIndex = breaks.count
        breaks.append(
            AdBreak(
                style: style, startTime: playlist.boundaryTime(index) - elapsed, startDate: date,
                plannedDuration: planned,
                segmentRange: index..<index, isComplete: false, scte35Out: payload, line: line))
    }
}
