/// A parsed XML document as a flat arena of elements.
///
/// The VAST reader walks this tree instead of reacting to SAX callbacks: ads
/// nest deeply and the reader needs look-ahead (an `<Ad>` is a pod member only
/// if it has `sequence`), which a tree makes simple. The arena keeps it cheap:
/// one array of elements, children as index ranges into a second array, text
/// only where an element has any.
struct XMLTree: Sendable {
    /// One element. Names are local names: the namespace prefix is dropped,
    /// because ad servers disagree on prefixes and VMAP namespaces.
    struct Element: Sendable {
        var name: String
        /// Range of this element's attributes in ``XMLTree/attributes``.
        var attributeStart: Int32
        var attributeCount: Int32
        /// Character data and CDATA of this element's direct children, joined,
        /// with leading and trailing whitespace removed.
        var text: String
        /// Indices of child elements in ``XMLTree/children``.
        var childStart: Int32
        var childCount: Int32
        /// Byte offset of `<` of the start tag, for line/column reporting.
        var offset: Int
        /// Byte range of the element's content (between its tags), used to
        /// keep the raw XML of extensions.
        var contentStart: Int
        var contentEnd: Int
    }

    /// An attribute by local name, with the prefix it was written with:
    /// `xsi:type` and `type` are two attributes (XML 1.0 §3.1 forbids only
    /// the same qualified name twice).
    struct Attribute: Sendable, Hashable {
        var name: String
        var value: String
        /// The namespace prefix (`xsi` of `xsi:type`); nil when unprefixed.
        var prefix: String? = nil

        /// `prefix:name`, or the name alone.
        var qualifiedName: String { prefix.map { "\($0):\(name)" } ?? name }
    }

    var elements: [Element] = []
    var children: [Int32] = []
    /// Attributes of all elements, each element's contiguous.
    var attributes: [Attribute] = []
    /// The bytes the tree was parsed from (after any transcoding to UTF-8).
    var source: [UInt8] = []

    var root: Int { 0 }

    func childIndices(of element: Int) -> ArraySlice<Int32> {
        let node = elements[element]
        let start = Int(node.childStart)
        return children[start..<(start + Int(node.childCount))]
    }

    func attributes(of element: Int) -> ArraySlice<Attribute> {
        let node = elements[element]
        let start = Int(node.attributeStart)
        return attributes[start..<(start + Int(node.attributeCount))]
    }

    /// The attribute with this local name: the unprefixed one (VAST's
    /// attributes are unprefixed), else the first prefixed one, since some
    /// servers qualify VAST attributes (`vast:event`).
    func attribute(_ name: String, of element: Int) -> String? {
        var prefixed: String?
        for attribute in attributes(of: element) where attribute.name == name {
            if attribute.prefix == nil { return attribute.value }
            if prefixed == nil { prefixed = attribute.value }
        }
        return prefixed
    }

    /// The unprefixed attribute with this name only (`type` of an
    /// `<Extension>`, which `xsi:type` must not stand in for).
    func unprefixedAttribute(_ name: String, of element: Int) -> String? {
        for attribute in attributes(of: element) where attribute.name == name && attribute.prefix == nil {
            return attribute.value
        }
        return nil
    }

    /// Attribute lookup that ignores ASCII case, because real ads write
    /// `adId`, `adID` and `AdID` for the same attribute.
    func attributeIgnoringCase(_ name: String, of element: Int) -> String? {
        if let exact = attribute(name, of: element) { return exact }
        let lowered = name.lowercased()
        for attribute in attributes(of: element) where attribute.name.lowercased() == lowered {
            return attribute.value
        }
        return nil
    }

    /// The raw XML between an element's start and end tags, trimmed.
    func rawContent(of element: Int) -> String {
        let node = elements[element]
        guard node.contentEnd > node.contentStart else { return "" }
        return String(decoding: source[node.contentStart..<node.contentEnd], as: UTF8.self)
            .trimmingXMLWhitespace()
    }

    /// 1-based line and column of a byte offset (one scan from the start:
    /// for many offsets use ``locations(ofOffsets:in:)``).
    func location(ofOffset offset: Int) -> (line: Int, column: Int) {
        XMLTree.location(ofOffset: offset, in: source)
    }

    /// 1-based lines and columns of many byte offsets, in their order, from
    /// one pass over the bytes: O(bytes + offsets × log offsets), however
    /// many a document has (a lenient parse may report thousands of findings).
    static func locations(ofOffsets offsets: [Int], in bytes: [UInt8]) -> [(line: Int, column: Int)] {
        var result = [(line: Int, column: Int)](repeating: (1, 1), count: offsets.count)
        let order = offsets.indices.sorted { offsets[$0] < offsets[$1] }
        var line = 1
        var column = 1
        var index = 0
        for position in order {
            let end = min(max(offsets[position], 0), bytes.count)
            while index < end {
                let byte = bytes[index]
                if byte == UInt8(ascii: "\n") {
                    line += 1
                    column = 1
                } else if byte & 0xC0 != 0x80 {
                    // Columns count characters, not bytes: a continuation byte adds none.
                    column += 1
                }
                index += 1
            }
            result[position] = (line, column)
        }
        return result
    }

    static func location(ofOffset offset: Int, in bytes: [UInt8]) -> (line: Int, column: Int) {
        var line = 1
        var lineStart = 0
        let end = min(offset, bytes.count)
        var index = 0
        while index < end {
            if bytes[index] == UInt8(ascii: "\n") {
                line += 1
                lineStart = index + 1
            }
            index += 1
        }
        // Columns count characters, not bytes, so multi-byte UTF-8 counts once.
        var column = 1
        var cursor = lineStart
        while cursor < end {
            if bytes[cursor] & 0xC0 != 0x80 { column += 1 }
            cursor += 1
        }
        return (line, column)
    }
}

extension String {
    /// Trims the four XML whitespace characters (space, tab, CR, LF) only, so
    /// that no Unicode-aware trimming runs on every URL.
    func trimmingXMLWhitespace() -> String {
        var utf8 = Substring(self).utf8
        while let first = utf8.first, first.isXMLWhitespace { utf8 = utf8.dropFirst() }
        while let last = utf8.last, last.isXMLWhitespace { utf8 = utf8.dropLast() }
        if utf8.count == self.utf8.count { return self }
        return String(Substring(utf8))
    }
}

extension UInt8 {
    @inline(__always) var isXMLWhitespace: Bool {
        self == 0x20 || self == 0x0A || self == 0x09 || self == 0x0D
    }
}
