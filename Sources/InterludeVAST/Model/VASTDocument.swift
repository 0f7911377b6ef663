/// A VAST 2.0–4.3 response: either ads, or root Error URLs for "no ad".
///
/// Ads with a `sequence` attribute form the pod (played in sequence order);
/// ads without one are the buffet (standalone ads, used as fallback).
public struct VASTDocument: Hashable, Sendable {
    /// The `version` attribute as written (`2.0`, `3.0`, `4.2`, …).
    public var version: String
    /// Every `<Ad>`, in document order.
    public var ads: [Ad]
    /// Root `<Error>` URLs, fired when the response holds no ad.
    public var errors: [VASTURLTemplate]

    public init(version: String = "4.2", ads: [Ad] = [], errors: [VASTURLTemplate] = []) {
        self.version = version
        self.ads = ads
        self.errors = errors
    }

    /// Pod members (ads with `sequence`), sorted by sequence; document order
    /// breaks ties.
    public var pod: [Ad] {
        ads.enumerated()
            .filter { $0.element.sequence != nil }
            .sorted { ($0.element.sequence!, $0.offset) < ($1.element.sequence!, $1.offset) }
            .map(\.element)
    }

    /// Standalone ads (no `sequence`), in document order.
    public var buffet: [Ad] { ads.filter { $0.sequence == nil } }

    /// True when the document holds a pod (at least one sequenced ad).
    public var isPod: Bool { ads.contains { $0.sequence != nil } }
}

/// One `<Ad>`: an inline ad or a wrapper pointing at another VAST.
public struct Ad: Hashable, Sendable {
    /// The ad's body.
    public enum Content: Hashable, Sendable {
        case inLine(InLine)
        case wrapper(Wrapper)
    }

    /// `adType`: video, audio or hybrid (VAST 4.1+); open for other values.
    public struct AdType: RawRepresentable, Hashable, Sendable {
        public var rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public static let video = AdType(rawValue: "video")
        public static let audio = AdType(rawValue: "audio")
        public static let hybrid = AdType(rawValue: "hybrid")
    }

    public var id: String?
    /// Position in the pod (1-based); nil for buffet ads.
    public var sequence: Int?
    /// `conditionalAd` (VAST 4): the ad may be rejected by the player.
    public var conditionalAd: Bool?
    public var adType: AdType?
    public var content: Content

    public init(
        id: String? = nil, sequence: Int? = nil, conditionalAd: Bool? = nil, adType: AdType? = nil,
        content: Content
    ) {
        self.id = id
        self.sequence = sequence
        self.conditionalAd = conditionalAd
        self.adType = adType
        self.content = content
    }

    /// The inline body, when this is an inline ad.
    public var inLine: InLine? {
        if case .inLine(let inLine) = content { return inLine }
        return nil
    }

    /// The wrapper body, when this is a wrapper.
    public var wrapper: Wrapper? {
        if case .wrapper(let wrapper) = content { return wrapper }
        return nil
    }

    /// The ad system of either body.
    public var adSystem: AdSystem? {
        switch content {
        case .inLine(let inLine): return inLine.adSystem
        case .wrapper(let wrapper): return wrapper.adSystem
        }
    }

    /// Creatives of either body (a wrapper's hold tracking only).
    public var creatives: [Creative] {
        switch content {
        case .inLine(let inLine): return inLine.creatives
        case .wrapper(let wrapper): return wrapper.creatives
        }
    }

    /// Extensions of either body.
    public var extensions: [VASTExtension] {
        switch content {
        case .inLine(let inLine): return inLine.extensions
        case .wrapper(let wrapper): return wrapper.extensions
        }
    }

    /// The value of `<Extension type="uiSettings"><UiHideable>`: true when
    /// the ad lets the player replace its UI (IMA `isUiDisabled` source);
    /// nil when the ad carries no such extension.
    public var uiHideable: Bool? {
        extensions.lazy.compactMap(\.uiHideable).first
    }

    /// The first linear creative, when there is one.
    public var linear: Linear? {
        creatives.lazy.compactMap(\.linear).first
    }
}

/// `<InLine>`: an ad with everything needed to play it.
public struct InLine: Hashable, Sendable {
    public var adSystem: AdSystem?
    public var adTitle: String?
    /// `AdServingId` (VAST 4.1+), the `[ADSERVINGID]` macro value.
    public var adServingID: String?
    public var impressions: [Impression]
    public var categories: [AdCategory]
    public var description: String?
    public var advertiser: Advertiser?
    public var pricing: Pricing?
    public var surveys: [Survey]
    public var errors: [VASTURLTemplate]
    public var viewableImpression: ViewableImpression?
    public var adVerifications: [Verification]
    /// `Expires`: seconds the ad may be cached.
    public var expires: Int?
    public var creatives: [Creative]
    public var extensions: [VASTExtension]

    public init(
        adSystem: AdSystem? = nil, adTitle: String? = nil, adServingID: String? = nil,
        impressions: [Impression] = [], categories: [AdCategory] = [], description: String? = nil,
        advertiser: Advertiser? = nil, pricing: Pricing? = nil, surveys: [Survey] = [],
        errors: [VASTURLTemplate] = [], viewableImpression: ViewableImpression? = nil,
        adVerifications: [Verification] = [], expires: Int? = nil, creatives: [Creative] = [],
        extensions: [VASTExtension] = []
    ) {
        self.adSystem = adSystem
        self.adTitle = adTitle
        self.adServingID = adServingID
        self.impressions = impressions
        self.categories = categories
        self.description = description
        self.advertiser = advertiser
        self.pricing = pricing
        self.surveys = surveys
        self.errors = errors
        self.viewableImpression = viewableImpression
        self.adVerifications = adVerifications
        self.expires = expires
        self.creatives = creatives
        self.extensions = extensions
    }
}

/// `<Wrapper>`: a redirect to another VAST, adding its own tracking.
public struct Wrapper: Hashable, Sendable {
    public var adSystem: AdSystem?
    /// `VASTAdTagURI` (VAST 1's `VASTAdTagURL` is read here too).
    public var vastAdTagURI: VASTURLTemplate?
    public var impressions: [Impression]
    public var errors: [VASTURLTemplate]
    public var pricing: Pricing?
    public var viewableImpression: ViewableImpression?
    public var adVerifications: [Verification]
    public var blockedAdCategories: [AdCategory]
    /// Creatives of a wrapper carry tracking and click tracking only.
    public var creatives: [Creative]
    public var extensions: [VASTExtension]
    /// `followAdditionalWrappers`; absent means true.
    public var followAdditionalWrappers: Bool?
    /// `allowMultipleAds`; absent means false.
    public var allowMultipleAds: Bool?
    /// `fallbackOnNoAd`.
    public var fallbackOnNoAd: Bool?

    public init(
        adSystem: AdSystem? = nil, vastAdTagURI: VASTURLTemplate? = nil, impressions: [Impression] = [],
        errors: [VASTURLTemplate] = [], pricing: Pricing? = nil, viewableImpression: ViewableImpression? = nil,
        adVerifications: [Verification] = [], blockedAdCategories: [AdCategory] = [],
        creatives: [Creative] = [], extensions: [VASTExtension] = [], followAdditionalWrappers: Bool? = nil,
        allowMultipleAds: Bool? = nil, fallbackOnNoAd: Bool? = nil
    ) {
        self.adSystem = adSystem
        self.vastAdTagURI = vastAdTagURI
        self.impressions = impressions
        self.errors = errors
        self.pricing = pricing
        self.viewableImpression = viewableImpression
        self.adVerifications = adVerifications
        self.blockedAdCategories = blockedAdCategories
        self.creatives = creatives
        self.extensions = extensions
        self.followAdditionalWrappers = followAdditionalWrappers
        self.allowMultipleAds = allowMultipleAds
        self.fallbackOnNoAd = fallbackOnNoAd
    }
}
