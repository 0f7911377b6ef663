import InterludeHLS

/// What a viewer's manifest request asks of the VTP, read from its query:
/// `mode=replace` (default) or `mode=interstitials`, and `markers=discontinuity`
/// (default: the origin's CUE and SCTE-35 markers become DISCONTINUITY) or
/// `markers=passthrough`. Other parameters are ignored (players add their
/// own); a value the VTP does not know is a 400.
struct VTPRequestOptions: Sendable, Hashable {
    /// Pods replace the break's content, or play as HLS interstitials.
    var mode: LiveStitchTimeline.Mode = .replace
    /// True with `markers=passthrough`.
    var passesMarkersThrough = false

    init(mode: LiveStitchTimeline.Mode = .replace, passesMarkersThrough: Bool = false) {
        self.mode = mode
        self.passesMarkersThrough = passesMarkersThrough
    }

    /// Reads `mode` and `markers`; 400 naming the parameter for a value not listed.
    init(query: (String) -> String?) throws(HTTPError) {
        switch query("mode") {
        case nil, "replace": mode = .replace
        case "interstitials": mode = .interstitials
        case let other?:
            throw .badRequest("mode must be replace or interstitials, got '\(other.prefix(32))'")
        }
        switch query("markers") {
        case nil, "discontinuity": passesMarkersThrough = false
        case "passthrough": passesMarkersThrough = true
        case let other?:
            throw .badRequest("markers must be discontinuity or passthrough, got '\(other.prefix(32))'")
        }
    }

    /// The query the multivariant puts on its variant URIs, so a rendition
    /// is asked with the options the multivariant was (empty for the defaults).
    var query: String {
        var items: [String] = []
        if mode == .interstitials { items.append("mode=interstitials") }
        if passesMarkersThrough { items.append("markers=passthrough") }
        return items.isEmpty ? "" : "?" + items.joined(separator: "&")
    }

    /// The key a rendition's live stitch state is stored under: the profile
    /// and the options, since each writes its own numbering.
    func stateKey(profile: String) -> String {
        profile + (mode == .interstitials ? "+interstitials" : "") + (passesMarkersThrough ? "+passthrough" : "")
    }
}
