extension HLSValidator {
    /// Tags that may appear once, before the first segment.
    private static let playlistWideTags: [String] = [
        HLSTagName.version, HLSTagName.targetDuration, HLSTagName.mediaSequence, HLSTagName.discontinuitySequence,
        HLSTagName.playlistType, HLSTagName.iFramesOnly, HLSTagName.partInf, HLSTagName.serverControl, HLSTagName.start,
    ]

    /// The findings for a media playlist.
    public static func validate(_ playlist: MediaPlaylist) -> [HLSFinding] {
        var findings: [HLSFinding] = []
        let all = playlist.allTags
        findings += checkHeader(playlist.tags.first ?? playlist.segments.first.map { HLSTag("", line: $0.line) })

        let target = playlist.targetDuration
        if playlist.headerTag(HLSTagName.targetDuration) == nil {
            findings.append(
                HLSFinding(.error, .missingTargetDuration, "a media playlist needs EXT-X-TARGETDURATION", line: 0))
        }
        var seen: [String: Int] = [:]
        var hasProgramDateTime = false
        var dateRanges: [String: DateRange] = [:]
        var endListLine: Int?
        var hasParts = false
        for (segmentIndex, tag) in all where !tag.isComment {
            findings += checkRequiredAttributes(tag)
            if playlistWideTags.contains(tag.name) {
                if let first = seen[tag.name] {
                    findings.append(
                        HLSFinding(
                            .error, .duplicateTag, "\(tag.name) appears again (first on line \(first))", line: tag.line)
                    )
                } else {
                    seen[tag.name] = tag.line
                }
                if segmentIndex >= 0 {
                    findings.append(
                        HLSFinding(
                            .error, .misplacedTag, "\(tag.name) must come before the first segment", line: tag.line))
                }
            }
            switch tag.name {
            case HLSTagName.programDateTime: hasProgramDateTime = true
            case HLSTagName.part: hasParts = true
            case HLSTagName.endList:
                // Segments after it (none when the playlist has none: the tag then sits with the header).
                let segmentsFollow = !playlist.segments.isEmpty && segmentIndex < playlist.segments.count
                endListLine = endListLine ?? (segmentsFollow ? tag.line : nil)
            case HLSTagName.playlistType:
                if let value = tag.valueText, value != "VOD", value != "EVENT" {
                    findings.append(
                        HLSFinding(
                            .error, .invalidValue, "EXT-X-PLAYLIST-TYPE must be VOD or EVENT, not \(value)",
                            line: tag.line))
                }
            case HLSTagName.dateRange:
                findings += checkDateRange(DateRange(tag: tag), against: &dateRanges)
            default: break
            }
        }
        for (_, tag) in all where tag.name == HLSTagName.dateRange && !tag.isComment {
            let range = DateRange(tag: tag)
            guard range.attributes["START-DATE"] == nil else { continue }
            // RFC 8216bis requires START-DATE on every tag, yet its own SCTE-35
            // example (and Elemental's SCTE35-IN tag) leaves it off a tag
            // that continues a range of the same ID: that range still has one.
            if let id = range.id, dateRanges[id]?.attributes["START-DATE"] != nil {
                findings.append(
                    HLSFinding(
                        .warning, .missingAttribute,
                        "EXT-X-DATERANGE without START-DATE (its range, ID=\"\(id)\", has one on another tag)",
                        line: tag.line))
            } else {
                findings.append(
                    HLSFinding(.error, .missingAttribute, "EXT-X-DATERANGE without START-DATE", line: tag.line))
            }
        }
        if !hasProgramDateTime {
            for (_, tag) in all where tag.name == HLSTagName.dateRange && !tag.isComment {
                findings.append(
                    HLSFinding(
                        .error, .dateRangeWithoutProgramDateTime,
                        "EXT-X-DATERANGE in a playlist without EXT-X-PROGRAM-DATE-TIME", line: tag.line))
            }
        }
        if hasParts, playlist.headerTag(HLSTagName.partInf) == nil {
            findings.append(
                HLSFinding(.error, .missingAttribute, "EXT-X-PART needs EXT-X-PART-INF in the header", line: 0))
        }
        if let endListLine {
            findings.append(
                HLSFinding(
                    .warning, .segmentAfterEndList, "segments follow EXT-X-ENDLIST; players stop at it",
                    line: endListLine))
        }
        if let target {
            for segment in playlist.segments where segment.duration.value.rounded() > Double(target) {
                findings.append(
                    HLSFinding(
                        .error, .segmentLongerThanTarget,
                        "EXTINF \(segment.duration.text) rounds above EXT-X-TARGETDURATION \(target) (segment \(segment.uri))",
                        line: segment.line))
            }
        }
        return findings.sorted { $0.line < $1.line }
    }

    /// Tags sharing an ID must agree on the attributes they share (RFC 8216bis 4.4.5.1).
    private static func checkDateRange(_ range: DateRange, against known: inout [String: DateRange]) -> [HLSFinding] {
        guard let id = range.id else { return [] }
        guard var first = known[id] else {
            known[id] = range
            return []
        }
        var findings: [HLSFinding] = []
        for attribute in range.attributes {
            if let existing = first.attributes[attribute.name] {
                if existing.text != attribute.value.text {
                    findings.append(
                        HLSFinding(
                            .error, .conflictingDateRange,
                            "EXT-X-DATERANGE ID=\"\(id)\" gives \(attribute.name) \(attribute.value) here but \(existing) on line \(first.line)",
                            line: range.line))
                }
            } else {
                first.attributes[attribute.name] = attribute.value
            }
        }
        known[id] = first
        return findings
    }

    /// Findings from comparing two successive loads of one live playlist
    /// (RFC 8216bis 6.2.2): sequence numbers may not go backwards, and a
    /// discontinuity that leaves the window must be counted.
    public static func compareReloads(previous: MediaPlaylist, current: MediaPlaylist) -> [HLSFinding] {
        var findings: [HLSFinding] = []
        let sequenceLine = current.headerTag(HLSTagName.mediaSequence)?.line ?? 0
        let discontinuityLine = current.headerTag(HLSTagName.discontinuitySequence)?.line ?? 0
        if current.mediaSequence < previous.mediaSequence {
            findings.append(
                HLSFinding(
                    .error, .mediaSequenceWentBackwards,
                    "EXT-X-MEDIA-SEQUENCE went from \(previous.mediaSequence) to \(current.mediaSequence)",
                    line: sequenceLine))
            return findings
        }
        if current.discontinuitySequence < previous.discontinuitySequence {
            findings.append(
                HLSFinding(
                    .error, .discontinuitySequenceWentBackwards,
                    "EXT-X-DISCONTINUITY-SEQUENCE went from \(previous.discontinuitySequence) to \(current.discontinuitySequence)",
                    line: discontinuityLine))
            return findings
        }
        let removed = current.mediaSequence - previous.mediaSequence
        if removed < UInt64(previous.segments.count) {
            // Each DISCONTINUITY that left with a removed segment is counted once.
            let left = previous.segments[..<Int(removed)].reduce(UInt64(0)) { $0 + ($1.isDiscontinuity ? 1 : 0) }
            let expected = previous.discontinuitySequence + left
            if current.discontinuitySequence != expected {
                findings.append(
                    HLSFinding(
                        .error, .discontinuitySequenceNotIncremented,
                        "EXT-X-DISCONTINUITY-SEQUENCE is \(current.discontinuitySequence), expected \(expected) after \(removed) segments left the window",
                        line: discontinuityLine))
            }
            var previousURIs: [UInt64: String] = [:]
            for segment in previous.segments { previousURIs[segment.mediaSequence] = segment.uri }
            for segment in current.segments {
                if let uri = previousURIs[segment.mediaSequence], uri != segment.uri {
                    findings.append(
                        HLSFinding(
                            .warning, .segmentChangedBetweenReloads,
                            "media sequence \(segment.mediaSequence) was \(uri), now \(segment.uri)", line: segment.line
                        ))
                }
            }
        }
        return findings
    }
}
