/// The ads to splice into a media playlist: one or more ads, each a list of
/// segments already conditioned to the content's rendition (same codecs,
/// resolution, frame rate and audio layout; see REFERENCE.md section 4).
public struct AdPod: Sendable, Hashable {
    /// One ad of the pod.
    public struct Ad: Sendable, Hashable {
        /// The ad's segments in order.
        public var segments: [AdSegment]
        /// The URI of the ad's initialization section (fMP4), written as an
        /// `EXT-X-MAP` before its first segment; nil for MPEG-TS ads.
        public var mapURI: String?

        /// Creates an ad; `mapURI` defaults to nil.
        public init(segments: [AdSegment], mapURI: String? = nil) {
            self.segments = segments
            self.mapURI = mapURI
        }

        /// The sum of the segment durations in seconds.
        public var duration: Double { segments.reduce(0) { $0 + $1.duration } }
    }

    /// The ads in play order.
    public var ads: [Ad]
    /// The break ID written in the DATERANGE `ID`; nil lets the splicer make
    /// one from the break's start.
    public var id: String?
    /// A SCTE-35 section to write as the break's SCTE35-OUT (DATERANGE) or
    /// EXT-OATCLS-SCTE35 (CUE-OUT); nil by default.
    public var scte35Out: SpliceInfoSection?

    /// Creates a pod; `id` and `scte35Out` default to nil.
    public init(ads: [Ad], id: String? = nil, scte35Out: SpliceInfoSection? = nil) {
        self.ads = ads
        self.id = id
        self.scte35Out = scte35Out
    }

    /// The sum of the ads' durations in seconds.
    public var duration: Double { ads.reduce(0) { $0 + $1.duration } }
}

/// One segment of an ad: its URI and duration in seconds.
public struct AdSegment: Sendable, Hashable {
    /// The segment URI, absolute or relative to the stitched playlist.
    public var uri: String
    /// The duration in seconds (the EXTINF value).
    public var duration: Double
    /// True when the segment's timestamps do not follow the segment before
    /// it in the same ad or slate run (a slate that loops): an
    /// `EXT-X-DISCONTINUITY` goes before it. The first segment of each ad
    /// gets one anyway. Default false.
    public var isDiscontinuity: Bool

    /// Creates an ad segment; `isDiscontinuity` defaults to false.
    public init(uri: String, duration: Double, isDiscontinuity: Bool = false) {
        self.uri = uri
        self.duration = duration
        self.isDiscontinuity = isDiscontinuity
    }
}
