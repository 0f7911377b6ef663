import Foundation
import InterludeVAST

/// Macro values the SDK knows about itself, the same in every URL it fills
/// (tracking and ad requests alike).
enum PlayerMacros {
    /// VAST versions the SDK plays, as `[VASTVERSIONS]` codes (VAST 4.1 §6:
    /// 2 and 3 are VAST 2.0 and 3.0, 5 and 6 their wrappers, 7 and 8 VAST 4.0
    /// and its wrapper, 11–14 VAST 4.1 and 4.2 with theirs).
    static let vastVersions = ["2", "3", "5", "6", "7", "8", "11", "12", "13", "14"]

    static func values(limitAdTracking: Bool) -> [VASTMacro: VASTMacroValue] {
        [
            .limitAdTracking: .value(limitAdTracking ? "1" : "0"),
            .placementType: .value("1"),  // linear video
            .vastVersions: .list(vastVersions),
            .apiFrameworks: .unknown,  // no VPAID, MRAID or OMID is run
            .playerCapabilities: .list(["skip", "mute"]),
            .serverSide: .value("0"),
        ]
    }
}

/// What an ad request (a wrapper's `VASTAdTagURI`, a VMAP break's
/// `AdTagURI`) is for, to fill its macros, and the VMAP `AdSource` rules
/// that govern what its response may hold.
struct AdRequestContext: Sendable, Hashable {
    /// `[BREAKPOSITION]`. A plain VAST response plays as a pre-roll.
    var breakPosition: BreakPosition = .preroll
    /// `[CONTENTPLAYHEAD]` when the request is made; nil when unknown (−1).
    var contentPlayhead: TimeInterval?
    /// `[MEDIAMIME]`: the types the player plays.
    var mimeTypes: [String] = MediaPreferences.defaultMIMETypes
    /// `[CONTENTURI]`, when the app gave it.
    var contentURL: URL?
    /// VMAP `AdSource@allowMultipleAds`: a pod or several buffet ads may play (absent: true).
    var allowMultipleAds = true
    /// VMAP `AdSource@followRedirects`: wrappers are followed (absent: true).
    var followRedirects = true
    /// The sizes of the app's companion slots, to refuse an ad whose
    /// required companions cannot be shown; nil when no player will show
    /// the ads (an inspection), and nothing is refused for it.
    var companionSlots: [CompanionSlotSize]?

    /// Every value for a request made for the `adCount`-th ad of its break.
    func values(adCount: Int, settings: Settings) -> [VASTMacro: VASTMacroValue] {
        var values = PlayerMacros.values(limitAdTracking: settings.limitAdTracking)
        values[.breakPosition] = .value(String(breakPosition.rawValue))
        values[.contentPlayhead] = contentPlayhead.map { .playhead(seconds: $0) } ?? .unknown
        values[.adCount] = .value(String(adCount))
        values[.mediaMIME] = .list(mimeTypes)
        values[.deviceUA] = .value(settings.userAgent)
        if let contentURL { values[.contentURI] = .value(contentURL.absoluteString) }
        return values
    }
}
