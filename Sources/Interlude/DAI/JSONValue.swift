import Foundation

/// A JSON value as written, read with `JSONDecoder` so that `true` and `1`
/// stay apart on every platform (`JSONSerialization` hands both back as an
/// `NSNumber` that casts to `Bool` and to `Double` alike).
enum JSONValue: Decodable, Sendable, Hashable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([JSONValue].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: JSONValue].self))
        }
    }

    /// The top-level object of `data`, or nil when it is not a JSON object.
    static func object(from data: Data) -> [String: JSONValue]? {
        guard case .object(let object)? = try? JSONDecoder().decode(JSONValue.self, from: data) else { return nil }
        return object
    }

    var object: [String: JSONValue]? {
        if case .object(let value) = self { return value }
        return nil
    }

    var string: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    var bool: Bool? {
        if case .bool(let value) = self { return value }
        return nil
    }

    /// A number, or a numeric string (`"12.5"`; a trailing `s`, as in `"12.5s"`, allowed).
    var number: Double? {
        switch self {
        case .number(let value): return value
        case .string(let text): return Double(text.hasSuffix("s") ? String(text.dropLast()) : text)
        default: return nil
        }
    }
}
