/// A VAST tracking event name. Open-ended: any name a server writes
/// round-trips; the VAST 4.3 names are static members.
public struct TrackingEventType: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public var rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public init(_ rawValue: String) { self.rawValue = rawValue }
    public var description: String { rawValue }

    public static let creativeView = Self("creativeView")
    public static let start = Self("start")
    public static let firstQuartile = Self("firstQuartile")
    public static let midpoint = Self("midpoint")
    public static let thirdQuartile = Self("thirdQuartile")
    public static let complete = Self("complete")
    public static let mute = Self("mute")
    public static let unmute = Self("unmute")
    public static let pause = Self("pause")
    public static let resume = Self("resume")
    public static let rewind = Self("rewind")
    public static let skip = Self("skip")
    public static let progress = Self("progress")
    public static let playerExpand = Self("playerExpand")
    public static let playerCollapse = Self("playerCollapse")
    public static let fullscreen = Self("fullscreen")
    public static let exitFullscreen = Self("exitFullscreen")
    public static let close = Self("close")
    public static let closeLinear = Self("closeLinear")
    public static let acceptInvitation = Self("acceptInvitation")
    public static let acceptInvitationLinear = Self("acceptInvitationLinear")
    public static let loaded = Self("loaded")
    public static let interactiveStart = Self("interactiveStart")
    public static let otherAdInteraction = Self("otherAdInteraction")
    public static let notUsed = Self("notUsed")
    public static let adExpand = Self("adExpand")
    public static let adCollapse = Self("adCollapse")
    public static let minimize = Self("minimize")
    public static let overlayViewDuration = Self("overlayViewDuration")
    public static let timeSpentViewing = Self("timeSpentViewing")
    public static let verificationNotExecuted = Self("verificationNotExecuted")

    /// The event names VAST 2.0–4.3 define.
    public static let known: Set<TrackingEventType> = [
        .creativeView, .start, .firstQuartile, .midpoint, .thirdQuartile, .complete, .mute, .unmute,
        .pause, .resume, .rewind, .skip, .progress, .playerExpand, .playerCollapse, .fullscreen,
        .exitFullscreen, .close, .closeLinear, .acceptInvitation, .acceptInvitationLinear, .loaded,
        .interactiveStart, .otherAdInteraction, .notUsed, .adExpand, .adCollapse, .minimize,
        .overlayViewDuration, .timeSpentViewing, .verificationNotExecuted,
    ]
}

/// `<Tracking event="…" offset="…">url</Tracking>`.
public struct TrackingEvent: Hashable, Sendable {
    public var event: TrackingEventType
    public var url: VASTURLTemplate
    /// For `progress`: when it fires (time or percentage).
    public var offset: VASTOffset?

    public init(event: TrackingEventType, url: VASTURLTemplate, offset: VASTOffset? = nil) {
        self.event = event
        self.url = url
        self.offset = offset
    }
}
