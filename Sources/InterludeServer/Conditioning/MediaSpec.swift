/// What one generated media file looks like. Its ``contentHash`` names the
/// file, so changing any parameter makes a new file and an unchanged spec
/// reuses the cached one.
public struct MediaSpec: Sendable, Hashable {
    /// Bumped when the ffmpeg recipe changes, so old caches are not reused.
    public static let recipeVersion = 1

    /// The creative's id (start of the file name).
    public var creativeID: String
    /// Drawn on the video.
    public var title: String
    /// Whole seconds (ffmpeg sources are generated per second).
    public var durationSeconds: Int
    /// Frame width in pixels.
    public var width: Int
    /// Frame height in pixels.
    public var height: Int
    /// Video bitrate, kbps.
    public var videoBitrate: Int
    /// Tone pitch, Hz; differs per creative so that ads sound apart.
    public var toneFrequency: Int

    public init(creative: CatalogCreative, rendition: Rendition) {
        creativeID = creative.id
        title = creative.title
        durationSeconds = max(1, Int(creative.duration.rounded(.up)))
        width = rendition.width
        height = rendition.height
        videoBitrate = rendition.bitrate
        toneFrequency = 330 + Int(FNV1a.hash(creative.id) % 8) * 55
    }

    /// The parameters as one canonical line (what the hash covers).
    public var canonicalDescription: String {
        "recipe=\(Self.recipeVersion);id=\(creativeID);title=\(title);duration=\(durationSeconds);"
            + "size=\(width)x\(height);vbitrate=\(videoBitrate);tone=\(toneFrequency)"
    }

    /// FNV-1a 64-bit of ``canonicalDescription``, 16 hex digits.
    public var contentHash: String {
        let hex = String(FNV1a.hash(canonicalDescription), radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }

    /// The file name in `<data-dir>/media/`.
    public var fileName: String { "\(creativeID)-\(height)p-\(contentHash.prefix(12)).mp4" }

    /// The media file name of a rendition: its own `file`, or the generated one.
    public static func fileName(creative: CatalogCreative, rendition: Rendition) -> String {
        rendition.file ?? MediaSpec(creative: creative, rendition: rendition).fileName
    }
}

/// FNV-1a, 64 bit: a small stable hash (no CryptoKit on Linux). Used for
/// cache names, not for security.
enum FNV1a {
    static func hash(_ text: String) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01B3
        }
        return hash
    }
}
