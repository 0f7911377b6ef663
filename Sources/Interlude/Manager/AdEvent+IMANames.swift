// swift-format-ignore-file: AlwaysUseLowerCamelCase
// IMA's SCREAMING_CASE names are the point of this file: code written for
// IMA (`case IMAAdEventType.STARTED:`) compiles once the prefix is dropped.

/// IMA's `IMAAdEventType`, under its own name: `AdEventType.STARTED` is
/// ``AdEvent/EventType/started``.
public typealias AdEventType = AdEvent.EventType

extension AdEvent.EventType {
    /// IMA's `kIMAAdEvent_AD_BREAK_READY` (Swift `IMAAdEventType.AD_BREAK_READY`): ``AdEvent/EventType/adBreakReady``.
    public static let AD_BREAK_READY = adBreakReady
    /// IMA's `kIMAAdEvent_AD_BREAK_FETCH_ERROR`: ``AdEvent/EventType/adBreakFetchError``.
    public static let AD_BREAK_FETCH_ERROR = adBreakFetchError
    /// IMA's `kIMAAdEvent_AD_BREAK_STARTED`: ``AdEvent/EventType/adBreakStarted``.
    public static let AD_BREAK_STARTED = adBreakStarted
    /// IMA's `kIMAAdEvent_AD_BREAK_ENDED`: ``AdEvent/EventType/adBreakEnded``.
    public static let AD_BREAK_ENDED = adBreakEnded
    /// IMA's `kIMAAdEvent_AD_PERIOD_STARTED`: ``AdEvent/EventType/adPeriodStarted``.
    public static let AD_PERIOD_STARTED = adPeriodStarted
    /// IMA's `kIMAAdEvent_AD_PERIOD_ENDED`: ``AdEvent/EventType/adPeriodEnded``.
    public static let AD_PERIOD_ENDED = adPeriodEnded
    /// IMA's `kIMAAdEvent_ALL_ADS_COMPLETED`: ``AdEvent/EventType/allAdsCompleted``.
    public static let ALL_ADS_COMPLETED = allAdsCompleted
    /// IMA's `kIMAAdEvent_CLICKED`: ``AdEvent/EventType/clicked``.
    public static let CLICKED = clicked
    /// IMA's `kIMAAdEvent_COMPLETE`: ``AdEvent/EventType/complete``.
    public static let COMPLETE = complete
    /// IMA's `kIMAAdEvent_CUEPOINTS_CHANGED`: ``AdEvent/EventType/cuepointsChanged``.
    public static let CUEPOINTS_CHANGED = cuepointsChanged
    /// IMA's `kIMAAdEvent_FIRST_QUARTILE`: ``AdEvent/EventType/firstQuartile``.
    public static let FIRST_QUARTILE = firstQuartile
    /// IMA's `kIMAAdEvent_ICON_FALLBACK_IMAGE_CLOSED`: ``AdEvent/EventType/iconFallbackImageClosed``.
    public static let ICON_FALLBACK_IMAGE_CLOSED = iconFallbackImageClosed
    /// IMA's `kIMAAdEvent_ICON_TAPPED`: ``AdEvent/EventType/iconTapped``.
    public static let ICON_TAPPED = iconTapped
    /// IMA's `kIMAAdEvent_LOADED`: ``AdEvent/EventType/loaded``.
    public static let LOADED = loaded
    /// IMA's `kIMAAdEvent_LOG`: ``AdEvent/EventType/log``.
    public static let LOG = log
    /// IMA's `kIMAAdEvent_MIDPOINT`: ``AdEvent/EventType/midpoint``.
    public static let MIDPOINT = midpoint
    /// IMA's `kIMAAdEvent_PAUSE`: ``AdEvent/EventType/pause``.
    public static let PAUSE = pause
    /// IMA's `kIMAAdEvent_RESUME`: ``AdEvent/EventType/resume``.
    public static let RESUME = resume
    /// IMA's `kIMAAdEvent_SKIPPED`: ``AdEvent/EventType/skipped``.
    public static let SKIPPED = skipped
    /// IMA's `kIMAAdEvent_STARTED`: ``AdEvent/EventType/started``.
    public static let STARTED = started
    /// IMA's `kIMAAdEvent_STREAM_LOADED`: ``AdEvent/EventType/streamLoaded``.
    public static let STREAM_LOADED = streamLoaded
    /// IMA's `kIMAAdEvent_STREAM_STARTED`: ``AdEvent/EventType/streamStarted``.
    public static let STREAM_STARTED = streamStarted
    /// IMA's `kIMAAdEvent_TAPPED`: ``AdEvent/EventType/tapped``.
    public static let TAPPED = tapped
    /// IMA's `kIMAAdEvent_THIRD_QUARTILE`: ``AdEvent/EventType/thirdQuartile``.
    public static let THIRD_QUARTILE = thirdQuartile
}
