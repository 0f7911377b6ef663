import Foundation
import InterludeVAST

/// What loading an ad tag produced: the ads to play (or the error), the
/// error pings owed, and a record of every hop (for `interlude inspect`).
public struct AdResolution: Sendable, Hashable {
    /// Ads in play order (pod order, with buffet fallbacks substituted).
    public var ads: [ResolvedAd]
    /// Set when no ad could be resolved.
    public var error: AdError?
    /// Error URLs to ping, each with the code for `[ERRORCODE]`.
    public var errorPings: [ErrorPing]
    /// Every fetch made, in order.
    public var hops: [LoadHop]
    /// The VMAP document, when the tag returned one (ads are then loaded per break).
    public var vmap: VMAPDocument?

    public init(
        ads: [ResolvedAd] = [], error: AdError? = nil, errorPings: [ErrorPing] = [], hops: [LoadHop] = [],
        vmap: VMAPDocument? = nil
    ) {
        self.ads = ads
        self.error = error
        self.errorPings = errorPings
        self.hops = hops
        self.vmap = vmap
    }
}

/// An Error URL owed a ping with a code.
public struct ErrorPing: Sendable, Hashable {
    public var url: VASTURLTemplate
    public var code: VASTErrorCode
    public init(url: VASTURLTemplate, code: VASTErrorCode) {
        self.url = url
        self.code = code
    }
}

/// One fetch in a wrapper chain.
public struct LoadHop: Sendable, Hashable {
    public var url: URL
    /// 0 for the tag, 1 for the first wrapper's target, …
    public var depth: Int
    /// Seconds from request to response (or failure).
    public var duration: TimeInterval
    /// HTTP status, when an answer came.
    public var statusCode: Int?
    public var bytes: Int
    /// nil when the hop succeeded.
    public var failure: String?
    /// Where HTTP redirects led, when the answer came from another URL
    /// than ``url`` (ad servers often redirect a tag to their decision
    /// endpoint). Relative URIs in the document resolve against it.
    public var redirectedTo: URL?

    public init(
        url: URL, depth: Int, duration: TimeInterval, statusCode: Int?, bytes: Int, failure: String?,
        redirectedTo: URL? = nil
    ) {
        self.url = url
        self.depth = depth
        self.duration = duration
        self.statusCode = statusCode
        self.bytes = bytes
        self.failure = failure
        self.redirectedTo = redirectedTo
    }
}
