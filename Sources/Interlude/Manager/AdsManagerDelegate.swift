import Foundation

/// Hears what the ads manager does. IMA's `IMAAdsManagerDelegate`; the
/// optional members have empty defaults.
@MainActor
public protocol AdsManagerDelegate: AnyObject {
    func adsManager(_ adsManager: AdsManager, didReceive event: AdEvent)
    func adsManager(_ adsManager: AdsManager, didReceive error: AdError)
    /// Pause the content: an ad break starts.
    func adsManagerDidRequestContentPause(_ adsManager: AdsManager)
    /// Resume the content: the ad break ended.
    func adsManagerDidRequestContentResume(_ adsManager: AdsManager)
    /// The playing ad reached `mediaTime` of `totalTime` seconds (for a custom countdown).
    func adsManager(_ adsManager: AdsManager, adDidProgressToTime mediaTime: TimeInterval, totalTime: TimeInterval)
    /// The ad's media loaded and is about to play, or is buffered enough to
    /// play on after buffering. IMA's `adsManagerAdPlaybackReady:`.
    func adsManagerAdPlaybackReady(_ adsManager: AdsManager)
    /// The playing ad stopped to wait for media. IMA's `adsManagerAdDidStartBuffering:`.
    func adsManagerAdDidStartBuffering(_ adsManager: AdsManager)
    /// The playing ad's media is buffered up to `mediaTime` seconds. IMA's
    /// `adsManager:adDidBufferToMediaTime:`.
    func adsManagerAdDidBufferToMediaTime(_ adsManager: AdsManager, mediaTime: TimeInterval)
    /// Interlude: the ad UI changed (the custom UI's or the built-in UI's
    /// countdown, skip button, Learn More; see ``AdUIState``); called on
    /// changes only, not on every progress tick.
    func adsManager(_ adsManager: AdsManager, didUpdate uiState: AdUIState)
}

extension AdsManagerDelegate {
    public func adsManager(
        _ adsManager: AdsManager, adDidProgressToTime mediaTime: TimeInterval, totalTime: TimeInterval
    ) {}
    public func adsManagerAdPlaybackReady(_ adsManager: AdsManager) {}
    public func adsManagerAdDidStartBuffering(_ adsManager: AdsManager) {}
    public func adsManagerAdDidBufferToMediaTime(_ adsManager: AdsManager, mediaTime: TimeInterval) {}
    public func adsManager(_ adsManager: AdsManager, didUpdate uiState: AdUIState) {}
}
