import Foundation

/// A media playlist (RFC 8216bis 4.4.3): header tags, segments and the tags
/// after the last segment, each kept in written order.
public struct MediaPlaylist: Sendable, Hashable {
    /// Tags before the first segment's tags: `EXTM3U`, VERSION,
    /// TARGETDURATION, MEDIA-SEQUENCE, SERVER-CONTROL, comments… The
    /// playlist-wide values below read and write these.
    public var tags: [HLSTag]
    /// The segments in order. After changing them, call ``updateTimeline()``
    /// so that sequence numbers, start times and dates follow.
    public var segments: [MediaSegment]
    /// Tags after the last URI: ENDLIST, the parts of the segment being
    /// produced, PRELOAD-HINT, RENDITION-REPORT, a trailing CUE-IN…
    public var trailingTags: [HLSTag]

    /// Creates a playlist from its three parts and derives the timeline.
    public init(tags: [HLSTag], segments: [MediaSegment], trailingTags: [HLSTag] = []) {
        self.tags = tags
        self.segments = segments
        self.trailingTags = trailingTags
        updateTimeline()
    }

    /// Creates a playlist whose segments already carry their timeline (the parser's path).
    init(tags: [HLSTag], segments: [MediaSegment], trailingTags: [HLSTag], timelineIsDerived: Bool) {
        self.tags = tags
        self.segments = segments
        self.trailingTags = trailingTags
        if !timelineIsDerived { updateTimeline() }
    }

    /// Creates a playlist with `EXTM3U`, VERSION (default 3), TARGETDURATION
    /// and MEDIA-SEQUENCE (default 0) and the given segments; `ended` adds ENDLIST.
    public init(
        targetDuration: Int, version: Int = 3, mediaSequence: UInt64 = 0, segments: [MediaSegment] = [],
        ended: Bool = false
    ) {
        self.init(
            tags: [
                HLSTag(HLSTagName.header),
                HLSTag(HLSTagName.version, .text(String(version))),
                HLSTag(HLSTagName.targetDuration, .text(String(targetDuration))),
                HLSTag(HLSTagName.mediaSequence, .text(String(mediaSequence))),
            ],
            segments: segments,
            trailingTags: ended ? [HLSTag(HLSTagName.endList)] : []
        )
    }

    // MARK: Playlist-wide values

    /// The first header tag named `name`.
    public func headerTag(_ name: String) -> HLSTag? {
        for tag in tags where tag.hasName(name) { return tag }
        return nil
    }

    /// Replaces the value of the header tag `name`, appending the tag when absent
    /// and removing it when `value` is nil.
    public mutating func setHeaderTag(_ name: String, _ value: HLSTag.Value?) {
        let index = tags.firstIndex { $0.hasName(name) }
        switch (index, value) {
        case (let index?, let value?): tags[index].value = value
        case (let index?, nil): tags.remove(at: index)
        case (nil, let value?): tags.append(HLSTag(name, value))
        case (nil, nil): break
        }
    }

    private func headerInteger(_ name: String) -> UInt64? {
        headerTag(name)?.valueText.flatMap { UInt64($0) }
    }

    /// `EXT-X-VERSION`; nil when absent (which means version 1).
    public var version: Int? {
        get { headerInteger(HLSTagName.version).map { Int(clamping: $0) } }
        set { setHeaderTag(HLSTagName.version, newValue.map { .text(String($0)) }) }
    }

    /// `EXT-X-TARGETDURATION` in seconds; nil when absent.
    public var targetDuration: Int? {
        get { headerInteger(HLSTagName.targetDuration).map { Int(clamping: $0) } }
        set { setHeaderTag(HLSTagName.targetDuration, newValue.map { .text(String($0)) }) }
    }

    /// `EXT-X-MEDIA-SEQUENCE`; 0 when absent, as the RFC says.
    public var mediaSequence: UInt64 {
        get { headerInteger(HLSTagName.mediaSequence) ?? 0 }
        set {
            setHeaderTag(HLSTagName.mediaSequence, .text(String(newValue)))
            updateTimeline()
        }
    }

    /// `EXT-X-DISCONTINUITY-SEQUENCE`; 0 when absent.
    public var discontinuitySequence: UInt64 {
        get { headerInteger(HLSTagName.discontinuitySequence) ?? 0 }
        set {
            setHeaderTag(HLSTagName.discontinuitySequence, .text(String(newValue)))
            updateTimeline()
        }
    }

    /// `EXT-X-PLAYLIST-TYPE` (`VOD` or `EVENT`); nil for a live playlist.
    public var playlistType: String? {
        get { headerTag(HLSTagName.playlistType)?.valueText }
        set { setHeaderTag(HLSTagName.playlistType, newValue.map { .text($0) }) }
    }

    /// True with `EXT-X-I-FRAMES-ONLY`.
    public var isIFramesOnly: Bool { headerTag(HLSTagName.iFramesOnly) != nil }
    /// True with `EXT-X-INDEPENDENT-SEGMENTS`.
    public var hasIndependentSegments: Bool { headerTag(HLSTagName.independentSegments) != nil }
    /// The `EXT-X-START` attributes (TIME-OFFSET, PRECISE), if any.
    public var start: HLSAttributeList? { headerTag(HLSTagName.start)?.attributes }
    /// The `EXT-X-SERVER-CONTROL` attributes (LL-HLS), if any.
    public var serverControl: HLSAttributeList? { headerTag(HLSTagName.serverControl)?.attributes }
    /// `PART-TARGET` of `EXT-X-PART-INF` in seconds, if any.
    public var partTarget: Double? { headerTag(HLSTagName.partInf)?.attributes.double("PART-TARGET") }
    /// The `EXT-X-DEFINE` attribute lists, in order.
    public var definitions: [HLSAttributeList] {
        tags.filter { $0.name == HLSTagName.define && !$0.isComment }.map(\.attributes)
    }

    /// True when `EXT-X-ENDLIST` appears anywhere (the playlist will not change).
    public var hasEndList: Bool {
        trailingTags.contains { $0.name == HLSTagName.endList }
            // A playlist without segments keeps it with its header tags.
            || tags.contains { $0.name == HLSTagName.endList }
            || segments.contains { $0.tag(HLSTagName.endList) != nil }
    }

    /// The sum of the segment durations in seconds.
    public var totalDuration: Double {
        guard let last = segments.last else { return 0 }
        return last.startTime + last.duration.value
    }

    /// All tags in written order with the index of the segment they precede
    /// (`segments.count` for the trailing tags, -1 for the header).
    public var allTags: [(segmentIndex: Int, tag: HLSTag)] {
        var result = tags.map { (-1, $0) }
        for (index, segment) in segments.enumerated() {
            result += segment.tags.map { (index, $0) }
            result += segment.tagsAfterInfo.map { (index, $0) }
        }
        result += trailingTags.map { (segments.count, $0) }
        return result
    }

    /// The index of the segment playing at `date`, or nil when outside the playlist
    /// or without PROGRAM-DATE-TIME.
    public func segmentIndex(at date: Date) -> Int? {
        var low = 0
        var high = segments.count
        while low < high {
            let middle = (low + high) / 2
            guard let start = segments[middle].programDateTime else { return nil }
            if start.timeIntervalSince(date) <= 0.0005 { low = middle + 1 } else { high = middle }
        }
        let index = low - 1
        guard index >= 0, let start = segments[index].programDateTime else { return nil }
        let end = start.addingTimeInterval(segments[index].duration.value)
        return date.timeIntervalSince(end) < -0.0005 ? index : nil
    }
}
