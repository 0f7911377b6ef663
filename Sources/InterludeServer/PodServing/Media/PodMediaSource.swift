/// The media pods are made of, as pod serving sees it: the encoding
/// profiles, each creative's conditioned segments, slate, and the bytes of
/// any segment (shared by every viewer; only timed metadata differs).
protocol PodMediaSource: Sendable {
    /// The profiles pods are served in (the content ladder's); empty when
    /// there is no conditioned media.
    var profiles: [PodProfile] { get }
    /// Milliseconds creative `creativeID` plays for in a pod (its longest
    /// profile, so every profile's segments fit in the time decided); nil
    /// when it has no conditioned media (it is then left out of pods).
    func adDuration(creativeID: String) -> Int?
    /// The creative's segments in `profile`.
    func adSegments(creativeID: String, profile: String) -> [PodSegment]?
    /// Slate segments of `profile` stating `milliseconds` in all.
    func slate(profile: String, milliseconds: Int) -> [PodSegment]
    /// The bytes of a segment; nil when its file cannot be read.
    func contents(of segment: PodSegment) -> [UInt8]?
    /// The absolute path of a segment's file.
    func filePath(of segment: PodSegment) -> String
    /// Adds ID3 timed metadata (one TXXX frame with the event ID per entry)
    /// to a segment's bytes, each as a PES packet at its PTS; nil when the
    /// bytes are not a transport stream it can write into.
    func addingTimedMetadata(_ events: [(pts: UInt64, eventID: String)], to segment: [UInt8]) -> [UInt8]?
}

/// One encoding profile of the ladder, as a multivariant playlist states it.
struct PodProfile: Sendable, Hashable {
    var id: String
    var width: Int
    var height: Int
    /// Peak bits per second of the segments.
    var bandwidth: Int
    /// Average bits per second of the segments.
    var averageBandwidth: Int
    /// RFC 6381 codecs.
    var codecs: String
    var frameRate: Double
}

/// One media segment file.
struct PodSegment: Sendable, Hashable {
    /// Relative to the data directory.
    var path: String
    /// Seconds it lasts (or states, for a slate tail).
    var duration: Double
    /// File size.
    var byteCount: Int
    /// PTS of its first video frame, 90 kHz.
    var firstPTS: UInt64
    /// True when its timestamps do not carry on from the segment before it
    /// in the same run (a slate wrap or tail): a DISCONTINUITY goes before it.
    var breaksTimeline: Bool
}

/// Durations straight from the catalog and no profiles, for a server with no
/// conditioned media: decisions, metadata and verification work; pod
/// playlists answer 503.
struct CatalogDurations: PodMediaSource {
    let catalog: Catalog

    var profiles: [PodProfile] { [] }

    func adDuration(creativeID: String) -> Int? {
        catalog.creative(id: creativeID).map { Int(($0.duration * 1000).rounded()) }
    }

    func adSegments(creativeID: String, profile: String) -> [PodSegment]? { nil }

    func slate(profile: String, milliseconds: Int) -> [PodSegment] { [] }

    func contents(of segment: PodSegment) -> [UInt8]? { nil }

    func filePath(of segment: PodSegment) -> String { segment.path }

    func addingTimedMetadata(_ events: [(pts: UInt64, eventID: String)], to segment: [UInt8]) -> [UInt8]? { nil }
}
