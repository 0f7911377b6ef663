/// An attribute list (RFC 8216bis 4.2) in the order it was written, so that
/// client-defined `X-` attributes and attribute order survive a round-trip.
public struct HLSAttributeList: Sendable, Hashable, Sequence {
    /// One `NAME=VALUE` pair.
    public struct Attribute: Sendable, Hashable {
        /// The attribute name, e.g. `BANDWIDTH`.
        public var name: String
        /// The typed value.
        public var value: HLSAttributeValue

        /// Creates a pair.
        public init(name: String, value: HLSAttributeValue) {
            self.name = name
            self.value = value
        }
    }

    /// The pairs in written order.
    public var attributes: [Attribute]

    /// Creates a list; empty by default.
    public init(_ attributes: [Attribute] = []) { self.attributes = attributes }

    /// Creates a list from name/value pairs in order.
    public init(_ pairs: KeyValuePairs<String, HLSAttributeValue>) {
        attributes = pairs.map { Attribute(name: $0.key, value: $0.value) }
    }

    /// The value of the first attribute with `name`; setting nil removes it,
    /// setting a new name appends it at the end.
    public subscript(name: String) -> HLSAttributeValue? {
        get {
            for attribute in attributes where attribute.name == name { return attribute.value }
            return nil
        }
        set {
            if let index = attributes.firstIndex(where: { $0.name == name }) {
                if let newValue { attributes[index].value = newValue } else { attributes.remove(at: index) }
            } else if let newValue {
                attributes.append(Attribute(name: name, value: newValue))
            }
        }
    }

    /// The text of the attribute `name` (quotes removed), or nil.
    public func string(_ name: String) -> String? { self[name]?.text }

    /// The attribute `name` as a number, or nil.
    public func double(_ name: String) -> Double? { self[name]?.doubleValue }

    /// The attribute `name` as an unsigned integer, or nil.
    public func integer(_ name: String) -> UInt64? { self[name]?.integerValue }

    /// True if the list has the attribute `name`.
    public func contains(_ name: String) -> Bool { self[name] != nil }

    /// Iterates the attributes in written order.
    public func makeIterator() -> IndexingIterator<[Attribute]> { attributes.makeIterator() }
}
