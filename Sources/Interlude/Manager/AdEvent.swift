import Foundation

/// Something that happened while ads play. IMA's `IMAAdEvent`.
public struct AdEvent: Sendable, Hashable {
    /// IMA's `IMAAdEventType`.
    public enum EventType: String, Sendable, Hashable, CaseIterable {
        case adBreakReady, adBreakFetchError, adBreakStarted, adBreakEnded, adPeriodStarted, adPeriodEnded
        case allAdsCompleted, clicked, complete, cuepointsChanged, firstQuartile, iconFallbackImageClosed, iconTapped
        case loaded, log, midpoint, pause, resume, skipped, started, streamLoaded, streamStarted, tapped
        case thirdQuartile
    }

    public var type: EventType
    /// The ad the event is about, when there is one.
    public var ad: Ad?
    /// Extra facts (for `log`: `message`; for `adBreakFetchError`:
    /// `errorCode` and `message`; for break events: `breakId`).
    public var adData: [String: String]

    public init(type: EventType, ad: Ad? = nil, adData: [String: String] = [:]) {
        self.type = type
        self.ad = ad
        self.adData = adData
    }

    /// IMA's `typeString`: the SCREAMING_CASE name (`STARTED`, `AD_BREAK_ENDED`).
    public var typeString: String {
        var result = ""
        for character in type.rawValue {
            if character.isUppercase { result += "_" }
            result += character.uppercased()
        }
        return result
    }
}

/// How ads render. IMA's `IMAAdsRenderingSettings`.
public struct AdsRenderingSettings: Sendable, Hashable {
    /// Ask for the custom UI: takes effect only for ads whose `isUiDisabled` is true. Default false.
    public var disableUi = false
    /// Preferred media bitrate in kbps; nil (IMA's −1) picks by display size.
    public var bitrate: Int?
    /// MIME types the display plays; nil uses ``MediaPreferences/defaultMIMETypes``.
    public var mimeTypes: [String]?
    /// Seconds for a media file to load before the next ad plays (error 402). Default 8.
    public var loadVideoTimeout: TimeInterval = 8
    /// VMAP: breaks at or before this content time are skipped. Default nil.
    public var playAdsAfterTime: TimeInterval?
    /// UI elements of the built-in UI. Default attribution and countdown.
    public var uiElements: [UIElement] = [.adAttribution, .countdown]
    /// Load the next break's ads ahead of time. Default true.
    public var enablePreloading = true
    /// Height of the display in pixels, for choosing a rendition. Default nil.
    public var displayHeight: Int?

    public init() {}

    var mediaPreferences: MediaPreferences {
        MediaPreferences(
            mimeTypes: mimeTypes ?? MediaPreferences.defaultMIMETypes, bitrate: bitrate, displayHeight: displayHeight)
    }
}
