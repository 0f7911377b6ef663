import Foundation

/// What to load: an ad tag URL or a response the app already has, and where
/// the ads will play. IMA's `IMAAdsRequest`.
@MainActor
public final class AdsRequest {
    /// The VAST or VMAP tag to fetch; nil when ``adsResponse`` is given.
    public let adTagURL: URL?
    /// A VAST or VMAP document to use instead of fetching.
    public let adsResponse: String?
    public let adDisplayContainer: AdDisplayContainer?
    public let contentPlayhead: (any ContentPlayhead)?
    /// Handed back in ``AdsLoadedData`` and ``AdLoadingErrorData``.
    public let userContext: (any Sendable)?
    /// Seconds allowed for the first VAST request. Default 8.
    public var vastLoadTimeout: TimeInterval = 8
    /// Content duration in seconds, for VMAP `n%` offsets. Default nil (unknown).
    public var contentDuration: TimeInterval?
    public var contentURL: URL?
    public var contentTitle: String?
    public var contentKeywords: [String] = []
    /// Whether the ad will start without a user gesture. Default false.
    public var adWillAutoPlay = false
    /// Whether the ad will start muted. Default false.
    public var adWillPlayMuted = false
    /// Whether content plays on after this one. Default false.
    public var continuousPlayback = false

    /// A request for the ads of `adTagURL`.
    public init(
        adTagURL: URL, adDisplayContainer: AdDisplayContainer?, contentPlayhead: (any ContentPlayhead)? = nil,
        userContext: (any Sendable)? = nil
    ) {
        self.adTagURL = adTagURL
        self.adsResponse = nil
        self.adDisplayContainer = adDisplayContainer
        self.contentPlayhead = contentPlayhead
        self.userContext = userContext
    }

    /// A request for ads from a VAST or VMAP document the app already holds.
    public init(
        adsResponse: String, adDisplayContainer: AdDisplayContainer?, contentPlayhead: (any ContentPlayhead)? = nil,
        userContext: (any Sendable)? = nil
    ) {
        self.adTagURL = nil
        self.adsResponse = adsResponse
        self.adDisplayContainer = adDisplayContainer
        self.contentPlayhead = contentPlayhead
        self.userContext = userContext
    }
}

/// What a successful load hands back. IMA's `IMAAdsLoadedData`.
@MainActor
public final class AdsLoadedData {
    /// Plays the loaded ads; nil for a stream load. IMA's `adsManager`.
    public let adsManager: AdsManager?
    /// Plays the registered stream; nil for an ads load. IMA's `streamManager`.
    public let streamManager: StreamManager?
    /// The request's `userContext`. IMA's `userContext`.
    public let userContext: (any Sendable)?

    init(adsManager: AdsManager, userContext: (any Sendable)?) {
        self.adsManager = adsManager
        self.streamManager = nil
        self.userContext = userContext
    }

    init(streamManager: StreamManager, userContext: (any Sendable)?) {
        self.adsManager = nil
        self.streamManager = streamManager
        self.userContext = userContext
    }
}

/// What a failed load hands back. IMA's `IMAAdLoadingErrorData`.
public struct AdLoadingErrorData: Sendable {
    public let adError: AdError
    public let userContext: (any Sendable)?
}

/// Hears about loads started with ``AdsLoader/requestAds(with:)``. IMA's `IMAAdsLoaderDelegate`.
@MainActor
public protocol AdsLoaderDelegate: AnyObject {
    func adsLoader(_ loader: AdsLoader, adsLoadedWith data: AdsLoadedData)
    func adsLoader(_ loader: AdsLoader, failedWith errorData: AdLoadingErrorData)
}
