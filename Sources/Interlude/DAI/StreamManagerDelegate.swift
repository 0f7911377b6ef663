import Foundation

/// Hears what a stream manager does. IMA's `IMAStreamManagerDelegate`; the
/// optional members have empty defaults.
@MainActor
public protocol StreamManagerDelegate: AnyObject {
    /// A stream or ad event (`streamLoaded`, `adBreakStarted`, `started`, …).
    /// IMA's `streamManager:didReceiveAdEvent:`.
    func streamManager(_ streamManager: StreamManager, didReceive event: AdEvent)
    /// Something failed (metadata, the stream itself). IMA's `streamManager:didReceiveAdError:`.
    func streamManager(_ streamManager: StreamManager, didReceive error: AdError)
    /// The playing ad reached `time` of `adDuration` seconds; it is ad
    /// `adPosition` of `totalAds` in a break of `adBreakDuration` seconds
    /// (`adPeriodDuration`: the stitched period, the same here). About 4–5
    /// times a second while an ad plays. IMA's
    /// `streamManager:adDidProgressToTime:adDuration:adPosition:totalAds:adBreakDuration:adPeriodDuration:`.
    func streamManager(
        _ streamManager: StreamManager, adDidProgressToTime time: TimeInterval, adDuration: TimeInterval,
        adPosition: Int, totalAds: Int, adBreakDuration: TimeInterval, adPeriodDuration: TimeInterval)
    /// Interlude: the custom UI changed (countdown "Ad 1 of 3 (12s)", Learn
    /// More); called on changes only, as with ``AdsManagerDelegate``.
    func streamManager(_ streamManager: StreamManager, didUpdate uiState: AdUIState)
}

extension StreamManagerDelegate {
    /// Does nothing: progress is optional, as IMA's
    /// `streamManager:adDidProgressToTime:adDuration:adPosition:totalAds:adBreakDuration:adPeriodDuration:`
    /// is an `@optional` method of `IMAStreamManagerDelegate`.
    public func streamManager(
        _ streamManager: StreamManager, adDidProgressToTime time: TimeInterval, adDuration: TimeInterval,
        adPosition: Int, totalAds: Int, adBreakDuration: TimeInterval, adPeriodDuration: TimeInterval
    ) {}
    /// Does nothing: a delegate without a custom UI ignores it. Interlude's
    /// own (IMA has no such call).
    public func streamManager(_ streamManager: StreamManager, didUpdate uiState: AdUIState) {}
}
