import Foundation

/// `GET {metadata_url}` of a VOD stream once the VTP has asked for its pods:
/// the stitched timeline, all times in stream seconds (`breaks`, schema
/// ours), and the same ads as Google's pod metadata gives them (`tags`,
/// `ads`, `ad_breaks`). Each ad lists its events with their IDs, so a client
/// verifies them as it plays; a client that knows only Google's schema
/// reads the IDs from the pod segments' timed ID3 and resolves them here.
struct VODPodMetadata: Encodable, Sendable {
    struct Event: Encodable, Sendable {
        var type: String
        var id: String
        /// Stream seconds.
        var time: Double
    }

    struct Ad: Encodable, Sendable {
        var id: String
        var position: Int
        var start: Double
        var duration: Double
        var title: String
        var advertiser: String
        var creativeID: String
        var clickthroughURL: String
        var clickTrackingURLs: [String]
        var events: [Event]

        enum CodingKeys: String, CodingKey {
            case id, position, start, duration, title, advertiser, events
            case creativeID = "creative_id"
            case clickthroughURL = "clickthrough_url"
            case clickTrackingURLs = "click_tracking_urls"
        }
    }

    struct Break: Encodable, Sendable {
        var id: String
        var index: Int
        var type: String
        var contentTime: Double
        var start: Double
        var duration: Double
        var midrollIndex: Int?
        var ads: [Ad]

        enum CodingKeys: String, CodingKey {
            case id, index, type, start, duration, ads
            case contentTime = "content_time"
            case midrollIndex = "midroll_index"
        }
    }

    var streamID: String
    var contentDuration: Double?
    /// Content plus ads (s), when the content's duration is known.
    var duration: Double?
    var breaks: [Break]
    /// Event-ID prefix → ad, break and type, as live metadata has them.
    var tags: [String: LivePodMetadata.Tag]
    /// Ad ID → the ad, as Google's pod metadata has them.
    var ads: [String: LivePodMetadata.Ad]
    /// Break ID → the break (`pre`, `mid`, `post`), as Google's pod metadata has them.
    var adBreaks: [String: LivePodMetadata.AdBreak]

    enum CodingKeys: String, CodingKey {
        case breaks, duration, tags, ads
        case adBreaks = "ad_breaks"
        case streamID = "stream_id"
        case contentDuration = "content_duration"
    }

    init(stream: PodStream, plan: PodVODPlan, timeline: VODTimeline, baseURL: String) {
        streamID = stream.id
        contentDuration = plan.contentDuration
        duration = plan.contentDuration.map { $0 + PodTimeFormat.seconds(milliseconds: timeline.adDuration) }
        var tags: [String: LivePodMetadata.Tag] = [:]
        let links = ServerLinks(baseURL: baseURL, session: stream.id)
        breaks = timeline.entries.map { entry in
            let decision = entry.decision
            let ads = decision.ads.map { ad -> Ad in
                let start = entry.streamStart + ad.offset
                let events = ad.events.map { event -> Event in
                    let key = PodEventID.tagKey(
                        breakDigest: decision.breakDigest, position: ad.position, type: event.type)
                    tags[key] = LivePodMetadata.Tag(ad: ad.adID, adBreakID: decision.breakID, type: event.type.rawValue)
                    return Event(
                        type: event.type.rawValue, id: event.id,
                        time: PodTimeFormat.seconds(milliseconds: start + event.offset))
                }
                return Ad(
                    id: ad.adID, position: ad.position, start: PodTimeFormat.seconds(milliseconds: start),
                    duration: PodTimeFormat.seconds(milliseconds: ad.duration), title: ad.title,
                    advertiser: ad.advertiser, creativeID: ad.creativeID, clickthroughURL: ad.clickThrough,
                    clickTrackingURLs: [links.beacon(ad: ad.adID, event: "click")], events: events)
            }
            return Break(
                id: decision.breakID, index: entry.plan.index, type: entry.plan.type,
                contentTime: entry.plan.contentOffset, start: PodTimeFormat.seconds(milliseconds: entry.streamStart),
                duration: PodTimeFormat.seconds(milliseconds: decision.duration), midrollIndex: entry.midrollIndex,
                ads: ads)
        }
        self.tags = tags
        let google = LivePodMetadata(decisions: timeline.entries.map(\.decision), baseURL: baseURL)
        ads = google.ads
        var adBreaks = google.adBreaks
        for entry in timeline.entries { adBreaks[entry.decision.breakID]?.type = entry.plan.type }
        self.adBreaks = adBreaks
    }
}
