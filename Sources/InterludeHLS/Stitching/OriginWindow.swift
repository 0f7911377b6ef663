import Foundation

/// An origin window read once for every viewer of it: its numbers checked
/// for stitching, its breaks found and its first end marker located. A VTP
/// that answers many viewers from one origin window prepares it once and
/// stitches each viewer's playlist from it (finding the breaks, SCTE-35
/// included, was a sixth of a reload's stitch).
public struct PreparedOriginWindow: Sendable {
    /// The origin's media playlist.
    public let playlist: MediaPlaylist
    /// The replacement breaks (interstitials play over content and are not stitched).
    let breaks: [AdBreak]
    /// The origin media sequence number of the first segment.
    let firstSequence: UInt64
    /// The boundaries carrying a break's end (CUE-IN, SCTE35-IN, a
    /// SCTE35-CMD, OATCLS or SPLICEPOINT that returns to the network or
    /// cancels an event), in order, each with its SCTE-35
    /// section when it has one (nil: the marker ends any break).
    let endMarkers: [EndMarker]

    struct EndMarker: Sendable {
        var index: Int
        var section: SpliceInfoSection?
    }

    /// Reads `playlist`; throws what the timeline's `stitch(_:pods:)`
    /// throws for a window it cannot carry (a delta update, numbers near 2^62).
    public init(_ playlist: MediaPlaylist) throws(HLSError) {
        try LiveStitchTimeline.checkStitchable(playlist)
        self.playlist = playlist
        breaks = playlist.adBreaks.filter { $0.style != .interstitial }
        firstSequence = playlist.segments.first?.mediaSequence ?? playlist.mediaSequence
        endMarkers = OriginWindow.endMarkers(in: playlist)
    }
}

/// One reload of the origin's media playlist as the live timeline reads it:
/// the prepared window, and what one stitch asked the provider for (each
/// break's pod and slate are asked for once per reload).
struct OriginWindow {
    let prepared: PreparedOriginWindow
    private var pods = SmallMap<AdPod?>()
    private var slates: [SlateKey: [AdSegment]] = [:]

    struct SlateKey: Hashable {
        var start: UInt64
        var milliseconds: Int64
    }

    init(_ prepared: PreparedOriginWindow) {
        self.prepared = prepared
    }

    var playlist: MediaPlaylist { prepared.playlist }
    var breaks: [AdBreak] { prepared.breaks }
    var firstSequence: UInt64 { prepared.firstSequence }

    var count: Int { playlist.segments.count }

    /// The origin sequence number at boundary `index` (`count` is the next segment's).
    func sequence(at index: Int) -> UInt64 {
        index < count ? playlist.segments[index].mediaSequence : firstSequence + UInt64(count)
    }

    /// The boundary index of origin segment `sequence`, nil outside `0...count`.
    func index(of sequence: UInt64) -> Int? {
        guard sequence >= firstSequence, sequence - firstSequence <= UInt64(count) else { return nil }
        return Int(sequence - firstSequence)
    }

    /// Seconds from the window's start to boundary `index`.
    func time(at index: Int) -> Double { playlist.boundaryTime(index) }

    /// The first boundary carrying the end of the break `start` began: CUE-IN,
    /// an Adobe `EXT-X-CUE:TYPE=SpliceIn`, a DATERANGE with SCTE35-IN, an
    /// `EXT-X-SCTE35` with `CUE-IN=YES`, or a DATERANGE SCTE35-CMD or an
    /// OATCLS / SPLICEPOINT / EXT-X-SCTE35 payload that returns to the
    /// network or cancels the break's event. A segmentation end
    /// ends only a break of its own start type (see
    /// ``SpliceInfoSection/endsBreak(startedBy:)``): an ad's end inside a
    /// placement opportunity does not end the opportunity. The end or
    /// cancel of the break's own event ID wins over an end of its kind with
    /// another ID, which ends it only when no marker names its event.
    func firstEndMarker(endingBreakStartedBy start: [UInt8]?) -> Int? {
        let startSection = start.flatMap(SpliceInfoSection.init(cueBytes:))
        var firstOfKind: Int?
        for marker in prepared.endMarkers {
            switch marker.section?.ending(ofBreakStartedBy: startSection) ?? .byKind {
            case .byEvent: return marker.index
            case .byKind: firstOfKind = firstOfKind ?? marker.index
            case .none: continue
            }
        }
        return firstOfKind
    }

    static func endMarkers(in playlist: MediaPlaylist) -> [PreparedOriginWindow.EndMarker] {
        var markers: [PreparedOriginWindow.EndMarker] = []
        let count = playlist.segments.count
        for index in 0...count {
            let tags = index < count ? playlist.segments[index].tags : playlist.trailingTags
            for tag in tags where !tag.isComment {
                if tag.hasName(HLSTagName.cueIn) {
                    markers.append(.init(index: index))
                } else if tag.hasName(HLSTagName.adobeCue), CueMarkerValue.adobeCue(tag.valueText) == .spliceIn {
                    markers.append(.init(index: index))
                } else if tag.hasName(HLSTagName.dateRange) {
                    if let value = tag.attributes["SCTE35-IN"] {
                        markers.append(
                            .init(
                                index: index, section: value.hexadecimalBytes.flatMap(SpliceInfoSection.init(cueBytes:))
                            ))
                    } else if let section = tag.attributes["SCTE35-CMD"]?.hexadecimalBytes.flatMap(
                        SpliceInfoSection.init(cueBytes:)), section.isCueIn || section.isCancellation
                    {
                        markers.append(.init(index: index, section: section))
                    }
                } else if tag.hasName(HLSTagName.scte35) {
                    let cue = CueMarkerValue.scte35Tag(tag.valueText)
                    // CUE-IN=YES ends the break whatever its payload says, as the scanner reads it.
                    if cue.effect == .end {
                        markers.append(.init(index: index, section: cue.state == .back ? nil : cue.section))
                    }
                } else if tag.hasName(HLSTagName.oatclsSCTE35) || tag.hasName(HLSTagName.splicePointSCTE35),
                    let section = tag.valueText.flatMap(MediaPlaylist.payloadBytes).flatMap(
                        SpliceInfoSection.init(cueBytes:)),
                    section.isCueIn || section.isCancellation
                {
                    markers.append(.init(index: index, section: section))
                }
            }
        }
        return markers
    }

    /// The pod for `request`, asked once per reload.
    mutating func pod(for request: LiveBreakRequest, from provider: some LiveStitchPodProvider) throws(HLSError)
        -> AdPod?
    {
        if let cached = pods[request.originStartSequence] { return cached }
        let pod = try provider.pod(for: request)
        pods[request.originStartSequence] = .some(pod)
        return pod
    }

    /// Slate for `duration` seconds of `request`'s break, asked once per reload.
    mutating func slate(_ duration: Double, for request: LiveBreakRequest, from provider: some LiveStitchPodProvider)
        -> [AdSegment]
    {
        let key = SlateKey(start: request.originStartSequence, milliseconds: Int64((duration * 1000).rounded()))
        if let cached = slates[key] { return cached }
        let segments = provider.slate(duration: duration, for: request).filter {
            $0.duration.isFinite && $0.duration > 0 && $0.duration < 86_400
        }
        slates[key] = segments
        return segments
    }
}

extension HLSTag {
    /// The origin's ad markers, which the live timeline drops unless they pass
    /// through: CUE-OUT/-CONT/-IN, Adobe's CUE/CUE-CONT, EXT-X-SCTE35, OATCLS, SPLICEPOINT, ASSET and DATERANGEs
    /// that carry SCTE-35 (interstitials and other DATERANGEs stay).
    var isSourceAdMarker: Bool {
        if isComment { return false }
        if hasName(HLSTagName.cueOut) || hasName(HLSTagName.cueOutCont) || hasName(HLSTagName.cueIn)
            || hasName(HLSTagName.oatclsSCTE35) || hasName(HLSTagName.splicePointSCTE35) || hasName(HLSTagName.asset)
            || hasName(HLSTagName.adobeCue) || hasName(HLSTagName.adobeCueCont) || hasName(HLSTagName.scte35)
        {
            return true
        }
        guard hasName(HLSTagName.dateRange) else { return false }
        let list = attributes
        return list["SCTE35-OUT"] != nil || list["SCTE35-IN"] != nil || list["SCTE35-CMD"] != nil
    }
}
