import Foundation
import InterludeVAST

/// One wrapper on the way to an inline ad.
public struct WrapperHop: Sendable, Hashable {
    /// The `<Ad>` holding the wrapper.
    public var ad: InterludeVAST.Ad
    public var wrapper: Wrapper
    /// The URL of the document the wrapper was found in (nil for an inline response).
    public var documentURL: URL?

    public init(ad: InterludeVAST.Ad, wrapper: Wrapper, documentURL: URL?) {
        self.ad = ad
        self.wrapper = wrapper
        self.documentURL = documentURL
    }
}

/// An inline ad together with every wrapper that led to it: what plays, and
/// every URL that must be pinged for it.
public struct ResolvedAd: Sendable, Hashable {
    /// The inline `<Ad>`.
    public var ad: InterludeVAST.Ad
    public var inLine: InLine
    /// Wrappers from the outermost (the tag the app requested) to the nearest.
    public var wrappers: [WrapperHop]
    /// Where the inline document came from (nil for an inline response).
    public var documentURL: URL?

    public init(ad: InterludeVAST.Ad, inLine: InLine, wrappers: [WrapperHop] = [], documentURL: URL? = nil) {
        self.ad = ad
        self.inLine = inLine
        self.wrappers = wrappers
        self.documentURL = documentURL
    }

    /// The linear creative that plays.
    public var linearCreative: Creative? { inLine.creatives.first { $0.linear != nil } }
    public var linear: Linear? { linearCreative?.linear }

    /// Impressions of every wrapper and of the inline ad, outermost first.
    public var impressions: [Impression] { wrappers.flatMap(\.wrapper.impressions) + inLine.impressions }

    /// Error URLs of every wrapper and of the inline ad.
    public var errorURLs: [VASTURLTemplate] { wrappers.flatMap(\.wrapper.errors) + inLine.errors }

    /// Linear tracking of the inline creative plus every wrapper's linear
    /// creatives: all of them fire.
    public var linearTrackingEvents: [TrackingEvent] {
        let wrapperEvents = wrappers.flatMap { hop in
            hop.wrapper.creatives.compactMap(\.linear).flatMap(\.trackingEvents)
        }
        return wrapperEvents + (linear?.trackingEvents ?? [])
    }

    /// Click tracking of the inline creative and every wrapper's linear creatives.
    public var clickTracking: [ClickURL] {
        let wrapperClicks = wrappers.flatMap { hop in
            hop.wrapper.creatives.compactMap(\.linear).flatMap { $0.videoClicks?.clickTracking ?? [] }
        }
        return wrapperClicks + (linear?.videoClicks?.clickTracking ?? [])
    }

    /// The click-through: the inline's, else the nearest wrapper's that has one.
    public var clickThrough: VASTURLTemplate? {
        if let own = linear?.videoClicks?.clickThrough?.url { return own }
        for hop in wrappers.reversed() {
            for linear in hop.wrapper.creatives.compactMap(\.linear) {
                if let url = linear.videoClicks?.clickThrough?.url { return url }
            }
        }
        return nil
    }

    /// Extensions of the inline ad and its wrappers. Where two carry the same
    /// `type`, the one nearest the inline wins.
    public var extensions: [VASTExtension] {
        var seenTypes = Set<String>()
        var merged: [VASTExtension] = []
        for ext in inLine.extensions + wrappers.reversed().flatMap(\.wrapper.extensions) {
            if let type = ext.type {
                guard seenTypes.insert(type).inserted else { continue }
            }
            merged.append(ext)
        }
        return merged
    }

    /// `<Extension type="uiSettings"><UiHideable>` from the merged extensions.
    public var uiHideable: Bool? { extensions.lazy.compactMap(\.uiHideable).first }
}
