/// Where an ad sits in its break. IMA's `IMAAdPodInfo`.
public struct AdPodInfo: Sendable, Hashable {
    /// 1-based position of the ad in the pod (1 for a standalone ad).
    public var adPosition: Int
    /// Ads in the pod (1 for a standalone ad).
    public var totalAds: Int
    /// Whether the ad is a bumper (a short clip around a break). Default false.
    public var isBumper: Bool
    /// The break's index: 0 for a pre-roll, 1…N for mid-rolls, −1 for a post-roll.
    public var podIndex: Int
    /// The break's content time in seconds: 0 for a pre-roll, −1 for a post-roll.
    public var timeOffset: Double
    /// The break's maximum duration in seconds, −1 when unknown.
    public var maxDuration: Double

    public init(
        adPosition: Int = 1, totalAds: Int = 1, isBumper: Bool = false, podIndex: Int = 0, timeOffset: Double = 0,
        maxDuration: Double = -1
    ) {
        self.adPosition = adPosition
        self.totalAds = totalAds
        self.isBumper = isBumper
        self.podIndex = podIndex
        self.timeOffset = timeOffset
        self.maxDuration = maxDuration
    }

    /// A standalone ad (a VAST tag without a schedule, played as a pre-roll).
    public static let standalone = AdPodInfo()
}
