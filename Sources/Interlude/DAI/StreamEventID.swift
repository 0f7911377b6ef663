import Foundation

/// Finds pod-serving event IDs in what a display reports as timed
/// metadata: `["TXXX": "google_…"]` from ID3, `["id3/TXXX": …]` as
/// AVFoundation names it, a raw frame's text (`"\u{0}google_…"`: a TXXX
/// frame's empty description and its value), or a DATERANGE client
/// attribute whose value is the ID. Whatever the key, a value holding
/// `google_` carries an ID from there to the first NUL, space or control
/// character, as Google's own HTML5 client reads it
/// (`sampleString.slice(sampleString.indexOf('google_'))`).
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

    /// The ID in one value, or nil when it holds none (or one too long or
    /// with characters no URL path may carry unencoded and no server writes).
    /// Found and cut on the UTF-8 bytes: every frame of a stream comes here.
    static func id(in value: String) -> String? {
        let prefix = prefixBytes
        var utf8 = value.utf8
        // Most values are the ID itself: no search.
        let start: String.UTF8View.Index
        if utf8.starts(with: prefix) {
            start = utf8.startIndex
        } else {
            guard let range = value.range(of: PodMetadata.eventIDPrefix) else { return nil }
            start = range.lowerBound
            utf8 = value.utf8
        }
        var end = start
        var length = 0
        while end < utf8.endIndex, utf8[end] > 0x20, utf8[end] < 0x7F {
            length += 1
            guard length <= maxLength else { return nil }
            end = utf8.index(after: end)
        }
        guard length > prefix.count else { return nil }
        // Most values are the ID and nothing else: the value itself, not a copy of it.
        if start == value.utf8.startIndex, end == value.utf8.endIndex { return value }
        return String(value[start..<end])
    }

    private static let prefixBytes = Array(PodMetadata.eventIDPrefix.utf8)
}
