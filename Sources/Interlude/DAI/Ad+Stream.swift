import Foundation
import InterludeVAST

extension Ad {
    /// The app-facing ad for an ad stitched into a stream, from its
    /// metadata entry (or, when the metadata names an ad it does not
    /// describe, from its ID alone). Built through the VAST initializer so
    /// that every field a later release adds keeps its default.
    ///
    /// A stitched ad carries no VAST `UiHideable`: it may always take the
    /// app's UI (``isUiHideable``), so the app's `disableUi` alone decides
    /// the custom UI (``isUiDisabled``), as `disableUi` does in IMA's DAI.
    /// Nothing in a stream is skippable.
    init(
        streamAd info: PodMetadata.AdInfo?, id: String, duration: TimeInterval, podInfo: AdPodInfo, disableUi: Bool,
        uiElements: [UIElement]
    ) {
        // The VAST initializer's answer for an empty inline ad is the same for
        // every stream ad (only its ID, set below, came from the VAST ad):
        // made once, then copied, as a live stream makes one ad every few seconds.
        self = Self.streamTemplate
        adPodInfo = podInfo
        self.uiElements = uiElements
        adID = info?.adServerID ?? id
        adTitle = info?.title ?? ""
        adDescription = info?.description ?? ""
        adSystem = info?.adSystem ?? ""
        advertiserName = info?.advertiser ?? ""
        creativeID = info?.creativeID ?? ""
        creativeAdID = info?.creativeAdID ?? ""
        dealID = info?.dealID ?? ""
        self.duration = duration
        isLinear = true
        isSkippable = false
        skipTimeOffset = -1
        isUiHideable = true
        isUiDisabled = disableUi
        hasClickThrough = info?.clickThroughURL != nil
    }

    /// What the VAST initializer makes of an empty inline ad: the fields a
    /// stream ad does not set keep their defaults from here.
    private static let streamTemplate: Ad = {
        let empty = InLine()
        return Ad(
            resolved: ResolvedAd(ad: InterludeVAST.Ad(id: "", content: .inLine(empty)), inLine: empty),
            podInfo: .standalone)
    }()
}
