import Foundation

/// What the custom ad UI shows right now: the seed's three elements (Learn
/// More, skip button, countdown) as a value. Computed when an ad starts, on
/// every progress tick and when the break ends, and published when it
/// changes; UIKit, SwiftUI and the terminal player only draw it.
public struct AdUIState: Sendable, Hashable {
    /// Whether the app's custom UI should show at all: only while an ad plays
    /// whose ``Ad/isUiDisabled`` is true and `disableUi` was requested.
    /// When false during an ad, the built-in UI is used.
    public var isCustomUIVisible: Bool
    /// Whether an ad is playing with the SDK's built-in UI (the ad does not
    /// allow a custom UI, or the app did not ask for one).
    public var isBuiltInUIVisible: Bool
    public var learnMoreVisible: Bool
    public var learnMoreTitle: String
    public var countdownVisible: Bool
    /// "Ad (15s)", "Ad 2 of 3 (15s)".
    public var countdownText: String
    /// Only for skippable ads.
    public var skipButtonVisible: Bool
    /// "Skip this ad in 5..." counting down, then "Skip ad".
    public var skipButtonTitle: String
    /// True once the skip offset has passed.
    public var skipButtonEnabled: Bool

    /// Nothing shown (between ads, in content).
    public static let hidden = AdUIState(
        isCustomUIVisible: false, isBuiltInUIVisible: false, learnMoreVisible: false, learnMoreTitle: "",
        countdownVisible: false, countdownText: "", skipButtonVisible: false, skipButtonTitle: "",
        skipButtonEnabled: false)

    public init(
        isCustomUIVisible: Bool, isBuiltInUIVisible: Bool, learnMoreVisible: Bool, learnMoreTitle: String,
        countdownVisible: Bool, countdownText: String, skipButtonVisible: Bool, skipButtonTitle: String,
        skipButtonEnabled: Bool
    ) {
        self.isCustomUIVisible = isCustomUIVisible
        self.isBuiltInUIVisible = isBuiltInUIVisible
        self.learnMoreVisible = learnMoreVisible
        self.learnMoreTitle = learnMoreTitle
        self.countdownVisible = countdownVisible
        self.countdownText = countdownText
        self.skipButtonVisible = skipButtonVisible
        self.skipButtonTitle = skipButtonTitle
        self.skipButtonEnabled = skipButtonEnabled
    }

    /// The state while `ad` plays at `mediaTime` of `totalTime` seconds, as
    /// the guide's `adDidProgressToTime:totalTime:` computes it. Before the
    /// first progress tick (`mediaTime` nil) the countdown and skip texts are
    /// empty, as the guide's `showCustomUi` leaves them (Learn More is set).
    public static func playing(
        _ ad: Ad, mediaTime: TimeInterval?, totalTime: TimeInterval, disableUi: Bool, strings: AdUIStrings
    ) -> AdUIState {
        let custom = disableUi && ad.isUiDisabled
        guard custom else {
            var state = AdUIState.hidden
            state.isBuiltInUIVisible = true
            return state
        }
        var state = AdUIState(
            isCustomUIVisible: true, isBuiltInUIVisible: false, learnMoreVisible: true,
            learnMoreTitle: strings.learnMore,
            countdownVisible: true, countdownText: "", skipButtonVisible: ad.isSkippable, skipButtonTitle: "",
            skipButtonEnabled: false)
        guard let mediaTime else { return state }
        let remaining = roundedLikePrintf(max(0, totalTime - mediaTime))
        let totalAds = ad.adPodInfo.totalAds
        state.countdownText =
            totalAds > 1
            ? AdUIStrings.format(
                strings.countdownInPod, [String(ad.adPodInfo.adPosition), String(totalAds), remaining])
            : AdUIStrings.format(strings.countdownSingle, [remaining])
        if ad.isSkippable {
            let timeTillSkip = ad.skipTimeOffset - mediaTime
            if timeTillSkip > 0 {
                state.skipButtonTitle = AdUIStrings.format(strings.skipCountdown, [roundedLikePrintf(timeTillSkip)])
            } else {
                state.skipButtonTitle = strings.skipNow
                state.skipButtonEnabled = true
            }
        }
        return state
    }
}

/// `%.f` of a non-negative number: round half to even, as printf does for
/// exact halves (2.5 → "2", 3.5 → "4").
func roundedLikePrintf(_ value: Double) -> String {
    String(Int(value.rounded(.toNearestOrEven)))
}
