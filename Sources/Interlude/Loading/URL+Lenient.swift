import Foundation

extension URL {
    /// Parses a URL from a document or a filled-in template: characters
    /// not allowed in URLs (spaces, `|`, the brackets of unfilled macros)
    /// are percent-encoded rather than failing, escapes already there are
    /// kept as they are, the scheme is read in any case (`HTTP://`), and a
    /// relative reference is resolved against `base`.
    ///
    /// The encoding is done here, before Foundation sees the text: given
    /// invalid characters, `URL(string:)` of swift-foundation repairs them
    /// itself and, when it does, encodes the `%` of every escape in the
    /// query again, so a macro value filled as `%3A` reached the server
    /// as `%253A` whenever another macro was left unfilled.
    static func lenient(_ text: String, relativeTo base: URL?) -> URL? {
        let trimmed = text.trimmingWhitespace
        guard !trimmed.isEmpty else { return nil }
        guard
            let url = URL(string: percentEncodingInvalidBytes(lowercasingScheme(trimmed)), relativeTo: base)?
                .absoluteURL, url.scheme != nil
        else { return nil }
        return url
    }

    /// `text` with a scheme (letters, digits, `+-.` before the first `:`)
    /// in lower case; anything else unchanged.
    static func lowercasingScheme(_ text: String) -> String {
        guard let colon = text.utf8.firstIndex(of: UInt8(ascii: ":")) else { return text }
        let scheme = text.utf8[..<colon]
        guard let first = scheme.first, isASCIILetter(first),
            scheme.allSatisfy({ isASCIILetter($0) || isASCIIDigit($0) || $0 == 0x2B || $0 == 0x2D || $0 == 0x2E }),
            scheme.contains(where: { $0 >= 0x41 && $0 <= 0x5A })
        else { return text }
        return String(text[..<colon]).lowercased() + String(text[colon...])
    }

    /// `text` with every byte a URL may not hold written as `%XX`, after the
    /// authority (so an IPv6 host keeps its brackets): a `%` that starts an
    /// escape is kept, a lone one becomes `%25`.
    static func percentEncodingInvalidBytes(_ text: String) -> String {
        let bytes = Array(text.utf8)
        var start = 0
        if let schemeEnd = findSubsequence(bytes, [0x3A, 0x2F, 0x2F]) {  // "://"
            start = schemeEnd + 3
        } else if bytes.starts(with: [0x2F, 0x2F]) {
            start = 2
        } else {
            start = -1
        }
        if start >= 0 {
            while start < bytes.count, bytes[start] != 0x2F, bytes[start] != 0x3F, bytes[start] != 0x23 { start += 1 }
        } else {
            start = 0
        }
        var needsWork = false
        for index in start..<bytes.count where !isKept(bytes, at: index) {
            needsWork = true
            break
        }
        guard needsWork else { return text }
        var output = Array(bytes[..<start])
        output.reserveCapacity(bytes.count + 16)
        let hex = Array("0123456789ABCDEF".utf8)
        for index in start..<bytes.count {
            let byte = bytes[index]
            if isKept(bytes, at: index) {
                output.append(byte)
            } else {
                output += [0x25, hex[Int(byte >> 4)], hex[Int(byte & 0x0F)]]
            }
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// True for a byte RFC 3986 allows as it is in a path, query or
    /// fragment (unreserved, sub-delims, `:@/?#`), and for a `%` followed
    /// by two hex digits.
    private static func isKept(_ bytes: [UInt8], at index: Int) -> Bool {
        let byte = bytes[index]
        if isASCIILetter(byte) || isASCIIDigit(byte) { return true }
        switch byte {
        case 0x2D, 0x2E, 0x5F, 0x7E,  // - . _ ~
            0x21, 0x24, 0x26, 0x27, 0x28, 0x29, 0x2A, 0x2B, 0x2C, 0x3B, 0x3D,  // ! $ & ' ( ) * + , ; =
            0x3A, 0x40, 0x2F, 0x3F, 0x23:  // : @ / ? #
            return true
        case 0x25:
            return index + 2 < bytes.count && isHexDigit(bytes[index + 1]) && isHexDigit(bytes[index + 2])
        default:
            return false
        }
    }

    private static func isASCIILetter(_ byte: UInt8) -> Bool { (byte | 0x20) >= 0x61 && (byte | 0x20) <= 0x7A }
    private static func isASCIIDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }
    private static func isHexDigit(_ byte: UInt8) -> Bool {
        isASCIIDigit(byte) || ((byte | 0x20) >= 0x61 && (byte | 0x20) <= 0x66)
    }

    private static func findSubsequence(_ bytes: [UInt8], _ needle: [UInt8]) -> Int? {
        guard bytes.count >= needle.count else { return nil }
        for index in 0...(bytes.count - needle.count) where bytes[index..<(index + needle.count)].elementsEqual(needle)
        {
            // Only a scheme's "://": nothing but scheme characters before it.
            return bytes[..<index].allSatisfy {
                isASCIILetter($0) || isASCIIDigit($0) || $0 == 0x2B || $0 == 0x2D || $0 == 0x2E
            }
                ? index : nil
        }
        return nil
    }
}
