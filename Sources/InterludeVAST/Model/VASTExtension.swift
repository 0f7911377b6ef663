/// An `<Extension>` (or `<CreativeExtension>`) with its raw XML kept, so
/// that nothing a vendor added is lost.
public struct VASTExtension: Hashable, Sendable {
    /// The `type` attribute.
    public var type: String?
    /// Other attributes of the element, by local name.
    public var attributes: [String: String]
    /// The XML between the element's tags, as written, trimmed.
    public var rawXML: String

    public init(type: String? = nil, attributes: [String: String] = [:], rawXML: String = "") {
        self.type = type
        self.attributes = attributes
        self.rawXML = rawXML
    }

    /// For `<Extension type="uiSettings">`: the `<UiHideable>` value
    /// (`1`/`true` → true, `0`/`false` → false); nil otherwise. This is the
    /// source of IMA's `isUiDisabled`.
    public var uiHideable: Bool? {
        guard type == "uiSettings" else { return nil }
        guard let value = childText(named: "UiHideable") else { return nil }
        switch value {
        case "1", "true": return true
        case "0", "false": return false
        default: return nil
        }
    }

    /// Text of the first child element with this local name, read by parsing
    /// the raw XML as a fragment.
    public func childText(named name: String) -> String? {
        let wrapped = Array("<x>\(rawXML)</x>".utf8)
        guard let tree = try? XMLTreeParser(maxDepth: 32).parse(wrapped) else { return nil }
        for index in 1..<tree.elements.count where tree.elements[index].name == name {
            return tree.elements[index].text
        }
        return nil
    }
}
