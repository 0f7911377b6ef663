import Foundation

/// What the ad UI shows right now, as a value: the ad label or countdown,
/// the skip button and Learn More. Computed when an ad starts, on every
/// progress tick and when the break ends, and published when it changes;
/// UIKit, SwiftUI and the terminal player only draw it.
///
/// Two UIs fill it. With ``isCustomUIVisible`` it is the IMA custom-UI
/// guide's content ("Ad 2 of 3 (12s)", "Skip this ad in 3..." then "Skip
/// ad", "Learn More"), for the app's own views. With ``isBuiltInUIVisible``
/// (the ad does not allow a custom UI, or the app did not ask for one) it is
/// what IMA's own UI shows ("Ad 2 of 3 · 0:12", "Skip in 3" then "Skip Ad",
/// "Learn more" for ads with a click-through), for the SDK's overlay
/// (`AdUIOverlayView`) or a player that draws the built-in UI itself.
public struct AdUIState: Sendable, Hashable {
    /// Whether the app's custom UI should show: an ad plays whose
    /// ``Ad/isUiDisabled`` is true.
    public var isCustomUIVisible: Bool
    /// Whether an ad plays with the built-in UI (the ad does not allow a
    /// custom UI, or the app did not ask for one): the fields below then
    /// hold the built-in UI's content, and the custom UI stays hidden.
    public var isBuiltInUIVisible: Bool
    public var learnMoreVisible: Bool
    /// "Learn More" (custom UI), "Learn more" (built-in UI).
    public var learnMoreTitle: String
    public var countdownVisible: Bool
    /// Custom UI: "Ad (15s)", "Ad 2 of 3 (15s)". Built-in UI, the ad label:
    /// "Ad · 0:15", "Ad 2 of 3 · 0:15" (``AdsRenderingSettings/uiElements``
    /// says which of the attribution and the countdown show).
    public var countdownText: String
    /// Only for skippable ads (in the built-in UI, once the offset is known).
    public var skipButtonVisible: Bool
    /// Custom UI: "Skip this ad in 5..." counting down, then "Skip ad".
    /// Built-in UI: "Skip in 5", then "Skip Ad".
    public var skipButtonTitle: String
    /// True once the skip offset has passed: ``AdsManager/skip()`` now skips.
    public var skipButtonEnabled: Bool
    /// Interlude: the ad's icons showing now (``AdIcon/offset`` and
    /// ``AdIcon/duration``), for either UI to draw; showing one sends its
    /// view tracking. A tap goes to ``AdsManager/iconClicked(_:)``.
    public var icons: [AdIcon] = []

    /// Nothing shown (between ads, in content).
    public static let hidden = AdUIState(
        isCustomUIVisible: false, isBuiltInUIVisible: false, learnMoreVisible: false, learnMoreTitle: "",
        countdownVisible: false, countdownText: "", skipButtonVisible: false, skipButtonTitle: "",
        skipButtonEnabled: false)

    public init(
        isCustomUIVisible: Bool, isBuiltInUIVisible: Bool, learnMoreVisible: Bool, learnMoreTitle: String,
        countdownVisible: Bool, countdownText: String, skipButtonVisible: Bool, skipButtonTitle: String,
        skipButtonEnabled: Bool, icons: [AdIcon] = []
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
        self.icons = icons
    }

    /// The state while `ad` plays at `mediaTime` of `totalTime` seconds (nil
    /// while unknown). The custom UI follows the guide's
    /// `adDidProgressToTime:totalTime:`: before the first tick (`mediaTime`
    /// nil) its countdown and skip texts are empty, as `showCustomUi` leaves them.
    static func playing(_ ad: Ad, mediaTime: TimeInterval?, totalTime: TimeInterval?, strings: AdUIStrings)
        -> AdUIState
    {
        var state =
            ad.isUiDisabled
            ? custom(ad, mediaTime: mediaTime, totalTime: totalTime, strings: strings)
            : builtIn(ad, mediaTime: mediaTime ?? 0, totalTime: totalTime, strings: strings)
        if !ad.icons.isEmpty {
            let time = mediaTime ?? 0
            state.icons = ad.icons.filter { $0.isVisible(at: time) }
        }
        return state
    }

    private static func custom(_ ad: Ad, mediaTime: TimeInterval?, totalTime: TimeInterval?, strings: AdUIStrings)
        -> AdUIState
    {
        var state = AdUIState(
            isCustomUIVisible: true, isBuiltInUIVisible: false, learnMoreVisible: true,
            learnMoreTitle: strings.learnMore, countdownVisible: true, countdownText: "",
            skipButtonVisible: ad.isSkippable, skipButtonTitle: "", skipButtonEnabled: false)
        guard let mediaTime else { return state }
        if let totalTime {
            let remaining = roundedLikePrintf(totalTime - mediaTime)
            let totalAds = ad.adPodInfo.totalAds
            state.countdownText =
                totalAds > 1
                ? AdUIStrings.format(
                    strings.countdownInPod, [String(ad.adPodInfo.adPosition), String(totalAds), remaining])
                : AdUIStrings.format(strings.countdownSingle, [remaining])
        }
        if ad.isSkippable, ad.skipTimeOffset >= 0 {
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

    private static func builtIn(_ ad: Ad, mediaTime: TimeInterval, totalTime: TimeInterval?, strings: AdUIStrings)
        -> AdUIState
    {
        var label: [String] = []
        if ad.uiElements.contains(.adAttribution) {
            let totalAds = ad.adPodInfo.totalAds
            label.append(
                totalAds > 1
                    ? strings.adLabel + " "
                        + AdUIStrings.format(strings.adPosition, [String(ad.adPodInfo.adPosition), String(totalAds)])
                    : strings.adLabel)
        }
        if ad.uiElements.contains(.countdown), let totalTime {
            label.append(clockText(secondsUp(totalTime - mediaTime)))
        }
        var state = AdUIState(
            isCustomUIVisible: false, isBuiltInUIVisible: true, learnMoreVisible: ad.hasClickThrough,
            learnMoreTitle: ad.hasClickThrough ? strings.builtInLearnMore : "", countdownVisible: !label.isEmpty,
            countdownText: label.joined(separator: " · "), skipButtonVisible: false, skipButtonTitle: "",
            skipButtonEnabled: false)
        if ad.isSkippable, ad.skipTimeOffset >= 0 {
            state.skipButtonVisible = true
            let timeTillSkip = ad.skipTimeOffset - mediaTime
            if timeTillSkip > 0 {
                state.skipButtonTitle = AdUIStrings.format(
                    strings.builtInSkipCountdown, [String(secondsUp(timeTillSkip))])
            } else {
                state.skipButtonTitle = strings.builtInSkipNow
                state.skipButtonEnabled = true
            }
        }
        return state
    }
}

/// `%.f` of a number, as the guide's countdown prints it: round half to
/// even, as printf does for exact halves (2.5 → "2", 3.5 → "4"); negative
/// and non-finite values read as 0.
func roundedLikePrintf(_ value: Double) -> String {
    guard value.isFinite, value > 0 else { return "0" }
    return String(Int(min(value, 1e9).rounded(.toNearestOrEven)))
}

/// Whole seconds left, rounded up, as a countdown shows them (9.2 s left
/// shows 10 until it is 9); 0 for negative and non-finite values.
func secondsUp(_ value: Double) -> Int {
    guard value.isFinite, value > 0 else { return 0 }
    return Int(min(value, 1e9).rounded(.up))
}

/// `m:ss`, or `h:mm:ss` from an hour: the built-in UI's countdown.
func clockText(_ seconds: Int) -> String {
    let hours = seconds / 3600
    let minutes = (seconds % 3600) / 60
    let rest = seconds % 60
    func twoDigits(_ value: Int) -> String { value < 10 ? "0\(value)" : String(value) }
    return hours > 0 ? "\(hours):\(twoDigits(minutes)):\(twoDigits(rest))" : "\(minutes):\(twoDigits(rest))"
}
