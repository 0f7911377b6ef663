import Foundation

/// Which ads fill one break of one stream: made once, stored, and never
/// changed, so every server process answers every request for the break alike.
public struct PodBreakDecision: Sendable, Hashable, Codable {
    /// The stream.
    public var streamID: String
    /// The break: `pod_{n}` for `pod/{n}`, the ad break ID for
    /// `ad_break_id/{id}`, `vod_{index}` for VOD pods.
    public var breakID: String
    /// ``PodEventID/breakDigest(streamID:breakID:)`` of the two.
    public var breakDigest: String
    /// Milliseconds asked for: `pd` (live) or the VOD pod length of the rules.
    public var requestedDuration: Int
    /// Milliseconds the pod lasts: `pd` for live (with slate), the ads' sum
    /// for VOD and for live pods that return to content.
    public var duration: Int
    /// Milliseconds of slate after the last ad.
    public var slateDuration: Int
    /// The ads in play order.
    public var ads: [PodAd]
    /// Targeting parameters the decision was made with (the stream's).
    public var targeting: [String: String]
    /// When it was made.
    public var decidedAt: Date

    public init(
        streamID: String, breakID: String, breakDigest: String, requestedDuration: Int, duration: Int,
        slateDuration: Int, ads: [PodAd], targeting: [String: String], decidedAt: Date
    ) {
        self.streamID = streamID
        self.breakID = breakID
        self.breakDigest = breakDigest
        self.requestedDuration = requestedDuration
        self.duration = duration
        self.slateDuration = slateDuration
        self.ads = ads
        self.targeting = targeting
        self.decidedAt = decidedAt
    }

    /// Every event of every ad.
    public var events: [PodAdEvent] { ads.flatMap(\.events) }

    /// The ad at `position` (1-based).
    public func ad(at position: Int) -> PodAd? { ads.first { $0.position == position } }

    /// The decision as serving pods needs it: each ad's ``PodAd/vast`` empty
    /// and ``PodAd/beacons`` without URLs. Those documents make most of a
    /// decision's size and are read only from the store (the stream report,
    /// the beacon outbox), so the in-memory cache holds this form.
    public func withoutDocuments() -> PodBreakDecision {
        var copy = self
        for index in copy.ads.indices {
            copy.ads[index].vast = ""
            copy.ads[index].beacons = [:]
        }
        return copy
    }
}

/// One ad of a pod.
public struct PodAd: Sendable, Hashable, Codable {
    /// 1-based position in the pod.
    public var position: Int
    /// `{breakID}_ad{position}`: the key of the metadata's `ads` and the ad
    /// in beacon URLs.
    public var adID: String
    /// The catalog creative.
    public var creativeID: String
    /// `AdTitle`.
    public var title: String
    /// `Advertiser`.
    public var advertiser: String
    /// The click-through page.
    public var clickThrough: String
    /// Milliseconds it plays for.
    public var duration: Int
    /// Milliseconds from the start of the pod.
    public var offset: Int
    /// Its timed-metadata events.
    public var events: [PodAdEvent]
    /// The ad's VAST 4.2 document, with ``DocumentTemplate/baseURLSentinel``
    /// where the server's base URL goes (empty in ``PodBreakDecision/withoutDocuments()``).
    public var vast: String
    /// Tracking URL templates per event type (raw value), as in the VAST:
    /// the URLs server-side beaconing fires on the event's first verification
    /// (empty in ``PodBreakDecision/withoutDocuments()``).
    public var beacons: [String: [String]]

    public init(
        position: Int, adID: String, creativeID: String, title: String, advertiser: String, clickThrough: String,
        duration: Int, offset: Int, events: [PodAdEvent], vast: String, beacons: [String: [String]]
    ) {
        self.position = position
        self.adID = adID
        self.creativeID = creativeID
        self.title = title
        self.advertiser = advertiser
        self.clickThrough = clickThrough
        self.duration = duration
        self.offset = offset
        self.events = events
        self.vast = vast
        self.beacons = beacons
    }
}

/// One timed-metadata event of an ad.
public struct PodAdEvent: Sendable, Hashable, Codable {
    /// What it reports.
    public var type: PodEventType
    /// The event ID (``PodEventID``).
    public var id: String
    /// Milliseconds into the ad.
    public var offset: Int

    public init(type: PodEventType, id: String, offset: Int) {
        self.type = type
        self.id = id
        self.offset = offset
    }
}
