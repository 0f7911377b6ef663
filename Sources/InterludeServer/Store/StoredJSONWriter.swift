import Foundation

/// A small JSON writer for the rows written on a request's path (a pod
/// decision on the first reload that meets its break): Foundation's
/// `JSONEncoder` took about 0.6 ms for one decision with its VAST documents,
/// most of a decision's cost. The output is plain JSON that `JSONDecoder`
/// reads back to the same value (dates as milliseconds since 1970, as the
/// store's decoder expects), with object keys in the order written, so the
/// same value always gives the same bytes.
struct StoredJSONWriter {
    private(set) var bytes: [UInt8] = []
    /// Whether the container being written already holds a member.
    private var hasMember: [Bool] = []

    init(capacity: Int = 1024) { bytes.reserveCapacity(capacity) }

    var text: String { String(decoding: bytes, as: UTF8.self) }

    mutating func beginObject() { open(UInt8(ascii: "{")) }
    mutating func endObject() { close(UInt8(ascii: "}")) }
    mutating func beginArray() { open(UInt8(ascii: "[")) }
    mutating func endArray() { close(UInt8(ascii: "]")) }

    /// Starts the member `key` of the object being written; its value follows.
    mutating func key(_ key: String) {
        separate()
        quoted(key)
        bytes.append(UInt8(ascii: ":"))
        // The value that follows is this member's, not a new one: no comma before it.
        valueFollowsKey = true
    }

    mutating func string(_ value: String) {
        separate()
        quoted(value)
    }

    private mutating func quoted(_ value: String) {
        bytes.append(UInt8(ascii: "\""))
        var value = value
        value.withUTF8 { utf8 in
            var runStart = 0
            for index in utf8.indices {
                let byte = utf8[index]
                guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else { continue }
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<index]))
                appendEscaped(byte)
                runStart = index + 1
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<utf8.count]))
        }
        bytes.append(UInt8(ascii: "\""))
    }

    mutating func int(_ value: Int) {
        separate()
        bytes.append(contentsOf: String(value).utf8)
    }

    /// A date as `JSONEncoder`'s `.millisecondsSince1970` writes it: a number
    /// of milliseconds (fractional when the date is).
    mutating func date(_ value: Date) {
        separate()
        let milliseconds = value.timeIntervalSince1970 * 1000
        // Swift's shortest round-trip form; a finite date never needs an exponent here.
        bytes.append(contentsOf: (milliseconds.isFinite ? milliseconds : 0).description.utf8)
    }

    /// `[String: String]` with its keys sorted.
    mutating func stringMap(_ map: [String: String]) {
        beginObject()
        for key in map.keys.sorted() {
            self.key(key)
            string(map[key] ?? "")
        }
        endObject()
    }

    /// `[String: [String]]` with its keys sorted.
    mutating func stringListMap(_ map: [String: [String]]) {
        beginObject()
        for key in map.keys.sorted() {
            self.key(key)
            beginArray()
            for value in map[key] ?? [] { string(value) }
            endArray()
        }
        endObject()
    }

    // MARK: - Structure

    private var valueFollowsKey = false

    private mutating func open(_ bracket: UInt8) {
        separate()
        bytes.append(bracket)
        hasMember.append(false)
    }

    private mutating func close(_ bracket: UInt8) {
        bytes.append(bracket)
        hasMember.removeLast()
    }

    /// The comma before a second member or element (none after a key).
    private mutating func separate() {
        if valueFollowsKey {
            valueFollowsKey = false
            return
        }
        guard let last = hasMember.last else { return }
        if last { bytes.append(UInt8(ascii: ",")) }
        hasMember[hasMember.count - 1] = true
    }

    private mutating func appendEscaped(_ byte: UInt8) {
        bytes.append(UInt8(ascii: "\\"))
        switch byte {
        case UInt8(ascii: "\""): bytes.append(UInt8(ascii: "\""))
        case UInt8(ascii: "\\"): bytes.append(UInt8(ascii: "\\"))
        case 0x0A: bytes.append(UInt8(ascii: "n"))
        case 0x0D: bytes.append(UInt8(ascii: "r"))
        case 0x09: bytes.append(UInt8(ascii: "t"))
        case 0x08: bytes.append(UInt8(ascii: "b"))
        case 0x0C: bytes.append(UInt8(ascii: "f"))
        default:
            let digits = Array("0123456789abcdef".utf8)
            bytes.append(contentsOf: [UInt8(ascii: "u"), 0x30, 0x30, digits[Int(byte >> 4)], digits[Int(byte & 0x0F)]])
        }
    }
}
