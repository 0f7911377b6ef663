/// A `<Creative>`: one of Linear, NonLinearAds or CompanionAds, with its ids.
public struct Creative: Hashable, Sendable {
    /// The creative's body.
    public enum Kind: Hashable, Sendable {
        case linear(Linear)
        case nonLinearAds(NonLinearAds)
        case companionAds(CompanionAds)
    }

    public var id: String?
    /// `adId` (also read from `AdID`/`adID`, as ad servers spell it).
    public var adID: String?
    public var sequence: Int?
    public var apiFramework: String?
    /// `UniversalAdId` elements (several allowed from VAST 4.2).
    public var universalAdIDs: [UniversalAdID]
    /// `CreativeExtensions`, raw XML kept.
    public var creativeExtensions: [VASTExtension]
    /// The body; nil for a creative that has none (tracking-only wrappers may).
    public var kind: Kind?

    public init(
        id: String? = nil, adID: String? = nil, sequence: Int? = nil, apiFramework: String? = nil,
        universalAdIDs: [UniversalAdID] = [], creativeExtensions: [VASTExtension] = [], kind: Kind? = nil
    ) {
        self.id = id
        self.adID = adID
        self.sequence = sequence
        self.apiFramework = apiFramework
        self.universalAdIDs = universalAdIDs
        self.creativeExtensions = creativeExtensions
        self.kind = kind
    }

    public var linear: Linear? {
        if case .linear(let linear) = kind { return linear }
        return nil
    }

    public var nonLinearAds: NonLinearAds? {
        if case .nonLinearAds(let ads) = kind { return ads }
        return nil
    }

    public var companionAds: CompanionAds? {
        if case .companionAds(let ads) = kind { return ads }
        return nil
    }
}

/// `<Linear>`: a video or audio ad that interrupts content.
public struct Linear: Hashable, Sendable {
    /// `Duration`; required for inline ads, absent in wrappers.
    public var duration: VASTTime?
    /// `skipoffset`; nil means the ad is not skippable.
    public var skipOffset: VASTOffset?
    public var mediaFiles: [MediaFile]
    public var mezzanines: [Mezzanine]
    public var interactiveCreativeFiles: [InteractiveCreativeFile]
    public var closedCaptionFiles: [ClosedCaptionFile]
    public var trackingEvents: [TrackingEvent]
    public var videoClicks: VideoClicks?
    public var icons: [Icon]
    public var adParameters: AdParameters?

    public init(
        duration: VASTTime? = nil, skipOffset: VASTOffset? = nil, mediaFiles: [MediaFile] = [],
        mezzanines: [Mezzanine] = [], interactiveCreativeFiles: [InteractiveCreativeFile] = [],
        closedCaptionFiles: [ClosedCaptionFile] = [], trackingEvents: [TrackingEvent] = [],
        videoClicks: VideoClicks? = nil, icons: [Icon] = [], adParameters: AdParameters? = nil
    ) {
        self.duration = duration
        self.skipOffset = skipOffset
        self.mediaFiles = mediaFiles
        self.mezzanines = mezzanines
        self.interactiveCreativeFiles = interactiveCreativeFiles
        self.closedCaptionFiles = closedCaptionFiles
        self.trackingEvents = trackingEvents
        self.videoClicks = videoClicks
        self.icons = icons
        self.adParameters = adParameters
    }

    /// True when the creative has a `skipoffset`.
    public var isSkippable: Bool { skipOffset != nil }

    /// The tracking URLs for one event type, in document order.
    public func trackingURLs(for event: TrackingEventType) -> [VASTURLTemplate] {
        trackingEvents.filter { $0.event == event }.map(\.url)
    }
}

/// `<MediaFile>`: one rendition of a linear ad.
public struct MediaFile: Hashable, Sendable {
    /// `delivery`: progressive or streaming.
    public struct Delivery: RawRepresentable, Hashable, Sendable {
        public var rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public static let progressive = Delivery(rawValue: "progressive")
        public static let streaming = Delivery(rawValue: "streaming")
    }

    public var url: VASTURLTemplate
    public var id: String?
    public var delivery: Delivery?
    /// MIME type, e.g. `video/mp4`.
    public var type: String?
    public var width: Int?
    public var height: Int?
    public var codec: String?
    /// Kbps, for constant-bitrate files.
    public var bitrate: Int?
    public var minBitrate: Int?
    public var maxBitrate: Int?
    public var scalable: Bool?
    public var maintainAspectRatio: Bool?
    /// Bytes (VAST 4.1+).
    public var fileSize: Int?
    /// `mediaType` (VAST 4.1+): `2D`, `3D`, `360`.
    public var mediaType: String?
    /// `apiFramework` (e.g. VPAID in VAST 3).
    public var apiFramework: String?

    public init(
        url: VASTURLTemplate, id: String? = nil, delivery: Delivery? = nil, type: String? = nil,
        width: Int? = nil, height: Int? = nil, codec: String? = nil, bitrate: Int? = nil,
        minBitrate: Int? = nil, maxBitrate: Int? = nil, scalable: Bool? = nil,
        maintainAspectRatio: Bool? = nil, fileSize: Int? = nil, mediaType: String? = nil,
        apiFramework: String? = nil
    ) {
        self.url = url
        self.id = id
        self.delivery = delivery
        self.type = type
        self.width = width
        self.height = height
        self.codec = codec
        self.bitrate = bitrate
        self.minBitrate = minBitrate
        self.maxBitrate = maxBitrate
        self.scalable = scalable
        self.maintainAspectRatio = maintainAspectRatio
        self.fileSize = fileSize
        self.mediaType = mediaType
        self.apiFramework = apiFramework
    }
}

/// `<Mezzanine>`: the high-quality source file for server-side transcoding.
public struct Mezzanine: Hashable, Sendable {
    public var url: VASTURLTemplate
    public var id: String?
    public var delivery: MediaFile.Delivery?
    public var type: String?
    public var width: Int?
    public var height: Int?
    public var codec: String?
    public var fileSize: Int?
    public var mediaType: String?

    public init(
        url: VASTURLTemplate, id: String? = nil, delivery: MediaFile.Delivery? = nil, type: String? = nil,
        width: Int? = nil, height: Int? = nil, codec: String? = nil, fileSize: Int? = nil,
        mediaType: String? = nil
    ) {
        self.url = url
        self.id = id
        self.delivery = delivery
        self.type = type
        self.width = width
        self.height = height
        self.codec = codec
        self.fileSize = fileSize
        self.mediaType = mediaType
    }
}

/// `<InteractiveCreativeFile>` (VAST 4: SIMID and similar).
public struct InteractiveCreativeFile: Hashable, Sendable {
    public var url: VASTURLTemplate
    public var type: String?
    public var apiFramework: String?
    public var variableDuration: Bool?

    public init(url: VASTURLTemplate, type: String? = nil, apiFramework: String? = nil, variableDuration: Bool? = nil) {
        self.url = url
        self.type = type
        self.apiFramework = apiFramework
        self.variableDuration = variableDuration
    }
}

/// `<ClosedCaptionFile>`.
public struct ClosedCaptionFile: Hashable, Sendable {
    public var url: VASTURLTemplate
    public var type: String?
    public var language: String?

    public init(url: VASTURLTemplate, type: String? = nil, language: String? = nil) {
        self.url = url
        self.type = type
        self.language = language
    }
}

/// `<VideoClicks>`.
public struct VideoClicks: Hashable, Sendable {
    /// `ClickThrough` (0 or 1): the page Learn More opens.
    public var clickThrough: ClickURL?
    public var clickTracking: [ClickURL]
    public var customClicks: [ClickURL]

    public init(clickThrough: ClickURL? = nil, clickTracking: [ClickURL] = [], customClicks: [ClickURL] = []) {
        self.clickThrough = clickThrough
        self.clickTracking = clickTracking
        self.customClicks = customClicks
    }
}
