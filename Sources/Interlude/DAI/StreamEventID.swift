import Foundation

/// Finds pod-serving event IDs in what a display reports as timed
/// metadata: `["TXXX": "google_…"]` from ID3, `["id3/TXXX": …]` as
/// AVFoundation names it, a raw frame's or tag's text (`"\u{0}google_…"`:
/// a TXXX frame's empty description and its value), a frame printed as
/// text (`"TXXX: description=: values=[google_…]"`), or a DATERANGE client
/// attribute whose value is the ID. Whatever the key, an ID begins where
/// `google_` begins a word (Google's HTML5 client takes the text from the
/// first `google_`: `sampleString.slice(sampleString.indexOf('google_'))`)
/// and runs to the first character an ID is not made of.
enum StreamEventID {
    /// Longest ID accepted (Google's are a few dozen characters).
    static let maxLength = 256

    /// The IDs in one metadata report, in key order (deterministic), without repeats.
    static func ids(in metadata: [String: String]) -> [String] {
        // Almost every report is one frame: no sorting, no repeat check.
        if metadata.count == 1, let value = metadata.first?.value { return id(in: value).map { [$0] } ?? [] }
        guard !metadata.isEmpty else { return [] }
        var found: [String] = []
        for key in metadata.keys.sorted() {
            guard let value = metadata[key], let id = id(in: value), !found.contains(id) else { continue }
            found.append(id)
        }
        return found
    }

    /// The ID in one value, or nil when it holds none (or one too long).
    /// An ID is made of the characters a URL path carries unencoded (RFC
    /// 3986 unreserved: letters, digits, `-`, `.`, `_`, `~`), since it is
    /// appended to the verification URL as it is; a quote, bracket or comma
    /// after it is the wrapping of the text a player made, not the ID. A
    /// `google_` inside a longer word (`mygoogle_…`) starts none. Found and
    /// cut on the UTF-8 bytes: every frame of a stream comes here.
    static func id(in value: String) -> String? {
        let prefix = prefixBytes
        let utf8 = value.utf8
        var start = utf8.startIndex
        // Most values are the ID itself: no search.
        if !utf8.starts(with: prefix) {
            var searchFrom = utf8.startIndex
            while true {
                guard let range = utf8[searchFrom...].firstRange(of: prefix) else { return nil }
                if !isIDByte(utf8[utf8.index(before: range.lowerBound)]) {
                    start = range.lowerBound
                    break
                }
                searchFrom = range.upperBound
            }
        }
        var end = start
        var length = 0
        while end < utf8.endIndex, isIDByte(utf8[end]) {
            length += 1
            guard length <= maxLength else { return nil }
            end = utf8.index(after: end)
        }
        guard length > prefix.count else { return nil }
        // Most values are the ID and nothing else: the value itself, not a copy of it.
        if start == utf8.startIndex, end == utf8.endIndex { return value }
        return String(value[start..<end])
    }

    /// RFC 3986 unreserved: `A`–`Z`, `a`–`z`, `0`–`9`, `-`, `.`, `_`, `~`.
    private static func isIDByte(_ byte: UInt8) -> Bool {
        switch byte {
        case 0x30...0x39, 0x41...0x5A, 0x61...0x7A, 0x2D, 0x2E, 0x5F, 0x7E: return true
        default: return false
        }
    }

    private static let prefixBytes = Array(PodMetadata.eventIDPrefix.utf8)
}
