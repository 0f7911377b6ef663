import Foundation

/// One media segment: the tags that precede its URI, its `EXTINF`, its URI,
/// and its place on the playlist's timeline.
public struct MediaSegment: Sendable, Hashable {
    /// Tags written before the `EXTINF` line (DISCONTINUITY, KEY, MAP,
    /// PROGRAM-DATE-TIME, DATERANGE, PART, ad markers, comments…), in order.
    public var tags: [HLSTag]
    /// Tags written between `EXTINF` and the URI (often `EXT-X-BYTERANGE`).
    public var tagsAfterInfo: [HLSTag]
    /// The `EXTINF` duration in seconds, as written.
    public var duration: HLSDecimal
    /// The `EXTINF` title after the comma; empty by default.
    public var title: String
    /// The segment URI as written (variable references not substituted).
    public var uri: String
    /// The 1-based line of the URI; 0 for segments made in code.
    public var line: Int

    /// The media sequence number (derived from EXT-X-MEDIA-SEQUENCE).
    public internal(set) var mediaSequence: UInt64 = 0
    /// The discontinuity sequence number (derived from EXT-X-DISCONTINUITY-SEQUENCE).
    public internal(set) var discontinuitySequence: UInt64 = 0
    /// Seconds from the start of the first segment in the playlist.
    public internal(set) var startTime: Double = 0
    /// The wall-clock date of the first sample: from the segment's own
    /// PROGRAM-DATE-TIME, or carried from the nearest one; nil without any.
    public internal(set) var programDateTime: Date?

    /// Creates a segment with no tags; the timeline fields are filled in when
    /// the segment is put into a ``MediaPlaylist``.
    public init(
        uri: String, duration: HLSDecimal, title: String = "", tags: [HLSTag] = [], tagsAfterInfo: [HLSTag] = [],
        line: Int = 0
    ) {
        self.tags = tags
        self.tagsAfterInfo = tagsAfterInfo
        self.duration = duration
        self.title = title
        self.uri = uri
        self.line = line
    }

    /// Creates a segment from a duration in seconds.
    public init(uri: String, duration: Double, title: String = "", tags: [HLSTag] = []) {
        self.init(uri: uri, duration: HLSDecimal(duration), title: title, tags: tags)
    }

    /// The first tag named `name` before the URI.
    public func tag(_ name: String) -> HLSTag? {
        for tag in tags where tag.hasName(name) { return tag }
        for tag in tagsAfterInfo where tag.hasName(name) { return tag }
        return nil
    }

    /// All tags named `name` before the URI, in order.
    public func tags(named name: String) -> [HLSTag] {
        (tags + tagsAfterInfo).filter { $0.hasName(name) }
    }

    /// True if an `EXT-X-DISCONTINUITY` precedes the segment.
    public var isDiscontinuity: Bool { tag(HLSTagName.discontinuity) != nil }
    /// True if the segment is marked `EXT-X-GAP`.
    public var isGap: Bool { tag(HLSTagName.gap) != nil }
    /// The segment's own `EXT-X-BYTERANGE` (`length[@offset]`), if any.
    public var byteRange: String? { tag(HLSTagName.byteRange)?.valueText }
    /// The `EXT-X-KEY` tags on this segment (they also apply to later ones).
    public var keys: [HLSTag] { tags(named: HLSTagName.key) }
    /// The `EXT-X-MAP` on this segment (it also applies to later ones).
    public var map: HLSTag? { tag(HLSTagName.map) }
    /// The `EXT-X-DATERANGE` tags placed before this segment.
    public var dateRanges: [DateRange] { tags(named: HLSTagName.dateRange).map(DateRange.init(tag:)) }
    /// The LL-HLS partial segments (`EXT-X-PART`) that make up this segment.
    public var parts: [HLSTag] { tags(named: HLSTagName.part) }
    /// The `EXT-X-BITRATE` in kbit/s applying from this segment, if on it.
    public var bitrate: UInt64? { tag(HLSTagName.bitrate)?.valueText.flatMap { UInt64($0) } }

    /// Equality ignores ``line``, so a written and re-read segment is equal.
    public static func == (lhs: MediaSegment, rhs: MediaSegment) -> Bool {
        lhs.uri == rhs.uri && lhs.duration == rhs.duration && lhs.title == rhs.title && lhs.tags == rhs.tags
            && lhs.tagsAfterInfo == rhs.tagsAfterInfo && lhs.mediaSequence == rhs.mediaSequence
            && lhs.discontinuitySequence == rhs.discontinuitySequence && lhs.startTime == rhs.startTime
            && lhs.programDateTime == rhs.programDateTime
    }

    /// Hashes the fields that equality compares.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(uri)
        hasher.combine(duration)
        hasher.combine(tags)
        hasher.combine(mediaSequence)
    }
}

/// A decimal number kept with the text it was written as, so that
/// `#EXTINF:10,` and `#EXTINF:10.000,` both survive a round-trip.
public struct HLSDecimal: Sendable, Hashable, CustomStringConvertible {
    /// The number.
    public var value: Double
    /// The text written to a playlist.
    public var text: String

    /// Creates a decimal written in the shortest form that reads back the same.
    public init(_ value: Double) {
        self.value = value
        self.text = HLSNumberFormat.decimal(value)
    }

    /// Creates a decimal from its value and the exact text to write.
    public init(value: Double, text: String) {
        self.value = value
        self.text = text
    }

    /// The text as written.
    public var description: String { text }
}
