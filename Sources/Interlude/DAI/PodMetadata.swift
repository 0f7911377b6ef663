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
        guard let object = JSONValue.object(from: data) else {
            throw ParseError(description: "metadata is not a JSON object")
        }
        let rawTags = object["tags"]?.object ?? [:]
        let rawAds = object["ads"]?.object ?? [:]
        let rawBreaks = object["ad_breaks"]?.object ?? [:]
        guard rawTags.count <= Self.maxTags, rawAds.count <= Self.maxAds, rawBreaks.count <= Self.maxBreaks else {
            throw ParseError(
                description:
                    "metadata has \(rawTags.count) tags, \(rawAds.count) ads, \(rawBreaks.count) breaks (most accepted: \(Self.maxTags), \(Self.maxAds), \(Self.maxBreaks))"
            )
        }
        for (id, value) in rawBreaks {
            guard let entry = value.object, !id.isEmpty else {
                skippedEntries += 1
                continue
            }
            breaks[id] = BreakInfo(
                id: id, type: entry["type"]?.string?.lowercased(), duration: Self.seconds(entry["duration"]),
                expectedDuration: Self.seconds(entry["expected_duration"]), adCount: Self.count(entry["ads"]),
                start: Self.seconds(entry["start"]))
        }
        for (id, value) in rawAds {
            guard let entry = value.object, !id.isEmpty else {
                skippedEntries += 1
                continue
            }
            ads[id] = Self.adInfo(id: id, entry)
        }
        for (key, value) in rawTags {
            guard let entry = value.object, let adID = entry["ad"]?.string, let type = entry["type"]?.string,
                !key.isEmpty
            else {
                skippedEntries += 1
                continue
            }
            let breakID = entry["ad_break_id"]?.string ?? ads[adID]?.breakID ?? ""
            tags[Self.normalizedKey(key)] = Tag(adID: adID, breakID: breakID, kind: EventKind(rawValue: type))
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

    private static func adInfo(id: String, _ entry: [String: JSONValue]) -> AdInfo {
        var info = AdInfo(id: id)
        info.breakID = entry["ad_break_id"]?.string
        info.position = count(entry["position"])
        info.duration = seconds(entry["duration"])
        info.title = entry["title"]?.string ?? ""
        info.description = entry["description"]?.string ?? ""
        info.advertiser = entry["advertiser"]?.string ?? ""
        info.adSystem = entry["ad_system"]?.string ?? ""
        info.adServerID = entry["ad_id"]?.string
        info.creativeID = entry["creative_id"]?.string ?? ""
        info.creativeAdID = entry["creative_ad_id"]?.string ?? ""
        info.dealID = entry["deal_id"]?.string ?? ""
        info.clickThroughURL = clickThrough(entry["clickthrough_url"]?.string)
        info.isSlate = entry["slate"]?.bool ?? false
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

    /// Non-negative finite seconds from a number or numeric string.
    static func seconds(_ value: JSONValue?) -> TimeInterval? {
        guard let number = value?.number, number.isFinite, number >= 0 else { return nil }
        return number
    }

    private static func count(_ value: JSONValue?) -> Int? {
        guard let number = seconds(value), number < 1_000_000 else { return nil }
        return Int(number)
    }
}
