import Foundation

/// How ads render. IMA's `IMAAdsRenderingSettings`.
public struct AdsRenderingSettings: Sendable, Hashable {
    /// Ask for the custom UI: takes effect only for ads that allow it
    /// (`UiHideable` 1), which then report ``Ad/isUiDisabled``. Default false.
    public var disableUi = false
    /// Preferred media bitrate in kbps; nil (IMA's −1) picks by display size.
    public var bitrate: Int?
    /// MIME types the display plays; nil uses ``MediaPreferences/defaultMIMETypes``.
    public var mimeTypes: [String]?
    /// Seconds for a media file to load, and then to start once told to
    /// play, before the next ad plays (error 402). Default 8.
    public var loadVideoTimeout: TimeInterval = 8
    /// VMAP: breaks at or before this content time are skipped. Default nil.
    public var playAdsAfterTime: TimeInterval?
    /// What the built-in UI shows in its ad label: the "Ad" attribution (with
    /// the pod position) and the countdown. Default both.
    public var uiElements: [UIElement] = [.adAttribution, .countdown]
    /// Load the next break's ads ahead of time. Default true.
    public var enablePreloading = true
    /// Height of the display in pixels, for choosing a rendition. Default nil.
    public var displayHeight: Int?
    /// Interlude: fire each `<Verification>`'s `verificationNotExecuted`
    /// tracking with `[REASON]` 2 (not supported) when its ad starts, as
    /// VAST 4.1 §3.17 asks of a player without Open Measurement. Set false
    /// when the app runs the verifications itself (``Ad/adVerifications``)
    /// and reports what it could not run. Default true.
    public var reportsVerificationsNotExecuted = true

    public init() {}

    var mediaPreferences: MediaPreferences {
        MediaPreferences(
            mimeTypes: mimeTypes ?? MediaPreferences.defaultMIMETypes, bitrate: bitrate, displayHeight: displayHeight)
    }
}
