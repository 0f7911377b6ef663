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
        let empty = InLine()
        self.init(
            resolved: ResolvedAd(ad: InterludeVAST.Ad(id: id, content: .inLine(empty)), inLine: empty),
            podInfo: podInfo, uiElements: uiElements)
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
}
