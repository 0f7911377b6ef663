import Foundation

/// How a break's time is filled in the output: the pod's segments in order
/// while they fit, then slate. The same rule serves an open break (filled
/// up to what the origin has covered) and an ended one (filled to its
/// length), so what an open break showed is always the start of what it
/// shows once it ends: no segment ever changes.
struct BreakLayout {
    /// One output segment of the break.
    struct Placed {
        var uri: String
        var duration: HLSDecimal
        /// Seconds from the break's start.
        var offset: Double
        /// The first segment of an ad or of a run of slate: a DISCONTINUITY goes before it.
        var startsRun: Bool
        /// The ad's initialization section (fMP4), if any.
        var mapURI: String?
    }

    /// The most a break is ever filled with, in seconds and in segments.
    /// Outside input can make a break absurdly long (one origin segment of
    /// 10^120 s) or slate absurdly short; without a bound the fill would
    /// allocate without end or never finish.
    static let maximumFill = 86_400.0
    static let maximumSegments = 50_000

    var segments: [Placed] = []
    /// Runs (ads and slate runs): the DISCONTINUITY tags the break adds before its segments.
    var runCount = 0
    /// Seconds filled.
    var filled = 0.0

    /// Lays out `pod` over `limit` seconds of the break of `record`. While
    /// the break is open, slate follows a pod that ran out in whole slate
    /// segments; once it ends (`isClosed`), slate for the remainder closes
    /// the gap, so the break lasts exactly as long as the content it replaces.
    init(
        record: LiveBreakRecord, pod: AdPod?, limit: Double, isClosed: Bool, tolerance: Double,
        window: inout OriginWindow, pods: some LiveStitchPodProvider
    ) {
        let limit = min(limit, Self.maximumFill)
        var podFits = true
        // Pods usually repeat one segment length: format it once for all ads.
        var duration = HLSDecimal(value: -1, text: "")
        if let pod {
            segments.reserveCapacity(pod.ads.reduce(0) { $0 + $1.segments.count })
            fill: for ad in pod.ads {
                for (index, segment) in ad.segments.enumerated() {
                    guard
                        append(
                            segment, startsRun: index == 0 || segment.isDiscontinuity, mapURI: ad.mapURI, limit: limit,
                            tolerance: tolerance,
                            last: &duration)
                    else {
                        podFits = false
                        break fill
                    }
                }
            }
        }
        guard podFits || isClosed else { return }
        // Slate only where the pod left room (most pods fill their break).
        guard limit - filled > tolerance else { return }
        if podFits, record.slateSegmentDuration > 0 {
            let unit = window.slate(record.slateSegmentDuration, for: record.request, from: pods)
            let unitDuration = unit.reduce(0) { $0 + $1.duration }
            if unitDuration > 0 {
                slate: while true {
                    for (index, segment) in unit.enumerated() {
                        guard
                            append(
                                segment, startsRun: index == 0 || segment.isDiscontinuity, mapURI: nil, limit: limit,
                                tolerance: tolerance,
                                last: &duration)
                        else { break slate }
                    }
                }
            }
        }
        guard isClosed else { return }
        let remainder = limit - filled
        guard remainder > tolerance else { return }
        for (index, segment) in window.slate(remainder, for: record.request, from: pods).enumerated() {
            // The remainder's slate is what closes the break: it goes in whole.
            _ = append(
                segment, startsRun: index == 0 || segment.isDiscontinuity, mapURI: nil, limit: .infinity, tolerance: 0,
                last: &duration)
        }
    }

    /// Appends `segment` when it ends within the limit; false otherwise.
    private mutating func append(
        _ segment: AdSegment, startsRun: Bool, mapURI: String?, limit: Double, tolerance: Double,
        last: inout HLSDecimal
    ) -> Bool {
        guard segments.count < Self.maximumSegments, filled + segment.duration <= limit + tolerance else {
            return false
        }
        // Pods usually repeat one segment length: format it once.
        if segment.duration != last.value {
            last = HLSDecimal(value: segment.duration, text: HLSNumberFormat.fixed(segment.duration, fractionDigits: 3))
        }
        segments.append(
            Placed(uri: segment.uri, duration: last, offset: filled, startsRun: startsRun, mapURI: mapURI))
        if startsRun { runCount += 1 }
        filled += segment.duration
        return true
    }
}
