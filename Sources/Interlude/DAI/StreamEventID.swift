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
    static func id(in value: String) -> String? {
        guard let range = value.range(of: PodMetadata.eventIDPrefix) else { return nil }
        var id = ""
        for scalar in value.unicodeScalars[range.lowerBound...] {
            guard scalar.value > 0x20, scalar.value < 0x7F else { break }
            id.unicodeScalars.append(scalar)
            guard id.utf8.count <= maxLength else { return nil }
        }
        return id.utf8.count > PodMetadata.eventIDPrefix.utf8.count ? id : nil
    }
}
