import Foundation

/// Splices ad pods into media playlists at segment boundaries, the way a
/// server-side stitcher does: DISCONTINUITY before each ad and before the
/// content that resumes, the break announced in the chosen marker style,
/// keys and initialization sections switched and restored, PROGRAM-DATE-TIME
/// kept consistent, TARGETDURATION raised when an ad segment needs it.
public struct AdSplicer: Sendable, Hashable {
    /// How the inserted break is announced; ``AdMarkerStyle/dateRange`` by
    /// default. A playlist without PROGRAM-DATE-TIME cannot carry a
    /// DATERANGE (RFC 8216bis 4.4.5.1), so it gets CUE-OUT/CUE-IN instead.
    public var markerStyle: AdMarkerStyle
    /// The DATERANGE `CLASS` to write; nil (no CLASS) by default.
    public var dateRangeClass: String?

    /// Creates a splicer; `markerStyle` defaults to DATERANGE, `dateRangeClass` to nil.
    public init(markerStyle: AdMarkerStyle = .dateRange, dateRangeClass: String? = nil) {
        self.markerStyle = markerStyle
        self.dateRangeClass = dateRangeClass
    }

    /// Inserts `pod` before segment `boundary` (`segments.count` appends it),
    /// shifting the following content by the pod's duration in playlist time,
    /// in explicit PROGRAM-DATE-TIME tags and in the DATERANGEs that start at
    /// or after the insertion point (one that spans it ends later).
    public func insert(_ pod: AdPod, into playlist: MediaPlaylist, at boundary: Int) throws(HLSError) -> MediaPlaylist {
        var result = playlist
        try insert(pod, into: &result, at: boundary)
        return result
    }

    /// Inserts `pod` in place; see the copying `insert(_:into:at:)` above.
    public func insert(_ pod: AdPod, into playlist: inout MediaPlaylist, at boundary: Int) throws(HLSError) {
        guard boundary >= 0, boundary <= playlist.segments.count else {
            throw HLSError(.invalidSplicePoint, "boundary \(boundary) is outside 0...\(playlist.segments.count)")
        }
        try Self.validate(pod)
        let boundaryDate = playlist.dateAtBoundary(boundary)
        let context = ResumeContext(
            playlist: playlist, adStart: boundary, contentResume: boundary,
            resumeDate: boundaryDate.map { $0.addingTimeInterval(pod.duration) })
        try Self.validateContainers(
            pod, contentMap: context.resumeMap, contentFollows: boundary < playlist.segments.count)
        // Content after an inserted pod plays later by the pod's duration,
        // and so do the date ranges that describe it.
        if let boundaryDate {
            for index in boundary..<playlist.segments.count {
                playlist.segments[index].shiftProgramDateTime(by: pod.duration)
            }
            playlist.shiftDateRanges(after: boundaryDate, by: pod.duration)
        }
        let markers = breakMarkers(for: pod, date: boundaryDate)
        let adSegments = makeSegments(
            pod, contentIsEncrypted: context.contentIsEncrypted, markers: markers, date: boundaryDate)
        playlist.segments.insert(contentsOf: adSegments, at: boundary)
        playlist.resume(at: boundary + adSegments.count, context: context, cueIn: markers.style == .cueOut)
        playlist.raiseTargetDuration(for: pod)
        playlist.updateTimeline(from: boundary)
    }

    /// Replaces the segments of `adBreak` (found by ``MediaPlaylist/adBreaks``)
    /// with `pod`, keeping the break's own markers (CUE-OUT, DATERANGE,
    /// SCTE-35) so players and trackers see the break the source announced.
    /// Live content resumes at its own wall-clock time whatever the pod's length.
    public func replace(_ adBreak: AdBreak, in playlist: MediaPlaylist, with pod: AdPod) throws(HLSError)
        -> MediaPlaylist
    {
        var result = playlist
        try replace(adBreak, in: &result, with: pod)
        return result
    }

    /// Replaces the break's segments in place; see the copying `replace(_:in:with:)` above.
    public func replace(_ adBreak: AdBreak, in playlist: inout MediaPlaylist, with pod: AdPod) throws(HLSError) {
        let range = adBreak.segmentRange
        guard range.lowerBound >= 0, range.upperBound <= playlist.segments.count else {
            throw HLSError(.invalidSplicePoint, "break segments \(range) are outside the playlist", line: adBreak.line)
        }
        try Self.validate(pod)
        let startDate = playlist.dateAtBoundary(range.lowerBound)
        var resumeDate =
            range.upperBound < playlist.segments.count ? playlist.segments[range.upperBound].programDateTime : nil
        let contentContext = ResumeContext(
            playlist: playlist, adStart: range.lowerBound, contentResume: range.upperBound, resumeDate: resumeDate)
        try Self.validateContainers(
            pod, contentMap: contentContext.resumeMap, contentFollows: range.upperBound < playlist.segments.count)
        // On VOD the content after a pod of another length plays that much
        // later (or earlier), so its dates move with it and stay increasing;
        // live content resumes at its own wall-clock time.
        let shift = pod.duration - (playlist.boundaryTime(range.upperBound) - playlist.boundaryTime(range.lowerBound))
        if playlist.isVOD, abs(shift) > 0.0005, let date = resumeDate {
            for index in range.upperBound..<playlist.segments.count {
                playlist.segments[index].shiftProgramDateTime(by: shift)
            }
            playlist.shiftDateRanges(after: date, by: shift)
            resumeDate = date.addingTimeInterval(shift)
        }
        var context = contentContext
        context.resumeDate = resumeDate
        // The markers of the break's first segment stay with the break.
        var carried: [HLSTag] = []
        if !range.isEmpty {
            for tag in playlist.segments[range.lowerBound].tags where tag.isBreakMarker { carried.append(tag) }
        }
        let markers =
            carried.isEmpty
            ? breakMarkers(for: pod, date: startDate) : BreakMarkers(style: adBreak.style, tags: carried)
        let adSegments = makeSegments(
            pod, contentIsEncrypted: context.contentIsEncrypted, markers: markers, date: startDate)
        playlist.segments.replaceSubrange(range, with: adSegments)
        // A complete break's CUE-IN is already on the segment that resumes.
        playlist.resume(at: range.lowerBound + adSegments.count, context: context, cueIn: false)
        playlist.raiseTargetDuration(for: pod)
        playlist.updateTimeline(from: range.lowerBound)
    }

    /// Refuses a pod whose container differs from the content around it: an
    /// fMP4 ad's EXT-X-MAP would apply to the MPEG-TS content after it (a
    /// playlist cannot unset a MAP, and a player would read TS with an MP4
    /// initialization section), and MPEG-TS ads after fMP4 content would
    /// inherit the content's MAP. Ads of one pod share one container.
    static func validateContainers(_ pod: AdPod, contentMap: HLSTag?, contentFollows: Bool) throws(HLSError) {
        let fragmented = pod.ads.filter { $0.mapURI != nil }.count
        guard fragmented == 0 || fragmented == pod.ads.count else {
            throw HLSError(.invalidAdPod, "the pod mixes fMP4 ads (with EXT-X-MAP) and MPEG-TS ads")
        }
        if fragmented > 0, contentMap == nil, contentFollows {
            throw HLSError(
                .invalidAdPod,
                "fMP4 ads cannot go into MPEG-TS content: their EXT-X-MAP would apply to the content after them")
        }
        if fragmented == 0, contentMap != nil {
            throw HLSError(
                .invalidAdPod, "MPEG-TS ads cannot go into fMP4 content: they would inherit the content's EXT-X-MAP")
        }
    }

    static func validate(_ pod: AdPod) throws(HLSError) {
        guard !pod.ads.isEmpty, pod.ads.allSatisfy({ !$0.segments.isEmpty }) else {
            throw HLSError(.invalidAdPod, "an ad pod needs at least one ad, each with at least one segment")
        }
        for ad in pod.ads {
            for segment in ad.segments
            where !(segment.duration.isFinite && segment.duration > 0 && segment.duration < 86_400) {
                throw HLSError(.invalidAdPod, "ad segment \(segment.uri) has duration \(segment.duration)")
            }
        }
    }

    struct BreakMarkers {
        var style: AdMarkerStyle
        var tags: [HLSTag]
    }

    private func breakMarkers(for pod: AdPod, date: Date?) -> BreakMarkers {
        let duration = HLSNumberFormat.fixed(pod.duration, fractionDigits: 3)
        if markerStyle == .dateRange, let date {
            var attributes = HLSAttributeList([
                "ID": .quoted(pod.id ?? "break-\(HLSDateFormat.milliseconds(since1970: date))"),
                "START-DATE": .quoted(HLSDateFormat.format(date)),
            ])
            if let dateRangeClass { attributes["CLASS"] = .quoted(dateRangeClass) }
            attributes["DURATION"] = HLSAttributeValue(kind: .decimalFloatingPoint, text: duration)
            attributes["PLANNED-DURATION"] = HLSAttributeValue(kind: .decimalFloatingPoint, text: duration)
            // SCTE35-OUT is what marks a DATERANGE as an ad break for players
            // and for ``MediaPlaylist/adBreaks``; without one from the source,
            // announce an immediate splice_insert of the pod's length.
            let section =
                pod.scte35Out
                ?? SpliceInfoSection(
                    command: .spliceInsert(
                        SpliceInsert(
                            eventID: UInt32(truncatingIfNeeded: HLSDateFormat.milliseconds(since1970: date) / 1000),
                            breakDuration: BreakDuration(
                                autoReturn: true, duration: UInt64(min(pod.duration * 90_000, 0x1_FFFF_FFFF).rounded()))
                        )))
            attributes["SCTE35-OUT"] = HLSAttributeValue(kind: .hexadecimalSequence, text: section.hexEncoded)
            return BreakMarkers(style: .dateRange, tags: [HLSTag(HLSTagName.dateRange, attributes: attributes)])
        }
        var tags = [HLSTag(HLSTagName.cueOut, .text(duration))]
        if let section = pod.scte35Out { tags.append(HLSTag(HLSTagName.oatclsSCTE35, .text(section.base64Encoded))) }
        return BreakMarkers(style: .cueOut, tags: tags)
    }

    private func makeSegments(_ pod: AdPod, contentIsEncrypted: Bool, markers: BreakMarkers, date: Date?)
        -> [MediaSegment]
    {
        let total = HLSNumberFormat.fixed(pod.duration, fractionDigits: 3)
        var segments: [MediaSegment] = []
        segments.reserveCapacity(pod.ads.reduce(0) { $0 + $1.segments.count })
        var elapsed = 0.0
        // Pods usually repeat one segment length: format it once.
        var lastDuration = HLSDecimal(value: -1, text: "")
        for (adIndex, ad) in pod.ads.enumerated() {
            for (segmentIndex, adSegment) in ad.segments.enumerated() {
                var tags: [HLSTag] = []
                tags.reserveCapacity(adIndex == 0 && segmentIndex == 0 ? markers.tags.count + 4 : 2)
                if segmentIndex == 0 || adSegment.isDiscontinuity {
                    tags.append(HLSTag(HLSTagName.discontinuity))
                }
                if segmentIndex == 0 {
                    if adIndex == 0 {
                        if let date, !markers.tags.contains(where: { $0.hasName(HLSTagName.programDateTime) }) {
                            tags.append(HLSTag(HLSTagName.programDateTime, .text(HLSDateFormat.format(date))))
                        }
                        tags += markers.tags
                        if contentIsEncrypted {
                            tags.append(
                                HLSTag(HLSTagName.key, attributes: HLSAttributeList(["METHOD": .enumerated("NONE")])))
                        }
                    }
                    if let mapURI = ad.mapURI {
                        tags.append(HLSTag(HLSTagName.map, attributes: HLSAttributeList(["URI": .quoted(mapURI)])))
                    }
                }
                if markers.style == .cueOut, elapsed > 0 {
                    let text = HLSNumberFormat.cueOutContinuation(elapsed: elapsed, total: total)
                    tags.append(HLSTag(HLSTagName.cueOutCont, .text(text)))
                }
                if adSegment.duration != lastDuration.value {
                    lastDuration = HLSDecimal(
                        value: adSegment.duration, text: HLSNumberFormat.fixed(adSegment.duration, fractionDigits: 3))
                }
                segments.append(MediaSegment(uri: adSegment.uri, duration: lastDuration, tags: tags))
                elapsed += adSegment.duration
            }
        }
        return segments
    }
}

extension HLSTag {
    /// Tags that announce a break and travel with it when its segments are replaced.
    var isBreakMarker: Bool {
        hasName(HLSTagName.cueOut) || hasName(HLSTagName.oatclsSCTE35) || hasName(HLSTagName.splicePointSCTE35)
            || hasName(HLSTagName.dateRange) || hasName(HLSTagName.programDateTime) || hasName(HLSTagName.asset)
    }
}
