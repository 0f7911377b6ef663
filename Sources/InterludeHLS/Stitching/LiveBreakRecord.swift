import Foundation

/// What a ``LiveStitchTimeline`` remembers about one break: decided the
/// first time the break's start is seen and never changed after, except
/// that an open break gets its end once the origin shows it. Everything in
/// the numbering is derived from these records, so two processes holding the
/// same records answer a reload alike.
public struct LiveBreakRecord: Sendable, Hashable, Codable {
    /// Where the break ends, set once the origin window shows it.
    public struct End: Sendable, Hashable, Codable {
        /// Origin segments the break covers (replaced by the pod).
        public var originCount: Int
        /// Their duration in seconds: the time the pod and slate fill.
        public var contentDuration: Double
        /// Segments the stitched output gives the break (pod, then slate).
        public var outputCount: Int
        /// DISCONTINUITY tags the output adds for the break: one before each
        /// ad and slate run, one where content resumes (unless the origin
        /// has one there).
        public var discontinuitiesAdded: Int
        /// DISCONTINUITY tags of the origin inside the break, gone with the
        /// segments the pod replaced.
        public var originDiscontinuitiesRemoved: Int
    }

    /// The request the provider was asked with (the break's identity).
    public var request: LiveBreakRequest
    /// True when a pod replaces the break's segments; false leaves them.
    public var isReplaced: Bool
    /// The origin's discontinuity sequence number just before the break.
    public var originDiscontinuityBase: UInt64
    /// The content was encrypted where the break starts (ads then get
    /// `EXT-X-KEY:METHOD=NONE`).
    public var contentIsEncrypted: Bool
    /// Seconds of slate asked for at a time while the break is open.
    public var slateSegmentDuration: Double
    /// The marker lines on the origin segment that started the break
    /// (`#EXT-X-CUE-OUT:30`, `#EXT-OATCLS-SCTE35:…`), written on the pod's
    /// first segment when markers pass through.
    public var sourceMarkers: [String]
    /// An origin segment whose start is known relative to the break's start,
    /// so an open break longer than the window still knows how far it has run.
    public var anchor: ElapsedAnchor
    /// The end, once known; nil while the break is open.
    public var end: End?

    /// The origin media sequence number of the break's first segment.
    public var originStart: UInt64 { request.originStartSequence }
    /// The origin media sequence number after the break; nil while it is open.
    public var originEnd: UInt64? { end.map { originStart + UInt64($0.originCount) } }

    /// True when origin segment `sequence` is inside the break.
    func contains(_ sequence: UInt64) -> Bool {
        guard sequence >= originStart else { return false }
        guard let originEnd else { return true }
        return sequence < originEnd
    }

    /// Output media sequence numbers the break adds (negative when the pod
    /// has fewer segments than the content it replaces).
    var sequenceDelta: Int64 {
        guard let end, isReplaced else { return 0 }
        return Int64(end.outputCount) - Int64(end.originCount)
    }

    /// Output discontinuity sequence numbers the break adds.
    var discontinuityDelta: Int64 {
        guard let end, isReplaced else { return 0 }
        return Int64(end.discontinuitiesAdded) - Int64(end.originDiscontinuitiesRemoved)
    }
}

/// Origin segment ``sequence`` starts ``elapsed`` seconds after its break.
public struct ElapsedAnchor: Sendable, Hashable, Codable {
    /// An origin media sequence number.
    public var sequence: UInt64
    /// Seconds from the break's start to that segment's start.
    public var elapsed: Double
}

/// The stored part of a ``LiveStitchTimeline``: small, `Codable`, and a
/// pure function of the origin and of the provider's per-break decisions.
public struct LiveStitchState: Sendable, Hashable, Codable {
    /// Breaks that ended long before the window, folded into two offsets so
    /// the state stays small on a channel that runs for months.
    public struct Settled: Sendable, Hashable, Codable {
        /// Every break ending at or before this origin sequence is folded in.
        public var throughSequence: UInt64 = 0
        /// Output minus origin media sequence numbers after those breaks.
        public var sequenceOffset: Int64 = 0
        /// Output minus origin discontinuity sequence numbers after them.
        public var discontinuityOffset: Int64 = 0
    }

    /// The folded breaks.
    public var settled = Settled()
    /// The breaks still near the window, in origin order.
    public var breaks: [LiveBreakRecord] = []

    /// An empty state (a stream that has not been reloaded yet).
    public init() {}

    /// Adds what `other` knows and this state does not: breaks it recorded
    /// (and ends it found, or anchors nearer the live edge for breaks still
    /// open), and its folding when it folded further. Two
    /// processes that stitched the same stream concurrently merge to the
    /// state either would have reached alone.
    public mutating func merge(_ other: LiveStitchState) {
        if other.settled.throughSequence > settled.throughSequence { settled = other.settled }
        var byStart: [UInt64: LiveBreakRecord] = [:]
        for record in breaks + other.breaks where record.originStart >= settled.throughSequence {
            if let existing = byStart[record.originStart] {
                // An ended record wins; between open ones, the anchor nearer the live edge.
                if existing.end != nil { continue }
                if record.end == nil, record.anchor.sequence <= existing.anchor.sequence { continue }
            }
            byStart[record.originStart] = record
        }
        breaks = byStart.values.sorted { $0.originStart < $1.originStart }
    }
}
