import Foundation

/// Decides an ad's `<ViewableImpression>` outcome (VAST 4.1+ §3.4.3) by the
/// MRC rule for video: at least half of the video on screen for two
/// continuous seconds of play. An ad shorter than two seconds is viewable
/// when in view for its whole length: MRC does not say; that is our rule.
///
/// It is fed the display's on-screen fraction with each media time
/// (``VideoDisplay/visibleFraction``). The verdict is reached once: viewable
/// as soon as the rule is met; at the ad's end, not viewable when it was
/// measured but never met, undetermined when the display could never tell.
struct ViewabilityMeter: Sendable, Hashable {
    enum Verdict: Sendable, Hashable {
        case viewable, notViewable, undetermined
    }

    static let requiredFraction = 0.5
    static let requiredSeconds: TimeInterval = 2

    private(set) var verdict: Verdict?
    /// Whether the display ever told how much of the video was on screen.
    private var measured = false
    /// Media time from which the video has been in view without a break.
    private var inViewSince: TimeInterval?
    /// The last fraction reported, which holds until the next report.
    private var lastFraction: Double?

    /// The video is at `time` with `fraction` of it on screen (nil: the
    /// display cannot tell). Returns the verdict if this sample reached it.
    mutating func sample(at time: TimeInterval, fraction: Double?, duration: TimeInterval?) -> Verdict? {
        guard verdict == nil, time.isFinite, time >= 0 else { return nil }
        guard let fraction, fraction.isFinite else {
            // An unknown sample breaks the run: continuity cannot be vouched for.
            inViewSince = nil
            lastFraction = nil
            return nil
        }
        measured = true
        lastFraction = fraction
        guard fraction >= Self.requiredFraction else {
            inViewSince = nil
            return nil
        }
        let since = inViewSince ?? time
        inViewSince = since
        var required = Self.requiredSeconds
        if let duration, duration > 0 { required = min(required, duration) }
        // A millisecond of slack: progress times are floating-point sums.
        guard time - since >= required - 0.001 else { return nil }
        verdict = .viewable
        return .viewable
    }

    /// The ad ended at `time`: the verdict, if not reached before.
    mutating func end(at time: TimeInterval, duration: TimeInterval?) -> Verdict? {
        guard verdict == nil else { return nil }
        if let reached = sample(at: time, fraction: lastFraction, duration: duration) { return reached }
        verdict = measured ? .notViewable : .undetermined
        return verdict
    }
}
