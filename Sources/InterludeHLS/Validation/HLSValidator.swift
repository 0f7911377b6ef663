/// Checks playlists against RFC 8216bis and reports findings with line
/// numbers; never throws and never changes the playlist.
public enum HLSValidator {
    /// Attributes each attribute-list tag must carry.
    static let requiredAttributes: [String: [String]] = [
        HLSTagName.dateRange: ["ID", "START-DATE"],
        HLSTagName.key: ["METHOD"],
        HLSTagName.sessionKey: ["METHOD", "URI"],
        HLSTagName.map: ["URI"],
        HLSTagName.part: ["URI", "DURATION"],
        HLSTagName.partInf: ["PART-TARGET"],
        HLSTagName.preloadHint: ["TYPE", "URI"],
        HLSTagName.renditionReport: ["URI"],
        HLSTagName.skip: ["SKIPPED-SEGMENTS"],
        HLSTagName.start: ["TIME-OFFSET"],
        HLSTagName.media: ["TYPE", "GROUP-ID", "NAME"],
        HLSTagName.streamInf: ["BANDWIDTH"],
        HLSTagName.iFrameStreamInf: ["BANDWIDTH", "URI"],
        HLSTagName.sessionData: ["DATA-ID"],
        HLSTagName.contentSteering: ["SERVER-URI"],
    ]

    /// The findings for a playlist of either kind.
    public static func validate(_ playlist: HLSPlaylist) -> [HLSFinding] {
        switch playlist {
        case .media(let media): return validate(media)
        case .multivariant(let multivariant): return validate(multivariant)
        }
    }

    /// Findings shared by both kinds for a list of tags.
    static func checkHeader(_ first: HLSTag?) -> [HLSFinding] {
        guard let first, !first.isComment, first.name == HLSTagName.header, first.line <= 1 else {
            return [HLSFinding(.error, .missingHeader, "the first line must be #EXTM3U", line: first?.line ?? 1)]
        }
        return []
    }

    static func checkRequiredAttributes(_ tag: HLSTag) -> [HLSFinding] {
        guard !tag.isComment, let required = requiredAttributes[tag.name] else { return [] }
        var findings: [HLSFinding] = []
        let attributes = tag.attributes
        for name in required where !attributes.contains(name) {
            if tag.name == HLSTagName.key, name == "URI" { continue }
            // Judged with the other tags of its ID (see the media playlist's checks).
            if tag.name == HLSTagName.dateRange, name == "START-DATE" { continue }
            findings.append(HLSFinding(.error, .missingAttribute, "\(tag.name) without \(name)", line: tag.line))
        }
        if tag.name == HLSTagName.key, let method = attributes.string("METHOD"), method != "NONE",
            !attributes.contains("URI")
        {
            findings.append(
                HLSFinding(.error, .missingAttribute, "EXT-X-KEY with METHOD=\(method) needs a URI", line: tag.line))
        }
        if tag.name == HLSTagName.define,
            !(attributes.contains("NAME") || attributes.contains("IMPORT") || attributes.contains("QUERYPARAM"))
        {
            findings.append(
                HLSFinding(.error, .missingAttribute, "EXT-X-DEFINE without NAME, IMPORT or QUERYPARAM", line: tag.line)
            )
        }
        return findings
    }

    /// The findings for a multivariant playlist.
    public static func validate(_ playlist: MultivariantPlaylist) -> [HLSFinding] {
        var findings: [HLSFinding] = []
        let firstTag: HLSTag? =
            switch playlist.entries.first {
            case .tag(let tag): tag
            case .variant(let variant): HLSTag(HLSTagName.streamInf, line: variant.line)
            case nil: nil
            }
        findings += checkHeader(firstTag)
        var groups: [String: Set<String>] = [:]
        for tag in playlist.tags {
            findings += checkRequiredAttributes(tag)
            if tag.name == HLSTagName.media, let type = tag.attributes.string("TYPE"),
                let group = tag.attributes.string("GROUP-ID")
            {
                groups[type, default: []].insert(group)
            }
        }
        for variant in playlist.variants {
            findings += checkRequiredAttributes(
                HLSTag(HLSTagName.streamInf, attributes: variant.attributes, line: variant.line))
            for (attribute, type) in [
                ("AUDIO", "AUDIO"), ("VIDEO", "VIDEO"), ("SUBTITLES", "SUBTITLES"),
                ("CLOSED-CAPTIONS", "CLOSED-CAPTIONS"),
            ] {
                guard let value = variant.attributes[attribute], value.kind == .quotedString else { continue }
                if !(groups[type]?.contains(value.text) ?? false) {
                    findings.append(
                        HLSFinding(
                            .error, .undefinedGroup, "\(attribute)=\"\(value.text)\" names no EXT-X-MEDIA group",
                            line: variant.line))
                }
            }
        }
        return findings.sorted { $0.line < $1.line }
    }
}
