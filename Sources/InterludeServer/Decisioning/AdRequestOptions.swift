/// What a `/vast` (or `/vmap`, `/wrapper`) request asks for, read from its
/// query. Bad values are 400s that say which parameter is wrong.
public struct AdRequestOptions: Sendable, Hashable {
    /// Ads in the pod (`pod`, 1–10); nil: 1, or the number of `ads`.
    public var podSize: Int?
    /// `skippable=true|false`: force a skip offset on or off; nil: as in the catalog.
    public var skippable: Bool?
    /// `hideable=true|false` (alias `uiHideable`): override `UiHideable`; nil: as in the catalog.
    public var uiHideable: Bool?
    /// `ads=a,b,c`: these creatives in this order.
    public var adIDs: [String]?
    /// `version`: 2.0, 3.0, 4.0–4.3 (aliases 2, 3, 4 → 4.2). Default 4.2.
    public var version: String
    /// `embed=true` on `/vmap`: inline VASTAdData instead of AdTagURI.
    public var embed: Bool

    public init(
        podSize: Int? = nil, skippable: Bool? = nil, uiHideable: Bool? = nil, adIDs: [String]? = nil,
        version: String = "4.2", embed: Bool = false
    ) {
        self.podSize = podSize
        self.skippable = skippable
        self.uiHideable = uiHideable
        self.adIDs = adIDs
        self.version = version
        self.embed = embed
    }

    /// VAST versions the server writes.
    public static let supportedVersions = ["2.0", "3.0", "4.0", "4.1", "4.2", "4.3"]

    /// Reads the options from a request's query.
    public init(query: (String) -> String?) throws(HTTPError) {
        self.init()
        if let text = query("pod") {
            guard let pod = Int(text), (1...10).contains(pod) else {
                throw .badRequest("pod must be a whole number from 1 to 10, got '\(text)'")
            }
            podSize = pod
        }
        skippable = try Self.bool(query("skippable"), name: "skippable")
        uiHideable = try Self.bool(query("hideable") ?? query("uiHideable"), name: "hideable")
        embed = try Self.bool(query("embed"), name: "embed") ?? false
        if let text = query("ads") {
            let ids = text.split(separator: ",").map(String.init)
            guard !ids.isEmpty, ids.count <= 10 else { throw .badRequest("ads must list 1 to 10 creative ids") }
            adIDs = ids
        }
        if let text = query("version") {
            let aliases = ["2": "2.0", "3": "3.0", "4": "4.2", "4.x": "4.2"]
            let version = aliases[text] ?? text
            guard Self.supportedVersions.contains(version) else {
                throw .badRequest(
                    "unknown VAST version '\(text)'; use one of \(Self.supportedVersions.joined(separator: ", "))")
            }
            self.version = version
        }
    }

    private static func bool(_ text: String?, name: String) throws(HTTPError) -> Bool? {
        switch text {
        case nil: return nil
        case "1", "true", "yes": return true
        case "0", "false", "no": return false
        default: throw .badRequest("\(name) must be true or false, got '\(text!)'")
        }
    }

    /// The options as query parameters, for URLs that pass them on.
    public var queryParameters: [(String, String)] {
        var parameters: [(String, String)] = []
        if let podSize { parameters.append(("pod", String(podSize))) }
        if let skippable { parameters.append(("skippable", String(skippable))) }
        if let uiHideable { parameters.append(("hideable", String(uiHideable))) }
        if let adIDs { parameters.append(("ads", adIDs.joined(separator: ","))) }
        parameters.append(("version", version))
        return parameters
    }

    /// True for VAST 4.x, which adds UniversalAdId, AdServingId and adType.
    var isVAST4: Bool { version.hasPrefix("4") }
    /// True for VAST 4.1 and later (AdServingId, adType).
    var isVAST41OrLater: Bool { isVAST4 && version != "4.0" }
}
