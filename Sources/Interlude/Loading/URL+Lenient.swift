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
        let bytes = Array(text.utf8)
        let schemeEnd = endOfScheme(bytes)
        guard schemeEnd > 0, schemeEnd < bytes.count, bytes[schemeEnd] == UInt8(ascii: ":"),
            bytes[..<schemeEnd].contains(where: { $0 >= 0x41 && $0 <= 0x5A })
        else { return text }
        return String(decoding: bytes[..<schemeEnd], as: UTF8.self).lowercased()
            + String(decoding: bytes[schemeEnd...], as: UTF8.self)
    }

    /// `text` with every byte a URL may not hold written as `%XX`, after the
    /// authority (so an IPv6 host keeps its brackets): a `%` that starts an
    /// escape is kept, a lone one becomes `%25`.
    static func percentEncodingInvalidBytes(_ text: String) -> String {
        let bytes = Array(text.utf8)
        let start = endOfAuthority(bytes)
        guard (start..<bytes.count).contains(where: { !isKept(bytes, at: $0) }) else { return text }
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

    /// The length of the scheme at the start of `bytes` (a letter, then
    /// letters, digits and `+-.`); 0 when there is none.
    private static func endOfScheme(_ bytes: [UInt8]) -> Int {
        guard let first = bytes.first, isASCIILetter(first) else { return 0 }
        var index = 1
        while index < bytes.count,
            isASCIILetter(bytes[index]) || isASCIIDigit(bytes[index]) || bytes[index] == 0x2B || bytes[index] == 0x2D
                || bytes[index] == 0x2E
        {
            index += 1
        }
        return index
    }

    /// Where what follows the authority begins: after `scheme://host:port`
    /// or `//host`, at the first `/`, `?` or `#`; 0 without an authority.
    private static func endOfAuthority(_ bytes: [UInt8]) -> Int {
        let schemeEnd = endOfScheme(bytes)
        var index: Int
        if schemeEnd > 0, bytes[schemeEnd...].starts(with: [0x3A, 0x2F, 0x2F]) {  // "://"
            index = schemeEnd + 3
        } else if bytes.starts(with: [0x2F, 0x2F]) {
            index = 2
        } else {
            return 0
        }
        while index < bytes.count, bytes[index] != 0x2F, bytes[index] != 0x3F, bytes[index] != 0x23 { index += 1 }
        return index
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
}
