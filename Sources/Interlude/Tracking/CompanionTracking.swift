import Foundation
import InterludeVAST

/// Where a companion was shown: the ad it came with and that ad's macro
/// values (`[BREAKPOSITION]`, `[PODSEQUENCE]`, `[ASSETURI]`, …), kept for
/// its clicks, which may come after the ad ended.
struct CompanionPlacement: Sendable {
    /// The ad and its place (the break, by the manager's serial, and the
    /// position in it), to tell whether it is still the one playing.
    var adID: String
    var breakSerial: Int
    var adPosition: Int
    /// The ad's macro values with its playhead unknown.
    var values: [VASTMacro: VASTMacroValue]

    init(ad: Ad, breakSerial: Int, values: [VASTMacro: VASTMacroValue]) {
        adID = ad.adID
        self.breakSerial = breakSerial
        adPosition = ad.adPodInfo.adPosition
        self.values = values
    }

    func isPlacement(of ad: Ad, breakSerial: Int) -> Bool {
        breakSerial == self.breakSerial && ad.adPodInfo.adPosition == adPosition && ad.adID == adID
    }
}

/// The beacons a companion owes: `creativeView` when it is shown in a slot,
/// `CompanionClickTracking` when the user clicks it (VAST 4.3 §3.14). They
/// fire whether or not the linear ad is still playing: a companion may stay
/// on screen after its ad. Their macros are those of the ad's own beacons
/// (`values`, from its tracker).
extension CompanionAd {
    /// The `creativeView` beacons, owed once each time the companion is shown.
    func viewBeacons(values: [VASTMacro: VASTMacroValue], macros: VASTMacroFiller) -> [Beacon] {
        beacons(viewTracking, event: "companionCreativeView", values: values, macros: macros)
    }

    /// The click-tracking beacons, owed on each click.
    func clickBeacons(values: [VASTMacro: VASTMacroValue], macros: VASTMacroFiller) -> [Beacon] {
        beacons(clickTracking, event: "companionClick", values: values, macros: macros)
    }

    /// The click-through with its macros filled, when it is an http(s) URL.
    func clickThrough(values: [VASTMacro: VASTMacroValue], macros: VASTMacroFiller) -> URL? {
        guard let clickThroughURL else { return nil }
        let filled = macros.fill(clickThroughURL, with: withOwnValues(values))
        guard let url = URL.lenient(filled, relativeTo: nil), url.isHTTPOrHTTPS else { return nil }
        return url
    }

    func beacons(
        _ templates: [VASTURLTemplate], event: String, values: [VASTMacro: VASTMacroValue], macros: VASTMacroFiller
    ) -> [Beacon] {
        let values = withOwnValues(values)
        return templates.compactMap { Beacon(template: $0, values: values, event: event, adID: adID, macros: macros) }
    }

    /// The companion's own facts over the ad's (a click has no position on the video).
    private func withOwnValues(_ values: [VASTMacro: VASTMacroValue]) -> [VASTMacro: VASTMacroValue] {
        var values = values
        values[.adServingID] = adServingID.map { .value($0) } ?? .unknown
        values[.adType] = .value(adType)
        values[.clickPosition] = .unknown
        return values
    }
}
