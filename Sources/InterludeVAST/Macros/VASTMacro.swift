/// A VAST macro name, written `[NAME]` in URL templates.
///
/// Open-ended: any upper-case name can be filled; the VAST 4.3 names are
/// static members.
public struct VASTMacro: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The name without brackets, e.g. `ERRORCODE`.
    public var rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public init(_ rawValue: String) { self.rawValue = rawValue }
    public var description: String { "[\(rawValue)]" }

    public static let timestamp = Self("TIMESTAMP")
    public static let cacheBusting = Self("CACHEBUSTING")
    public static let errorCode = Self("ERRORCODE")
    public static let contentPlayhead = Self("CONTENTPLAYHEAD")
    public static let adPlayhead = Self("ADPLAYHEAD")
    public static let mediaPlayhead = Self("MEDIAPLAYHEAD")
    public static let assetURI = Self("ASSETURI")
    public static let breakPosition = Self("BREAKPOSITION")
    public static let adCount = Self("ADCOUNT")
    public static let podSequence = Self("PODSEQUENCE")
    public static let adServingID = Self("ADSERVINGID")
    public static let universalAdID = Self("UNIVERSALADID")
    public static let adType = Self("ADTYPE")
    public static let placementType = Self("PLACEMENTTYPE")
    public static let transactionID = Self("TRANSACTIONID")
    public static let clickPosition = Self("CLICKPOS")
    public static let reason = Self("REASON")
    public static let limitAdTracking = Self("LIMITADTRACKING")
    public static let regulations = Self("REGULATIONS")
    public static let gdprConsent = Self("GDPRCONSENT")
    public static let playerState = Self("PLAYERSTATE")
    public static let playerSize = Self("PLAYERSIZE")
    public static let playerCapabilities = Self("PLAYERCAPABILITIES")
    public static let clickType = Self("CLICKTYPE")
    public static let vastVersions = Self("VASTVERSIONS")
    public static let apiFrameworks = Self("APIFRAMEWORKS")
    public static let omidPartner = Self("OMIDPARTNER")
    public static let mediaMIME = Self("MEDIAMIME")
    public static let appBundle = Self("APPBUNDLE")
    public static let domain = Self("DOMAIN")
    public static let pageURL = Self("PAGEURL")
    public static let ifa = Self("IFA")
    public static let ifaType = Self("IFATYPE")
    public static let deviceUA = Self("DEVICEUA")
    public static let serverSide = Self("SERVERSIDE")
    public static let deviceIP = Self("DEVICEIP")
    public static let latLong = Self("LATLONG")
    public static let contentID = Self("CONTENTID")
    public static let contentURI = Self("CONTENTURI")
    public static let inventoryState = Self("INVENTORYSTATE")
    public static let breakMaxDuration = Self("BREAKMAXDURATION")
    public static let breakMaxAds = Self("BREAKMAXADS")
    public static let breakMinAdLength = Self("BREAKMINADLENGTH")
    public static let breakMaxAdLength = Self("BREAKMAXADLENGTH")
    public static let blockedAdCategories = Self("BLOCKEDADCATEGORIES")
    public static let adCategories = Self("ADCATEGORIES")

    /// Every macro VAST 4.3 defines.
    public static let all: [VASTMacro] = [
        .timestamp, .cacheBusting, .errorCode, .contentPlayhead, .adPlayhead, .mediaPlayhead, .assetURI,
        .breakPosition, .adCount, .podSequence, .adServingID, .universalAdID, .adType, .placementType,
        .transactionID, .clickPosition, .reason, .limitAdTracking, .regulations, .gdprConsent, .playerState,
        .playerSize, .playerCapabilities, .clickType, .vastVersions, .apiFrameworks, .omidPartner, .mediaMIME,
        .appBundle, .domain, .pageURL, .ifa, .ifaType, .deviceUA, .serverSide, .deviceIP, .latLong, .contentID,
        .contentURI, .inventoryState, .breakMaxDuration, .breakMaxAds, .breakMinAdLength, .breakMaxAdLength,
        .blockedAdCategories, .adCategories,
    ]
}

/// The value a macro is filled with.
public enum VASTMacroValue: Hashable, Sendable, ExpressibleByStringLiteral {
    /// A single value, percent-encoded when filled.
    case value(String)
    /// A list: each item percent-encoded, joined by unencoded commas.
    case list([String])
    /// The player does not know the value: filled with `-1`.
    case unknown
    /// The player knows but withholds the value (privacy): filled with `-2`.
    case withheld

    public init(stringLiteral value: String) { self = .value(value) }

    /// A time in seconds as VAST writes playheads: `HH:MM:SS.mmm`.
    public static func playhead(seconds: Double) -> VASTMacroValue {
        .value(VASTTime(seconds: seconds).formattedWithMilliseconds)
    }
}

extension VASTTime {
    /// `HH:MM:SS.mmm`, always with milliseconds (the playhead macro format).
    public var formattedWithMilliseconds: String {
        milliseconds % 1000 == 0 ? formatted + ".000" : formatted
    }
}
