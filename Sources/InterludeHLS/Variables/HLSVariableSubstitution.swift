/// Variable substitution (RFC 8216bis 4.3): `{$name}` in URI lines,
/// quoted-string and hexadecimal-sequence attribute values is replaced by
/// the value an `EXT-X-DEFINE` gave `name`. The parsed model keeps the
/// references as written (so it round-trips); these functions resolve them.
struct HLSVariableSubstitution {
    let values: [String: String]

    /// Collects the definitions of `tags`; `imported` answers IMPORT names
    /// and `queryParameters` QUERYPARAM names.
    init(definitions tags: [HLSTag], imported: [String: String], queryParameters: [String: String]) throws(HLSError) {
        var values: [String: String] = [:]
        for tag in tags where tag.hasName(HLSTagName.define) {
            let attributes = tag.attributes
            if let name = attributes.string("NAME") {
                values[name] = attributes.string("VALUE") ?? ""
            } else if let name = attributes.string("IMPORT") {
                guard let value = imported[name] else {
                    throw HLSError(
                        .undefinedVariable, "IMPORT of {$\(name)} has no value from the multivariant playlist",
                        line: tag.line)
                }
                values[name] = value
            } else if let name = attributes.string("QUERYPARAM") {
                guard let value = queryParameters[name] else {
                    throw HLSError(
                        .undefinedVariable, "QUERYPARAM {$\(name)} is not in the playlist URL", line: tag.line)
                }
                values[name] = value
            }
        }
        self.values = values
    }

    func substitute(_ text: String, line: Int) throws(HLSError) -> String {
        guard text.contains("{$") else { return text }
        var result = ""
        var rest = Substring(text)
        while let open = rest.range(of: "{$") {
            guard let close = rest[open.upperBound...].firstIndex(of: "}") else { break }
            let name = String(rest[open.upperBound..<close])
            guard let value = values[name] else {
                throw HLSError(.undefinedVariable, "reference to undefined variable {$\(name)}", line: line)
            }
            result += rest[..<open.lowerBound]
            result += value
            rest = rest[rest.index(after: close)...]
        }
        return result + rest
    }

    func substitute(_ tag: HLSTag) throws(HLSError) -> HLSTag {
        guard case .attributes(var list) = tag.value, !tag.hasName(HLSTagName.define) else { return tag }
        for index in list.attributes.indices {
            let value = list.attributes[index].value
            if value.kind == .quotedString || value.kind == .hexadecimalSequence {
                list.attributes[index].value.text = try substitute(value.text, line: tag.line)
            }
        }
        var result = tag
        result.value = .attributes(list)
        return result
    }

    func substitute(_ tags: [HLSTag]) throws(HLSError) -> [HLSTag] {
        var result: [HLSTag] = []
        result.reserveCapacity(tags.count)
        for tag in tags { result.append(try substitute(tag)) }
        return result
    }
}

extension MediaPlaylist {
    /// A copy with every variable reference replaced by its value; the
    /// EXT-X-DEFINE tags stay. `imported` gives the values of IMPORT names
    /// (from the multivariant playlist) and `queryParameters` those of
    /// QUERYPARAM names; both default to empty. Throws
    /// ``HLSError/Code/undefinedVariable`` for a name with no value.
    public func resolvingVariables(imported: [String: String] = [:], queryParameters: [String: String] = [:])
        throws(HLSError) -> MediaPlaylist
    {
        let substitution = try HLSVariableSubstitution(
            definitions: tags, imported: imported, queryParameters: queryParameters)
        var result = self
        result.tags = try substitution.substitute(tags)
        for index in result.segments.indices {
            result.segments[index].uri = try substitution.substitute(segments[index].uri, line: segments[index].line)
            result.segments[index].tags = try substitution.substitute(segments[index].tags)
            result.segments[index].tagsAfterInfo = try substitution.substitute(segments[index].tagsAfterInfo)
        }
        result.trailingTags = try substitution.substitute(trailingTags)
        return result
    }
}

extension MultivariantPlaylist {
    /// A copy with every variable reference replaced by its value; see
    /// ``MediaPlaylist/resolvingVariables(imported:queryParameters:)``.
    public func resolvingVariables(queryParameters: [String: String] = [:]) throws(HLSError) -> MultivariantPlaylist {
        let substitution = try HLSVariableSubstitution(
            definitions: tags, imported: [:], queryParameters: queryParameters)
        var entries: [Entry] = []
        entries.reserveCapacity(self.entries.count)
        for entry in self.entries {
            switch entry {
            case .tag(let tag):
                entries.append(.tag(try substitution.substitute(tag)))
            case .variant(var variant):
                let tag = try substitution.substitute(
                    HLSTag(HLSTagName.streamInf, attributes: variant.attributes, line: variant.line))
                variant.attributes = tag.attributes
                variant.uri = try substitution.substitute(variant.uri, line: variant.line)
                entries.append(.variant(variant))
            }
        }
        return MultivariantPlaylist(entries: entries)
    }

    /// The values of the `EXT-X-DEFINE:NAME=` variables, which media
    /// playlists may IMPORT.
    public var variables: [String: String] {
        var values: [String: String] = [:]
        for attributes in tags.filter({ $0.hasName(HLSTagName.define) }).map(\.attributes) {
            if let name = attributes.string("NAME") { values[name] = attributes.string("VALUE") ?? "" }
        }
        return values
    }
}
