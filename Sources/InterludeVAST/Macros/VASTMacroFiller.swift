import Foundation
internal import InterludeFormatting

/// Fills VAST macros in URL templates.
///
/// Rules (VAST 4.3 §6.1): a macro is the whole bracketed token `[NAME]`; each
/// value is percent-encoded; list items are encoded one by one and joined by
/// unencoded commas; `-1` stands for unknown and `-2` for withheld; macros
/// the caller did not supply are left in place untouched. `[TIMESTAMP]`
/// (ISO 8601 with milliseconds and zone) and `[CACHEBUSTING]` (8 random
/// digits) are filled automatically unless the caller supplies them.
public struct VASTMacroFiller: Sendable {
    /// The current time, injected so tests are deterministic.
    public var now: @Sendable () -> Date
    /// The zone `[TIMESTAMP]` is written in. Default: the device's.
    public var timeZone: TimeZone
    /// A source of 8-digit cache busters, injected so tests are deterministic.
    public var cacheBuster: @Sendable () -> String

    public init(
        now: @escaping @Sendable () -> Date = { Date() },
        timeZone: TimeZone = .current,
        cacheBuster: @escaping @Sendable () -> String = { String(Int.random(in: 10_000_000...99_999_999)) }
    ) {
        self.now = now
        self.timeZone = timeZone
        self.cacheBuster = cacheBuster
    }

    /// Returns `template` with every supplied (and automatic) macro filled.
    public func fill(_ template: String, with values: [VASTMacro: VASTMacroValue] = [:]) -> String {
        var utf8 = Array(template.utf8)
        guard utf8.contains(UInt8(ascii: "[")) else { return template }
        var output: [UInt8] = []
        output.reserveCapacity(utf8.count + 32)
        var index = 0
        // Lazily computed once per fill, so every [TIMESTAMP] in one URL agrees.
        var timestamp: String?
        var cacheBusting: String?
        while index < utf8.count {
            let byte = utf8[index]
            guard byte == UInt8(ascii: "["),
                let close = Self.macroEnd(in: utf8, openingAt: index)
            else {
                output.append(byte)
                index += 1
                continue
            }
            let name = String(decoding: utf8[(index + 1)..<close], as: UTF8.self)
            let macro = VASTMacro(name)
            let replacement: String?
            if let value = values[macro] {
                replacement = Self.encode(value)
            } else if macro == .timestamp {
                if timestamp == nil { timestamp = Self.percentEncode(Self.iso8601(now(), in: timeZone)) }
                replacement = timestamp
            } else if macro == .cacheBusting {
                if cacheBusting == nil { cacheBusting = Self.percentEncode(cacheBuster()) }
                replacement = cacheBusting
            } else {
                replacement = nil
            }
            if let replacement {
                output.append(contentsOf: replacement.utf8)
            } else {
                output.append(contentsOf: utf8[index...close])
            }
            index = close + 1
        }
        utf8 = output
        return String(decoding: utf8, as: UTF8.self)
    }

    /// The index of the `]` closing a macro token that opens at `start`, when
    /// the token is a macro name (upper-case letters, digits, underscores).
    private static func macroEnd(in bytes: [UInt8], openingAt start: Int) -> Int? {
        var index = start + 1
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "]") { return index > start + 1 ? index : nil }
            let isNameByte =
                (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
                || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || byte == UInt8(ascii: "_")
            if !isNameByte { return nil }
            index += 1
        }
        return nil
    }

    /// A value as it goes into a URL.
    public static func encode(_ value: VASTMacroValue) -> String {
        switch value {
        case .value(let text): return percentEncode(text)
        case .list(let items): return items.map(percentEncode).joined(separator: ",")
        case .unknown: return "-1"
        case .withheld: return "-2"
        }
    }

    /// RFC 3986 percent-encoding: everything but unreserved characters.
    public static func percentEncode(_ text: String) -> String {
        var output = ""
        output.reserveCapacity(text.utf8.count)
        let hex: [Character] = Array("0123456789ABCDEF")
        for byte in text.utf8 {
            let unreserved =
                (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x30 && byte <= 0x39)
                || byte == 0x2D || byte == 0x2E || byte == 0x5F || byte == 0x7E
            if unreserved {
                output.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                output.append("%")
                output.append(hex[Int(byte >> 4)])
                output.append(hex[Int(byte & 0x0F)])
            }
        }
        return output
    }

    /// `2026-11-29T21:10:20.123+01:00`: ISO 8601 with milliseconds and the
    /// zone offset (`Z` is not used so every value has the same shape).
    public static func iso8601(_ date: Date, in timeZone: TimeZone) -> String {
        ISO8601Timestamp.string(from: date, utcOffset: timeZone.secondsFromGMT(for: date))
    }
}
