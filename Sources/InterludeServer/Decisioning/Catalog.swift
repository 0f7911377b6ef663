import Foundation

/// What the server can serve: creatives and the ad rules (VMAP schedule).
/// Read from JSON (schema in the README's catalog section); ``Catalog/builtIn`` is the
/// default for `interlude serve` with no `--catalog`.
public struct Catalog: Sendable, Hashable, Codable {
    /// Creatives, in the order `/vast` picks them.
    public var creatives: [CatalogCreative]
    /// The VMAP schedule.
    public var adRules: AdRules
    /// Stream content (ladder, VOD titles, live channels); default ``ContentCatalog/builtIn``.
    public var content: ContentCatalog
    /// Pod-serving networks, streams and pod rules. Default
    /// ``PodServingCatalog/defaults(for:)`` of the content.
    public var podServing: PodServingCatalog

    public init(
        creatives: [CatalogCreative], adRules: AdRules = AdRules(), content: ContentCatalog = .builtIn,
        podServing: PodServingCatalog? = nil
    ) {
        self.creatives = creatives
        self.adRules = adRules
        self.content = content
        self.podServing = podServing ?? .defaults(for: content)
    }

    private enum CodingKeys: String, CodingKey { case creatives, adRules, content, podServing }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        creatives = try container.decode([CatalogCreative].self, forKey: .creatives)
        // No rules: a single pre-roll, so /vmap still has something to serve.
        adRules = try container.decodeIfPresent(AdRules.self, forKey: .adRules) ?? AdRules()
        content = try container.decodeIfPresent(ContentCatalog.self, forKey: .content) ?? .builtIn
        podServing =
            container.contains(.podServing)
            ? try PodServingCatalog(
                from: container.nestedContainer(keyedBy: PodServingCatalog.CodingKeys.self, forKey: .podServing),
                content: content)
            : .defaults(for: content)
    }

    /// The creative with this id.
    public func creative(id: String) -> CatalogCreative? { creatives.first { $0.id == id } }
}

/// One ad creative: a linear video with its renditions.
public struct CatalogCreative: Sendable, Hashable, Codable {
    /// Ad id, used in URLs: letters, digits, `-`, `_`, `.`.
    public var id: String
    /// `AdTitle`, also drawn on the generated video.
    public var title: String
    /// `Advertiser`.
    public var advertiser: String
    /// Seconds; a whole number of seconds for generated media.
    public var duration: Double
    /// The `ClickThrough` page (Learn More).
    public var clickThrough: String
    /// `skipoffset` in seconds; nil: not skippable.
    public var skipOffset: Double?
    /// `<Extension type="uiSettings"><UiHideable>`; true lets the player
    /// replace the ad UI with its own.
    public var uiHideable: Bool
    /// The media files.
    public var renditions: [Rendition]

    public init(
        id: String, title: String, advertiser: String, duration: Double, clickThrough: String,
        skipOffset: Double? = nil, uiHideable: Bool = false, renditions: [Rendition] = Rendition.standardLadder
    ) {
        self.id = id
        self.title = title
        self.advertiser = advertiser
        self.duration = duration
        self.clickThrough = clickThrough
        self.skipOffset = skipOffset
        self.uiHideable = uiHideable
        self.renditions = renditions
    }

    private enum CodingKeys: String, CodingKey {
        case id, title, advertiser, duration, clickThrough, skipOffset, uiHideable, renditions
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(String.self, forKey: .id)
        title = try container.decode(String.self, forKey: .title)
        advertiser = try container.decodeIfPresent(String.self, forKey: .advertiser) ?? "Interlude"
        duration = try container.decode(Double.self, forKey: .duration)
        clickThrough = try container.decodeIfPresent(String.self, forKey: .clickThrough) ?? "https://example.com/"
        skipOffset = try container.decodeIfPresent(Double.self, forKey: .skipOffset)
        uiHideable = try container.decodeIfPresent(Bool.self, forKey: .uiHideable) ?? false
        renditions = try container.decodeIfPresent([Rendition].self, forKey: .renditions) ?? Rendition.standardLadder
    }
}

/// One media file of a creative.
public struct Rendition: Sendable, Hashable, Codable {
    /// Frame width in pixels (even).
    public var width: Int
    /// Frame height in pixels (even).
    public var height: Int
    /// Video bitrate in kbps (the `MediaFile` `bitrate`).
    public var bitrate: Int
    /// A file already in `<data-dir>/media/` to serve instead of generating
    /// one (bring your own MP4).
    public var file: String?

    public init(width: Int, height: Int, bitrate: Int, file: String? = nil) {
        self.width = width
        self.height = height
        self.bitrate = bitrate
        self.file = file
    }

    /// 360p, 540p and 720p.
    public static let standardLadder = [
        Rendition(width: 640, height: 360, bitrate: 800),
        Rendition(width: 960, height: 540, bitrate: 1500),
        Rendition(width: 1280, height: 720, bitrate: 2500),
    ]
}

/// The VMAP schedule: which breaks a piece of content gets.
public struct AdRules: Sendable, Hashable, Codable {
    /// Pre-roll break, if any.
    public var preroll: BreakRule?
    /// Mid-roll breaks at content offsets.
    public var midrolls: [BreakRule]
    /// Post-roll break, if any.
    public var postroll: BreakRule?

    public init(preroll: BreakRule? = BreakRule(podSize: 1), midrolls: [BreakRule] = [], postroll: BreakRule? = nil) {
        self.preroll = preroll
        self.midrolls = midrolls
        self.postroll = postroll
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        preroll = try container.decodeIfPresent(BreakRule.self, forKey: .preroll)
        midrolls = try container.decodeIfPresent([BreakRule].self, forKey: .midrolls) ?? []
        postroll = try container.decodeIfPresent(BreakRule.self, forKey: .postroll)
    }
}

/// One ad break of the schedule.
public struct BreakRule: Sendable, Hashable, Codable {
    /// Content offset in seconds (mid-rolls only).
    public var offset: Double?
    /// Ads in the break's pod.
    public var podSize: Int
    /// Creative ids to play, in order; default: the catalog's rotation.
    public var ads: [String]?

    public init(offset: Double? = nil, podSize: Int, ads: [String]? = nil) {
        self.offset = offset
        self.podSize = podSize
        self.ads = ads
    }
}
