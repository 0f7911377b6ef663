import Foundation

extension MediaPlaylist {
    /// The ad breaks of the playlist in start-time order, whatever their
    /// marker style: CUE-OUT/CUE-OUT-CONT/CUE-IN, EXT-OATCLS-SCTE35,
    /// EXT-X-SPLICEPOINT-SCTE35, Adobe's EXT-X-CUE/EXT-X-CUE-CONT, DATERANGE with SCTE35-OUT/IN or a
    /// SCTE35-CMD that starts or ends a break, and interstitial DATERANGEs.
    ///
    /// Every case has one answer:
    /// - a break still open at the end of the playlist spans to the end and
    ///   is not ``AdBreak/isComplete``;
    /// - a break whose start left the window (CUE-OUT-CONT elapsed time, or a
    ///   START-DATE before the first segment) starts at a negative
    ///   ``AdBreak/startTime`` and ``AdBreak/startsInPlaylist`` is false;
    /// - a break with no duration ends at its CUE-IN / SCTE35-IN; one with a
    ///   planned duration ends at the first segment boundary that reaches it
    ///   (within 0.1 s), so a marker that never closes does not swallow the
    ///   rest of the stream, unless its markers say it runs on (a
    ///   continuation on that boundary, or a CUE-IN further on before any
    ///   other break's start);
    /// - a DATERANGE starts where its START-DATE falls, measured from the
    ///   dated segment before it (a clock that jumps at a discontinuity
    ///   does not move it), a date within 0.1 s of a segment's being that
    ///   segment;
    /// - one avail marked in two styles at once (CUE-OUT and a DATERANGE on
    ///   one segment) is one break, the DATERANGE's;
    /// - a break that starts inside another ends the other there, except a
    ///   segmentation start of a lower level inside a time_signal's break
    ///   (an ad or promo inside a placement opportunity, an opportunity
    ///   inside a break or ad block), which is a part of it; and a
    ///   segmentation end ends only a break of its own start type (0x35
    ///   ends 0x34's, not 0x30's);
    /// - an end or a cancel that names the open break's event
    ///   (`segmentation_event_id` or `splice_event_id`) ends it; an end of
    ///   its kind with another ID ends it too (not every encoder is careful
    ///   with IDs), unless the ID is a break's already ended (a repeated or
    ///   late end); a cancel of another event ends nothing;
    /// - a DATERANGE with END-ON-NEXT=YES ends where the next range of its
    ///   CLASS starts;
    /// - attribute lists are read as packagers write them: `EXT-X-SCTE35`
    ///   fields separated by blanks (x9k3) as well as commas;
    /// - SCTE-35 payloads are read as hex (with or without `0x`) or base64
    ///   (padded or not, standard or URL-safe), and their CRC is not checked.
    public var adBreaks: [AdBreak] {
        var scanner = CueBreakScanner(playlist: self)
        for index in 0..<segments.count {
            scanner.scan(segments[index].tags, at: index)
            if !segments[index].tagsAfterInfo.isEmpty { scanner.scan(segments[index].tagsAfterInfo, at: index) }
        }
        scanner.scan(trailingTags, at: segments.count)
        let sawDateRange = scanner.sawDateRange
        let breaks = scanner.finish()
        guard sawDateRange else { return breaks.count > 1 ? Self.resolvingOverlaps(breaks) : breaks }
        let dateRangeBreaks = DateRangeBreakScanner(playlist: self).scan()
        if dateRangeBreaks.isEmpty { return Self.resolvingOverlaps(breaks) }
        return Self.resolvingOverlaps(breaks + dateRangeBreaks)
    }

    /// The start time of segment `index`, or the playlist's end for `segments.count`.
    func boundaryTime(_ index: Int) -> Double {
        index < segments.count ? segments[index].startTime : totalDuration
    }

    /// Bytes of a SCTE-35 payload: base64, padded or not, or hex, with or
    /// without `0x` (see ``SCTE35Text``).
    static func payloadBytes(_ text: String) -> [UInt8]? { SCTE35Text.bytes(text) }

    /// Sorts the breaks and settles overlaps: one avail marked twice is kept
    /// once, a break that starts inside another ends the earlier one, and
    /// a segmentation start nested in the earlier one's (see
    /// ``SpliceInfoSection/isNested(inBreakStartedBy:)``) is dropped as a part of it.
    /// Interstitials play over the content and are left as they are.
    static func resolvingOverlaps(_ breaks: [AdBreak]) -> [AdBreak] {
        let sorted = breaks.sorted {
            $0.startTime != $1.startTime ? $0.startTime < $1.startTime : $0.style.preference < $1.style.preference
        }
        var result: [AdBreak] = []
        result.reserveCapacity(sorted.count)
        var lastReplacing: Int?
        for adBreak in sorted {
            guard adBreak.style != .interstitial else {
                result.append(adBreak)
                continue
            }
            guard let previousIndex = lastReplacing else {
                lastReplacing = result.count
                result.append(adBreak)
                continue
            }
            let previous = result[previousIndex]
            if abs(adBreak.startTime - previous.startTime) < CueBreakScanner.tolerance {
                result[previousIndex] = previous.merged(with: adBreak)
                continue
            }
            let overlaps = adBreak.segmentRange.lowerBound < previous.segmentRange.upperBound || !previous.isComplete
            // An ad inside a placement opportunity marked in another style (a
            // DATERANGE for the ad, CUE-OUT for the avail) is a part of it.
            if overlaps, adBreak.scte35OutSection?.isNested(inBreakStartedBy: previous.scte35OutSection) == true {
                continue
            }
            if overlaps {
                let cut = max(previous.segmentRange.lowerBound, adBreak.segmentRange.lowerBound)
                result[previousIndex].segmentRange = previous.segmentRange.lowerBound..<cut
                result[previousIndex].actualDuration = adBreak.startTime - previous.startTime
                result[previousIndex].isComplete = true
            }
            lastReplacing = result.count
            result.append(adBreak)
        }
        return result
    }
}

extension AdMarkerStyle {
    /// Which style describes an avail marked in several at once: the one
    /// with an ID and dates first.
    fileprivate var preference: Int {
        switch self {
        case .dateRange: return 0
        case .cueOut: return 1
        case .oatcls: return 2
        case .scte35Cue: return 3
        case .splicePoint: return 4
        case .adobeCue: return 5
        default: return 6
        }
    }
}

extension AdBreak {
    /// This break with what `other` (the same avail in a less preferred
    /// style) knows and it does not.
    fileprivate func merged(with other: AdBreak) -> AdBreak {
        var result = self
        if result.plannedDuration == nil { result.plannedDuration = other.plannedDuration }
        if result.scte35Out == nil { result.scte35Out = other.scte35Out }
        if result.asset == nil { result.asset = other.asset }
        if !result.isComplete, other.isComplete {
            result.segmentRange =
                result.segmentRange.lowerBound..<max(result.segmentRange.lowerBound, other.segmentRange.upperBound)
            result.actualDuration = other.actualDuration
            result.isComplete = true
            result.scte35In = result.scte35In ?? other.scte35In
        }
        return result
    }
}
