import Foundation
import InterludeVAST

/// The beacons a companion owes: `creativeView` when it is shown in a slot,
/// `CompanionClickTracking` when the user clicks it (VAST 4.3 §3.14). They
/// fire whether or not the linear ad is still playing: a companion may stay
/// on screen after its ad.
extension CompanionAd {
    /// The `creativeView` beacons, owed once each time the companion is shown.
    func viewBeacons(macros: VASTMacroFiller, limitAdTracking: Bool) -> [Beacon] {
        beacons(viewTracking, event: "companionCreativeView", macros: macros, limitAdTracking: limitAdTracking)
    }

    /// The click-tracking beacons, owed on each click.
    func clickBeacons(macros: VASTMacroFiller, limitAdTracking: Bool) -> [Beacon] {
        beacons(clickTracking, event: "companionClick", macros: macros, limitAdTracking: limitAdTracking)
    }

    /// The click-through with its macros filled, when it is an http(s) URL.
    func clickThrough(macros: VASTMacroFiller, limitAdTracking: Bool) -> URL? {
        guard let clickThroughURL else { return nil }
        let filled = macros.fill(clickThroughURL, with: macroValues(limitAdTracking: limitAdTracking))
        guard let url = URL.lenient(filled, relativeTo: nil), url.isHTTPOrHTTPS else { return nil }
        return url
    }

    private func beacons(
        _ templates: [VASTURLTemplate], event: String, macros: VASTMacroFiller, limitAdTracking: Bool
    ) -> [Beacon] {
        let values = macroValues(limitAdTracking: limitAdTracking)
        return templates.compactMap { Beacon(template: $0, values: values, event: event, adID: adID, macros: macros) }
    }

    private func macroValues(limitAdTracking: Bool) -> [VASTMacro: VASTMacroValue] {
        var values = PlayerMacros.values(limitAdTracking: limitAdTracking)
        values[.adServingID] = adServingID.map { .value($0) } ?? .unknown
        values[.adType] = .value(adType)
        values[.clickPosition] = .unknown
        return values
    }
}
