/// A malformed-XML finding from ``XMLTreeParser``, with the byte offset where
/// it was found.
struct XMLSyntaxError: Error, Sendable {
    var message: String
    var offset: Int
}

/// A focused, non-validating XML 1.0 parser for ad documents.
///
/// Foundation's `XMLParser` on Linux scans at about a third of raw libxml2
/// speed, too slow for the 0.5× target, so this parser reads bytes directly.
/// It refuses DOCTYPE and entity declarations outright (no external entity is
/// ever fetched and nothing can expand exponentially), decodes only the five
/// predefined and numeric character references, and bounds nesting depth.
struct XMLTreeParser {
    var maxDepth: Int

    private struct OpenElement {
        var index: Int32
        var qualifiedName: ArraySlice<UInt8>
        /// Where this element's children start in the shared pending-children
        /// stack (one array for all open elements: no allocation per element).
        var pendingChildrenStart: Int
    }

    func parse(_ bytes: [UInt8]) throws(XMLSyntaxError) -> XMLTree {
        var tree = XMLTree()
        tree.source = bytes
        tree.elements.reserveCapacity(bytes.count / 48 + 4)
        tree.children.reserveCapacity(bytes.count / 48 + 4)
        var cursor = Cursor(bytes: bytes)
        try parseProlog(&cursor)
        guard cursor.peek() == UInt8(ascii: "<") else {
            throw XMLSyntaxError(message: "no root element", offset: cursor.position)
        }
        try parseRootElement(&cursor, into: &tree)
        try parseEpilog(&cursor)
        return tree
    }

    // MARK: - Prolog and epilog

    /// The offset just past a DOCTYPE declaration at the cursor that has no
    /// internal subset (`[`…`]`, where entities are declared); nil for one
    /// that has, or that does not end.
    private static func endOfPlainDoctype(_ cursor: Cursor) -> Int? {
        var index = cursor.position + 9
        var quote: UInt8?
        while index < cursor.bytes.count {
            let byte = cursor.bytes[index]
            if let open = quote {
                if byte == open { quote = nil }
            } else if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
                quote = byte
            } else if byte == UInt8(ascii: "[") {
                return nil
            } else if byte == UInt8(ascii: ">") {
                return index + 1
            }
            index += 1
        }
        return nil
    }

    private func parseProlog(_ cursor: inout Cursor) throws(XMLSyntaxError) {
        if cursor.hasPrefix([0xEF, 0xBB, 0xBF]) { cursor.position += 3 }
        while true {
            cursor.skipWhitespace()
            if cursor.hasPrefix("<?") {
                try cursor.skip(past: "?>", what: "processing instruction")
            } else if cursor.hasPrefix("<!--") {
                try cursor.skip(past: "-->", what: "comment")
            } else if cursor.hasPrefix("<!DOCTYPE"), let end = Self.endOfPlainDoctype(cursor) {
                // `<!DOCTYPE VAST>` (some servers write it; browsers accept
                // it): no internal subset, so no entity to declare; an
                // external ID is never fetched.
                cursor.position = end
            } else if cursor.hasPrefix("<!") {
                throw XMLSyntaxError(
                    message: "DOCTYPE and entity declarations are not allowed in ad documents",
                    offset: cursor.position)
            } else if cursor.isAtEnd {
                throw XMLSyntaxError(message: "document has no root element", offset: cursor.position)
            } else if cursor.peek() != UInt8(ascii: "<") {
                throw XMLSyntaxError(message: "text before the root element", offset: cursor.position)
            } else {
                return
            }
        }
    }

    private func parseEpilog(_ cursor: inout Cursor) throws(XMLSyntaxError) {
        while true {
            cursor.skipWhitespace()
            if cursor.isAtEnd { return }
            if cursor.hasPrefix("<?") {
                try cursor.skip(past: "?>", what: "processing instruction")
            } else if cursor.hasPrefix("<!--") {
                try cursor.skip(past: "-->", what: "comment")
            } else {
                throw XMLSyntaxError(message: "content after the root element", offset: cursor.position)
            }
        }
    }

    // MARK: - Elements

    private func parseRootElement(_ cursor: inout Cursor, into tree: inout XMLTree) throws(XMLSyntaxError) {
        var stack: [OpenElement] = []
        var textBuffers: [[UInt8]] = []
        var pendingChildren: [Int32] = []
        stack.reserveCapacity(16)
        pendingChildren.reserveCapacity(64)

        // The root start tag.
        if try openElement(
            &cursor, tree: &tree, stack: &stack, pendingChildren: &pendingChildren, textBuffers: &textBuffers)
        {
            return  // `<Root/>`
        }

        while !stack.isEmpty {
            guard let byte = cursor.peek() else {
                let name = String(decoding: stack[stack.count - 1].qualifiedName, as: UTF8.self)
                throw XMLSyntaxError(message: "document ends before <\(name)> is closed", offset: cursor.position)
            }
            let depth = stack.count - 1
            if byte == UInt8(ascii: "<") {
                if cursor.hasPrefix("</") {
                    try closeElement(
                        &cursor, tree: &tree, stack: &stack, pendingChildren: &pendingChildren,
                        textBuffers: &textBuffers)
                } else if cursor.hasPrefix("<!--") {
                    try cursor.skip(past: "-->", what: "comment")
                } else if cursor.hasPrefix("<![CDATA[") {
                    cursor.position += 9
                    let start = cursor.position
                    guard let end = cursor.find("]]>") else {
                        throw XMLSyntaxError(message: "unterminated CDATA section", offset: start - 9)
                    }
                    appendText(cursor.bytes[start..<end], to: &textBuffers[depth])
                    cursor.position = end + 3
                } else if cursor.hasPrefix("<!") {
                    throw XMLSyntaxError(
                        message: "DOCTYPE and entity declarations are not allowed in ad documents",
                        offset: cursor.position)
                } else if cursor.hasPrefix("<?") {
                    try cursor.skip(past: "?>", what: "processing instruction")
                } else {
                    _ = try openElement(
                        &cursor, tree: &tree, stack: &stack, pendingChildren: &pendingChildren,
                        textBuffers: &textBuffers)
                }
            } else {
                try readText(&cursor, into: &textBuffers[depth])
            }
        }
    }

    /// Reads a start tag. Returns true when the element was empty (`<a/>`)
    /// and therefore already closed.
    private func openElement(
        _ cursor: inout Cursor, tree: inout XMLTree, stack: inout [OpenElement], pendingChildren: inout [Int32],
        textBuffers: inout [[UInt8]]
    ) throws(XMLSyntaxError) -> Bool {
        let tagOffset = cursor.position
        cursor.position += 1
        let qualifiedName = try cursor.readName(what: "element")
        if stack.count >= maxDepth {
            throw XMLSyntaxError(message: "elements nest deeper than the limit of \(maxDepth)", offset: tagOffset)
        }
        let attributeStart = tree.attributes.count
        while true {
            let hadWhitespace = cursor.skipWhitespace()
            guard let byte = cursor.peek() else {
                throw XMLSyntaxError(message: "document ends inside a start tag", offset: tagOffset)
            }
            if byte == UInt8(ascii: ">") {
                cursor.position += 1
                break
            }
            if byte == UInt8(ascii: "/") {
                guard cursor.hasPrefix("/>") else {
                    throw XMLSyntaxError(message: "expected '/>'", offset: cursor.position)
                }
                cursor.position += 2
                break
            }
            guard hadWhitespace else {
                throw XMLSyntaxError(message: "expected whitespace between attributes", offset: cursor.position)
            }
            let nameOffset = cursor.position
            let attributeName = try cursor.readName(what: "attribute")
            cursor.skipWhitespace()
            guard cursor.peek() == UInt8(ascii: "=") else {
                throw XMLSyntaxError(message: "attribute without '='", offset: cursor.position)
            }
            cursor.position += 1
            cursor.skipWhitespace()
            let value = try readAttributeValue(&cursor)
            // Namespace declarations are not data.
            if attributeName.starts(with: xmlnsBytes) { continue }
            let name = localName(attributeName)
            let prefix = self.prefix(attributeName)
            // Only the same qualified name twice is malformed: `xsi:type` and `type` are two attributes.
            if tree.attributes[attributeStart...].contains(where: { $0.name == name && $0.prefix == prefix }) {
                throw XMLSyntaxError(
                    message: "attribute '\(String(decoding: attributeName, as: UTF8.self))' appears twice",
                    offset: nameOffset)
            }
            tree.attributes.append(XMLTree.Attribute(name: name, value: value, prefix: prefix))
        }
        let selfClosing = cursor.bytes[cursor.position - 2] == UInt8(ascii: "/")
        let index = Int32(tree.elements.count)
        tree.elements.append(
            XMLTree.Element(
                name: localName(qualifiedName), attributeStart: Int32(attributeStart),
                attributeCount: Int32(tree.attributes.count - attributeStart), text: "",
                childStart: 0, childCount: 0, offset: tagOffset,
                contentStart: cursor.position, contentEnd: cursor.position))
        if !stack.isEmpty { pendingChildren.append(index) }
        if selfClosing { return true }
        stack.append(
            OpenElement(index: index, qualifiedName: qualifiedName, pendingChildrenStart: pendingChildren.count))
        if textBuffers.count < stack.count { textBuffers.append([]) }
        textBuffers[stack.count - 1].removeAll(keepingCapacity: true)
        return false
    }

    private func closeElement(
        _ cursor: inout Cursor, tree: inout XMLTree, stack: inout [OpenElement], pendingChildren: inout [Int32],
        textBuffers: inout [[UInt8]]
    ) throws(XMLSyntaxError) {
        let tagOffset = cursor.position
        cursor.position += 2
        let name = try cursor.readName(what: "end tag")
        cursor.skipWhitespace()
        guard cursor.peek() == UInt8(ascii: ">") else {
            throw XMLSyntaxError(message: "expected '>' to close the end tag", offset: cursor.position)
        }
        cursor.position += 1
        let open = stack.removeLast()
        guard name.elementsEqual(open.qualifiedName) else {
            throw XMLSyntaxError(
                message: "end tag </\(String(decoding: name, as: UTF8.self))> does not match "
                    + "<\(String(decoding: open.qualifiedName, as: UTF8.self))>",
                offset: tagOffset)
        }
        let element = Int(open.index)
        tree.elements[element].childStart = Int32(tree.children.count)
        tree.elements[element].childCount = Int32(pendingChildren.count - open.pendingChildrenStart)
        tree.children.append(contentsOf: pendingChildren[open.pendingChildrenStart...])
        pendingChildren.removeSubrange(open.pendingChildrenStart...)
        tree.elements[element].contentEnd = tagOffset
        let buffer = textBuffers[stack.count]
        if !buffer.isEmpty {
            var end = buffer.count
            while end > 0 && buffer[end - 1].isXMLWhitespace { end -= 1 }
            tree.elements[element].text = String(decoding: buffer[0..<end], as: UTF8.self)
        }
    }

    // MARK: - Text

    /// Appends a text piece. Leading whitespace is dropped as it arrives,
    /// since every value is trimmed anyway; inner whitespace is kept.
    @inline(__always)
    private func appendText(_ piece: ArraySlice<UInt8>, to buffer: inout [UInt8]) {
        if buffer.isEmpty {
            guard let first = piece.firstIndex(where: { !$0.isXMLWhitespace }) else { return }
            buffer.append(contentsOf: piece[first...])
        } else {
            buffer.append(contentsOf: piece)
        }
    }

    private func readText(_ cursor: inout Cursor, into buffer: inout [UInt8]) throws(XMLSyntaxError) {
        let bytes = cursor.bytes
        var start = cursor.position
        var index = start
        let end = bytes.count
        while index < end {
            let byte = bytes[index]
            if byte == UInt8(ascii: "<") { break }
            if byte == UInt8(ascii: "&") {
                appendText(bytes[start..<index], to: &buffer)
                cursor.position = index
                let scalar = try decodeReference(&cursor)
                appendText(ArraySlice(Array(String(scalar).utf8)), to: &buffer)
                index = cursor.position
                start = index
                continue
            }
            if byte == 0 {
                throw XMLSyntaxError(message: "binary data (a NUL byte) in the document", offset: index)
            }
            index += 1
        }
        appendText(bytes[start..<index], to: &buffer)
        cursor.position = index
    }

    private func readAttributeValue(_ cursor: inout Cursor) throws(XMLSyntaxError) -> String {
        guard let quote = cursor.peek(), quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'") else {
            throw XMLSyntaxError(message: "attribute value is not quoted", offset: cursor.position)
        }
        let valueOffset = cursor.position
        cursor.position += 1
        let bytes = cursor.bytes
        var start = cursor.position
        var index = start
        var decoded: [UInt8]? = nil
        while true {
            guard index < bytes.count else {
                throw XMLSyntaxError(message: "unterminated attribute value", offset: valueOffset)
            }
            let byte = bytes[index]
            if byte == quote { break }
            if byte == UInt8(ascii: "<") {
                throw XMLSyntaxError(message: "'<' inside an attribute value", offset: index)
            }
            if byte == 0 {
                throw XMLSyntaxError(message: "binary data (a NUL byte) in the document", offset: index)
            }
            if byte == UInt8(ascii: "&") {
                if decoded == nil { decoded = [] }
                decoded!.append(contentsOf: bytes[start..<index])
                cursor.position = index
                let scalar = try decodeReference(&cursor)
                decoded!.append(contentsOf: String(scalar).utf8)
                index = cursor.position
                start = index
                continue
            }
            index += 1
        }
        cursor.position = index + 1
        if var decoded {
            decoded.append(contentsOf: bytes[start..<index])
            return String(decoding: decoded, as: UTF8.self)
        }
        return String(decoding: bytes[start..<index], as: UTF8.self)
    }

    /// Decodes `&name;` or `&#n;` at the cursor. Only XML's predefined
    /// entities exist here, since declarations are refused.
    private func decodeReference(_ cursor: inout Cursor) throws(XMLSyntaxError) -> Unicode.Scalar {
        let start = cursor.position
        let bytes = cursor.bytes
        var end = start + 1
        while end < bytes.count, end - start < 12, bytes[end] != UInt8(ascii: ";") { end += 1 }
        guard end < bytes.count, bytes[end] == UInt8(ascii: ";") else {
            throw XMLSyntaxError(message: "'&' that does not start an entity reference", offset: start)
        }
        let body = bytes[(start + 1)..<end]
        cursor.position = end + 1
        switch String(decoding: body, as: UTF8.self) {
        case "lt": return "<"
        case "gt": return ">"
        case "amp": return "&"
        case "quot": return "\""
        case "apos": return "'"
        case let name where name.hasPrefix("#"):
            let digits = name.dropFirst()
            let value: UInt32?
            if digits.first == "x" || digits.first == "X" {
                value = UInt32(digits.dropFirst(), radix: 16)
            } else {
                value = UInt32(digits, radix: 10)
            }
            guard let value, value != 0, let scalar = Unicode.Scalar(value) else {
                throw XMLSyntaxError(message: "invalid character reference &\(name);", offset: start)
            }
            return scalar
        case let name:
            throw XMLSyntaxError(message: "unknown entity &\(name); (no DTD entities are allowed)", offset: start)
        }
    }

    /// The prefix of a qualified name (`xsi` of `xsi:type`), nil when there is none.
    private func prefix(_ qualified: ArraySlice<UInt8>) -> String? {
        guard let colon = qualified.lastIndex(of: UInt8(ascii: ":")) else { return nil }
        return String(decoding: qualified[..<colon], as: UTF8.self)
    }

    private func localName(_ qualified: ArraySlice<UInt8>) -> String {
        if let colon = qualified.lastIndex(of: UInt8(ascii: ":")) {
            return String(decoding: qualified[(colon + 1)...], as: UTF8.self)
        }
        return String(decoding: qualified, as: UTF8.self)
    }
}

private let xmlnsBytes: [UInt8] = Array("xmlns".utf8)

/// A read position in the source bytes.
struct Cursor {
    let bytes: [UInt8]
    var position = 0

    var isAtEnd: Bool { position >= bytes.count }

    @inline(__always) func peek() -> UInt8? {
        position < bytes.count ? bytes[position] : nil
    }

    @discardableResult
    @inline(__always) mutating func skipWhitespace() -> Bool {
        let start = position
        while position < bytes.count, bytes[position].isXMLWhitespace { position += 1 }
        return position > start
    }

    func hasPrefix(_ prefix: StaticString) -> Bool {
        let count = prefix.utf8CodeUnitCount
        guard position + count <= bytes.count else { return false }
        return prefix.withUTF8Buffer { prefixBytes in
            for offset in 0..<count where bytes[position + offset] != prefixBytes[offset] {
                return false
            }
            return true
        }
    }

    func hasPrefix(_ prefix: [UInt8]) -> Bool {
        guard position + prefix.count <= bytes.count else { return false }
        return bytes[position..<(position + prefix.count)].elementsEqual(prefix)
    }

    /// The offset of the next occurrence of `needle`, from the cursor on.
    func find(_ needle: StaticString) -> Int? {
        needle.withUTF8Buffer { needleBytes -> Int? in
            let first = needleBytes[0]
            let count = needleBytes.count
            var index = position
            let limit = bytes.count - count
            while index <= limit {
                if bytes[index] == first {
                    var matched = true
                    for offset in 1..<count where bytes[index + offset] != needleBytes[offset] {
                        matched = false
                        break
                    }
                    if matched { return index }
                }
                index += 1
            }
            return nil
        }
    }

    mutating func skip(past terminator: StaticString, what: String) throws(XMLSyntaxError) {
        guard let end = find(terminator) else {
            throw XMLSyntaxError(message: "unterminated \(what)", offset: position)
        }
        position = end + terminator.utf8CodeUnitCount
    }

    /// Reads an XML name (element or attribute, possibly prefixed).
    mutating func readName(what: String) throws(XMLSyntaxError) -> ArraySlice<UInt8> {
        let start = position
        guard let first = peek(), first.isNameStart else {
            throw XMLSyntaxError(message: "invalid or missing \(what) name", offset: position)
        }
        position += 1
        while position < bytes.count, bytes[position].isNameByte { position += 1 }
        return bytes[start..<position]
    }
}

extension UInt8 {
    @inline(__always) var isNameStart: Bool {
        (self >= 0x61 && self <= 0x7A) || (self >= 0x41 && self <= 0x5A) || self == 0x5F || self == 0x3A
            || self >= 0x80
    }

    @inline(__always) var isNameByte: Bool {
        isNameStart || (self >= 0x30 && self <= 0x39) || self == 0x2D || self == 0x2E
    }
}
