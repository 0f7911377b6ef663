/// A VAST, VMAP or IMA numeric error code, the number that goes into
/// `[ERRORCODE]` and into `AdError.code`.
///
/// A struct of static values rather than a closed enum, so that adding a code
/// never breaks a user's `switch`, and codes not in the table (a server may
/// send any number) still round-trip. Corresponds to the VAST 4.3 error table,
/// VMAP 1.0 §2.5 and IMA's `IMAErrorCode`.
public struct VASTErrorCode: RawRepresentable, Hashable, Sendable, Comparable, CustomStringConvertible {
    public var rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }
    public init(_ rawValue: Int) { self.rawValue = rawValue }

    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }

    // MARK: VAST 100–199: document

    /// 100: XML parsing error (IMA `VAST_MALFORMED_RESPONSE`).
    public static let xmlParsingError = Self(100)
    /// 101: VAST schema validation error.
    public static let schemaValidationError = Self(101)
    /// 102: VAST version of response not supported.
    public static let unsupportedVersion = Self(102)

    // MARK: VAST 200–299: trafficking

    /// 200: trafficking error; the player received an ad type it was not expecting.
    public static let traffickingError = Self(200)
    /// 201: the player expected a different linearity.
    public static let unexpectedLinearity = Self(201)
    /// 202: the player expected a different duration.
    public static let unexpectedDuration = Self(202)
    /// 203: the player expected a different size.
    public static let unexpectedSize = Self(203)
    /// 204: ad category was required but not provided.
    public static let categoryRequired = Self(204)
    /// 205: inline category violates the wrapper's BlockedAdCategories.
    public static let blockedCategory = Self(205)
    /// 206: ad break shortened; the ad was not served.
    public static let breakShortened = Self(206)

    // MARK: VAST 300–399: wrapper

    /// 300: general wrapper error.
    public static let wrapperError = Self(300)
    /// 301: timeout of the VAST URI in a wrapper, or unavailable URI (IMA `VAST_LOAD_TIMEOUT`).
    public static let wrapperTimeout = Self(301)
    /// 302: wrapper limit reached (IMA `VAST_TOO_MANY_REDIRECTS`).
    public static let wrapperLimitReached = Self(302)
    /// 303: no VAST response after one or more wrappers (IMA `VAST_INVALID_URL` / no ads).
    public static let noAdsAfterWrapper = Self(303)
    /// 304: inline response returned an ad unit that failed to display within the timeout.
    public static let inlineDisplayTimeout = Self(304)

    // MARK: VAST 400–499: linear

    /// 400: general linear error (IMA `VIDEO_PLAY_ERROR`).
    public static let linearError = Self(400)
    /// 401: file not found; unable to find the linear MediaFile from the URI.
    public static let mediaFileNotFound = Self(401)
    /// 402: timeout of the MediaFile URI (IMA `VAST_MEDIA_LOAD_TIMEOUT`).
    public static let mediaFileTimeout = Self(402)
    /// 403: no supported MediaFile found (IMA `VAST_LINEAR_ASSET_MISMATCH`).
    public static let noSupportedMediaFile = Self(403)
    /// 405: problem displaying the MediaFile.
    public static let mediaDisplayError = Self(405)
    /// 406: Mezzanine was required but not provided.
    public static let mezzanineRequired = Self(406)
    /// 407: Mezzanine is being downloaded for the first time.
    public static let mezzanineDownloading = Self(407)
    /// 408: conditional ad rejected.
    public static let conditionalAdRejected = Self(408)
    /// 409: interactive unit in InteractiveCreativeFile not executed.
    public static let interactiveNotExecuted = Self(409)
    /// 410: verification unit in Verification not executed.
    public static let verificationNotExecuted = Self(410)
    /// 411: Mezzanine provided but not in the required format.
    public static let mezzanineInvalid = Self(411)

    // MARK: VAST 500–599: non-linear

    /// 500: general NonLinearAds error.
    public static let nonLinearError = Self(500)
    /// 501: non-linear ad dimensions do not fit the display area.
    public static let nonLinearSizeMismatch = Self(501)
    /// 502: unable to fetch the NonLinearAds resource.
    public static let nonLinearFetchFailed = Self(502)
    /// 503: no supported NonLinear resource found.
    public static let nonLinearUnsupported = Self(503)

    // MARK: VAST 600–699: companion

    /// 600: general CompanionAds error.
    public static let companionError = Self(600)
    /// 601: companion dimensions do not fit the display area.
    public static let companionSizeMismatch = Self(601)
    /// 602: unable to display a required companion.
    public static let requiredCompanionNotDisplayed = Self(602)
    /// 603: unable to fetch the companion resource (IMA `COMPANION_AD_LOADING_FAILED`).
    public static let companionFetchFailed = Self(603)
    /// 604: no supported companion resource found.
    public static let companionUnsupported = Self(604)

    // MARK: VAST 900–999: other

    /// 900: undefined error (IMA `UNKNOWN_ERROR`).
    public static let undefinedError = Self(900)
    /// 901: general VPAID error.
    public static let vpaidError = Self(901)
    /// 902: general InteractiveCreativeFile error.
    public static let interactiveCreativeFileError = Self(902)

    // MARK: VMAP 1.0 §2.5

    /// 1000: VMAP schema error.
    public static let vmapSchemaError = Self(1000)
    /// 1001: VMAP version of response not supported.
    public static let vmapUnsupportedVersion = Self(1001)
    /// 1002: VMAP parsing error.
    public static let vmapParsingError = Self(1002)
    /// 1003: AdBreak type not supported.
    public static let vmapAdBreakTypeUnsupported = Self(1003)
    /// 1004: general ad response document error.
    public static let vmapAdResponseError = Self(1004)
    /// 1005: ad response template type not supported.
    public static let vmapTemplateTypeUnsupported = Self(1005)
    /// 1006: ad response document extraction or parsing error.
    public static let vmapAdResponseExtractionError = Self(1006)
    /// 1007: ad response document retrieval timeout.
    public static let vmapAdResponseTimeout = Self(1007)
    /// 1008: ad response document retrieval error.
    public static let vmapAdResponseRetrievalError = Self(1008)

    /// Every code in the table, in numeric order.
    public static let allKnown: [VASTErrorCode] = [
        .xmlParsingError, .schemaValidationError, .unsupportedVersion,
        .traffickingError, .unexpectedLinearity, .unexpectedDuration, .unexpectedSize,
        .categoryRequired, .blockedCategory, .breakShortened,
        .wrapperError, .wrapperTimeout, .wrapperLimitReached, .noAdsAfterWrapper, .inlineDisplayTimeout,
        .linearError, .mediaFileNotFound, .mediaFileTimeout, .noSupportedMediaFile, .mediaDisplayError,
        .mezzanineRequired, .mezzanineDownloading, .conditionalAdRejected, .interactiveNotExecuted,
        .verificationNotExecuted, .mezzanineInvalid,
        .nonLinearError, .nonLinearSizeMismatch, .nonLinearFetchFailed, .nonLinearUnsupported,
        .companionError, .companionSizeMismatch, .requiredCompanionNotDisplayed, .companionFetchFailed,
        .companionUnsupported,
        .undefinedError, .vpaidError, .interactiveCreativeFileError,
        .vmapSchemaError, .vmapUnsupportedVersion, .vmapParsingError, .vmapAdBreakTypeUnsupported,
        .vmapAdResponseError, .vmapTemplateTypeUnsupported, .vmapAdResponseExtractionError,
        .vmapAdResponseTimeout, .vmapAdResponseRetrievalError,
    ]

    /// The short meaning of the code from the VAST/VMAP tables.
    public var summary: String {
        switch rawValue {
        case 100: return "XML parsing error"
        case 101: return "VAST schema validation error"
        case 102: return "VAST version not supported"
        case 200: return "trafficking error"
        case 201: return "unexpected linearity"
        case 202: return "unexpected duration"
        case 203: return "unexpected size"
        case 204: return "ad category required"
        case 205: return "ad category blocked"
        case 206: return "ad break shortened"
        case 300: return "general wrapper error"
        case 301: return "wrapper timeout or unavailable VAST URI"
        case 302: return "wrapper limit reached"
        case 303: return "no ads after wrapper"
        case 304: return "inline ad failed to display in time"
        case 400: return "general linear error"
        case 401: return "media file not found"
        case 402: return "media file timeout"
        case 403: return "no supported media file"
        case 405: return "problem displaying media file"
        case 406: return "mezzanine required"
        case 407: return "mezzanine downloading"
        case 408: return "conditional ad rejected"
        case 409: return "interactive creative not executed"
        case 410: return "verification not executed"
        case 411: return "mezzanine invalid"
        case 500: return "general non-linear error"
        case 501: return "non-linear size mismatch"
        case 502: return "non-linear resource fetch failed"
        case 503: return "no supported non-linear resource"
        case 600: return "general companion error"
        case 601: return "companion size mismatch"
        case 602: return "required companion not displayed"
        case 603: return "companion resource fetch failed"
        case 604: return "no supported companion resource"
        case 900: return "undefined error"
        case 901: return "VPAID error"
        case 902: return "interactive creative file error"
        case 1000: return "VMAP schema error"
        case 1001: return "VMAP version not supported"
        case 1002: return "VMAP parsing error"
        case 1003: return "ad break type not supported"
        case 1004: return "ad response document error"
        case 1005: return "ad response template type not supported"
        case 1006: return "ad response extraction or parsing error"
        case 1007: return "ad response retrieval timeout"
        case 1008: return "ad response retrieval error"
        default: return "error \(rawValue)"
        }
    }

    public var description: String { "\(rawValue) (\(summary))" }
}
