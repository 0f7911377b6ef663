import Foundation

/// The catalog's stream content: the encoding ladder, VOD titles and live
/// channels (JSON key `content`; schema in the README's catalog section).
/// Each title and channel is either made here with ffmpeg or names an
/// external origin the VTP fronts.
public struct ContentCatalog: Sendable, Hashable, Codable {
    /// Content segment duration in seconds (also the GOP length). Default 4.
    public var segmentDuration: Double
    /// The ladder. Default ``EncodingProfile/standardLadder``.
    public var profiles: [EncodingProfile]
    /// VOD titles.
    public var titles: [CatalogTitle]
    /// Live channels.
    public var channels: [CatalogChannel]

    public init(
        segmentDuration: Double = 4, profiles: [EncodingProfile] = EncodingProfile.standardLadder,
        titles: [CatalogTitle] = [], channels: [CatalogChannel] = []
    ) {
        self.segmentDuration = segmentDuration
        self.profiles = profiles
        self.titles = titles
        self.channels = channels
    }

    /// No ladder, titles or channels: nothing is made for streams and no ad
    /// is conditioned (catalogs for client-side ads only).
    public static let none = ContentCatalog(profiles: [])

    /// `interlude-film` (3 minutes), `interlude-live` (DATERANGE SCTE-35
    /// signalling) and `interlude-live-cue` (CUE-OUT/CUE-IN; same pictures),
    /// both a 2-minute loop with a 32 s break every 2 minutes, over the
    /// standard ladder.
    public static let builtIn = ContentCatalog(
        titles: [CatalogTitle(id: "interlude-film", title: "Interlude Film", duration: 180)],
        channels: [
            CatalogChannel(
                id: "interlude-live", title: "Interlude Live", sourceDuration: 120, breakInterval: 120,
                breakDuration: 32,
                signaling: .dateRange),
            CatalogChannel(
                id: "interlude-live-cue", title: "Interlude Live", sourceDuration: 120, breakInterval: 120,
                breakDuration: 32, signaling: .cue),
        ])

    /// The profile with this id.
    public func profile(id: String) -> EncodingProfile? { profiles.first { $0.id == id } }
    /// The title with this id.
    public func title(id: String) -> CatalogTitle? { titles.first { $0.id == id } }
    /// The channel with this id.
    public func channel(id: String) -> CatalogChannel? { channels.first { $0.id == id } }

    private enum CodingKeys: String, CodingKey { case segmentDuration, profiles, titles, channels }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            segmentDuration: try container.decodeIfPresent(Double.self, forKey: .segmentDuration) ?? 4,
            profiles: try container.decodeIfPresent([EncodingProfile].self, forKey: .profiles)
                ?? EncodingProfile.standardLadder,
            titles: try container.decodeIfPresent([CatalogTitle].self, forKey: .titles) ?? [],
            channels: try container.decodeIfPresent([CatalogChannel].self, forKey: .channels) ?? [])
    }
}

/// A VOD title: generated (`duration`) or fronted (`origin`).
public struct CatalogTitle: Sendable, Hashable, Codable {
    /// Title id, used in URLs.
    public var id: String
    /// Burnt into the generated pictures.
    public var title: String
    /// Seconds of generated content; ignored with ``origin``.
    public var duration: Double
    /// Profile ids to make (default: the whole ladder).
    public var profiles: [String]?
    /// An external multivariant playlist (http or https) to front instead of
    /// generating the title.
    public var origin: String?

    public init(id: String, title: String, duration: Double = 0, profiles: [String]? = nil, origin: String? = nil) {
        self.id = id
        self.title = title
        self.duration = duration
        self.profiles = profiles
        self.origin = origin
    }

    private enum CodingKeys: String, CodingKey { case id, title, duration, profiles, origin }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let id = try container.decode(String.self, forKey: .id)
        self.init(
            id: id, title: try container.decodeIfPresent(String.self, forKey: .title) ?? id,
            duration: try container.decodeIfPresent(Double.self, forKey: .duration) ?? 0,
            profiles: try container.decodeIfPresent([String].self, forKey: .profiles),
            origin: try container.decodeIfPresent(String.self, forKey: .origin))
    }
}

/// How a live channel marks its ad breaks in the origin playlist.
public enum CueSignaling: String, Sendable, Hashable, Codable {
    /// `EXT-X-DATERANGE` with `SCTE35-OUT` / `SCTE35-IN` (SCTE-35 time_signal).
    case dateRange = "daterange"
    /// `EXT-X-CUE-OUT:DURATION=`, `EXT-X-CUE-OUT-CONT:ElapsedTime=,Duration=`, `EXT-X-CUE-IN`.
    case cue
}

/// A simulated live channel: a generated source looped on the server's
/// clock, with ad breaks at fixed intervals; or an external origin.
public struct CatalogChannel: Sendable, Hashable, Codable {
    /// Default ``epoch``: 2025-01-01T00:00:00Z.
    public static let defaultEpoch = Date(timeIntervalSince1970: 1_735_689_600)

    /// Channel id, used in URLs.
    public var id: String
    /// Burnt into the generated pictures; channels with the same title and
    /// source duration share their media.
    public var title: String
    /// Seconds of source looped (a multiple of the segment duration).
    public var sourceDuration: Double
    /// Segments in the origin's sliding window. Default 8.
    public var windowSegments: Int
    /// Seconds from one break start to the next (a multiple of the segment
    /// duration); 0: no breaks. Break k starts `(k + 1) × breakInterval` after the epoch.
    public var breakInterval: Double
    /// Seconds each break lasts (a multiple of the segment duration, less than the interval).
    public var breakDuration: Double
    /// How breaks are marked.
    public var signaling: CueSignaling
    /// When segment 0 starts; every process computes the same window from it.
    public var epoch: Date
    /// Channel seconds per wall-clock second (demos); default 1.
    public var speed: Double
    /// Profile ids to make (default: the whole ladder).
    public var profiles: [String]?
    /// An external multivariant playlist (http or https) to front instead.
    public var origin: String?

    public init(
        id: String, title: String, sourceDuration: Double = 0, windowSegments: Int = 8, breakInterval: Double = 0,
        breakDuration: Double = 0, signaling: CueSignaling = .dateRange, epoch: Date = CatalogChannel.defaultEpoch,
        speed: Double = 1, profiles: [String]? = nil, origin: String? = nil
    ) {
        self.id = id
        self.title = title
        self.sourceDuration = sourceDuration
        self.windowSegments = windowSegments
        self.breakInterval = breakInterval
        self.breakDuration = breakDuration
        self.signaling = signaling
        self.epoch = epoch
        self.speed = speed
        self.profiles = profiles
        self.origin = origin
    }

    private enum CodingKeys: String, CodingKey {
        case id, title, sourceDuration, windowSegments, breakInterval, breakDuration, signaling, epoch, speed
        case profiles, origin
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let id = try container.decode(String.self, forKey: .id)
        var epoch = Self.defaultEpoch
        if let text = try container.decodeIfPresent(String.self, forKey: .epoch) {
            guard let date = ISO8601DateFormatter().date(from: text) else {
                throw DecodingError.dataCorruptedError(
                    forKey: .epoch, in: container, debugDescription: "epoch must be an ISO 8601 date, got '\(text)'")
            }
            epoch = date
        }
        self.init(
            id: id, title: try container.decodeIfPresent(String.self, forKey: .title) ?? id,
            sourceDuration: try container.decodeIfPresent(Double.self, forKey: .sourceDuration) ?? 0,
            windowSegments: try container.decodeIfPresent(Int.self, forKey: .windowSegments) ?? 8,
            breakInterval: try container.decodeIfPresent(Double.self, forKey: .breakInterval) ?? 0,
            breakDuration: try container.decodeIfPresent(Double.self, forKey: .breakDuration) ?? 0,
            signaling: try container.decodeIfPresent(CueSignaling.self, forKey: .signaling) ?? .dateRange,
            epoch: epoch, speed: try container.decodeIfPresent(Double.self, forKey: .speed) ?? 1,
            profiles: try container.decodeIfPresent([String].self, forKey: .profiles),
            origin: try container.decodeIfPresent(String.self, forKey: .origin))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(title, forKey: .title)
        try container.encode(sourceDuration, forKey: .sourceDuration)
        try container.encode(windowSegments, forKey: .windowSegments)
        try container.encode(breakInterval, forKey: .breakInterval)
        try container.encode(breakDuration, forKey: .breakDuration)
        try container.encode(signaling, forKey: .signaling)
        try container.encode(ISO8601DateFormatter().string(from: epoch), forKey: .epoch)
        try container.encode(speed, forKey: .speed)
        try container.encodeIfPresent(profiles, forKey: .profiles)
        try container.encodeIfPresent(origin, forKey: .origin)
    }
}
