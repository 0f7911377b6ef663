import Foundation
import InterludeVAST

/// An industry icon over a linear ad (AdChoices and the like), for the UI
/// to draw while ``AdUIState/icons`` holds it. IMA draws icons itself and
/// has no public type for them; Interlude hands them to the UI, which draws
/// them where ``xPosition`` and ``yPosition`` say and reports a tap with
/// ``AdsManager/iconClicked(_:)``.
public struct AdIcon: Sendable, Hashable {
    /// An `<IconClickFallbackImage>`: what to show on a tap when no browser
    /// can open the click-through (a TV, say).
    public struct FallbackImage: Sendable, Hashable {
        public var url: String
        public var width: Int
        public var height: Int
        public var altText: String?
    }

    /// `program`, such as `AdChoices` (empty when not given).
    public var program: String
    public var resourceType: CompanionAd.ResourceType
    /// An image URL, an iframe URL or HTML markup, as ``resourceType`` says.
    public var resourceValue: String
    public var creativeType: String?
    public var width: Int
    public var height: Int
    /// `left`, `right` or a pixel offset from the left, as written (`right` when not given).
    public var xPosition: String
    /// `top`, `bottom` or a pixel offset from the top, as written (`top` when not given).
    public var yPosition: String
    /// Seconds into the ad when the icon appears.
    public var offset: TimeInterval
    /// Seconds it stays; nil: until the ad ends.
    public var duration: TimeInterval?
    /// The `IconClickThrough`, macros not yet filled.
    public var clickThroughURL: String?
    public var altText: String?
    public var hoverText: String?
    public var fallbackImages: [FallbackImage]

    /// The icon's place in ``Ad/icons``, which the manager's beacons go by.
    var ordinal = 0
    /// `IconViewTracking` and `IconClickTracking` URLs.
    var viewTracking: [VASTURLTemplate] = []
    var clickTracking: [VASTURLTemplate] = []

    /// Whether the icon shows `mediaTime` seconds into its ad.
    public func isVisible(at mediaTime: TimeInterval) -> Bool {
        guard mediaTime >= offset else { return false }
        guard let duration else { return true }
        return mediaTime < offset + duration
    }

    /// The app-facing icon of a VAST icon (nil when it has no resource).
    init?(_ icon: Icon, ordinal: Int) {
        guard let resource = icon.resources.first else { return nil }
        (resourceType, resourceValue, creativeType) = CompanionAd.ResourceType.reading(resource)
        program = icon.program ?? ""
        width = icon.width ?? 0
        height = icon.height ?? 0
        xPosition = icon.xPosition ?? "right"
        yPosition = icon.yPosition ?? "top"
        offset = icon.offset.map { Double($0.milliseconds) / 1000 } ?? 0
        duration = icon.duration.map { Double($0.milliseconds) / 1000 }.flatMap { $0 > 0 ? $0 : nil }
        clickThroughURL = icon.clickThrough?.trimmingWhitespace
        altText = icon.altText
        hoverText = icon.hoverText
        fallbackImages = icon.clickFallbackImages.compactMap { image in
            guard let url = image.url?.trimmingWhitespace, !url.isEmpty else { return nil }
            return FallbackImage(url: url, width: image.width ?? 0, height: image.height ?? 0, altText: image.altText)
        }
        self.ordinal = ordinal
        viewTracking = icon.viewTracking
        clickTracking = icon.clickTracking.map(\.url)
    }
}

extension ResolvedAd {
    /// The icons to show: the inline linear creative's, then each wrapper's
    /// (nearest first). Of icons of one `program`, only the one nearest the
    /// inline ad is shown (one icon per program), and it takes the view and
    /// click tracking of the others, which count the same icon, and their
    /// click-through when it has none. An icon with no resource is only
    /// tracking: it adds to the shown icon of its program, or is dropped.
    var icons: [Icon] {
        let chain =
            (linear?.icons ?? [])
            + wrappers.reversed().flatMap { hop in
                hop.wrapper.creatives.compactMap(\.linear).flatMap(\.icons)
            }
        var merged: [Icon] = []
        // Program → (index in merged, position in chain of the icon shown).
        var shown: [String: (index: Int, position: Int)] = [:]
        for (position, icon) in chain.enumerated() where !icon.resources.isEmpty {
            let program = icon.program?.lowercased() ?? ""
            if !program.isEmpty {
                guard shown[program] == nil else { continue }
                shown[program] = (merged.count, position)
            }
            merged.append(icon)
        }
        for (position, icon) in chain.enumerated() {
            let program = icon.program?.lowercased() ?? ""
            guard !program.isEmpty, let target = shown[program], target.position != position else { continue }
            merged[target.index].viewTracking += icon.viewTracking
            merged[target.index].clickTracking += icon.clickTracking
            if merged[target.index].clickThrough == nil { merged[target.index].clickThrough = icon.clickThrough }
        }
        return merged
    }
}
