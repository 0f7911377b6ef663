/// A multivariant (master) playlist (RFC 8216bis 4.4.6): its lines in written
/// order, with typed views of variants and renditions.
public struct MultivariantPlaylist: Sendable, Hashable {
    /// One entry: a tag or comment, or a variant stream with its URI.
    public enum Entry: Sendable, Hashable {
        /// A tag or comment that is not an `EXT-X-STREAM-INF`.
        case tag(HLSTag)
        /// An `EXT-X-STREAM-INF` and the URI line after it.
        case variant(VariantStream)
    }

    /// All entries in written order (starting with `EXTM3U`).
    public var entries: [Entry]

    /// Creates a playlist from its entries.
    public init(entries: [Entry]) { self.entries = entries }

    /// Creates a playlist with `EXTM3U`, the renditions, then the variants.
    public init(renditions: [Rendition] = [], variants: [VariantStream], independentSegments: Bool = false) {
        var entries: [Entry] = [.tag(HLSTag(HLSTagName.header))]
        if independentSegments { entries.append(.tag(HLSTag(HLSTagName.independentSegments))) }
        entries += renditions.map { .tag($0.tag) }
        entries += variants.map { .variant($0) }
        self.init(entries: entries)
    }

    /// All tags (variants' STREAM-INF excluded), in order.
    public var tags: [HLSTag] {
        entries.compactMap { if case .tag(let tag) = $0 { return tag } else { return nil } }
    }

    /// The variant streams (`EXT-X-STREAM-INF` + URI), in order.
    public var variants: [VariantStream] {
        entries.compactMap { if case .variant(let variant) = $0 { return variant } else { return nil } }
    }

    /// The renditions (`EXT-X-MEDIA`), in order.
    public var renditions: [Rendition] {
        tags.filter { $0.name == HLSTagName.media && !$0.isComment }.map(Rendition.init(tag:))
    }

    /// The I-frame variants (`EXT-X-I-FRAME-STREAM-INF`) as attribute lists.
    public var iFrameVariants: [HLSAttributeList] { attributeLists(HLSTagName.iFrameStreamInf) }
    /// The `EXT-X-SESSION-DATA` attribute lists.
    public var sessionData: [HLSAttributeList] { attributeLists(HLSTagName.sessionData) }
    /// The `EXT-X-SESSION-KEY` attribute lists.
    public var sessionKeys: [HLSAttributeList] { attributeLists(HLSTagName.sessionKey) }
    /// The `EXT-X-CONTENT-STEERING` attributes, if any.
    public var contentSteering: HLSAttributeList? { attributeLists(HLSTagName.contentSteering).first }
    /// `EXT-X-VERSION`, if any.
    public var version: Int? {
        tags.first { $0.name == HLSTagName.version }?.valueText.flatMap { Int($0) }
    }
    /// True with `EXT-X-INDEPENDENT-SEGMENTS`.
    public var hasIndependentSegments: Bool { tags.contains { $0.name == HLSTagName.independentSegments } }

    private func attributeLists(_ name: String) -> [HLSAttributeList] {
        tags.filter { $0.name == name && !$0.isComment }.map(\.attributes)
    }
}

/// A variant stream: an `EXT-X-STREAM-INF` and the URI of its media playlist.
public struct VariantStream: Sendable, Hashable {
    /// The STREAM-INF attributes, the source of truth.
    public var attributes: HLSAttributeList
    /// The media playlist URI as written.
    public var uri: String
    /// The line of the STREAM-INF tag; 0 when made in code.
    public var line: Int
    /// Comments or unknown tags between the STREAM-INF and its URI.
    public var tagsBeforeURI: [HLSTag]

    /// Creates a variant from its attributes and URI.
    public init(attributes: HLSAttributeList, uri: String, line: Int = 0, tagsBeforeURI: [HLSTag] = []) {
        self.attributes = attributes
        self.uri = uri
        self.line = line
        self.tagsBeforeURI = tagsBeforeURI
    }

    /// Creates a variant with BANDWIDTH and optional CODECS and RESOLUTION.
    public init(uri: String, bandwidth: UInt64, codecs: String? = nil, resolution: HLSResolution? = nil) {
        var attributes = HLSAttributeList(["BANDWIDTH": .integer(bandwidth)])
        if let codecs { attributes["CODECS"] = .quoted(codecs) }
        if let resolution { attributes["RESOLUTION"] = .resolution(resolution) }
        self.init(attributes: attributes, uri: uri)
    }

    /// `BANDWIDTH` in bit/s, required.
    public var bandwidth: UInt64? { attributes.integer("BANDWIDTH") }
    /// `AVERAGE-BANDWIDTH` in bit/s.
    public var averageBandwidth: UInt64? { attributes.integer("AVERAGE-BANDWIDTH") }
    /// `CODECS`.
    public var codecs: String? { attributes.string("CODECS") }
    /// `RESOLUTION`.
    public var resolution: HLSResolution? { attributes["RESOLUTION"]?.resolutionValue }
    /// `FRAME-RATE`.
    public var frameRate: Double? { attributes.double("FRAME-RATE") }
    /// `AUDIO` group ID.
    public var audioGroup: String? { attributes.string("AUDIO") }
    /// `VIDEO` group ID.
    public var videoGroup: String? { attributes.string("VIDEO") }
    /// `SUBTITLES` group ID.
    public var subtitlesGroup: String? { attributes.string("SUBTITLES") }

    /// Equality ignores ``line``.
    public static func == (lhs: VariantStream, rhs: VariantStream) -> Bool {
        lhs.attributes == rhs.attributes && lhs.uri == rhs.uri && lhs.tagsBeforeURI == rhs.tagsBeforeURI
    }

    /// Hashes the fields that equality compares.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(attributes)
        hasher.combine(uri)
    }
}

/// A rendition: an `EXT-X-MEDIA` tag.
public struct Rendition: Sendable, Hashable {
    /// The attributes, the source of truth.
    public var attributes: HLSAttributeList
    /// The line of the tag; 0 when made in code.
    public var line: Int

    /// Reads a rendition from an EXT-X-MEDIA tag.
    public init(tag: HLSTag) {
        attributes = tag.attributes
        line = tag.line
    }

    /// Creates a rendition with TYPE, GROUP-ID, NAME and optional URI and LANGUAGE.
    public init(
        type: String, groupID: String, name: String, uri: String? = nil, language: String? = nil,
        isDefault: Bool = false
    ) {
        attributes = HLSAttributeList(["TYPE": .enumerated(type), "GROUP-ID": .quoted(groupID), "NAME": .quoted(name)])
        if let language { attributes["LANGUAGE"] = .quoted(language) }
        if isDefault { attributes["DEFAULT"] = .enumerated("YES") }
        if let uri { attributes["URI"] = .quoted(uri) }
        line = 0
    }

    /// The tag this rendition writes.
    public var tag: HLSTag { HLSTag(HLSTagName.media, attributes: attributes, line: line) }
    /// `TYPE` (AUDIO, VIDEO, SUBTITLES, CLOSED-CAPTIONS).
    public var type: String? { attributes.string("TYPE") }
    /// `GROUP-ID`.
    public var groupID: String? { attributes.string("GROUP-ID") }
    /// `NAME`.
    public var name: String? { attributes.string("NAME") }
    /// `LANGUAGE`.
    public var language: String? { attributes.string("LANGUAGE") }
    /// `URI`; nil when the rendition is muxed into the variant.
    public var uri: String? { attributes.string("URI") }
    /// `DEFAULT=YES`.
    public var isDefault: Bool { attributes["DEFAULT"]?.isYes ?? false }

    /// Equality ignores ``line``.
    public static func == (lhs: Rendition, rhs: Rendition) -> Bool { lhs.attributes == rhs.attributes }

    /// Hashes the fields that equality compares.
    public func hash(into hasher: inout Hasher) { hasher.combine(attributes) }
}

/// A playlist of either kind, as read from bytes whose kind is not known.
public enum HLSPlaylist: Sendable, Hashable {
    /// A media playlist (segments).
    case media(MediaPlaylist)
    /// A multivariant playlist (variants and renditions).
    case multivariant(MultivariantPlaylist)
}
