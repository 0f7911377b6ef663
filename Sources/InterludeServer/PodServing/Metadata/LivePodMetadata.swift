import Foundation

/// `GET {metadata_url}` of a live stream, shaped as Google's pod-serving
/// metadata: `tags` (event-ID prefix → ad, break, type), `ads` and
/// `ad_breaks`, over every break of the stream decided so far, so every ID a
/// segment carried can be resolved.
struct LivePodMetadata: Encodable, Sendable {
    struct Tag: Encodable, Sendable {
        var ad: String
        var adBreakID: String
        var type: String

        enum CodingKeys: String, CodingKey {
            case ad
            case adBreakID = "ad_break_id"
            case type
        }
    }

    struct UniversalAdID: Encodable, Sendable {
        var idValue: String
        var idRegistry: String

        enum CodingKeys: String, CodingKey {
            case idValue = "id_value"
            case idRegistry = "id_registry"
        }
    }

    struct Ad: Encodable, Sendable {
        var adBreakID: String
        var position: Int
        /// Seconds.
        var duration: Double
        var title: String
        var description: String
        var advertiser: String
        var adSystem: String
        var adID: String
        var creativeID: String
        var clickthroughURL: String
        var clickTrackingURLs: [String]
        var slate: Bool
        var universalAdID: UniversalAdID?

        enum CodingKeys: String, CodingKey {
            case adBreakID = "ad_break_id"
            case position, duration, title, description, advertiser
            case adSystem = "ad_system"
            case adID = "ad_id"
            case creativeID = "creative_id"
            case clickthroughURL = "clickthrough_url"
            case clickTrackingURLs = "click_tracking_urls"
            case slate
            case universalAdID = "universal_ad_id"
        }
    }

    struct AdBreak: Encodable, Sendable {
        /// `mid` for every live break; `pre`, `mid` or `post` in VOD.
        var type: String
        /// Seconds the pod lasts.
        var duration: Double
        /// Seconds the VTP asked for (`pd`).
        var expectedDuration: Double
        /// Ads in the pod, slate not counted.
        var ads: Int

        enum CodingKeys: String, CodingKey {
            case type, duration
            case expectedDuration = "expected_duration"
            case ads
        }
    }

    var tags: [String: Tag] = [:]
    var ads: [String: Ad] = [:]
    var adBreaks: [String: AdBreak] = [:]

    enum CodingKeys: String, CodingKey {
        case tags, ads
        case adBreaks = "ad_breaks"
    }

    /// The metadata of `decisions`, links on `baseURL`.
    init(decisions: [PodBreakDecision], baseURL: String) {
        for decision in decisions {
            adBreaks[decision.breakID] = AdBreak(
                type: "mid", duration: PodTimeFormat.seconds(milliseconds: decision.duration),
                expectedDuration: PodTimeFormat.seconds(milliseconds: decision.requestedDuration),
                ads: decision.ads.count)
            for ad in decision.ads {
                for event in ad.events {
                    let key = PodEventID.tagKey(
                        breakDigest: decision.breakDigest, position: ad.position, type: event.type)
                    tags[key] = Tag(ad: ad.adID, adBreakID: decision.breakID, type: event.type.rawValue)
                }
                ads[ad.adID] = Self.ad(ad, in: decision, baseURL: baseURL)
            }
            if decision.slateDuration > 0 {
                ads["\(decision.breakID)_slate"] = Ad(
                    adBreakID: decision.breakID, position: decision.ads.count + 1,
                    duration: PodTimeFormat.seconds(milliseconds: decision.slateDuration), title: "", description: "",
                    advertiser: "", adSystem: "Interlude", adID: "\(decision.breakID)_slate", creativeID: "slate",
                    clickthroughURL: "", clickTrackingURLs: [], slate: true, universalAdID: nil)
            }
        }
    }

    static func ad(_ ad: PodAd, in decision: PodBreakDecision, baseURL: String) -> Ad {
        let links = ServerLinks(baseURL: baseURL, session: decision.streamID)
        return Ad(
            adBreakID: decision.breakID, position: ad.position,
            duration: PodTimeFormat.seconds(milliseconds: ad.duration),
            title: ad.title, description: "\(ad.title), \(ad.duration / 1000) s test creative",
            advertiser: ad.advertiser,
            adSystem: "Interlude", adID: ad.adID, creativeID: ad.creativeID, clickthroughURL: ad.clickThrough,
            clickTrackingURLs: [links.beacon(ad: ad.adID, event: "click")], slate: false,
            universalAdID: UniversalAdID(idValue: ad.creativeID, idRegistry: "interlude"))
    }
}
