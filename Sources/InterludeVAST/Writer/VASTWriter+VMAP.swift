extension XMLBuilder {
    /// VMAP elements carry the `vmap:` prefix bound to the IAB namespace;
    /// the embedded VAST is unprefixed, as servers write it.
    mutating func writeVMAP(_ document: VMAPDocument) {
        open(
            "vmap:VMAP",
            [
                "xmlns:vmap": "http://www.iab.net/videosuite/vmap",
                "version": document.version.isEmpty ? nil : document.version,
            ])
        for adBreak in document.adBreaks { writeAdBreak(adBreak) }
        if !document.extensions.isEmpty {
            writeExtensions(document.extensions, container: "vmap:Extensions", item: "vmap:Extension")
        }
        close("vmap:VMAP")
    }

    mutating func writeAdBreak(_ adBreak: AdBreak) {
        open(
            "vmap:AdBreak",
            [
                "timeOffset": adBreak.timeOffset.formatted,
                "breakType": adBreak.breakTypes.isEmpty
                    ? nil : adBreak.breakTypes.map(\.rawValue).joined(separator: ","),
                "breakId": adBreak.breakID, "repeatAfter": adBreak.repeatAfter?.formatted,
            ])
        if let source = adBreak.adSource { writeAdSource(source) }
        if !adBreak.trackingEvents.isEmpty {
            open("vmap:TrackingEvents")
            for tracking in adBreak.trackingEvents {
                element("vmap:Tracking", ["event": tracking.event.rawValue], text: tracking.url)
            }
            close("vmap:TrackingEvents")
        }
        if !adBreak.extensions.isEmpty {
            writeExtensions(adBreak.extensions, container: "vmap:Extensions", item: "vmap:Extension")
        }
        close("vmap:AdBreak")
    }

    mutating func writeAdSource(_ source: AdSource) {
        open(
            "vmap:AdSource",
            [
                "id": source.id, "allowMultipleAds": source.allowMultipleAds.xmlValue,
                "followRedirects": source.followRedirects.xmlValue,
            ])
        switch source.content {
        case .vastAdData(let vast):
            open("vmap:VASTAdData")
            writeVAST(vast)
            close("vmap:VASTAdData")
        case .adTagURI(let templateType, let url):
            element("vmap:AdTagURI", ["templateType": templateType], text: url)
        case .customAdData(let templateType, let raw):
            rawElement("vmap:CustomAdData", attributeList: [("templateType", templateType)], raw: raw)
        case nil:
            break
        }
        close("vmap:AdSource")
    }
}
