import Foundation
import InterludeHLS

extension LiveChannel {
    /// The multivariant playlist: a variant per profile, URIs `{channel}/{profile}.m3u8`
    /// (relative to `/origin/live/{channel}.m3u8`).
    public var multivariantPlaylist: MultivariantPlaylist {
        LadderPlaylist.multivariant(profiles, uri: { "\(id)/\($0.id).m3u8" })
    }

    /// The origin media playlist of `profile` at clock date `date`: the
    /// window with MEDIA-SEQUENCE, DISCONTINUITY-SEQUENCE, a PROGRAM-DATE-TIME
    /// on every segment, a DISCONTINUITY at each source wrap and the breaks
    /// marked as the channel's ``CatalogChannel/signaling`` says. Segment URIs
    /// are `{profile}/{source index}.ts`. Nil for an unknown profile.
    public func mediaPlaylist(profile: String, at date: Date) -> MediaPlaylist? {
        guard source[profile] != nil else { return nil }
        return mediaPlaylist(profile: profile, window: window(at: date))
    }

    /// The media playlist of `profile` for `window`.
    public func mediaPlaylist(profile: String, window: LiveWindow) -> MediaPlaylist? {
        guard source[profile] != nil else { return nil }
        let breaks = Dictionary(window.breaks.map { ($0.index, $0) }, uniquingKeysWith: { first, _ in first })
        let firstSequence = window.segments.first?.sequence ?? 0
        let segments = window.segments.map { segment in
            var tags: [HLSTag] = []
            if segment.hasDiscontinuity { tags.append(HLSTag(HLSTagName.discontinuity)) }
            tags.append(HLSTag(HLSTagName.programDateTime, .text(HLSDateFormat.format(segment.date))))
            tags += markers(before: segment, firstSequence: firstSequence, breaks: breaks)
            return MediaSegment(
                uri: "\(profile)/\(SegmentNaming.name(segment.sourceIndex))",
                duration: LadderPlaylist.extinf(segment.duration), tags: tags)
        }
        var playlist = MediaPlaylist(
            targetDuration: Int(segmentDuration.rounded()), mediaSequence: UInt64(window.mediaSequence),
            segments: segments)
        playlist.discontinuitySequence = UInt64(window.discontinuitySequence)
        return playlist
    }

    private func markers(before segment: LiveSegment, firstSequence: Int, breaks: [Int: LiveBreak]) -> [HLSTag] {
        var tags: [HLSTag] = []
        // A break ending here: its CUE-IN segment.
        if let index = breakIndex(ofSegment: segment.sequence - 1), segment.sequence > 0,
            breakIndex(ofSegment: segment.sequence) != index, let ended = breaks[index]
        {
            switch settings.signaling {
            case .dateRange: tags.append(dateRangeIn(ended).tag)
            case .cue: tags.append(HLSTag(HLSTagName.cueIn))
            }
        }
        guard let index = segment.breakIndex, let current = breaks[index] else { return tags }
        let offset = segment.sequence - current.firstSequence
        switch settings.signaling {
        case .dateRange:
            // On the break's first segment, or on the window's first when the break began before it.
            if offset == 0 || segment.sequence == firstSequence { tags.append(dateRangeOut(current).tag) }
        case .cue:
            let duration = LadderPlaylist.number(current.duration)
            if offset == 0 {
                tags.append(HLSTag(HLSTagName.cueOut, .text("DURATION=\(duration)")))
            } else {
                let elapsed = LadderPlaylist.number(Double(offset) * segmentDuration)
                tags.append(HLSTag(HLSTagName.cueOutCont, .text("ElapsedTime=\(elapsed),Duration=\(duration)")))
            }
        }
        return tags
    }

    /// The DATERANGE opening `liveBreak`: PLANNED-DURATION and SCTE35-OUT.
    public func dateRangeOut(_ liveBreak: LiveBreak) -> DateRange {
        DateRange(
            id: liveBreak.id, startDate: liveBreak.start,
            attributes: [
                .init(name: "PLANNED-DURATION", value: .decimal(liveBreak.duration)),
                .init(name: "SCTE35-OUT", value: .hexadecimal(spliceOut(liveBreak).encoded())),
            ])
    }

    /// The DATERANGE closing `liveBreak`: END-DATE, DURATION and SCTE35-IN.
    public func dateRangeIn(_ liveBreak: LiveBreak) -> DateRange {
        DateRange(
            id: liveBreak.id, startDate: liveBreak.start,
            attributes: [
                .init(name: "END-DATE", value: .quoted(HLSDateFormat.format(liveBreak.end))),
                .init(name: "DURATION", value: .decimal(liveBreak.duration)),
                .init(name: "SCTE35-IN", value: .hexadecimal(spliceIn(liveBreak).encoded())),
            ])
    }

    /// SCTE-35 `time_signal` at the break's first frame with a Provider
    /// Placement Opportunity Start (0x34) segmentation descriptor carrying the
    /// break's event id and duration.
    public func spliceOut(_ liveBreak: LiveBreak) -> SpliceInfoSection {
        var descriptor = SegmentationDescriptor(
            eventID: liveBreak.eventID, typeID: 0x34, duration: UInt64((liveBreak.duration * 90_000).rounded()))
        descriptor.segmentNumber = 1
        descriptor.segmentsExpected = 1
        descriptor.subSegmentNumber = 0
        descriptor.subSegmentsExpected = 0
        return SpliceInfoSection(
            command: .timeSignal(SpliceTime(ptsTime: pts(ofSegment: liveBreak.firstSequence))),
            descriptors: [.segmentation(descriptor)])
    }

    /// SCTE-35 `time_signal` at the first frame after the break with a
    /// Provider Placement Opportunity End (0x35) descriptor, same event id.
    public func spliceIn(_ liveBreak: LiveBreak) -> SpliceInfoSection {
        var descriptor = SegmentationDescriptor(eventID: liveBreak.eventID, typeID: 0x35)
        descriptor.segmentNumber = 1
        descriptor.segmentsExpected = 1
        return SpliceInfoSection(
            command: .timeSignal(SpliceTime(ptsTime: pts(ofSegment: liveBreak.endSequence))),
            descriptors: [.segmentation(descriptor)])
    }

    /// The media PTS (90 kHz) where global segment `sequence` starts: its
    /// source segment's first PTS in the first profile.
    public func pts(ofSegment sequence: Int) -> UInt64 {
        guard let first = profiles.first, let segments = source[first.id], !segments.isEmpty else { return 0 }
        return segments[sequence % segments.count].firstPTS & 0x1_FFFF_FFFF
    }
}

extension LadderPlaylist {
    /// A number as HLS writes decimals (`32`, `4.5`).
    static func number(_ value: Double) -> String { HLSDecimal(value).text }
}
