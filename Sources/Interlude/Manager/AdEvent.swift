import Foundation

/// Something that happened while ads play. IMA's `IMAAdEvent`.
public struct AdEvent: Sendable, Hashable {
    /// IMA's `IMAAdEventType`. A struct of static values, so a type added
    /// later never breaks an app's `switch` (which needs a `default`).
    public struct EventType: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        /// The camel-case name (`adBreakReady`); ``AdEvent/typeString`` is IMA's SCREAMING_CASE.
        public var rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public var description: String { rawValue }

        /// A VMAP break is loaded and waits for `start()` (`autoPlayAdBreaks` false). `AD_BREAK_READY`.
        public static let adBreakReady = EventType(rawValue: "adBreakReady")
        /// A VMAP break will play no ads: its tag failed. `AD_BREAK_FETCH_ERROR`.
        public static let adBreakFetchError = EventType(rawValue: "adBreakFetchError")
        /// A break begins, the first time it plays. `AD_BREAK_STARTED`.
        public static let adBreakStarted = EventType(rawValue: "adBreakStarted")
        /// A break ends, the first time it plays. `AD_BREAK_ENDED`.
        public static let adBreakEnded = EventType(rawValue: "adBreakEnded")
        /// Stream switched to ads (dynamic ad insertion). `AD_PERIOD_STARTED`.
        public static let adPeriodStarted = EventType(rawValue: "adPeriodStarted")
        /// Stream switched back to content (dynamic ad insertion). `AD_PERIOD_ENDED`.
        public static let adPeriodEnded = EventType(rawValue: "adPeriodEnded")
        /// Every ad of the load has played or failed. `ALL_ADS_COMPLETED`.
        public static let allAdsCompleted = EventType(rawValue: "allAdsCompleted")
        /// The user chose Learn More. `CLICKED`.
        public static let clicked = EventType(rawValue: "clicked")
        /// The ad played to its end. `COMPLETE`.
        public static let complete = EventType(rawValue: "complete")
        /// The schedule's cue points are known or changed. `CUEPOINTS_CHANGED`.
        public static let cuepointsChanged = EventType(rawValue: "cuepointsChanged")
        /// The ad reached 25 % of its duration. `FIRST_QUARTILE`.
        public static let firstQuartile = EventType(rawValue: "firstQuartile")
        /// An icon's fallback image was closed. `ICON_FALLBACK_IMAGE_CLOSED`.
        public static let iconFallbackImageClosed = EventType(rawValue: "iconFallbackImageClosed")
        /// An icon was tapped. `ICON_TAPPED`.
        public static let iconTapped = EventType(rawValue: "iconTapped")
        /// The ad's data is available (before it plays). `LOADED`.
        public static let loaded = EventType(rawValue: "loaded")
        /// Something worth knowing that is not an error (`adData["message"]`). `LOG`.
        public static let log = EventType(rawValue: "log")
        /// The ad reached half of its duration. `MIDPOINT`.
        public static let midpoint = EventType(rawValue: "midpoint")
        /// The ad paused. `PAUSE`.
        public static let pause = EventType(rawValue: "pause")
        /// The ad resumed. `RESUME`.
        public static let resume = EventType(rawValue: "resume")
        /// The user skipped the ad. `SKIPPED`.
        public static let skipped = EventType(rawValue: "skipped")
        /// The ad's first frame shows. `STARTED`.
        public static let started = EventType(rawValue: "started")
        /// A stream loaded (dynamic ad insertion). `STREAM_LOADED`.
        public static let streamLoaded = EventType(rawValue: "streamLoaded")
        /// A stream started (dynamic ad insertion). `STREAM_STARTED`.
        public static let streamStarted = EventType(rawValue: "streamStarted")
        /// The user touched the video. `TAPPED`.
        public static let tapped = EventType(rawValue: "tapped")
        /// The ad reached 75 % of its duration. `THIRD_QUARTILE`.
        public static let thirdQuartile = EventType(rawValue: "thirdQuartile")

        /// Every type IMA defines, in its documentation's order.
        public static let allKnown: [EventType] = [
            .adBreakReady, .adBreakFetchError, .adBreakStarted, .adBreakEnded, .adPeriodStarted, .adPeriodEnded,
            .allAdsCompleted, .clicked, .complete, .cuepointsChanged, .firstQuartile, .iconFallbackImageClosed,
            .iconTapped, .loaded, .log, .midpoint, .pause, .resume, .skipped, .started, .streamLoaded, .streamStarted,
            .tapped, .thirdQuartile,
        ]
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
