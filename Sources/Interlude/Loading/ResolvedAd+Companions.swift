import Foundation
import InterludeVAST

extension ResolvedAd {
    /// The companions the ad can show, with the tracking of its whole chain.
    ///
    /// The inline ad's companions come first, then every wrapper companion
    /// that has a resource of its own (outermost first): a wrapper may
    /// bring a display ad of its own. A wrapper companion with no resource
    /// carries only tracking for what the inline ad shows, as ad servers
    /// write it: its `creativeView` and `CompanionClickTracking` URLs are
    /// added to each inline companion of its size (every one when it gives
    /// no size, or 0×0), and its `CompanionClickThrough` is used by those
    /// that have none (the nearest wrapper's first).
    var companions: [Companion] {
        var merged = inLine.creatives.compactMap(\.companionAds).flatMap(\.companions)
        let inlineCount = merged.count
        let wrapperCompanions = wrappers.map { hop in
            hop.wrapper.creatives.compactMap(\.companionAds).flatMap(\.companions)
        }
        // Nearest wrapper first, so a nearer click-through is taken before a farther one.
        for companions in wrapperCompanions.reversed() {
            for trackingOnly in companions where trackingOnly.resources.isEmpty {
                for index in 0..<inlineCount where trackingOnly.applies(to: merged[index]) {
                    merged[index].trackingEvents += trackingOnly.trackingEvents
                    merged[index].clickTracking += trackingOnly.clickTracking
                    if merged[index].clickThrough == nil { merged[index].clickThrough = trackingOnly.clickThrough }
                }
            }
        }
        merged += wrapperCompanions.joined().filter { !$0.resources.isEmpty }
        return merged
    }
}

extension Companion {
    /// Whether this tracking-only wrapper companion is about `companion`:
    /// it names no size (or 0×0), or the same one.
    fileprivate func applies(to companion: Companion) -> Bool {
        let width = width ?? 0
        let height = height ?? 0
        if width == 0 && height == 0 { return true }
        return width == companion.width ?? 0 && height == companion.height ?? 0
    }
}
