import Foundation

/// The pod-serving API's metadata for a stream (DAI.md §2), read from
/// `GET {metadata_url}`. Live, as Google's pod-serving metadata:
///
/// ```json
/// {"tags": {"google_0123": {"ad": "a1", "ad_break_id": "b1", "type": "start"}},
///  "ads": {"a1": {"ad_break_id": "b1", "position": 1, "duration": 10, "title": "…",
///                 "clickthrough_url": "https://…", "click_tracking_urls": ["…"], "slate": false}},
///  "ad_breaks": {"b1": {"type": "mid", "duration": 30, "expected_duration": 30, "ads": 3}}}
/// ```
///
/// VOD adds the stitched timeline as `interlude serve` writes it (schema
/// ours), every time in stream seconds, each event with the full ID it
/// verifies with:
///
/// ```json
/// {"breaks": [{"id": "vod_0", "type": "pre", "content_time": 0, "start": 0, "duration": 20,
///              "ads": [{"id": "a1", "position": 1, "start": 0, "duration": 10, "title": "…",
///                       "clickthrough_url": "…", "click_tracking_urls": ["…"],
///                       "events": [{"type": "start", "id": "google_…", "time": 0}, …]}]}],
///  "tags": {…}}
/// ```
///
/// Unknown fields are ignored; malformed entries are left out and counted.
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
        /// Pinged when the user clicks through (`click_tracking_urls`).
        var clickTrackingURLs: [String] = []
        var isSlate = false
    }

    /// One `ad_breaks` entry.
    struct BreakInfo: Sendable, Hashable {
        var id: String
        /// `pre`, `mid` or `post`, when given.
        var type: String?
        var duration: TimeInterval?
        var expectedDuration: TimeInterval?
        /// How many ads the break holds (`ads`, slate not counted).
        var adCount: Int?
    }

    /// One break of a VOD timeline (`breaks`).
    struct VODBreak: Sendable, Hashable {
        var id: String
        /// `pre`, `mid` or `post`, when given.
        var type: String?
        /// Content seconds where the break sits (`content_time`).
        var contentTime: TimeInterval?
        /// Stream seconds where it starts.
        var start: TimeInterval
        var duration: TimeInterval?
        var ads: [VODAd]
    }

    /// One ad of a VOD break.
    struct VODAd: Sendable, Hashable {
        var info: AdInfo
        /// Stream seconds; back to back from the break's start when absent.
        var start: TimeInterval?
        var events: [VODEvent]
    }

    /// One event of a VOD ad: the ID it verifies with and when it fires.
    struct VODEvent: Sendable, Hashable {
        var kind: EventKind
        var id: String
        var time: TimeInterval?
    }

    /// Why a metadata document was not used.
    struct ParseError: Error, Sendable, Hashable, CustomStringConvertible {
        var description: String
    }

    var tags: [String: Tag] = [:]
    var ads: [String: AdInfo] = [:]
    var breaks: [String: BreakInfo] = [:]
    /// VOD: the stitched timeline, in the document's order; nil when the
    /// document has none (live, or a VOD stream told by timed metadata).
    var vodBreaks: [VODBreak]?
    /// Entries left out because they were malformed or named an ad that does not exist.
    var skippedEntries = 0
    /// Lengths of the tag keys, longest first, for prefix lookup.
    private var keyLengths: [Int] = []

    static let eventIDPrefix = "google_"
    static let maxDocumentSize = 2 * 1024 * 1024
    static let maxTags = 20_000
    static let maxAds = 5_000
    static let maxBreaks = 1_000
    /// Most ads and events in a VOD timeline.
    static let maxTimelineEntries = 20_000

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
        if let timeline = document.timeline {
            let entries = timeline.reduce(0) { total, item in
                total + 1 + (item.value?.ads.reduce(0) { $0 + 1 + ($1.value?.events.count ?? 0) } ?? 0)
            }
            guard timeline.count <= Self.maxBreaks, entries <= Self.maxTimelineEntries else {
                throw ParseError(
                    description:
                        "metadata's timeline has \(timeline.count) breaks and \(entries) entries (most accepted: \(Self.maxBreaks), \(Self.maxTimelineEntries))"
                )
            }
        }
        for (id, entry) in rawBreaks {
            guard let fields = entry.value, !id.isEmpty else {
                skippedEntries += 1
                continue
            }
            breaks[id] = BreakInfo(
                id: id, type: fields.type?.lowercased(), duration: Self.seconds(fields.duration),
                expectedDuration: Self.seconds(fields.expectedDuration), adCount: Self.count(fields.ads))
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
        vodBreaks = document.timeline.map { entries in
            entries.compactMap { entry -> VODBreak? in
                guard let fields = entry.value else {
                    skippedEntries += 1
                    return nil
                }
                return vodBreak(fields)
            }
        }
    }

    private mutating func vodBreak(_ fields: MetadataDocument.VODBreakFields) -> VODBreak? {
        guard let start = Self.seconds(fields.start) else {
            skippedEntries += 1
            return nil
        }
        let ads = fields.ads.compactMap { entry -> VODAd? in
            guard let ad = entry.value, !ad.id.isEmpty else {
                skippedEntries += 1
                return nil
            }
            var info = Self.adInfo(id: ad.id, ad.common)
            info.breakID = fields.id
            let events = ad.events.compactMap { event -> VODEvent? in
                guard let event = event.value, !event.id.isEmpty else { return nil }
                return VODEvent(kind: EventKind(rawValue: event.type), id: event.id, time: Self.seconds(event.time))
            }
            return VODAd(info: info, start: Self.seconds(ad.start), events: events)
        }
        return VODBreak(
            id: fields.id, type: fields.type?.lowercased(), contentTime: Self.seconds(fields.contentTime), start: start,
            duration: Self.seconds(fields.duration), ads: ads)
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
            // A key as long as the ID is the ID: looked up as it is, without a copy.
            if length == utf8.count {
                if let tag = tags[eventID] { return tag }
                continue
            }
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
        info.clickTrackingURLs = (fields.clickTrackingURLs ?? []).filter(\.isHTTPURLString)
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

    /// Non-negative seconds below 10^12 (the bound the timed-metadata
    /// queue puts on presentation times): a larger number is no stream's,
    /// and letting it through trapped the countdown's `Int` conversion.
    static func seconds(_ value: Double?) -> TimeInterval? {
        guard let value, value.isFinite, value >= 0, value < 1e12 else { return nil }
        return value
    }

    private static func count(_ value: Double?) -> Int? {
        guard let number = seconds(value), number < 1_000_000 else { return nil }
        return Int(number)
    }
}
