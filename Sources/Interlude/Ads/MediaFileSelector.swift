import Foundation
import InterludeVAST

/// What the player can play and wants, for choosing among media files.
public struct MediaPreferences: Sendable, Hashable {
    /// MIME types the player plays, in no particular order. Default: MP4,
    /// HLS, QuickTime, WebM and 3GPP (never VPAID JavaScript or Flash).
    public var mimeTypes: [String]
    /// Preferred bitrate in kbps; nil picks by display height. IMA's `bitrate` (auto = −1).
    public var bitrate: Int?
    /// Height of the display in pixels, when known.
    public var displayHeight: Int?

    public static let defaultMIMETypes = [
        "video/mp4", "application/x-mpegurl", "application/vnd.apple.mpegurl", "video/quicktime", "video/webm",
        "video/3gpp",
    ]

    public init(mimeTypes: [String] = MediaPreferences.defaultMIMETypes, bitrate: Int? = nil, displayHeight: Int? = nil)
    {
        self.mimeTypes = mimeTypes
        self.bitrate = bitrate
        self.displayHeight = displayHeight
    }
}

/// Chooses the media file to play: by attributes, never by document order.
public enum MediaFileSelector {
    /// The best playable file, or nil when none has a supported type (error 403).
    public static func select(from files: [MediaFile], preferences: MediaPreferences) -> MediaFile? {
        let accepted = Set(preferences.mimeTypes.map { $0.lowercased() })
        let playable = files.filter { file in
            guard let type = mimeType(of: file), accepted.contains(type) else { return false }
            // VAST 2/3 VPAID and interactive files are not video the player can show.
            return file.apiFramework == nil || file.apiFramework?.isEmpty == true
        }
        guard !playable.isEmpty else { return nil }
        if let target = preferences.bitrate, target > 0 {
            // The highest bitrate not above the target, else the lowest there is.
            let rated = playable.map { ($0, $0.bitrate ?? $0.maxBitrate ?? 0) }
            if let best = rated.filter({ $0.1 <= target }).max(by: { $0.1 < $1.1 }) { return best.0 }
            return rated.min(by: { $0.1 < $1.1 })?.0
        }
        if let displayHeight = preferences.displayHeight {
            // The smallest file at least as tall as the display, else the tallest.
            let tall = playable.filter { ($0.height ?? 0) >= displayHeight }
            if let best = tall.min(by: { ($0.height ?? 0, $0.bitrate ?? 0) < ($1.height ?? 0, $1.bitrate ?? 0) }) {
                return best
            }
        }
        return playable.max { ($0.height ?? 0, $0.bitrate ?? 0) < ($1.height ?? 0, $1.bitrate ?? 0) }
    }

    /// The file's MIME type as the player matches it: the declared `type`
    /// lowercased, without parameters (`video/mp4; codecs="avc1.42E01E"` is
    /// `video/mp4`); for a file that declares none (VAST requires it; some
    /// servers leave it out), the type its URL's extension names, else nil.
    public static func mimeType(of file: MediaFile) -> String? {
        if let declared = file.type {
            let essence = declared.split(separator: ";", maxSplits: 1).first.map(String.init) ?? ""
            let type = essence.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
            if !type.isEmpty { return type }
        }
        var path = Substring(file.url.trimmingCharacters(in: .whitespacesAndNewlines))
        if let end = path.firstIndex(where: { $0 == "?" || $0 == "#" }) { path = path[..<end] }
        guard let dot = path.lastIndex(of: "."), !path[dot...].contains("/") else { return nil }
        return extensionTypes[path[path.index(after: dot)...].lowercased()]
    }

    private static let extensionTypes = [
        "mp4": "video/mp4", "m4v": "video/mp4", "m3u8": "application/x-mpegurl", "mov": "video/quicktime",
        "webm": "video/webm", "3gp": "video/3gpp",
    ]
}
