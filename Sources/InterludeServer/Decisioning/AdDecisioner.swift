import InterludeVAST

/// Turns the catalog and a request into VAST and VMAP documents. Pure: no
/// I/O, no clock; the same inputs give the same document.
public struct AdDecisioner: Sendable, Hashable {
    /// What the decisions are made from.
    public var catalog: Catalog

    public init(catalog: Catalog) { self.catalog = catalog }

    /// The creatives a request selects, in play order.
    public func selectCreatives(_ options: AdRequestOptions) throws(HTTPError) -> [CatalogCreative] {
        if let ids = options.adIDs {
            var selected: [CatalogCreative] = []
            for id in ids {
                guard let creative = catalog.creative(id: id) else { throw .notFound("no creative with id '\(id)'") }
                selected.append(creative)
            }
            if let pod = options.podSize, pod != selected.count {
                throw .badRequest("pod=\(pod) does not match the \(selected.count) ids in ads")
            }
            return selected
        }
        let count = options.podSize ?? 1
        return (0..<count).map { catalog.creatives[$0 % catalog.creatives.count] }
    }

    /// The `/vast` document: one ad, or a pod when more than one is asked for.
    public func vast(_ options: AdRequestOptions, links: ServerLinks) throws(HTTPError) -> VASTDocument {
        let creatives = try selectCreatives(options)
        if options.version == "2.0", creatives.count > 1 {
            throw .badRequest("VAST 2.0 has no ad pods; ask for version 3.0 or later, or pod=1")
        }
        var seen: [String: Int] = [:]
        let ads = creatives.enumerated().map { index, creative -> Ad in
            seen[creative.id, default: 0] += 1
            let occurrence = seen[creative.id]!
            // A creative used twice in a pod gets a distinct ad id so that its beacons stay apart.
            let adID = occurrence == 1 ? creative.id : "\(creative.id).\(occurrence)"
            return inlineAd(
                creative, adID: adID, sequence: creatives.count > 1 ? index + 1 : nil, options: options, links: links)
        }
        return VASTDocument(version: options.version, ads: ads)
    }

    /// One inline ad for `creative`, every URL pointing back at the server.
    public func inlineAd(
        _ creative: CatalogCreative, adID: String, sequence: Int?, options: AdRequestOptions, links: ServerLinks
    ) -> Ad {
        let skipOffset: VASTOffset?
        switch (options.version, options.skippable) {
        case ("2.0", _), (_, false?): skipOffset = nil  // skipoffset came with VAST 3.0
        case (_, true?): skipOffset = .time(VASTTime(seconds: creative.skipOffset ?? min(5, creative.duration / 2)))
        case (_, nil): skipOffset = creative.skipOffset.map { .time(VASTTime(seconds: $0)) }
        }
        let hideable = options.uiHideable ?? creative.uiHideable
        let mediaFiles = creative.renditions.map { rendition in
            MediaFile(
                url: links.media(MediaSpec.fileName(creative: creative, rendition: rendition)),
                id: "\(creative.id)-\(rendition.height)p", delivery: .progressive, type: "video/mp4",
                width: rendition.width, height: rendition.height, codec: "H.264", bitrate: rendition.bitrate,
                scalable: true, maintainAspectRatio: true)
        }
        var events: [TrackingEventType] = [
            .creativeView, .start, .firstQuartile, .midpoint, .thirdQuartile, .complete, .mute, .unmute, .pause,
            .resume, .rewind, .fullscreen, .exitFullscreen,
        ]
        if skipOffset != nil { events.append(.skip) }
        let linear = Linear(
            duration: VASTTime(seconds: creative.duration), skipOffset: skipOffset, mediaFiles: mediaFiles,
            trackingEvents: events.map { TrackingEvent(event: $0, url: links.beacon(ad: adID, event: $0.rawValue)) },
            videoClicks: VideoClicks(
                clickThrough: ClickURL(url: creative.clickThrough),
                clickTracking: [ClickURL(id: "interlude", url: links.beacon(ad: adID, event: "click"))]))
        let inLine = InLine(
            adSystem: AdSystem(name: "Interlude", version: "1"), adTitle: creative.title,
            adServingID: options.isVAST41OrLater ? "\(links.session)-\(adID)" : nil,
            impressions: [Impression(id: "interlude", url: links.beacon(ad: adID, event: "impression"))],
            description: "\(creative.title), \(Int(creative.duration)) s test creative",
            advertiser: options.version == "2.0" ? nil : Advertiser(name: creative.advertiser),
            errors: [links.beacon(ad: adID, event: "error")],
            creatives: [
                Creative(
                    id: "\(creative.id)-video", adID: creative.id, sequence: 1,
                    universalAdIDs: options.isVAST4 ? [UniversalAdID(idRegistry: "interlude", value: creative.id)] : [],
                    kind: .linear(linear))
            ],
            extensions: [Self.uiSettings(hideable: hideable)])
        return Ad(
            id: adID, sequence: sequence, adType: options.isVAST41OrLater ? .video : nil, content: .inLine(inLine))
    }

    /// `<Extension type="uiSettings"><UiHideable>…`, the source of IMA's `isUiDisabled`.
    public static func uiSettings(hideable: Bool) -> VASTExtension {
        VASTExtension(type: "uiSettings", rawXML: "<UiHideable>\(hideable ? 1 : 0)</UiHideable>")
    }
}
