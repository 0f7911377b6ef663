import Foundation

/// Follows an ad tag's wrapper chain and reports every hop and the merged
/// ads, without playing anything: what `interlude inspect URL` shows. The
/// same rules as ``AdsLoader`` (limits, timeouts, fallbacks), as a value.
public struct AdTagResolver: Sendable {
    private let resolver: WrapperResolver

    public init(
        settings: Settings = Settings(), httpClient: (any HTTPClient)? = nil, clock: any AdClock = SystemClock()
    ) {
        resolver = WrapperResolver(
            http: httpClient ?? URLSessionHTTPClient(maxResponseSize: settings.maxResponseSize), clock: clock,
            settings: settings)
    }

    /// Fetches `tagURL` (allowed `timeout` seconds) and follows its wrappers.
    public func resolve(tagURL: URL, timeout: TimeInterval = 8) async -> AdResolution {
        await resolver.resolve(tagURL: tagURL, timeout: timeout)
    }
}
