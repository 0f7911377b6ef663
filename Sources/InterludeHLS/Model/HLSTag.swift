/// One line of a playlist that is not a URI: a tag (`#EXT…`) or a comment,
/// kept in order so that nothing a packager or player added is lost.
///
/// Equality ignores ``line``: a playlist that was written and read back is
/// equal to the original even if its lines moved.
public struct HLSTag: Sendable, Hashable {
    /// What follows the tag name.
    public enum Value: Sendable, Hashable {
        /// No value (`#EXT-X-ENDLIST`) or a comment.
        case none
        /// Text kept as written (`#EXT-X-VERSION:7`, `#EXT-X-CUE-OUT:30`).
        case text(String)
        /// A parsed attribute list (`#EXT-X-KEY:METHOD=…`).
        case attributes(HLSAttributeList)
    }

    /// The tag name without `#` and `:` (`EXT-X-KEY`), or the comment text
    /// after `#` when ``isComment`` is true.
    public var name: String
    /// The value after the colon.
    public var value: Value
    /// True for a comment line (`#` not followed by `EXT`).
    public var isComment: Bool
    /// The 1-based line the tag was read from; 0 for tags made in code.
    public var line: Int

    /// Creates a tag; `value` defaults to none and `line` to 0.
    public init(_ name: String, _ value: Value = .none, line: Int = 0) {
        self.name = name
        self.value = value
        self.isComment = false
        self.line = line
    }

    /// Creates a tag with an attribute list.
    public init(_ name: String, attributes: HLSAttributeList, line: Int = 0) {
        self.init(name, .attributes(attributes), line: line)
    }

    /// Creates a comment line; `text` is what follows `#`.
    public static func comment(_ text: String, line: Int = 0) -> HLSTag {
        var tag = HLSTag(text, .none, line: line)
        tag.isComment = true
        return tag
    }

    /// The attribute list, or an empty list when the value is not one.
    public var attributes: HLSAttributeList {
        if case .attributes(let list) = value { return list }
        return HLSAttributeList()
    }

    /// The value as text: the text itself, or the attribute list as written.
    public var valueText: String? {
        switch value {
        case .none: return nil
        case .text(let text): return text
        case .attributes(let list): return HLSWriter.attributeListText(list)
        }
    }

    /// True for a tag (not a comment) named `name`. Lengths are compared
    /// first: most names differ in length, and names read by the parser share
    /// storage with the constants, so equal ones compare in one step.
    @inline(__always)
    func hasName(_ name: String) -> Bool {
        !isComment && self.name.utf8.count == name.utf8.count && self.name == name
    }

    /// Compares name, kind and value; ignores ``line``.
    public static func == (lhs: HLSTag, rhs: HLSTag) -> Bool {
        lhs.name == rhs.name && lhs.isComment == rhs.isComment && lhs.value == rhs.value
    }

    /// Hashes the fields that equality compares.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(name)
        hasher.combine(isComment)
        hasher.combine(value)
    }
}
