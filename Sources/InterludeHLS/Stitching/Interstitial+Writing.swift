import Foundation

extension Interstitial {
    /// Creates interstitial attributes to write (RFC 8216bis appendix D):
    /// give exactly one of `assetURI` and `assetList`.
    public init(
        assetURI: String? = nil, assetList: String? = nil, resumeOffset: Double? = nil, playoutLimit: Double? = nil,
        snap: [String] = [], restrict: [String] = [], cue: [String] = []
    ) {
        self.assetURI = assetURI
        self.assetList = assetList
        self.resumeOffset = resumeOffset
        self.playoutLimit = playoutLimit
        self.snap = snap
        self.restrict = restrict
        self.cue = cue
    }

    /// The attributes for a live break replaced by `assetURI` (the pod's
    /// media playlist): the primary resumes `duration` seconds later, where
    /// the live content went on (nil lets the player resume after the
    /// asset's own length); snapped to segment boundaries both ways; no skip
    /// or jump past it.
    public static func liveReplacement(assetURI: String, duration: Double?) -> Interstitial {
        Interstitial(assetURI: assetURI, resumeOffset: duration, snap: ["OUT", "IN"], restrict: ["SKIP", "JUMP"])
    }

    /// The attributes for a VOD ad inserted at a boundary: the primary
    /// resumes where it left (`X-RESUME-OFFSET=0`); `CUE="PRE"` or
    /// `CUE="POST"` for a pre- or post-roll.
    public static func vodInsertion(assetURI: String, cue: [String] = []) -> Interstitial {
        Interstitial(assetURI: assetURI, resumeOffset: 0, restrict: ["SKIP", "JUMP"], cue: cue)
    }

    /// The DATERANGE that announces the interstitial: `ID`, `CLASS`,
    /// `START-DATE`, then `CUE`, `DURATION` / `PLANNED-DURATION` when given,
    /// and the `X-` attributes. A playlist carrying it needs an
    /// EXT-X-PROGRAM-DATE-TIME (RFC 8216bis 4.4.5.1);
    /// ``MediaPlaylist/insertInterstitial(_:id:at:anchorDate:)`` adds one.
    public func dateRange(
        id: String, startDate: Date, duration: Double? = nil, plannedDuration: Double? = nil
    ) -> DateRange {
        var attributes = HLSAttributeList([
            "ID": .quoted(id), "CLASS": .quoted(Self.dateRangeClass),
            "START-DATE": .quoted(HLSDateFormat.format(startDate)),
        ])
        if !cue.isEmpty { attributes["CUE"] = .quoted(cue.joined(separator: ",")) }
        if let duration { attributes["DURATION"] = Self.decimal(duration) }
        if let plannedDuration { attributes["PLANNED-DURATION"] = Self.decimal(plannedDuration) }
        if let assetURI { attributes["X-ASSET-URI"] = .quoted(assetURI) }
        if let assetList { attributes["X-ASSET-LIST"] = .quoted(assetList) }
        if let resumeOffset { attributes["X-RESUME-OFFSET"] = Self.decimal(resumeOffset) }
        if let playoutLimit { attributes["X-PLAYOUT-LIMIT"] = Self.decimal(playoutLimit) }
        if !snap.isEmpty { attributes["X-SNAP"] = .quoted(snap.joined(separator: ",")) }
        if !restrict.isEmpty { attributes["X-RESTRICT"] = .quoted(restrict.joined(separator: ",")) }
        var range = DateRange(tag: HLSTag(HLSTagName.dateRange, attributes: attributes))
        range.line = 0
        return range
    }

    private static func decimal(_ value: Double) -> HLSAttributeValue {
        HLSAttributeValue(kind: .decimalFloatingPoint, text: HLSNumberFormat.fixed(value, fractionDigits: 3))
    }
}

extension MediaPlaylist {
    /// Announces `interstitial` at segment boundary `boundary` (0 for a
    /// pre-roll, `segments.count` for a post-roll) with a DATERANGE whose
    /// START-DATE is that boundary's PROGRAM-DATE-TIME. A playlist without
    /// PROGRAM-DATE-TIME first gets one on its first segment, `anchorDate`
    /// (2000-01-01T00:00:00Z by default), the anchor RFC 8216bis 4.4.5.1
    /// requires of a playlist with DATERANGEs. A pre-roll gets `CUE="PRE"`
    /// and a post-roll `CUE="POST"` unless `interstitial` names a CUE.
    public mutating func insertInterstitial(
        _ interstitial: Interstitial, id: String, at boundary: Int,
        anchorDate: Date = Date(timeIntervalSince1970: 946_684_800)
    ) throws(HLSError) {
        guard boundary >= 0, boundary <= segments.count, !segments.isEmpty else {
            throw HLSError(.invalidSplicePoint, "boundary \(boundary) is outside 0...\(segments.count)")
        }
        guard (interstitial.assetURI == nil) != (interstitial.assetList == nil) else {
            throw HLSError(.missingAttribute, "an interstitial needs exactly one of X-ASSET-URI and X-ASSET-LIST")
        }
        if segments[0].programDateTime == nil {
            segments[0].tags.append(HLSTag(HLSTagName.programDateTime, .text(HLSDateFormat.format(anchorDate))))
            updateTimeline()
        }
        var marker = interstitial
        if marker.cue.isEmpty, boundary == 0 { marker.cue = ["PRE"] }
        if marker.cue.isEmpty, boundary == segments.count { marker.cue = ["POST"] }
        guard let date = dateAtBoundary(boundary) else {
            throw HLSError(.invalidSplicePoint, "no PROGRAM-DATE-TIME at boundary \(boundary)")
        }
        let tag = marker.dateRange(id: id, startDate: date).tag
        // A post-roll's tag goes before the last segment: a DATERANGE need
        // not precede the segment it dates, and trailing tags are for the end.
        segments[min(boundary, segments.count - 1)].tags.append(tag)
    }
}
