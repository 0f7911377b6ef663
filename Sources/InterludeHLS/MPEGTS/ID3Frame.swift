/// One frame of an ID3v2 tag (id3.org ID3v2.4.0 frames, section 4).
///
/// Timed metadata for ads uses `TXXX` (Google's pod serving puts the event ID
/// `google_…` in its value) and `PRIV`; other text frames are decoded, and
/// every other frame is kept with its bytes as read.
public enum ID3Frame: Sendable, Hashable {
    /// `TXXX`, user-defined text information: a description and a value.
    case userText(description: String, value: String)
    /// `PRIV`, private data: an owner identifier (a URL or e-mail address,
    /// ISO-8859-1) and bytes.
    case privateData(owner: String, data: [UInt8])
    /// A text information frame other than `TXXX` (`TIT2`, `TPE1`, …): its
    /// identifier and text (several values stay separated by U+0000).
    case text(id: String, value: String)
    /// Any other frame: its four-character identifier and data bytes.
    case other(id: String, data: [UInt8])

    /// The four-character frame identifier (`TXXX`, `PRIV`, …).
    public var id: String {
        switch self {
        case .userText: return "TXXX"
        case .privateData: return "PRIV"
        case .text(let id, _), .other(let id, _): return id
        }
    }

    /// The value of a `TXXX` or other text frame; nil for other frames.
    public var textValue: String? {
        switch self {
        case .userText(_, let value), .text(_, let value): return value
        case .privateData, .other: return nil
        }
    }

    /// True for an identifier of four characters `A`–`Z` and `0`–`9`.
    static func isValidIdentifier<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> Bool {
        bytes.count == 4 && bytes.allSatisfy { (0x41...0x5A).contains($0) || (0x30...0x39).contains($0) }
    }

    /// Decodes a frame's data (already without unsynchronisation and flag bytes).
    static func decode(id: String, data: ArraySlice<UInt8>) throws(MPEGTSError) -> ID3Frame {
        switch id {
        case "TXXX":
            guard let encoding = data.first else {
                throw MPEGTSError(.invalidID3Frame, "TXXX frame has no text encoding byte")
            }
            let text = data.dropFirst()
            let split = try ID3Text.split(text, encoding: encoding, frame: id)
            // All strings of a frame share one byte order (ID3v2.4.0 structure,
            // section 4): a value written without its own BOM is read in the description's.
            let valueIsBigEndian = ID3Text.utf16IsBigEndian(byteOrderMarkOf: split.first) ?? true
            return .userText(
                description: try ID3Text.decode(split.first, encoding: encoding, frame: id),
                value: try ID3Text.decode(
                    split.rest, encoding: encoding, frame: id, bigEndianWithoutBOM: valueIsBigEndian))
        case "PRIV":
            guard let end = data.firstIndex(of: 0) else {
                throw MPEGTSError(.invalidID3Frame, "PRIV frame owner identifier has no terminator")
            }
            return .privateData(
                owner: ID3Text.decodeLatin1(data[data.startIndex..<end]), data: Array(data[(end + 1)...]))
        default:
            if id.hasPrefix("T") {
                guard let encoding = data.first else {
                    throw MPEGTSError(.invalidID3Frame, "\(id) frame has no text encoding byte")
                }
                return .text(id: id, value: try ID3Text.decode(data.dropFirst(), encoding: encoding, frame: id))
            }
            return .other(id: id, data: Array(data))
        }
    }

    /// The frame's data bytes as ID3v2.4 writes them: text as UTF-8
    /// (encoding 3), the PRIV owner as ISO-8859-1.
    func encodedData() throws(MPEGTSError) -> [UInt8] {
        switch self {
        case .userText(let description, let value):
            guard !description.utf8.contains(0) else {
                throw MPEGTSError(.invalidArgument, "a TXXX description cannot contain U+0000")
            }
            return [ID3Text.utf8Encoding] + Array(description.utf8) + [0] + Array(value.utf8)
        case .privateData(let owner, let data):
            guard !owner.utf8.contains(0) else {
                throw MPEGTSError(.invalidArgument, "a PRIV owner identifier cannot contain U+0000")
            }
            return ID3Text.encodeLatin1(owner) + [0] + data
        case .text(_, let value):
            return [ID3Text.utf8Encoding] + Array(value.utf8)
        case .other(_, let data):
            return data
        }
    }
}

/// ID3v2 text encodings (ID3v2.4.0 structure, section 4): 0 ISO-8859-1,
/// 1 UTF-16 with byte order mark, 2 UTF-16BE, 3 UTF-8; strings end with a
/// 0x00 (0x00 0x00 for UTF-16) terminator.
enum ID3Text {
    static let utf8Encoding: UInt8 = 3

    /// Splits text at its first terminator: the string before it and the bytes after.
    static func split(_ bytes: ArraySlice<UInt8>, encoding: UInt8, frame: String) throws(MPEGTSError) -> (
        first: ArraySlice<UInt8>, rest: ArraySlice<UInt8>
    ) {
        switch encoding {
        case 0, 3:
            guard let end = bytes.firstIndex(of: 0) else { return (bytes, []) }
            return (bytes[bytes.startIndex..<end], bytes[(end + 1)...])
        case 1, 2:
            var index = bytes.startIndex
            while index + 1 < bytes.endIndex {
                if bytes[index] == 0 && bytes[index + 1] == 0 {
                    return (bytes[bytes.startIndex..<index], bytes[(index + 2)...])
                }
                index += 2
            }
            return (bytes, [])
        default:
            throw MPEGTSError(.invalidID3Frame, "\(frame) frame has text encoding \(encoding), not 0…3")
        }
    }

    /// The byte order a UTF-16 string's BOM states: true for FE FF, false
    /// for FF FE, nil without one.
    static func utf16IsBigEndian(byteOrderMarkOf bytes: ArraySlice<UInt8>) -> Bool? {
        guard bytes.count >= 2 else { return nil }
        switch (bytes[bytes.startIndex], bytes[bytes.startIndex + 1]) {
        case (0xFE, 0xFF): return true
        case (0xFF, 0xFE): return false
        default: return nil
        }
    }

    /// Decodes one string, dropping trailing terminators; malformed UTF-8 or
    /// UTF-16 is repaired with U+FFFD rather than rejected. UTF-16 with a BOM
    /// (encoding 1) is read in the order the BOM states, or without one in
    /// `bigEndianWithoutBOM`'s.
    static func decode(
        _ bytes: ArraySlice<UInt8>, encoding: UInt8, frame: String, bigEndianWithoutBOM: Bool = true
    ) throws(MPEGTSError) -> String {
        var bytes = bytes
        switch encoding {
        case 0, 3:
            while bytes.last == 0 { bytes.removeLast() }
            return encoding == 0 ? decodeLatin1(bytes) : String(decoding: bytes, as: UTF8.self)
        case 1, 2:
            var bigEndian = true
            if encoding == 1 {
                bigEndian = bigEndianWithoutBOM
                if let stated = utf16IsBigEndian(byteOrderMarkOf: bytes) {
                    bigEndian = stated
                    bytes = bytes.dropFirst(2)
                }
            }
            var units: [UInt16] = []
            units.reserveCapacity(bytes.count / 2)
            var index = bytes.startIndex
            while index + 1 < bytes.endIndex {
                let high = bigEndian ? bytes[index] : bytes[index + 1]
                let low = bigEndian ? bytes[index + 1] : bytes[index]
                units.append(UInt16(high) << 8 | UInt16(low))
                index += 2
            }
            while units.last == 0 { units.removeLast() }
            return String(decoding: units, as: UTF16.self)
        default:
            throw MPEGTSError(.invalidID3Frame, "\(frame) frame has text encoding \(encoding), not 0…3")
        }
    }

    static func decodeLatin1(_ bytes: ArraySlice<UInt8>) -> String {
        if bytes.allSatisfy({ $0 < 0x80 }) { return String(decoding: bytes, as: UTF8.self) }
        var scalars = String.UnicodeScalarView()
        for byte in bytes { scalars.append(Unicode.Scalar(byte)) }
        return String(scalars)
    }

    /// ISO-8859-1 bytes of `text`; a character outside it becomes `?`.
    static func encodeLatin1(_ text: String) -> [UInt8] {
        text.unicodeScalars.map { $0.value <= 0xFF ? UInt8($0.value) : 0x3F }
    }
}
