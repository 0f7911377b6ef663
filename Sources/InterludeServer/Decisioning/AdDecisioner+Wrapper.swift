import InterludeVAST

extension AdDecisioner {
    /// Deepest wrapper chain `/wrapper/{depth}` serves (IMA's default limit is 4).
    public static let maxWrapperDepth = 10

    /// `/wrapper/{depth}`: a wrapper whose VASTAdTagURI is `/wrapper/{depth-1}`,
    /// down to `/vast` at depth 1; depth 0 is the inline VAST itself. Each
    /// wrapper has its own impression, tracking, click-tracking and error URLs
    /// under the ad id `wrapper-{depth}`.
    public func wrapperChain(depth: Int, options: AdRequestOptions, links: ServerLinks) throws(HTTPError)
        -> VASTDocument
    {
        guard (0...Self.maxWrapperDepth).contains(depth) else {
            throw .badRequest("wrapper depth must be 0 to \(Self.maxWrapperDepth), got \(depth)")
        }
        if depth == 0 { return try vast(options, links: links) }
        let next =
            depth == 1
            ? links.url("/vast", options.queryParameters)
            : links.url("/wrapper/\(depth - 1)", options.queryParameters)
        return VASTDocument(
            version: options.version,
            ads: [wrapperAd(id: "wrapper-\(depth)", tagURI: next, options: options, links: links)])
    }

    /// A wrapper ad pointing at `tagURI`, tracking everything under `id`.
    public func wrapperAd(id: String, tagURI: String, options: AdRequestOptions, links: ServerLinks) -> Ad {
        let events: [TrackingEventType] = [.start, .firstQuartile, .midpoint, .thirdQuartile, .complete, .skip]
        let tracking = Linear(
            trackingEvents: events.map { TrackingEvent(event: $0, url: links.beacon(ad: id, event: $0.rawValue)) },
            videoClicks: VideoClicks(clickTracking: [
                ClickURL(id: "interlude", url: links.beacon(ad: id, event: "click"))
            ]))
        let wrapper = Wrapper(
            adSystem: AdSystem(name: "Interlude", version: "1"), vastAdTagURI: tagURI,
            impressions: [Impression(id: "interlude", url: links.beacon(ad: id, event: "impression"))],
            errors: [links.beacon(ad: id, event: "error")],
            creatives: [Creative(id: "\(id)-tracking", kind: .linear(tracking))],
            extensions: options.uiHideable.map { [Self.uiSettings(hideable: $0)] } ?? [],
            followAdditionalWrappers: true, allowMultipleAds: true)
        return Ad(id: id, content: .wrapper(wrapper))
    }
}
