import Foundation

/// One inline ad for manager tests, with every part optional: `duration`
/// nil leaves `<Duration>` out; `tracking` lists the events that get a URL
/// `http://127.0.0.1:9/t/<id>/<event>?ph=[ADPLAYHEAD]` (a `progress` entry
/// is written `progress@<offset>` and named `progress-<offset>`,
/// `%` spelled `pct`).
func adXML(
    id: String = "ad1", sequence: Int? = nil, duration: String? = "00:00:10", skipOffset: String? = nil,
    hideable: Bool? = true, clickThrough: Bool = true, tracking: [String] = [], extraInLine: String = "",
    media: String? = nil
) -> String {
    let skip = skipOffset.map { " skipoffset=\"\($0)\"" } ?? ""
    let durationElement = duration.map { "<Duration>\($0)</Duration>" } ?? ""
    let events = tracking.map { entry -> String in
        let parts = entry.split(separator: "@", maxSplits: 1).map(String.init)
        let offset = parts.count == 2 ? " offset=\"\(parts[1])\"" : ""
        let name =
            parts.count == 2 ? "\(parts[0])-\(parts[1].replacingOccurrences(of: "%", with: "pct"))" : parts[0]
        return "<Tracking event=\"\(parts[0])\"\(offset)>http://127.0.0.1:9/t/\(id)/\(name)?ph=[ADPLAYHEAD]</Tracking>"
    }.joined()
    let clicks =
        clickThrough ? "<VideoClicks><ClickThrough>http://127.0.0.1:9/landing</ClickThrough></VideoClicks>" : ""
    let ui = hideable.map {
        "<Extensions><Extension type=\"uiSettings\"><UiHideable>\($0 ? 1 : 0)</UiHideable></Extension></Extensions>"
    }
    return """
        <Ad id="\(id)"\(sequence.map { " sequence=\"\($0)\"" } ?? "")><InLine><AdSystem>s</AdSystem><AdTitle>\(id)</AdTitle>
        <Impression>http://127.0.0.1:9/t/\(id)/impression</Impression><Error>http://127.0.0.1:9/t/\(id)/error?c=[ERRORCODE]</Error>\(extraInLine)
        <Creatives><Creative><Linear\(skip)>\(durationElement)<MediaFiles><MediaFile delivery="progressive" type="video/mp4" width="640" height="360">\(media ?? "http://127.0.0.1:9/\(id).mp4")</MediaFile></MediaFiles>
        <TrackingEvents>\(events)</TrackingEvents>\(clicks)</Linear></Creative></Creatives>\(ui ?? "")</InLine></Ad>
        """
}

func vastXML(_ ads: String...) -> String { "<VAST version=\"4.2\">\(ads.joined())</VAST>" }

/// A VMAP with one break per `(timeOffset, tag)`; `attributes` go on each `AdSource`.
func vmapXML(_ breaks: [(offset: String, tag: String)], sourceAttributes: String = "") -> String {
    let body = breaks.enumerated().map { index, entry in
        """
        <vmap:AdBreak timeOffset="\(entry.offset)" breakType="linear" breakId="b\(index)"><vmap:AdSource\(sourceAttributes)><vmap:AdTagURI><![CDATA[\(entry.tag)]]></vmap:AdTagURI></vmap:AdSource></vmap:AdBreak>
        """
    }.joined()
    return "<vmap:VMAP xmlns:vmap=\"http://www.iab.net/videosuite/vmap\" version=\"1.0\">\(body)</vmap:VMAP>"
}

/// Requested tracking URLs of one ad (`/t/<id>/…`), with their query.
func trackingRequests(_ urls: [String], ad id: String) -> [String] {
    urls.filter { $0.hasPrefix("http://127.0.0.1:9/t/\(id)/") }.map {
        String($0.dropFirst("http://127.0.0.1:9/t/\(id)/".count))
    }
}
