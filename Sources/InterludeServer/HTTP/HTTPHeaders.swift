/// HTTP header fields in the order received or set; names compare
/// case-insensitively.
public struct HTTPHeaders: Sendable, Hashable, Sequence {
    /// One field.
    public struct Field: Sendable, Hashable {
        /// Field name as sent.
        public var name: String
        /// Field value, trimmed.
        public var value: String
        public init(name: String, value: String) {
            self.name = name
            self.value = value
        }
    }

    /// Every field, in order.
    public private(set) var fields: [Field]

    public init(_ fields: [(String, String)] = []) {
        self.fields = fields.map { Field(name: $0.0, value: $0.1) }
    }

    /// The first value of `name`, or nil.
    public subscript(name: String) -> String? {
        fields.first { Self.namesMatch($0.name, name) }?.value
    }

    /// Adds a field (duplicates allowed, as for `Set-Cookie`).
    public mutating func add(_ name: String, _ value: String) {
        fields.append(Field(name: name, value: value))
    }

    /// Replaces every field called `name` with one field.
    public mutating func set(_ name: String, _ value: String) {
        fields.removeAll { Self.namesMatch($0.name, name) }
        fields.append(Field(name: name, value: value))
    }

    /// Field names are ASCII tokens (RFC 9110 §5.1), so they compare by
    /// ASCII case folding, byte by byte, without the two lowered copies per
    /// field that `lowercased()` made on every lookup. A name with other
    /// bytes (not a token, but a caller may set one) still compares as
    /// `lowercased()` does.
    static func namesMatch(_ lhs: String, _ rhs: String) -> Bool {
        var left = lhs
        var right = rhs
        let ascii = left.withUTF8 { leftBytes in
            right.withUTF8 { rightBytes -> Bool? in
                guard leftBytes.count == rightBytes.count else {
                    // Unicode lowering can change a length; ASCII folding cannot.
                    return leftBytes.allSatisfy { $0 < 0x80 } && rightBytes.allSatisfy { $0 < 0x80 } ? false : nil
                }
                for index in leftBytes.indices where leftBytes[index] != rightBytes[index] {
                    guard leftBytes[index] < 0x80, rightBytes[index] < 0x80 else { return nil }
                    guard foldedASCII(leftBytes[index]) == foldedASCII(rightBytes[index]) else { return false }
                }
                return true
            }
        }
        return ascii ?? (lhs.lowercased() == rhs.lowercased())
    }

    private static func foldedASCII(_ byte: UInt8) -> UInt8 {
        byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte | 0x20 : byte
    }

    public func makeIterator() -> IndexingIterator<[Field]> { fields.makeIterator() }
}
