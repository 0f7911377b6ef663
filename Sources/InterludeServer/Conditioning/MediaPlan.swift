import Foundation

/// Every rendition the catalog's streams need and where it lives: the pure
/// part shared by ``MediaBuilder`` (which makes what is missing) and
/// ``MediaLibrary`` (which reads what was made). Directories are named by a
/// content hash of everything that decides the bytes, so a changed title,
/// creative or profile makes new files and an unchanged one is reused.
public struct MediaPlan: Sendable {
    /// Bumped when an ffmpeg recipe or the segment layout changes (2: the
    /// PMT of conditioned segments declares the timed-ID3 stream).
    public static let recipeVersion = 2
    /// Seconds of continuous one-second slate segments per profile.
    public static let slateRunSeconds = 30

    /// What one rendition is made from.
    public enum Recipe: Sendable, Hashable {
        /// A generated pattern with a burnt-in clock: `title` for `duration` seconds, a beep every second at `tone` Hz.
        case pattern(title: String, duration: Double, tone: Int)
        /// A creative's source file (`media/…` relative to the data dir) transcoded; `duration` is nominal.
        case transcode(source: String, duration: Double, sourceIdentity: String)
        /// The slate: ``slateRunSeconds`` one-second segments, then tails of 1…fps−1 frames.
        case slate
    }

    /// What a rendition is for.
    public enum Item: Sendable, Hashable {
        /// A VOD title.
        case title(String)
        /// A live channel's looped source (shared by channels with the same title and length).
        case liveSource(String)
        /// A conditioned creative.
        case ad(String)
        /// The slate.
        case slate
    }

    /// One rendition: an item in one profile.
    public struct Entry: Sendable, Hashable {
        /// What it is for.
        public var item: Item
        /// The profile.
        public var profile: EncodingProfile
        /// Its directory relative to the data directory.
        public var directory: String
        /// How it is made.
        public var recipe: Recipe
        /// Hex content hash (also the end of ``directory``).
        public var contentHash: String

        /// True for conditioned ads and the slate, whose segments are stitched into
        /// streams and so declare the timed-ID3 stream in their PMT.
        public var isConditioned: Bool {
            switch item {
            case .ad, .slate: true
            case .title, .liveSource: false
            }
        }
    }

    /// The content segment duration, seconds.
    public let segmentDuration: Double
    /// The font drawn with; nil draws no text.
    public let fontFile: String?
    /// The renditions, in the order they are best made (long content first).
    public let renditions: [Entry]
    /// The creatives' MP4s (for VAST, and the sources of conditioned ads).
    public let mediaSpecs: [MediaSpec]

    /// The plan for `catalog` over `dataDirectory` (read only to identify
    /// provided source files by size and date).
    public init(catalog: Catalog, dataDirectory: URL, fontFile: String?) {
        let content = catalog.content
        segmentDuration = content.segmentDuration
        self.fontFile = fontFile
        mediaSpecs = MediaGenerator.specs(for: catalog)
        var renditions: [Entry] = []
        let hashBase =
            "recipe=\(Self.recipeVersion);segment=\(content.segmentDuration);font=\(fontFile ?? "none")"
        func add(_ item: Item, folder: String, recipe: Recipe, profiles: [EncodingProfile]) {
            for profile in profiles {
                let hash = Self.hash("\(hashBase);\(recipe);\(profile.recipeDescription)")
                renditions.append(
                    Entry(
                        item: item, profile: profile, directory: "\(folder)/\(profile.id)-\(hash.prefix(12))",
                        recipe: recipe, contentHash: hash))
            }
        }
        func profiles(_ ids: [String]?) -> [EncodingProfile] {
            guard let ids else { return content.profiles }
            return content.profiles.filter { ids.contains($0.id) }
        }
        for title in content.titles where title.origin == nil {
            add(
                .title(title.id), folder: "content/vod-\(title.id)",
                recipe: .pattern(title: title.title, duration: title.duration, tone: 440),
                profiles: profiles(title.profiles))
        }
        var sources = Set<String>()
        for channel in content.channels where channel.origin == nil {
            let key = Self.liveSourceKey(channel)
            // Channels with the same pictures share one source in the union of their profiles.
            guard sources.insert(key).inserted else { continue }
            let sharing = content.channels.filter { $0.origin == nil && Self.liveSourceKey($0) == key }
            let ids = Set(sharing.flatMap { $0.profiles ?? content.profiles.map(\.id) })
            add(
                .liveSource(key), folder: "content/\(key)",
                recipe: .pattern(title: channel.title, duration: channel.sourceDuration, tone: 660),
                profiles: content.profiles.filter { ids.contains($0.id) })
        }
        if !content.profiles.isEmpty {
            for creative in catalog.creatives {
                guard let source = Self.sourceRendition(of: creative) else { continue }
                let file = MediaSpec.fileName(creative: creative, rendition: source)
                let generated = source.file == nil
                let identity =
                    generated
                    ? "generated=\(MediaSpec(creative: creative, rendition: source).contentHash)"
                    : Self.fileIdentity(dataDirectory.appendingPathComponent("media/\(file)"))
                let duration = generated ? Double(max(1, Int(creative.duration.rounded(.up)))) : creative.duration
                add(
                    .ad(creative.id), folder: "conditioned/\(creative.id)",
                    recipe: .transcode(source: "media/\(file)", duration: duration, sourceIdentity: identity),
                    profiles: content.profiles)
            }
            add(.slate, folder: "conditioned/slate", recipe: .slate, profiles: content.profiles)
        }
        self.renditions = renditions
    }

    /// The renditions of `item`, in profile order.
    public func renditions(of item: Item) -> [Entry] { renditions.filter { $0.item == item } }

    /// The source key of a generated channel: channels with the same title
    /// and source length share it.
    static func liveSourceKey(_ channel: CatalogChannel) -> String {
        let slug = String(
            channel.title.lowercased().map { $0.isLetter || $0.isNumber ? $0 : "-" }.prefix(32))
        return "live-\(slug)-\(Int(channel.sourceDuration))s"
    }

    /// The creative's largest rendition: the best source for every profile.
    static func sourceRendition(of creative: CatalogCreative) -> Rendition? {
        creative.renditions.max { ($0.height, $0.bitrate) < ($1.height, $1.bitrate) }
    }

    /// A provided file is identified by name, size and modification time
    /// (hashing its bytes on every start would cost more than a start may).
    static func fileIdentity(_ url: URL) -> String {
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: url.path),
            let size = attributes[.size] as? NSNumber, let date = attributes[.modificationDate] as? Date
        else { return "file=\(url.lastPathComponent);missing" }
        return "file=\(url.lastPathComponent);size=\(size);mtime=\(date.timeIntervalSince1970)"
    }

    static func hash(_ text: String) -> String {
        let hex = String(FNV1a.hash(text), radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }
}
