import Foundation
import InterludeVAST

/// The companions of an ad with the tracking of its whole chain.
struct MergedCompanions {
    var companions: [Companion]
    /// How many of ``companions`` are the inline ad's (they come first).
    var inlineCount: Int
    /// `creativeView` URLs of the wrappers' size-less tracking-only
    /// companions: they track the ad's companions as one, so they are owed
    /// once when any of them shows, not once per companion shown.
    var sharedViewTracking: [VASTURLTemplate]
}

extension ResolvedAd {
    /// The companions the ad can show, with the tracking of its whole chain.
    ///
    /// The inline ad's companions come first, then every wrapper companion
    /// that has a resource of its own (outermost first): a wrapper may
    /// bring a display ad of its own. A wrapper companion with no resource
    /// carries only tracking for what the inline ad shows, as ad servers
    /// write it. One with a size adds its `creativeView` and
    /// `CompanionClickTracking` URLs to each inline companion of that size;
    /// one with none (or 0×0) adds its click tracking to every inline
    /// companion and its `creativeView` to ``MergedCompanions/sharedViewTracking``.
    /// Its `CompanionClickThrough` is used by those that have none (the
    /// nearest wrapper's first).
    var mergedCompanions: MergedCompanions {
        var merged = inLine.creatives.compactMap(\.companionAds).flatMap(\.companions)
        var shared: [VASTURLTemplate] = []
        let inlineCount = merged.count
        let wrapperCompanions = wrappers.map { hop in
            hop.wrapper.creatives.compactMap(\.companionAds).flatMap(\.companions)
        }
        // Nearest wrapper first, so a nearer click-through is taken before a farther one.
        for companions in wrapperCompanions.reversed() {
            for trackingOnly in companions where trackingOnly.resources.isEmpty {
                let views = trackingOnly.trackingEvents.filter { $0.event == .creativeView }
                let applied = (0..<inlineCount).filter { trackingOnly.applies(to: merged[$0]) }
                if trackingOnly.isSizeless {
                    if !applied.isEmpty { shared += views.map(\.url) }
                } else {
                    for index in applied { merged[index].trackingEvents += views }
                }
                for index in applied {
                    merged[index].clickTracking += trackingOnly.clickTracking
                    if merged[index].clickThrough == nil { merged[index].clickThrough = trackingOnly.clickThrough }
                }
            }
        }
        merged += wrapperCompanions.joined().filter { !$0.resources.isEmpty }
        return MergedCompanions(companions: merged, inlineCount: inlineCount, sharedViewTracking: shared)
    }
}

extension Companion {
    /// Whether this tracking-only wrapper companion is about `companion`:
    /// it names no size (or 0×0), or the same one.
    fileprivate func applies(to companion: Companion) -> Bool {
        isSizeless || (width ?? 0 == companion.width ?? 0 && height ?? 0 == companion.height ?? 0)
    }

    /// It names no size, or 0×0: it is about all of the ad's companions.
    fileprivate var isSizeless: Bool { (width ?? 0) == 0 && (height ?? 0) == 0 }
}
