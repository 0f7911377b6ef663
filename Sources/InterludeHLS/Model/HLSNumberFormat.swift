/// Reading and writing the numbers of RFC 8216bis 4.2 without Foundation
/// formatters, which are slow and locale-sensitive.
enum HLSNumberFormat {
    /// `seconds` rounded to whole seconds for TARGETDURATION comparisons,
    /// clamped so that a huge (or non-finite) duration from outside input
    /// cannot trap the conversion: a decimal-integer caps at 2^53 here.
    static func wholeSeconds(_ seconds: Double) -> Int {
        guard seconds.isFinite else { return seconds > 0 ? 1 << 53 : 0 }
        return Int(min(max(seconds.rounded(), 0), Double(1 << 53)))
    }

    /// Powers of ten exactly representable as doubles (up to 10^22).
    private static let powersOfTen: [Double] = (0...22).map { exponent in
        var value = 1.0
        for _ in 0..<exponent { value *= 10 }
        return value
    }

    /// Parses `[-]digits[.digits]`; nil for anything else (no exponents,
    /// `nan` or `inf`, which the RFC grammar does not allow).
    static func parseDecimal(_ text: String) -> Double? {
        var text = text
        return text.withUTF8 { parseDecimal($0) }
    }

    /// Parses `[-]digits[.digits]` from UTF-8 bytes.
    static func parseDecimal(_ bytes: UnsafeBufferPointer<UInt8>) -> Double? {
        var index = 0
        var negative = false
        if index < bytes.count, bytes[index] == UInt8(ascii: "-") {
            negative = true
            index += 1
        }
        var mantissa: UInt64 = 0
        var digits = 0
        var fractionDigits = 0
        var seenPoint = false
        var exactMantissa = true
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: ".") {
                if seenPoint { return nil }
                seenPoint = true
            } else if byte >= 48, byte <= 57 {
                digits += 1
                if mantissa < 900_719_925_474_099 {
                    mantissa = mantissa * 10 + UInt64(byte - 48)
                    if seenPoint { fractionDigits += 1 }
                } else {
                    exactMantissa = false
                }
            } else {
                return nil
            }
            index += 1
        }
        guard digits > 0 else { return nil }
        if !exactMantissa || fractionDigits > 22 {
            // Rare long numbers: let the standard library round them correctly.
            let text = String(decoding: bytes, as: UTF8.self)
            guard let value = Double(text), value.isFinite else { return nil }
            return value
        }
        // Both operands are exact, so one division rounds correctly.
        let value = Double(mantissa) / powersOfTen[fractionDigits]
        return negative ? -value : value
    }

    /// Writes a decimal in the shortest form that reads back to the same
    /// double, without an exponent (`4.0`, `0.33334`).
    static func decimal(_ value: Double) -> String {
        guard value.isFinite else { return "0" }
        if value == value.rounded(), abs(value) < 1e15 {
            return String(Int64(value)) + ".0"
        }
        let text = "\(value)"
        if text.contains("e") {
            return fixed(value, fractionDigits: 6)
        }
        return text
    }

    /// `ElapsedTime=<elapsed>,Duration=<total>` with three decimals, the
    /// CUE-OUT-CONT value, built in one buffer (a splice writes one per ad segment).
    static func cueOutContinuation(elapsed: Double, total: String) -> String {
        let elapsedText = fixed(elapsed, fractionDigits: 3)
        let prefix: StaticString = "ElapsedTime="
        let middle: StaticString = ",Duration="
        let length = prefix.utf8CodeUnitCount + elapsedText.utf8.count + middle.utf8CodeUnitCount + total.utf8.count
        return String(unsafeUninitializedCapacity: length) { buffer in
            var index = 0
            func put(_ bytes: UnsafeBufferPointer<UInt8>) {
                for byte in bytes {
                    buffer[index] = byte
                    index += 1
                }
            }
            prefix.withUTF8Buffer(put)
            _ = elapsedText.utf8.withContiguousStorageIfAvailable(put)
            middle.withUTF8Buffer(put)
            _ = total.utf8.withContiguousStorageIfAvailable(put)
            return index
        }
    }

    /// Writes a decimal with exactly `fractionDigits` (at most 9) digits after the point.
    static func fixed(_ value: Double, fractionDigits: Int) -> String {
        let digits = min(max(fractionDigits, 0), 9)
        var scale: UInt64 = 1
        for _ in 0..<digits { scale *= 10 }
        let negative = value < 0
        let scaled = (abs(value) * Double(scale)).rounded()
        guard scaled.isFinite, scaled < 9e18 else { return "0" }
        let whole = UInt64(scaled)
        var integerPart = whole / scale
        var fraction = whole % scale
        // Built backwards into one buffer: no intermediate strings.
        var integerDigits = 1
        var probe = integerPart / 10
        while probe > 0 {
            integerDigits += 1
            probe /= 10
        }
        let sign = negative && whole > 0 ? 1 : 0
        let length = sign + integerDigits + (digits > 0 ? 1 + digits : 0)
        return String(unsafeUninitializedCapacity: length) { buffer in
            var index = length - 1
            for _ in 0..<digits {
                buffer[index] = UInt8(48 + fraction % 10)
                fraction /= 10
                index -= 1
            }
            if digits > 0 {
                buffer[index] = UInt8(ascii: ".")
                index -= 1
            }
            for _ in 0..<integerDigits {
                buffer[index] = UInt8(48 + integerPart % 10)
                integerPart /= 10
                index -= 1
            }
            if sign == 1 { buffer[0] = UInt8(ascii: "-") }
            return length
        }
    }
}

/// Hexadecimal text for `hexadecimal-sequence` attributes and SCTE-35 payloads.
public enum HLSHex {
    /// Upper-case hex digits without a prefix.
    public static func encode(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789ABCDEF".utf8)
        var out = [UInt8]()
        out.reserveCapacity(bytes.count * 2)
        for byte in bytes {
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Reads hex digits with an optional `0x`/`0X` prefix; nil when malformed or of odd length.
    public static func decode(_ text: String) -> [UInt8]? {
        var utf8 = Substring(text).utf8
        if utf8.count >= 2, utf8.first == UInt8(ascii: "0"),
            let second = utf8.dropFirst().first, second == UInt8(ascii: "x") || second == UInt8(ascii: "X")
        {
            utf8 = utf8.dropFirst(2)
        }
        guard !utf8.isEmpty, utf8.count % 2 == 0 else { return nil }
        var bytes = [UInt8]()
        bytes.reserveCapacity(utf8.count / 2)
        var high: UInt8?
        for character in utf8 {
            guard let nibble = nibble(character) else { return nil }
            if let pending = high {
                bytes.append(pending << 4 | nibble)
                high = nil
            } else {
                high = nibble
            }
        }
        return bytes
    }

    private static func nibble(_ character: UInt8) -> UInt8? {
        switch character {
        case 48...57: return character - 48
        case 65...70: return character - 55
        case 97...102: return character - 87
        default: return nil
        }
    }
}
