import InterludeVAST

/// An error while loading or playing ads. Corresponds to IMA's `IMAAdError`.
public struct AdError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Whether loading or playing failed. IMA's `IMAErrorType`.
    public enum ErrorType: String, Hashable, Sendable {
        /// The ads could not be loaded (`kIMAError_Load`).
        case loadingFailed
        /// An ad could not be played (`kIMAError_Play`).
        case playingFailed
        /// Anything else.
        case unknown
    }

    /// An IMA error code with its number. A struct of static values (IMA's
    /// `IMAErrorCode`), so new codes never break a `switch`.
    public struct Code: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        public var rawValue: Int
        public init(rawValue: Int) { self.rawValue = rawValue }
        public init(_ rawValue: Int) { self.rawValue = rawValue }
        public var description: String { String(rawValue) }

        /// 100: the VAST response could not be parsed.
        public static let vastMalformedResponse = Code(100)
        /// 101: the VAST response violates the schema.
        public static let vastSchemaValidationError = Code(101)
        /// 102: the VAST version is not supported.
        public static let vastUnsupportedVersion = Code(102)
        /// 200: the ad is not of a type the player expected.
        public static let vastTraffickingError = Code(200)
        /// 201: the inline ad has no linear creative (only non-linear
        /// overlays or companions), and ads play as linear video here. IMA
        /// has no name for it and reports it under this VAST code.
        public static let vastUnexpectedLinearity = Code(201)
        /// 205: the inline ad is in a category a wrapper of its chain blocks
        /// (VAST 4.1 `BlockedAdCategories`). IMA has no name for it and
        /// reports it under this VAST code.
        public static let vastBlockedAdCategory = Code(205)
        /// 300: a wrapper failed for another reason.
        public static let vastWrapperError = Code(300)
        /// 301: a VAST request timed out or its URI was unreachable (8 s first hop, 4 s each wrapper).
        public static let vastLoadTimeout = Code(301)
        /// 302: more wrappers than `Settings.maxRedirects`, or a wrapper loop.
        public static let vastTooManyRedirects = Code(302)
        /// 303: no ads after the wrapper chain, or an invalid tag URL.
        public static let vastInvalidURL = Code(303)
        /// 400: the video could not be played.
        public static let videoPlayError = Code(400)
        /// 401: the media file was not found.
        public static let vastMediaFileNotFound = Code(401)
        /// 402: the media file did not load within `loadVideoTimeout`.
        public static let vastMediaLoadTimeout = Code(402)
        /// 403: no media file matches the player's MIME types.
        public static let vastLinearAssetMismatch = Code(403)
        /// 405: the media file could not be displayed.
        public static let vastProblemDisplayingMediaFile = Code(405)
        /// 602: the ad's `<CompanionAds required="all|any">` cannot be met
        /// by the app's companion slots, so the ad is not played (VAST 4.3
        /// §3.14). IMA has no name for it and reports it under this VAST code.
        public static let vastRequiredCompanionNotDisplayed = Code(602)
        /// 603: a companion could not be loaded.
        public static let companionAdLoadingFailed = Code(603)
        /// 900: an unexpected error.
        public static let unknownError = Code(900)
        /// 1004: a stream playlist could not be parsed.
        public static let playlistMalformedResponse = Code(1004)
        /// 1005: the ad request could not be made.
        public static let failedToRequestAds = Code(1005)
        /// 1007: no media file was found in the ad.
        public static let vastAssetNotFound = Code(1007)
        /// 1009: the VAST response held no ads.
        public static let vastEmptyResponse = Code(1009)
        /// 1010: an ad failed to load.
        public static let failedLoadingAd = Code(1010)
        /// 1020: the stream could not be initialized.
        public static let streamInitializationFailed = Code(1020)
        /// 1101: invalid arguments were passed to the SDK.
        public static let invalidArguments = Code(1101)
        /// 1102: an API was called in the wrong state.
        public static let apiError = Code(1102)
        /// 1205: the content playhead is missing.
        public static let contentPlayheadMissing = Code(1205)
    }

    public var type: ErrorType
    public var code: Code
    /// A brief description of the error (IMA: `IMAAdError.message`, optional
    /// there too, so the seed's `adError.message!` and `message ?? "…"`
    /// read as in IMA). Every error the SDK makes has one.
    public var message: String?

    public init(type: ErrorType, code: Code, message: String?) {
        self.type = type
        self.code = code
        self.message = message
    }

    /// The number for the `[ERRORCODE]` macro of VAST Error URLs: the VAST
    /// code where the IMA code is one (100–999), else 900 (undefined).
    public var vastErrorCode: VASTErrorCode {
        switch code.rawValue {
        case 100..<1000: return VASTErrorCode(code.rawValue)
        case Code.vastEmptyResponse.rawValue: return .noAdsAfterWrapper
        case Code.vastAssetNotFound.rawValue: return .mediaFileNotFound
        default: return .undefinedError
        }
    }

    public var description: String { "AdError \(code.rawValue) (\(type.rawValue)): \(message ?? "no message")" }
}

extension AdError {
    /// A parse failure as the IMA error that reports it.
    init(parsing error: VASTError) {
        self.init(
            type: .loadingFailed, code: Code(error.code.rawValue < 1000 ? error.code.rawValue : 100),
            message: error.description)
    }
}
