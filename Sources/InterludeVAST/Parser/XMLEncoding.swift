/// Bytes ready for ``XMLTreeParser``: UTF-8, plus what was noticed on the way.
struct PreparedXML {
    var bytes: [UInt8]
    var warnings: [VASTDiagnostic]
}

/// Turns a document's bytes into UTF-8 before parsing.
///
/// Ad servers send UTF-8 almost always; UTF-16 (with or without a byte-order
/// mark) and Latin-1 declared in the XML declaration are transcoded, anything
/// else is read as UTF-8 with a warning.
enum XMLEncoding {
    struct Failure: Error {
        var message: String
    }

    static func prepare(_ bytes: [UInt8]) throws(Failure) -> PreparedXML {
        var firstContent = 0
        while firstContent < bytes.count, bytes[firstContent].isXMLWhitespace { firstContent += 1 }
        guard firstContent < bytes.count else {
            throw Failure(message: "document is empty")
        }
        // UTF-16 with a byte-order mark, or without one (`<` as 3C 00 / 00 3C).
        if bytes.count >= 2 {
            let (first, second) = (bytes[0], bytes[1])
            if (first == 0xFF && second == 0xFE) || (first == 0x3C && second == 0x00) {
                return PreparedXML(bytes: transcodeUTF16(bytes, bigEndian: false), warnings: [])
            }
            if (first == 0xFE && second == 0xFF) || (first == 0x00 && second == 0x3C) {
                return PreparedXML(bytes: transcodeUTF16(bytes, bigEndian: true), warnings: [])
            }
        }
        var warnings: [VASTDiagnostic] = []
        if let declared = declaredEncoding(bytes) {
            switch declared.lowercased() {
            case "utf-8", "utf8", "us-ascii", "ascii":
                break
            case "iso-8859-1", "latin1", "latin-1", "iso8859-1", "windows-1252", "cp1252":
                return PreparedXML(bytes: transcodeLatin1(bytes), warnings: [])
            default:
                warnings.append(
                    VASTDiagnostic(
                        severity: .warning, code: .xmlParsingError,
                        message: "unsupported encoding '\(declared)'; read as UTF-8", line: 1, column: 1))
            }
        }
        return PreparedXML(bytes: bytes, warnings: warnings)
    }

    /// The `encoding` pseudo-attribute of the XML declaration, if any.
    private static func declaredEncoding(_ bytes: [UInt8]) -> String? {
        var start = 0
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { start = 3 }
        guard bytes[start...].starts(with: Array("<?xml".utf8)) else { return nil }
        let end = min(bytes.count, start + 200)
        guard let close = bytes[start..<end].firstIndex(of: UInt8(ascii: ">")) else { return nil }
        let declaration = String(decoding: bytes[start..<close], as: UTF8.self)
        guard let range = declaration.firstRange(of: "encoding") else { return nil }
        let rest = declaration[range.upperBound...].drop { $0 == " " || $0 == "=" }
        guard let quote = rest.first, quote == "\"" || quote == "'" else { return nil }
        let value = rest.dropFirst().prefix { $0 != quote }
        return String(value)
    }

    private static func transcodeUTF16(_ bytes: [UInt8], bigEndian: Bool) -> [UInt8] {
        var units: [UInt16] = []
        units.reserveCapacity(bytes.count / 2)
        var index = 0
        while index + 1 < bytes.count {
            let unit =
                bigEndian
                ? UInt16(bytes[index]) << 8 | UInt16(bytes[index + 1])
                : UInt16(bytes[index + 1]) << 8 | UInt16(bytes[index])
            units.append(unit)
            index += 2
        }
        if units.first == 0xFEFF { units.removeFirst() }
        var text = String(decoding: units, as: UTF16.self)
        // The declaration still says UTF-16; the bytes are now UTF-8.
        if text.hasPrefix("<?xml"), let close = text.firstIndex(of: ">") {
            text.replaceSubrange(text.startIndex...close, with: "<?xml version=\"1.0\"?>")
        }
        return Array(text.utf8)
    }

    private static func transcodeLatin1(_ bytes: [UInt8]) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count + bytes.count / 8)
        for byte in bytes {
            if byte < 0x80 {
                output.append(byte)
            } else {
                output.append(0xC0 | (byte >> 6))
                output.append(0x80 | (byte & 0x3F))
            }
        }
        return output
    }
}
