import Foundation

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
        var clickTrackingURLs: [String]?
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
            case clickTrackingURLs = "click_tracking_urls"
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
            clickTrackingURLs = try? container.decodeIfPresent([String].self, forKey: .clickTrackingURLs)
            position = container.lenientNumber(.position)
            duration = container.lenientNumber(.duration)
            slate = try? container.decodeIfPresent(Bool.self, forKey: .slate)
        }
    }

    struct BreakFields: Decodable {
        var type: String?
        var duration, expectedDuration, ads: Double?
        enum CodingKeys: String, CodingKey {
            case type, duration
            case expectedDuration = "expected_duration"
            case ads
        }
        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            type = container.lenientString(.type)
            duration = container.lenientNumber(.duration)
            expectedDuration = container.lenientNumber(.expectedDuration)
            ads = container.lenientNumber(.ads)
        }
    }

    struct VODEventFields: Decodable {
        var type: String
        var id: String
        var time: Double?
        enum CodingKeys: String, CodingKey { case type, id, time }
        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            type = try container.decode(String.self, forKey: .type)
            id = try container.decode(String.self, forKey: .id)
            time = container.lenientNumber(.time)
        }
    }

    struct VODAdFields: Decodable {
        var id: String
        var start: Double?
        var common: AdFields
        var events: [Entry<VODEventFields>]
        enum CodingKeys: String, CodingKey { case id, start, events }
        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            id = try container.decode(String.self, forKey: .id)
            start = container.lenientNumber(.start)
            events = (try? container.decodeIfPresent([Entry<VODEventFields>].self, forKey: .events)) ?? []
            common = try AdFields(from: decoder)
        }
    }

    struct VODBreakFields: Decodable {
        var id: String
        var type: String?
        var contentTime, start, duration: Double?
        var ads: [Entry<VODAdFields>]
        enum CodingKeys: String, CodingKey {
            case id, type, start, duration, ads
            case contentTime = "content_time"
        }
        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            id = try container.decode(String.self, forKey: .id)
            type = container.lenientString(.type)
            contentTime = container.lenientNumber(.contentTime)
            start = container.lenientNumber(.start)
            duration = container.lenientNumber(.duration)
            ads = (try? container.decodeIfPresent([Entry<VODAdFields>].self, forKey: .ads)) ?? []
        }
    }

    var tags: [String: Entry<TagFields>]
    var ads: [String: Entry<AdFields>]
    var breaks: [String: Entry<BreakFields>]
    /// VOD: the `breaks` array.
    var timeline: [Entry<VODBreakFields>]?

    enum CodingKeys: String, CodingKey {
        case tags, ads
        case breaks = "ad_breaks"
        case timeline = "breaks"
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        tags = (try? container.decodeIfPresent([String: Entry<TagFields>].self, forKey: .tags)) ?? [:]
        ads = (try? container.decodeIfPresent([String: Entry<AdFields>].self, forKey: .ads)) ?? [:]
        breaks = (try? container.decodeIfPresent([String: Entry<BreakFields>].self, forKey: .breaks)) ?? [:]
        timeline = try? container.decodeIfPresent([Entry<VODBreakFields>].self, forKey: .timeline)
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
