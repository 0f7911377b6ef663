import Foundation

/// The pod-serving API's metadata for a stream (DAI.md §2), read from
/// `GET {metadata_url}`:
///
/// ```json
/// {"tags": {"google_0123": {"ad": "a1", "ad_break_id": "b1", "type": "start"}},
///  "ads": {"a1": {"ad_break_id": "b1", "position": 1, "duration": 10, "title": "…",
///                 "clickthrough_url": "https://…", "slate": false}},
///  "ad_breaks": {"b1": {"type": "mid", "duration": 30, "expected_duration": 30, "ads": 3, "start": 120}}}
/// ```
///
/// Live streams name the events their timed metadata carries; VOD streams
/// (ours) add each break's stream-time `start`, and their tag keys are the
/// full event IDs to verify. Unknown fields are ignored.
struct PodMetadata: Sendable, Hashable {
    /// A tag's event type (`type`). Open: a server may send more.
    struct EventKind: RawRepresentable, Sendable, Hashable {
        var rawValue: String
        init(rawValue: String) { self.rawValue = rawValue.lowercased() }
        static let start = EventKind(rawValue: "start")
        static let firstQuartile = EventKind(rawValue: "firstquartile")
        static let midpoint = EventKind(rawValue: "midpoint")
        static let thirdQuartile = EventKind(rawValue: "thirdquartile")
        static let complete = EventKind(rawValue: "complete")
        static let progress = EventKind(rawValue: "progress")
        /// The ad event it becomes (nil for `progress` and unknown types).
        var adEventType: AdEvent.EventType? {
            if self == .start { return .started }
            if self == .firstQuartile { return .firstQuartile }
            if self == .midpoint { return .midpoint }
            if self == .thirdQuartile { return .thirdQuartile }
            if self == .complete { return .complete }
            return nil
        }
    }

    /// One `tags` entry: which ad, break and event an event ID names.
    struct Tag: Sendable, Hashable {
        var adID: String
        var breakID: String
        var kind: EventKind
    }

    /// One `ads` entry.
    struct AdInfo: Sendable, Hashable {
        var id: String
        var breakID: String?
        /// 1-based position in the break.
        var position: Int?
        var duration: TimeInterval?
        var title = ""
        var description = ""
        var advertiser = ""
        var adSystem = ""
        /// The ad server's ad ID (`ad_id`); the key is used when absent.
        var adServerID: String?
        var creativeID = ""
        var creativeAdID = ""
        var dealID = ""
        var clickThroughURL: URL?
        var isSlate = false
    }

    /// One `ad_breaks` entry.
    struct BreakInfo: Sendable, Hashable {
        var id: String
        /// `pre`, `mid` or `post`, when given.
        var type: String?
        var duration: TimeInterval?
        var expectedDuration: TimeInterval?
        /// How many ads the break holds (`ads`).
        var adCount: Int?
        /// VOD (ours): the break's start in stream seconds.
        var start: TimeInterval?
    }

    /// Why a metadata document was not used.
    struct ParseError: Error, Sendable, Hashable, CustomStringConvertible {
        var description: String
    }

    var tags: [String: Tag] = [:]
    var ads: [String: AdInfo] = [:]
    var breaks: [String: BreakInfo] = [:]
    /// Entries left out because they were malformed or named an ad that does not exist.
    var skippedEntries = 0
    /// Lengths of the tag keys, longest first, for prefix lookup.
    private var keyLengths: [Int] = []

    static let eventIDPrefix = "google_"
    static let maxDocumentSize = 2 * 1024 * 1024
    static let maxTags = 20_000
    static let maxAds = 5_000
    static let maxBreaks = 1_000

    init() {}

    /// Reads a metadata document; throws when it is not a JSON object, too
    /// large, or holds more entries than a stream can.
    init(parsing data: Data) throws(ParseError) {
        guard data.count <= Self.maxDocumentSize else {
            throw ParseError(description: "metadata is larger than \(Self.maxDocumentSize) bytes")
        }
        let document: MetadataDocument
        do {
            document = try JSONDecoder().decode(MetadataDocument.self, from: data)
        } catch {
            throw ParseError(description: "metadata is not a JSON object")
        }
        let (rawTags, rawAds, rawBreaks) = (document.tags, document.ads, document.breaks)
        guard rawTags.count <= Self.maxTags, rawAds.count <= Self.maxAds, rawBreaks.count <= Self.maxBreaks else {
            throw ParseError(
                description:
                    "metadata has \(rawTags.count) tags, \(rawAds.count) ads, \(rawBreaks.count) breaks (most accepted: \(Self.maxTags), \(Self.maxAds), \(Self.maxBreaks))"
            )
        }
        for (id, entry) in rawBreaks {
            guard let fields = entry.value, !id.isEmpty else {
                skippedEntries += 1
                continue
            }
            breaks[id] = BreakInfo(
                id: id, type: fields.type?.lowercased(), duration: Self.seconds(fields.duration),
                expectedDuration: Self.seconds(fields.expectedDuration), adCount: Self.count(fields.ads),
                start: Self.seconds(fields.start))
        }
        for (id, entry) in rawAds {
            guard let fields = entry.value, !id.isEmpty else {
                skippedEntries += 1
                continue
            }
            ads[id] = Self.adInfo(id: id, fields)
        }
        for (key, entry) in rawTags {
            guard let fields = entry.value, !key.isEmpty else {
                skippedEntries += 1
                continue
            }
            let breakID = fields.adBreakID ?? ads[fields.ad]?.breakID ?? ""
            tags[Self.normalizedKey(key)] = Tag(
                adID: fields.ad, breakID: breakID, kind: EventKind(rawValue: fields.type))
        }
        keyLengths = Set(tags.keys.map(\.utf8.count)).sorted(by: >)
    }

    /// A key written without `google_` is read as if it had it.
    static func normalizedKey(_ key: String) -> String {
        key.hasPrefix(eventIDPrefix) ? key : eventIDPrefix + key
    }

    /// The tag naming `eventID`: the longest key that is a prefix of it, as
    /// Google's clients match (`mediaId.startsWith(key)`).
    func tag(forEventID eventID: String) -> Tag? {
        let utf8 = eventID.utf8
        for length in keyLengths where length <= utf8.count {
            let end = utf8.index(utf8.startIndex, offsetBy: length)
            if let tag = tags[String(eventID[..<end])] { return tag }
        }
        return nil
    }

    private static func adInfo(id: String, _ fields: MetadataDocument.AdFields) -> AdInfo {
        var info = AdInfo(id: id)
        info.breakID = fields.adBreakID
        info.position = count(fields.position)
        info.duration = seconds(fields.duration)
        info.title = fields.title ?? ""
        info.description = fields.description ?? ""
        info.advertiser = fields.advertiser ?? ""
        info.adSystem = fields.adSystem ?? ""
        info.adServerID = fields.adID
        info.creativeID = fields.creativeID ?? ""
        info.creativeAdID = fields.creativeAdID ?? ""
        info.dealID = fields.dealID ?? ""
        info.clickThroughURL = clickThrough(fields.clickThroughURL)
        info.isSlate = fields.slate ?? false
        return info
    }

    /// A click-through the SDK may open: http(s) only; `//host/…` gets `https:`
    /// as Google's sample does; `javascript:` and the like are refused.
    static func clickThrough(_ value: String?) -> URL? {
        guard var text = value?.trimmingWhitespace, !text.isEmpty else { return nil }
        if text.hasPrefix("//") { text = "https:" + text }
        guard let url = URL(string: text), url.isHTTPOrHTTPS, url.host != nil else { return nil }
        return url
    }

    /// Non-negative finite seconds.
    static func seconds(_ value: Double?) -> TimeInterval? {
        guard let value, value.isFinite, value >= 0 else { return nil }
        return value
    }

    private static func count(_ value: Double?) -> Int? {
        guard let number = seconds(value), number < 1_000_000 else { return nil }
        return Int(number)
    }
}

/// The metadata document's shape, read leniently: a malformed entry is
/// nil (left out and counted), a field of the wrong type is absent, and
/// numbers may come as numeric strings (`"12.5"`, `"12.5s"`). Typed
/// decoding, not a generic JSON tree: a large document is read once,
/// without an error thrown per value.
struct MetadataDocument: Decodable {
    struct Entry<Fields: Decodable>: Decodable {
        var value: Fields?
        init(from decoder: any Decoder) throws { value = try? Fields(from: decoder) }
    }

    struct TagFields: Decodable {
        var ad: String
        var type: String
        var adBreakID: String?
        enum CodingKeys: String, CodingKey {
            case ad
            case type
            case adBreakID = "ad_break_id"
        }
        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            ad = try container.decode(String.self, forKey: .ad)
            type = try container.decode(String.self, forKey: .type)
            adBreakID = container.lenientString(.adBreakID)
        }
    }

    struct AdFields: Decodable {
        var adBreakID, title, description, advertiser, adSystem, adID, creativeID, creativeAdID, dealID: String?
        var clickThroughURL: String?
        var position, duration: Double?
        var slate: Bool?
        enum CodingKeys: String, CodingKey {
            case adBreakID = "ad_break_id"
            case title, description, advertiser
            case adSystem = "ad_system"
            case adID = "ad_id"
            case creativeID = "creative_id"
            case creativeAdID = "creative_ad_id"
            case dealID = "deal_id"
            case clickThroughURL = "clickthrough_url"
            case position, duration, slate
        }
        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            adBreakID = container.lenientString(.adBreakID)
            title = container.lenientString(.title)
            description = container.lenientString(.description)
            advertiser = container.lenientString(.advertiser)
            adSystem = container.lenientString(.adSystem)
            adID = container.lenientString(.adID)
            creativeID = container.lenientString(.creativeID)
            creativeAdID = container.lenientString(.creativeAdID)
            dealID = container.lenientString(.dealID)
            clickThroughURL = container.lenientString(.clickThroughURL)
            position = container.lenientNumber(.position)
            duration = container.lenientNumber(.duration)
            slate = try? container.decodeIfPresent(Bool.self, forKey: .slate)
        }
    }

    struct BreakFields: Decodable {
        var type: String?
        var duration, expectedDuration, ads, start: Double?
        enum CodingKeys: String, CodingKey {
            case type, duration
            case expectedDuration = "expected_duration"
            case ads, start
        }
        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            type = container.lenientString(.type)
            duration = container.lenientNumber(.duration)
            expectedDuration = container.lenientNumber(.expectedDuration)
            ads = container.lenientNumber(.ads)
            start = container.lenientNumber(.start)
        }
    }

    var tags: [String: Entry<TagFields>]
    var ads: [String: Entry<AdFields>]
    var breaks: [String: Entry<BreakFields>]

    enum CodingKeys: String, CodingKey {
        case tags, ads
        case breaks = "ad_breaks"
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        tags = (try? container.decodeIfPresent([String: Entry<TagFields>].self, forKey: .tags)) ?? [:]
        ads = (try? container.decodeIfPresent([String: Entry<AdFields>].self, forKey: .ads)) ?? [:]
        breaks = (try? container.decodeIfPresent([String: Entry<BreakFields>].self, forKey: .breaks)) ?? [:]
    }
}

extension KeyedDecodingContainer {
    fileprivate func lenientString(_ key: Key) -> String? {
        try? decodeIfPresent(String.self, forKey: key)
    }

    /// A number, or a numeric string (`"12.5"`, `"12.5s"`); nil for anything else (`true` included).
    fileprivate func lenientNumber(_ key: Key) -> Double? {
        if let number = try? decodeIfPresent(Double.self, forKey: key) { return number }
        guard let text = try? decodeIfPresent(String.self, forKey: key) else { return nil }
        return Double(text.hasSuffix("s") ? String(text.dropLast()) : text)
    }
}
