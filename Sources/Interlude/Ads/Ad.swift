import Foundation
import InterludeVAST

/// A companion ad of a linear ad. IMA's `IMACompanionAd`.
///
/// IMA renders the companion in its slot itself; in Interlude the app does
/// (``CompanionAdSlot/onFilled``), so the companion also says what kind of
/// resource it is and where a click leads. Showing it and clicking it owe
/// beacons, which the SDK sends: see ``CompanionAdSlot``.
public struct CompanionAd: Sendable, Hashable {
    /// What ``CompanionAd/resourceValue`` holds.
    public enum ResourceType: String, Sendable, Hashable {
        /// `<StaticResource>`: the URL of an image (or another file of ``CompanionAd/creativeType``).
        case staticResource = "static"
        /// `<IFrameResource>`: the URL of a page to show in a frame.
        case iframe
        /// `<HTMLResource>`: markup to show.
        case html

        /// A VAST resource as the app shows it: its kind, its value (URL or
        /// markup, trimmed) and a static resource's `creativeType`.
        static func reading(_ resource: CreativeResource) -> (ResourceType, String, String?) {
            switch resource {
            case .staticResource(let mime, let url): return (.staticResource, url.trimmingWhitespace, mime)
            case .iframe(let url): return (.iframe, url.trimmingWhitespace, nil)
            case .html(let markup): return (.html, markup.trimmingWhitespace, nil)
            }
        }
    }

    /// The resource: an image URL, an iframe URL or HTML markup.
    public var resourceValue: String
    public var apiFramework: String?
    public var width: Int
    public var height: Int
    /// Interlude: what ``resourceValue`` is.
    public var resourceType: ResourceType
    /// Interlude: the `creativeType` of a static resource (`image/png`), when given.
    public var creativeType: String?
    /// Interlude: the companion's `adSlotId`, when given.
    public var adSlotID: String?
    /// Interlude: the `CompanionClickThrough` (of the inline companion, else
    /// of the nearest wrapper that gives one), macros not yet filled.
    public var clickThroughURL: String?

    /// `creativeView` URLs of the companion and of its wrappers' tracking-only companions.
    var viewTracking: [VASTURLTemplate] = []
    /// `CompanionClickTracking` URLs, likewise merged over the chain.
    var clickTracking: [VASTURLTemplate] = []
    /// The ad it belongs to, for its beacons.
    var adID = ""
    var adServingID: String?
    /// The ad's `adType` (`[ADTYPE]`): video unless the ad says audio or hybrid.
    var adType = "video"
    /// The inline ad's own (not one a wrapper brings with a resource of its own).
    var isInline = false

    public init(
        resourceValue: String, apiFramework: String?, width: Int, height: Int,
        resourceType: ResourceType = .staticResource, creativeType: String? = nil, adSlotID: String? = nil,
        clickThroughURL: String? = nil
    ) {
        self.resourceValue = resourceValue
        self.apiFramework = apiFramework
        self.width = width
        self.height = height
        self.resourceType = resourceType
        self.creativeType = creativeType
        self.adSlotID = adSlotID
        self.clickThroughURL = clickThroughURL
    }

    /// The app-facing companion of a merged VAST companion (nil when it has no resource).
    init?(_ companion: Companion, adID: String, adServingID: String?) {
        guard let resource = companion.resources.first else { return nil }
        let (type, value, creativeType) = ResourceType.reading(resource)
        self.init(
            resourceValue: value, apiFramework: companion.apiFramework,
            width: companion.width ?? 0, height: companion.height ?? 0, resourceType: type,
            creativeType: creativeType, adSlotID: companion.adSlotID,
            clickThroughURL: companion.clickThrough?.trimmingWhitespace)
        viewTracking = companion.trackingEvents.filter { $0.event == .creativeView }.map(\.url)
        clickTracking = companion.clickTracking.map(\.url)
        self.adID = adID
        self.adServingID = adServingID
    }
}

/// UI elements an ad may show. IMA's `IMAUiElementType`.
public struct UIElement: RawRepresentable, Hashable, Sendable {
    public var rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    /// The "Ad" attribution label.
    public static let adAttribution = UIElement(rawValue: "adAttribution")
    /// The countdown.
    public static let countdown = UIElement(rawValue: "countdown")
}

/// One ad, as the player and the app see it: computed from the resolved VAST
/// (inline ad plus wrapper chain). IMA's `IMAAd`.
public struct Ad: Sendable, Hashable {
    /// The ad's `id` (IMA `adId`).
    public var adID: String
    public var adTitle: String
    public var adDescription: String
    /// The inline ad's `AdSystem`.
    public var adSystem: String
    /// MIME type of the media file selected to play (IMA `contentType`).
    public var contentType: String
    /// Seconds, from the VAST `<Duration>`; −1 when the document gives none
    /// (playback then goes by the media's own duration).
    public var duration: Double
    public var isSkippable: Bool
    /// Seconds after which the ad may be skipped; −1 when it is not
    /// skippable, or while its `n%` offset waits for the media's duration
    /// (the ad then has no `<Duration>`).
    public var skipTimeOffset: Double
    /// IMA's meaning: the app asked for its own UI (``AdsRenderingSettings``'
    /// `disableUi`) and the ad allows it (``isUiHideable``). When false the
    /// built-in UI shows (``AdUIState/isBuiltInUIVisible``).
    public var isUiDisabled: Bool
    /// Interlude: whether the ad allows the app to replace its UI, asked or
    /// not: it carries `<Extension type="uiSettings"><UiHideable>1</UiHideable>`.
    public var isUiHideable: Bool
    public var isLinear: Bool
    public var adPodInfo: AdPodInfo
    /// Width and height of the selected media file (0 when unknown).
    public var width: Int
    public var height: Int
    public var vastMediaWidth: Int
    public var vastMediaHeight: Int
    /// Kbps of the selected media file (0 when unknown).
    public var vastMediaBitrate: Int
    /// The linear creative's `AdParameters`.
    public var traffickingParameters: String
    /// The linear creative's `id`.
    public var creativeID: String
    /// The linear creative's `adId`.
    public var creativeAdID: String
    public var universalAdIDs: [UniversalAdID]
    public var advertiserName: String
    public var surveyURL: String?
    /// The deal ID, when an extension carries one (`<Extension type="deal">`); empty otherwise.
    public var dealID: String
    /// Ids, systems and creative ids of the wrappers, outermost first.
    public var wrapperAdIDs: [String]
    public var wrapperCreativeIDs: [String]
    public var wrapperSystems: [String]
    public var companionAds: [CompanionAd]
    /// Interlude: the industry icons (AdChoices, …) of the linear creative
    /// and its wrappers, one per program; ``AdUIState/icons`` says which
    /// show when.
    public var icons: [AdIcon]
    /// UI elements the built-in UI shows for this ad.
    public var uiElements: [UIElement]

    /// The `<Verification>`s of the ad and of every wrapper (outermost
    /// first), for an app that runs Open Measurement itself; the SDK does not
    /// (see ``AdsRenderingSettings/reportsVerificationsNotExecuted``).
    public var adVerifications: [Verification]

    /// The selected media file, for the player to load.
    public var mediaURL: String?

    /// `skipoffset` as written, resolved against the media's duration when a percentage.
    var skipOffset: VASTOffset?
    /// Whether the ad has a click-through (the built-in UI's Learn More).
    var hasClickThrough: Bool
    /// `creativeView` URLs owed once when any companion of the ad shows
    /// (``MergedCompanions/sharedViewTracking``).
    var sharedCompanionViewTracking: [VASTURLTemplate]

    /// Builds the app-facing ad from a resolved ad; `disableUi` is the app's
    /// request for its own UI (``AdsRenderingSettings/disableUi``).
    public init(
        resolved: ResolvedAd, podInfo: AdPodInfo, preferences: MediaPreferences = MediaPreferences(),
        uiElements: [UIElement] = [.adAttribution, .countdown], disableUi: Bool = false
    ) {
        let inLine = resolved.inLine
        let creative = resolved.linearCreative
        let linear = creative?.linear
        let media = linear.flatMap { MediaFileSelector.select(from: $0.mediaFiles, preferences: preferences) }
        adID = resolved.ad.id ?? ""
        adTitle = inLine.adTitle ?? ""
        adDescription = inLine.description ?? ""
        adSystem = inLine.adSystem?.name ?? ""
        contentType = media.flatMap(MediaFileSelector.mimeType(of:)) ?? ""
        let seconds = linear?.duration?.seconds ?? -1
        duration = seconds
        skipOffset = linear?.skipOffset
        isSkippable = skipOffset != nil
        skipTimeOffset = -1
        isUiHideable = resolved.uiHideable == true
        isUiDisabled = disableUi && isUiHideable
        isLinear = linear != nil
        adPodInfo = podInfo
        width = media?.width ?? 0
        height = media?.height ?? 0
        vastMediaWidth = media?.width ?? 0
        vastMediaHeight = media?.height ?? 0
        vastMediaBitrate = media?.bitrate ?? media?.maxBitrate ?? 0
        traffickingParameters = linear?.adParameters?.value ?? ""
        creativeID = creative?.id ?? ""
        creativeAdID = creative?.adID ?? ""
        universalAdIDs = creative?.universalAdIDs ?? []
        advertiserName = inLine.advertiser?.name ?? ""
        surveyURL = inLine.surveys.first?.url
        dealID = resolved.extensions.first { $0.type == "deal" }.flatMap { $0.childText(named: "DealId") } ?? ""
        wrapperAdIDs = resolved.wrappers.map { $0.ad.id ?? "" }
        wrapperCreativeIDs = resolved.wrappers.map { hop in hop.wrapper.creatives.first?.id ?? "" }
        wrapperSystems = resolved.wrappers.map { $0.wrapper.adSystem?.name ?? "" }
        let companions = resolved.mergedCompanions
        companionAds = companions.companions.enumerated().compactMap { index, companion in
            var shown = CompanionAd(companion, adID: resolved.ad.id ?? "", adServingID: inLine.adServingID)
            shown?.adType = resolved.ad.adType?.rawValue ?? "video"
            shown?.isInline = index < companions.inlineCount
            return shown
        }
        sharedCompanionViewTracking = companionAds.isEmpty ? [] : companions.sharedViewTracking
        icons = resolved.icons.enumerated().compactMap { AdIcon($1, ordinal: $0) }
        self.uiElements = uiElements
        adVerifications = resolved.adVerifications
        mediaURL = media?.url
        hasClickThrough = resolved.clickThrough != nil
        skipTimeOffset = skipOffset(forDuration: seconds) ?? -1
    }

    /// Seconds into the ad at which it may be skipped, for media lasting
    /// `duration` seconds (≤ 0 when unknown); nil when not skippable or when
    /// a percentage offset has no duration to apply to.
    func skipOffset(forDuration duration: TimeInterval) -> TimeInterval? {
        switch skipOffset {
        case nil: return nil
        case .time(let time)?: return time.seconds
        case .percent(let percent)?: return duration > 0 ? duration * percent / 100 : nil
        }
    }
}

extension ResolvedAd {
    /// Verifications of every wrapper, outermost first, then the inline ad's.
    var adVerifications: [Verification] { wrappers.flatMap(\.wrapper.adVerifications) + inLine.adVerifications }
}
