import Foundation

/// Reads the text forms a SCTE-35 section takes in playlists: hex, with
/// `0x` (DATERANGE `SCTE35-OUT`) or without it (some OATCLS writers), and
/// base64, padded or not (packagers that strip the `=` exist; threefive,
/// which real cue tools are built on, pads before decoding), in the
/// standard alphabet or the URL-safe one (RFC 4648 section 5: `-` and `_`
/// for `+` and `/`, written by tools that carry payloads in URLs).
package enum SCTE35Text {
    /// The section's bytes, nil when `text` is neither hex nor base64.
    /// Surrounding blanks are ignored.
    package static func bytes(_ text: String) -> [UInt8]? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if isHex(trimmed), let bytes = HLSHex.decode(trimmed) { return bytes }
        return base64(trimmed)
    }

    /// True for text that can only be hex: `0x…`, or a section's first byte
    /// (table_id 0xFC) written out, which base64 writes as `/…`.
    package static func isHex(_ text: String) -> Bool {
        text.hasPrefix("0x") || text.hasPrefix("0X") || text.hasPrefix("FC") || text.hasPrefix("fc")
    }

    /// Base64 with or without its `=` padding, in either alphabet (not both).
    package static func base64(_ text: String) -> [UInt8]? {
        let remainder = text.utf8.count % 4
        // One character past a group of four cannot end base64.
        guard remainder != 1 else { return nil }
        var standard = text
        if text.utf8.contains(where: { $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: "_") }) {
            guard !text.utf8.contains(where: { $0 == UInt8(ascii: "+") || $0 == UInt8(ascii: "/") }) else { return nil }
            standard = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        }
        let padded = remainder == 0 ? standard : standard + String(repeating: "=", count: 4 - remainder)
        return Data(base64Encoded: padded).map { [UInt8]($0) }
    }
}
