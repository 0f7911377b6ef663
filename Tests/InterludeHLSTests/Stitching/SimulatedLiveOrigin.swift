import Foundation

@testable import InterludeHLS

/// A live origin for tests: global segment n lasts `segmentDuration` and
/// starts at `epoch + n × segmentDuration`; the window is the
/// `windowSize` segments ending at the live edge; breaks are marked in one
/// of the styles origins use. Markers follow the vendors' documented forms
/// (AWS Elemental / MediaTailor, Google DAI, RFC 8216bis DATERANGE).
struct SimulatedLiveOrigin {
    enum Style: String, CaseIterable {
        /// `#EXT-X-CUE-OUT:DURATION=24` … `#EXT-X-CUE-IN` (Google DAI's documented form).
        case cueOutDuration
        /// `#EXT-X-CUE-OUT` (no duration) … `#EXT-X-CUE-IN`.
        case cueOutWithoutDuration
        /// Elemental: `#EXT-X-CUE-OUT:24.000`, `#EXT-X-CUE-OUT-CONT:8.000/24`, `#EXT-X-CUE-IN`.
        case elemental
        /// MediaTailor / SCTE-35 enhanced: OATCLS + ASSET + CUE-OUT, CUE-OUT-CONT ElapsedTime/Duration/SCTE35, CUE-IN.
        case scte35Enhanced
        /// DATERANGE SCTE35-OUT, then the same ID with DURATION and SCTE35-IN.
        case dateRange
        /// DATERANGE SCTE35-CMD carrying time_signal placement opportunity start / end.
        case dateRangeCommand
        /// EXT-OATCLS-SCTE35 alone (splice_insert out, then in).
        case oatcls
        /// EXT-X-SPLICEPOINT-SCTE35 alone.
        case splicePoint
    }

    struct Break {
        var start: Int
        var length: Int
    }

    var style: Style
    var breaks: [Break]
    var segmentDuration = 4.0
    var windowSize = 6
    var epoch = Date(timeIntervalSince1970: 1_714_564_800)  // 2024-05-01T12:00:00Z
    /// The source loops every this many segments, with a DISCONTINUITY at each wrap.
    var loopLength: Int?
    var programDateTime = true
    /// An AES-128 key on segment 0 (use a window that keeps segment 0).
    var keyURI: String?
    /// `.dateRange` only: the SCTE35-OUT DATERANGE is written again on the
    /// window's first segment while its break runs (as the reference server's
    /// simulated channel does), so a window that starts mid-break still has it.
    var repeatsOutOnWindowStart = false

    func date(_ n: Int) -> Date { epoch.addingTimeInterval(Double(n) * segmentDuration) }

    /// DISCONTINUITY tags (at n = loopLength, 2 × loopLength, …) strictly before segment n.
    func wraps(before n: Int) -> Int { loopLength.map { n > 0 ? (n - 1) / $0 : 0 } ?? 0 }

    /// The window whose last segment is `edge`.
    func window(edge: Int) -> String {
        let first = max(0, edge - windowSize + 1)
        var text = "#EXTM3U\n#EXT-X-VERSION:6\n#EXT-X-TARGETDURATION:\(Int(segmentDuration.rounded(.up)))\n"
        text += "#EXT-X-MEDIA-SEQUENCE:\(first)\n"
        // Tags on the first segment count (hls.js, RFC 8216bis 6.2.2), so the
        // header counts the wraps strictly before it.
        text += "#EXT-X-DISCONTINUITY-SEQUENCE:\(wraps(before: first))\n"
        for n in first...edge {
            if let loopLength, n > 0, n % loopLength == 0 { text += "#EXT-X-DISCONTINUITY\n" }
            if n == 0, let keyURI { text += "#EXT-X-KEY:METHOD=AES-128,URI=\"\(keyURI)\"\n" }
            if programDateTime { text += "#EXT-X-PROGRAM-DATE-TIME:\(HLSDateFormat.format(date(n)))\n" }
            text += markers(before: n)
            if repeatsOutOnWindowStart, style == .dateRange, n == first,
                let running = breaks.first(where: { n > $0.start && n < $0.start + $0.length })
            {
                let duration = Double(running.length) * segmentDuration
                text += startMarker(
                    running, duration: duration, total: HLSNumberFormat.fixed(duration, fractionDigits: 3),
                    eventID: UInt32(running.start))
            }
            text += "#EXTINF:\(HLSNumberFormat.fixed(segmentDuration, fractionDigits: 3)),\ncontent/\(n).ts\n"
        }
        return text
    }

    func playlist(edge: Int) -> MediaPlaylist {
        // swift-format-ignore: NeverUseForceTry
        try! HLSParser().parseMedia(Array(window(edge: edge).utf8))
    }

    private func markers(before n: Int) -> String {
        var text = ""
        for adBreak in breaks {
            let duration = Double(adBreak.length) * segmentDuration
            let total = HLSNumberFormat.fixed(duration, fractionDigits: 3)
            let eventID = UInt32(adBreak.start)
            if n == adBreak.start { text += startMarker(adBreak, duration: duration, total: total, eventID: eventID) }
            if n > adBreak.start, n < adBreak.start + adBreak.length {
                let elapsed = HLSNumberFormat.fixed(Double(n - adBreak.start) * segmentDuration, fractionDigits: 3)
                switch style {
                case .elemental: text += "#EXT-X-CUE-OUT-CONT:\(elapsed)/\(Int(duration))\n"
                case .scte35Enhanced:
                    text +=
                        "#EXT-X-CUE-OUT-CONT:ElapsedTime=\(elapsed),Duration=\(total),SCTE35=\(Self.spliceOut(eventID, duration).base64Encoded)\n"
                default: break
                }
            }
            if n == adBreak.start + adBreak.length {
                text += endMarker(adBreak, duration: duration, total: total, eventID: eventID)
            }
        }
        return text
    }

    private func startMarker(_ adBreak: Break, duration: Double, total: String, eventID: UInt32) -> String {
        let out = Self.spliceOut(eventID, duration)
        switch style {
        case .cueOutDuration: return "#EXT-X-CUE-OUT:DURATION=\(Int(duration))\n"
        case .cueOutWithoutDuration: return "#EXT-X-CUE-OUT\n"
        case .elemental: return "#EXT-X-CUE-OUT:\(total)\n"
        case .scte35Enhanced:
            return
                "#EXT-OATCLS-SCTE35:\(out.base64Encoded)\n#EXT-X-ASSET:CAID=0x0000000020FB6501\n#EXT-X-CUE-OUT:\(total)\n"
        case .dateRange:
            return
                "#EXT-X-DATERANGE:ID=\"splice-\(adBreak.start)\",START-DATE=\"\(HLSDateFormat.format(date(adBreak.start)))\",PLANNED-DURATION=\(total),SCTE35-OUT=\(out.hexEncoded)\n"
        case .dateRangeCommand:
            return
                "#EXT-X-DATERANGE:ID=\"po-\(adBreak.start)\",START-DATE=\"\(HLSDateFormat.format(date(adBreak.start)))\",SCTE35-CMD=\(Self.placement(eventID, start: true, duration).hexEncoded)\n"
        case .oatcls: return "#EXT-OATCLS-SCTE35:\(out.base64Encoded)\n"
        case .splicePoint: return "#EXT-X-SPLICEPOINT-SCTE35:\(out.base64Encoded)\n"
        }
    }

    private func endMarker(_ adBreak: Break, duration: Double, total: String, eventID: UInt32) -> String {
        let back = SpliceInfoSection(command: .spliceInsert(SpliceInsert(eventID: eventID, isOutOfNetwork: false)))
        switch style {
        case .cueOutDuration, .cueOutWithoutDuration, .elemental, .scte35Enhanced: return "#EXT-X-CUE-IN\n"
        case .dateRange:
            return
                "#EXT-X-DATERANGE:ID=\"splice-\(adBreak.start)\",START-DATE=\"\(HLSDateFormat.format(date(adBreak.start)))\",DURATION=\(total),SCTE35-IN=\(back.hexEncoded)\n"
        case .dateRangeCommand:
            return
                "#EXT-X-DATERANGE:ID=\"po-end-\(adBreak.start)\",START-DATE=\"\(HLSDateFormat.format(date(adBreak.start + adBreak.length)))\",SCTE35-CMD=\(Self.placement(eventID, start: false, nil).hexEncoded)\n"
        case .oatcls: return "#EXT-OATCLS-SCTE35:\(back.base64Encoded)\n"
        case .splicePoint: return "#EXT-X-SPLICEPOINT-SCTE35:\(back.base64Encoded)\n"
        }
    }

    static func spliceOut(_ eventID: UInt32, _ duration: Double) -> SpliceInfoSection {
        SpliceInfoSection(
            command: .spliceInsert(
                SpliceInsert(
                    eventID: eventID,
                    breakDuration: BreakDuration(autoReturn: true, duration: UInt64(duration * 90_000)))))
    }

    /// time_signal with a provider placement opportunity start (0x34) or end (0x35) descriptor.
    static func placement(_ eventID: UInt32, start: Bool, _ duration: Double?) -> SpliceInfoSection {
        SpliceInfoSection(
            command: .timeSignal(SpliceTime(ptsTime: 900_000)),
            descriptors: [
                .segmentation(
                    SegmentationDescriptor(
                        eventID: eventID, typeID: start ? 0x34 : 0x35, duration: duration.map { UInt64($0 * 90_000) }))
            ])
    }
}

/// Pods for tests: `ads` ads of `segmentsPerAd` segments of `segmentDuration`
/// seconds, named after the break; slate named after its duration.
struct TestPods: LiveStitchPodProvider {
    var ads = 2
    var segmentsPerAd = 3
    var segmentDuration = 4.0
    /// Breaks (by ID) that get no pod.
    var withoutPod: Set<String> = []
    var mapURI: String?
    final class Counter { var pods = 0 }
    let counter = Counter()

    func pod(for request: LiveBreakRequest) throws(HLSError) -> AdPod? {
        counter.pods += 1
        if withoutPod.contains(request.breakID) { return nil }
        return AdPod(
            ads: (0..<ads).map { ad in
                AdPod.Ad(
                    segments: (0..<segmentsPerAd).map {
                        AdSegment(uri: "ads/\(request.breakID)/ad\(ad)/\($0).ts", duration: segmentDuration)
                    }, mapURI: mapURI.map { "ads/\(request.breakID)/ad\(ad)/\($0)" })
            }, id: request.breakID)
    }

    func slate(duration: Double, for request: LiveBreakRequest) -> [AdSegment] {
        [AdSegment(uri: "slate/\(HLSNumberFormat.fixed(duration, fractionDigits: 3)).ts", duration: duration)]
    }

    func interstitialAssetURI(for request: LiveBreakRequest) throws(HLSError) -> String? {
        "https://pods.example.com/\(request.breakID)/pod.m3u8"
    }
}
