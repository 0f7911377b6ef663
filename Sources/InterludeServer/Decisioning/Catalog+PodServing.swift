import Foundation

/// What the pod-serving API serves: networks, the live streams (custom asset
/// keys) and VOD content each network offers, the rules that fill pods, and
/// how long a stream session lives. The `podServing` object of the catalog
/// JSON; absent, ``PodServingCatalog/builtIn``.
public struct PodServingCatalog: Sendable, Hashable, Codable {
    /// Ad Manager networks (`network_code` in the API paths).
    public var networks: [PodNetwork]
    /// Live streams by custom asset key.
    public var liveStreams: [PodLiveStream]
    /// VOD content by content ID (what the VTP's `/vtp/…/video/{content_id}.m3u8` names).
    public var vodContent: [PodVODContent]
    /// How pods are filled.
    public var podRules: PodAdRules
    /// Session lifetime and metadata polling.
    public var sessions: PodSessionSettings

    public init(
        networks: [PodNetwork], liveStreams: [PodLiveStream], vodContent: [PodVODContent],
        podRules: PodAdRules = PodAdRules(), sessions: PodSessionSettings = PodSessionSettings()
    ) {
        self.networks = networks
        self.liveStreams = liveStreams
        self.vodContent = vodContent
        self.podRules = podRules
        self.sessions = sessions
    }

    enum CodingKeys: String, CodingKey { case networks, liveStreams, vodContent, podRules, sessions }

    /// Decodes with ``ContentCatalog/builtIn`` standing for the content; a
    /// catalog decodes its `podServing` against its own `content`.
    public init(from decoder: any Decoder) throws {
        try self.init(from: decoder.container(keyedBy: CodingKeys.self), content: .builtIn)
    }

    /// Absent fields take their defaults: network `interlude`, every channel
    /// of `content` as a live stream under its own ID, every title as VOD
    /// content under its own ID.
    init(from container: KeyedDecodingContainer<CodingKeys>, content: ContentCatalog) throws {
        let defaults = Self.defaults(for: content)
        networks = try container.decodeIfPresent([PodNetwork].self, forKey: .networks) ?? defaults.networks
        liveStreams = try container.decodeIfPresent([PodLiveStream].self, forKey: .liveStreams) ?? defaults.liveStreams
        vodContent = try container.decodeIfPresent([PodVODContent].self, forKey: .vodContent) ?? defaults.vodContent
        podRules = try container.decodeIfPresent(PodAdRules.self, forKey: .podRules) ?? PodAdRules()
        sessions = try container.decodeIfPresent(PodSessionSettings.self, forKey: .sessions) ?? PodSessionSettings()
    }

    /// Network `interlude` (no API key, no token) serving every channel of
    /// `content` under a custom asset key equal to its ID and every title
    /// under a content ID equal to its ID; pods from every catalog creative.
    public static func defaults(for content: ContentCatalog) -> PodServingCatalog {
        PodServingCatalog(
            networks: [PodNetwork(code: "interlude")],
            liveStreams: content.channels.map { PodLiveStream(customAssetKey: $0.id, channel: $0.id) },
            vodContent: content.titles.map { PodVODContent(contentID: $0.id, title: $0.id) })
    }

    /// ``defaults(for:)`` of the built-in content: the custom asset key
    /// `interlude-live` (the built-in channel) and the content ID
    /// `interlude-film` (the built-in title) on network `interlude`.
    public static let builtIn = defaults(for: .builtIn)

    /// The network with this code.
    public func network(code: String) -> PodNetwork? { networks.first { $0.code == code } }

    /// The live stream behind `customAssetKey` on `network`.
    public func liveStream(customAssetKey: String, network: String) -> PodLiveStream? {
        liveStreams.first { $0.customAssetKey == customAssetKey && ($0.network == nil || $0.network == network) }
    }

    /// The VOD content with this ID on `network`.
    public func vodContent(id: String, network: String) -> PodVODContent? {
        vodContent.first { $0.contentID == id && ($0.network == nil || $0.network == network) }
    }
}

/// One Ad Manager network.
public struct PodNetwork: Sendable, Hashable, Codable {
    /// `network_code`: 1–64 of `A–Z a–z 0–9 - _ .`.
    public var code: String
    /// When set, registrations must send this `api-key` (body field, or
    /// `Authorization: DCLKDAI key="…"`).
    public var apiKey: String?
    /// The HMAC key for `auth-token`s, as hex (at least 16 bytes).
    public var authKey: String?
    /// True: registrations (and pod manifest requests) without a valid
    /// `auth-token` are refused with 401. Needs `authKey`.
    public var requiresAuthToken: Bool

    public init(code: String, apiKey: String? = nil, authKey: String? = nil, requiresAuthToken: Bool = false) {
        self.code = code
        self.apiKey = apiKey
        self.authKey = authKey
        self.requiresAuthToken = requiresAuthToken
    }

    private enum CodingKeys: String, CodingKey { case code, apiKey, authKey, requiresAuthToken }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        code = try container.decode(String.self, forKey: .code)
        apiKey = try container.decodeIfPresent(String.self, forKey: .apiKey)
        authKey = try container.decodeIfPresent(String.self, forKey: .authKey)
        requiresAuthToken = try container.decodeIfPresent(Bool.self, forKey: .requiresAuthToken) ?? false
    }

    /// The auth key's bytes (nil when there is none or it is not hex).
    public var authKeyBytes: [UInt8]? { authKey.flatMap(Hex.decode) }
}

/// A live stream a custom asset key names.
public struct PodLiveStream: Sendable, Hashable, Codable {
    /// `custom_asset_key` in the API paths.
    public var customAssetKey: String
    /// The live channel of the content catalog it plays.
    public var channel: String
    /// The only network serving it; nil: every network.
    public var network: String?

    public init(customAssetKey: String, channel: String, network: String? = nil) {
        self.customAssetKey = customAssetKey
        self.channel = channel
        self.network = network
    }
}

/// A VOD content ID and the title it plays.
public struct PodVODContent: Sendable, Hashable, Codable {
    /// The content ID the VTP's manifest URL carries.
    public var contentID: String
    /// The VOD title of the content catalog.
    public var title: String
    /// The only network serving it; nil: every network.
    public var network: String?

    public init(contentID: String, title: String, network: String? = nil) {
        self.contentID = contentID
        self.title = title
        self.network = network
    }
}

/// What fills the rest of a live pod when the ads do not reach its duration.
public enum PodSlatePolicy: String, Sendable, Hashable, Codable {
    /// Slate up to `pd`: the pod playlist lasts exactly the break.
    case fill
    /// No slate: the pod ends after its last ad and the stitcher returns to
    /// content early (a pod with no ad is then one slate segment of `pd`).
    case content
}

/// How pods are filled.
public struct PodAdRules: Sendable, Hashable, Codable {
    /// Creative IDs that may fill pods; nil: every catalog creative.
    public var creatives: [String]?
    /// Most ads in one pod (1–10). Default 5.
    public var maxAds: Int
    /// Longest creative (s) a pod takes; nil: no limit.
    public var maxAdDuration: Double?
    /// Live pods: slate to the break's end, or back to content. Default `fill`.
    public var slate: PodSlatePolicy
    /// Longest `pd` (ms) a pod manifest accepts (1 000–3 600 000). Default 300 000.
    public var maxPodDuration: Int
    /// Seconds of ads a VOD pod is filled to (no slate in VOD). Default 30.
    public var vodPodDuration: Double

    public init(
        creatives: [String]? = nil, maxAds: Int = 5, maxAdDuration: Double? = nil, slate: PodSlatePolicy = .fill,
        maxPodDuration: Int = 300_000, vodPodDuration: Double = 30
    ) {
        self.creatives = creatives
        self.maxAds = maxAds
        self.maxAdDuration = maxAdDuration
        self.slate = slate
        self.maxPodDuration = maxPodDuration
        self.vodPodDuration = vodPodDuration
    }

    private enum CodingKeys: String, CodingKey {
        case creatives, maxAds, maxAdDuration, slate, maxPodDuration, vodPodDuration
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        creatives = try container.decodeIfPresent([String].self, forKey: .creatives)
        maxAds = try container.decodeIfPresent(Int.self, forKey: .maxAds) ?? 5
        maxAdDuration = try container.decodeIfPresent(Double.self, forKey: .maxAdDuration)
        slate = try container.decodeIfPresent(PodSlatePolicy.self, forKey: .slate) ?? .fill
        maxPodDuration = try container.decodeIfPresent(Int.self, forKey: .maxPodDuration) ?? 300_000
        vodPodDuration = try container.decodeIfPresent(Double.self, forKey: .vodPodDuration) ?? 30
    }
}

/// Stream session lifetime and metadata polling.
public struct PodSessionSettings: Sendable, Hashable, Codable {
    /// Seconds a registered stream lives (`valid_for`). Default 8 h.
    public var validFor: Double
    /// Seconds between metadata polls the client is told (`polling_frequency`). Default 10.
    public var pollingFrequency: Double

    public init(validFor: Double = 8 * 3600, pollingFrequency: Double = 10) {
        self.validFor = validFor
        self.pollingFrequency = pollingFrequency
    }

    private enum CodingKeys: String, CodingKey { case validFor, pollingFrequency }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        validFor = try container.decodeIfPresent(Double.self, forKey: .validFor) ?? 8 * 3600
        pollingFrequency = try container.decodeIfPresent(Double.self, forKey: .pollingFrequency) ?? 10
    }
}

extension PodServingCatalog {
    /// Checks ranges, uniqueness and references (networks, creatives of `catalog`).
    func validate(in catalog: Catalog, source: String) throws(CatalogError) {
        let at = "\(source): podServing"
        var codes = Set<String>()
        for (index, network) in networks.enumerated() {
            let path = "\(at).networks[\(index)]"
            guard Catalog.isSafeID(network.code) else {
                throw CatalogError("\(path).code must be 1–64 letters, digits, '-', '_' or '.'")
            }
            guard codes.insert(network.code).inserted else { throw CatalogError("\(path): duplicate code") }
            if let authKey = network.authKey {
                guard let bytes = Hex.decode(authKey), bytes.count >= 16 else {
                    throw CatalogError("\(path).authKey must be hex of at least 16 bytes")
                }
            }
            if network.requiresAuthToken, network.authKey == nil {
                throw CatalogError("\(path): requiresAuthToken needs an authKey")
            }
            if let apiKey = network.apiKey, apiKey.isEmpty || apiKey.utf8.count > 256 {
                throw CatalogError("\(path).apiKey must be 1–256 bytes")
            }
        }
        var keys = Set<String>()
        for (index, stream) in liveStreams.enumerated() {
            let path = "\(at).liveStreams[\(index)]"
            guard Catalog.isSafeID(stream.customAssetKey), Catalog.isSafeID(stream.channel) else {
                throw CatalogError("\(path): customAssetKey and channel must be 1–64 letters, digits, '-', '_' or '.'")
            }
            guard keys.insert("\(stream.network ?? "*")/\(stream.customAssetKey)").inserted else {
                throw CatalogError("\(path): duplicate customAssetKey")
            }
            if let network = stream.network, !codes.contains(network) {
                throw CatalogError("\(path).network names unknown network '\(network)'")
            }
            guard catalog.content.channels.contains(where: { $0.id == stream.channel }) else {
                throw CatalogError("\(path).channel names unknown channel '\(stream.channel)'")
            }
        }
        var contentIDs = Set<String>()
        for (index, content) in vodContent.enumerated() {
            let path = "\(at).vodContent[\(index)]"
            guard Catalog.isSafeID(content.contentID), Catalog.isSafeID(content.title) else {
                throw CatalogError("\(path): contentID and title must be 1–64 letters, digits, '-', '_' or '.'")
            }
            guard contentIDs.insert("\(content.network ?? "*")/\(content.contentID)").inserted else {
                throw CatalogError("\(path): duplicate contentID")
            }
            if let network = content.network, !codes.contains(network) {
                throw CatalogError("\(path).network names unknown network '\(network)'")
            }
            guard catalog.content.titles.contains(where: { $0.id == content.title }) else {
                throw CatalogError("\(path).title names unknown title '\(content.title)'")
            }
        }
        try podRules.validate(in: catalog, at: "\(at).podRules")
        guard sessions.validFor >= 1, sessions.validFor <= 7 * 24 * 3600 else {
            throw CatalogError("\(at).sessions.validFor must be 1 s to 7 days")
        }
        guard sessions.pollingFrequency >= 1, sessions.pollingFrequency <= 3600 else {
            throw CatalogError("\(at).sessions.pollingFrequency must be 1–3600 s")
        }
    }
}

extension PodAdRules {
    fileprivate func validate(in catalog: Catalog, at path: String) throws(CatalogError) {
        for id in creatives ?? [] where catalog.creative(id: id) == nil {
            throw CatalogError("\(path).creatives names unknown creative '\(id)'")
        }
        if let creatives, creatives.isEmpty { throw CatalogError("\(path).creatives is empty") }
        guard (1...10).contains(maxAds) else { throw CatalogError("\(path).maxAds must be 1–10") }
        if let maxAdDuration, maxAdDuration <= 0 { throw CatalogError("\(path).maxAdDuration must be positive") }
        guard (1_000...3_600_000).contains(maxPodDuration) else {
            throw CatalogError("\(path).maxPodDuration must be 1000–3600000 ms")
        }
        guard vodPodDuration > 0, vodPodDuration <= 600 else {
            throw CatalogError("\(path).vodPodDuration must be between 0 and 600 s")
        }
    }

    /// The creatives that may fill pods, in catalog order.
    func eligibleCreatives(in catalog: Catalog) -> [CatalogCreative] {
        let allowed = creatives.map(Set.init)
        return catalog.creatives.filter { creative in
            (allowed?.contains(creative.id) ?? true) && (maxAdDuration.map { creative.duration <= $0 } ?? true)
        }
    }
}
