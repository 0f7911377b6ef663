/// A creative resource: an image or other static file, an iframe URL, or
/// HTML markup.
public enum CreativeResource: Hashable, Sendable {
    /// `<StaticResource creativeType="image/png">url</StaticResource>`.
    case staticResource(creativeType: String?, url: VASTURLTemplate)
    /// `<IFrameResource>url</IFrameResource>`.
    case iframe(url: VASTURLTemplate)
    /// `<HTMLResource>markup</HTMLResource>`.
    case html(String)
}

/// `<NonLinearAds>`: overlays shown over content, with shared tracking.
public struct NonLinearAds: Hashable, Sendable {
    public var nonLinears: [NonLinear]
    public var trackingEvents: [TrackingEvent]

    public init(nonLinears: [NonLinear] = [], trackingEvents: [TrackingEvent] = []) {
        self.nonLinears = nonLinears
        self.trackingEvents = trackingEvents
    }
}

/// `<NonLinear>`: one overlay.
public struct NonLinear: Hashable, Sendable {
    public var id: String?
    public var width: Int?
    public var height: Int?
    public var expandedWidth: Int?
    public var expandedHeight: Int?
    public var scalable: Bool?
    public var maintainAspectRatio: Bool?
    public var minSuggestedDuration: VASTTime?
    public var apiFramework: String?
    public var resources: [CreativeResource]
    public var adParameters: AdParameters?
    public var clickThrough: ClickURL?
    public var clickTracking: [ClickURL]

    public init(
        id: String? = nil, width: Int? = nil, height: Int? = nil, expandedWidth: Int? = nil,
        expandedHeight: Int? = nil, scalable: Bool? = nil, maintainAspectRatio: Bool? = nil,
        minSuggestedDuration: VASTTime? = nil, apiFramework: String? = nil, resources: [CreativeResource] = [],
        adParameters: AdParameters? = nil, clickThrough: ClickURL? = nil, clickTracking: [ClickURL] = []
    ) {
        self.id = id
        self.width = width
        self.height = height
        self.expandedWidth = expandedWidth
        self.expandedHeight = expandedHeight
        self.scalable = scalable
        self.maintainAspectRatio = maintainAspectRatio
        self.minSuggestedDuration = minSuggestedDuration
        self.apiFramework = apiFramework
        self.resources = resources
        self.adParameters = adParameters
        self.clickThrough = clickThrough
        self.clickTracking = clickTracking
    }
}

/// `<CompanionAds required="…">`.
public struct CompanionAds: Hashable, Sendable {
    /// `required`: all, any or none (which companions must be shown).
    public struct Requirement: RawRepresentable, Hashable, Sendable {
        public var rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public static let all = Requirement(rawValue: "all")
        public static let any = Requirement(rawValue: "any")
        public static let none = Requirement(rawValue: "none")
    }

    public var required: Requirement?
    public var companions: [Companion]

    public init(required: Requirement? = nil, companions: [Companion] = []) {
        self.required = required
        self.companions = companions
    }
}

/// `<Companion>`: a display ad shown beside the video.
public struct Companion: Hashable, Sendable {
    public var id: String?
    public var width: Int?
    public var height: Int?
    public var assetWidth: Int?
    public var assetHeight: Int?
    public var expandedWidth: Int?
    public var expandedHeight: Int?
    public var apiFramework: String?
    /// `adSlotId` (VAST 3 spelled it `adSlotID`; both are read).
    public var adSlotID: String?
    public var pxratio: String?
    /// `renderingMode` (VAST 4.1+): default, end-card, concurrent.
    public var renderingMode: String?
    public var resources: [CreativeResource]
    public var adParameters: AdParameters?
    public var altText: String?
    public var clickThrough: VASTURLTemplate?
    public var clickTracking: [ClickURL]
    public var trackingEvents: [TrackingEvent]

    public init(
        id: String? = nil, width: Int? = nil, height: Int? = nil, assetWidth: Int? = nil, assetHeight: Int? = nil,
        expandedWidth: Int? = nil, expandedHeight: Int? = nil, apiFramework: String? = nil,
        adSlotID: String? = nil, pxratio: String? = nil, renderingMode: String? = nil,
        resources: [CreativeResource] = [], adParameters: AdParameters? = nil, altText: String? = nil,
        clickThrough: VASTURLTemplate? = nil, clickTracking: [ClickURL] = [], trackingEvents: [TrackingEvent] = []
    ) {
        self.id = id
        self.width = width
        self.height = height
        self.assetWidth = assetWidth
        self.assetHeight = assetHeight
        self.expandedWidth = expandedWidth
        self.expandedHeight = expandedHeight
        self.apiFramework = apiFramework
        self.adSlotID = adSlotID
        self.pxratio = pxratio
        self.renderingMode = renderingMode
        self.resources = resources
        self.adParameters = adParameters
        self.altText = altText
        self.clickThrough = clickThrough
        self.clickTracking = clickTracking
        self.trackingEvents = trackingEvents
    }
}

/// `<Icon>`: an industry icon (e.g. AdChoices) over a linear ad.
public struct Icon: Hashable, Sendable {
    /// `<IconClickFallbackImage>`.
    public struct ClickFallbackImage: Hashable, Sendable {
        public var width: Int?
        public var height: Int?
        public var altText: String?
        public var url: VASTURLTemplate?
        public init(width: Int? = nil, height: Int? = nil, altText: String? = nil, url: VASTURLTemplate? = nil) {
            self.width = width
            self.height = height
            self.altText = altText
            self.url = url
        }
    }

    public var program: String?
    public var width: Int?
    public var height: Int?
    /// `xPosition`: `left`, `right` or pixels, as written.
    public var xPosition: String?
    /// `yPosition`: `top`, `bottom` or pixels, as written.
    public var yPosition: String?
    public var duration: VASTTime?
    public var offset: VASTTime?
    public var apiFramework: String?
    public var pxratio: String?
    public var altText: String?
    public var hoverText: String?
    public var resources: [CreativeResource]
    public var clickThrough: VASTURLTemplate?
    public var clickTracking: [ClickURL]
    public var clickFallbackImages: [ClickFallbackImage]
    public var viewTracking: [VASTURLTemplate]

    public init(
        program: String? = nil, width: Int? = nil, height: Int? = nil, xPosition: String? = nil,
        yPosition: String? = nil, duration: VASTTime? = nil, offset: VASTTime? = nil, apiFramework: String? = nil,
        pxratio: String? = nil, altText: String? = nil, hoverText: String? = nil,
        resources: [CreativeResource] = [], clickThrough: VASTURLTemplate? = nil, clickTracking: [ClickURL] = [],
        clickFallbackImages: [ClickFallbackImage] = [], viewTracking: [VASTURLTemplate] = []
    ) {
        self.program = program
        self.width = width
        self.height = height
        self.xPosition = xPosition
        self.yPosition = yPosition
        self.duration = duration
        self.offset = offset
        self.apiFramework = apiFramework
        self.pxratio = pxratio
        self.altText = altText
        self.hoverText = hoverText
        self.resources = resources
        self.clickThrough = clickThrough
        self.clickTracking = clickTracking
        self.clickFallbackImages = clickFallbackImages
        self.viewTracking = viewTracking
    }
}
