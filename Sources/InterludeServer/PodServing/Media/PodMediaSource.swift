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
    /// The absolute path of a segment's file.
    func filePath(of segment: PodSegment) -> String
    /// The segment's bytes with ID3 timed metadata added: per event a PES
    /// packet at its PTS holding one TXXX frame whose value is the event ID.
    /// In parts, to send one after another: the bytes every viewer shares
    /// are not copied per request.
    func tagged(_ segment: PodSegment, with events: [(pts: UInt64, eventID: String)]) throws(PodMediaError)
        -> [SharedBytes.Slice]
}

/// Why a segment could not be served.
struct PodMediaError: Error, Sendable, Hashable {
    /// The file is not there (media not made).
    var isMissing: Bool
    var message: String
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
