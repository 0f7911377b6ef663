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
                // A byte-order mark outranks the declaration (XML 1.0, appendix F).
                guard bytes.starts(with: [0xEF, 0xBB, 0xBF]) else {
                    return PreparedXML(bytes: transcodeLatin1(bytes), warnings: [])
                }
                warnings.append(
                    VASTDiagnostic(
                        severity: .warning, code: .xmlParsingError,
                        message: "declares '\(declared)' but starts with a UTF-8 byte-order mark; read as UTF-8",
                        line: 1, column: 1))
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
        // Bytes, not String searching: this runs for every document, and for a
        // small wrapper a String search of the prolog cost over half of the parse.
        let name = Array("encoding".utf8)
        var index = start
        while index + name.count <= close, !bytes[index..<(index + name.count)].elementsEqual(name) { index += 1 }
        guard index + name.count <= close else { return nil }
        index += name.count
        while index < close, bytes[index].isXMLWhitespace || bytes[index] == UInt8(ascii: "=") { index += 1 }
        guard index < close, bytes[index] == UInt8(ascii: "\"") || bytes[index] == UInt8(ascii: "'") else { return nil }
        let quote = bytes[index]
        let valueStart = index + 1
        guard let valueEnd = bytes[valueStart..<close].firstIndex(of: quote) else { return nil }
        return String(decoding: bytes[valueStart..<valueEnd], as: UTF8.self)
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

    /// Latin-1 and windows-1252 bytes as UTF-8, both read as windows-1252,
    /// as the WHATWG Encoding Standard (so every browser, and the web ad
    /// players on them) reads both labels: 0x80–0x9F are the typographic
    /// quotes, dashes, € and so on, not C1 controls.
    private static func transcodeLatin1(_ bytes: [UInt8]) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count + bytes.count / 8)
        for byte in bytes {
            if byte < 0x80 {
                output.append(byte)
                continue
            }
            let scalar = (0x80...0x9F).contains(byte) ? windows1252C1[Int(byte - 0x80)] : UInt16(byte)
            if scalar < 0x800 {
                output.append(0xC0 | UInt8(scalar >> 6))
                output.append(0x80 | UInt8(scalar & 0x3F))
            } else {
                output.append(0xE0 | UInt8(scalar >> 12))
                output.append(0x80 | UInt8((scalar >> 6) & 0x3F))
                output.append(0x80 | UInt8(scalar & 0x3F))
            }
        }
        return output
    }

    /// windows-1252's 0x80–0x9F (WHATWG index); the five bytes it leaves
    /// undefined stay the C1 control of the same value.
    private static let windows1252C1: [UInt16] = [
        0x20AC, 0x0081, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021,
        0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0x008D, 0x017D, 0x008F,
        0x0090, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014,
        0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0x009D, 0x017E, 0x0178,
    ]
}
