import Foundation

/// `GET /api/streams/{stream_id}`: everything the server knows of a stream
/// (ours): its registration, each decided break with its ads and their
/// events, which events were verified and what their beacons did.
struct StreamReport: Encodable, Sendable {
    struct Event: Encodable, Sendable {
        var type: String
        var id: String
        /// Milliseconds into the ad.
        var offset: Int
        var verifiedAt: String?
        var beaconsSent: Int
        var beaconsPending: Int
        var beaconsAbandoned: Int

        enum CodingKeys: String, CodingKey {
            case type, id, offset
            case verifiedAt = "verified_at"
            case beaconsSent = "beacons_sent"
            case beaconsPending = "beacons_pending"
            case beaconsAbandoned = "beacons_abandoned"
        }
    }

    struct Ad: Encodable, Sendable {
        var id: String
        var position: Int
        var creativeID: String
        var title: String
        var duration: Int
        var offset: Int
        var events: [Event]

        enum CodingKeys: String, CodingKey {
            case id, position, title, duration, offset, events
            case creativeID = "creative_id"
        }
    }

    struct Break: Encodable, Sendable {
        var id: String
        var requestedDuration: Int
        var duration: Int
        var slateDuration: Int
        var decidedAt: String
        var ads: [Ad]

        enum CodingKeys: String, CodingKey {
            case id, duration, ads
            case requestedDuration = "requested_duration"
            case slateDuration = "slate_duration"
            case decidedAt = "decided_at"
        }
    }

    struct Beacons: Encodable, Sendable {
        var sent: Int
        var pending: Int
        var abandoned: Int
        var failedAttempts: Int

        enum CodingKeys: String, CodingKey {
            case sent, pending, abandoned
            case failedAttempts = "failed_attempts"
        }
    }

    var streamID: String
    var kind: String
    var networkCode: String
    var customAssetKey: String?
    var targeting: [String: String]
    var createdAt: String
    var validUntil: String
    var expired: Bool
    var vodContentDuration: Double?
    var breaks: [Break]
    var eventsVerified: Int
    var beacons: Beacons
    /// Where the collector lists what the beacons recorded.
    var collectorURL: String

    enum CodingKeys: String, CodingKey {
        case kind, targeting, expired, breaks, beacons
        case streamID = "stream_id"
        case networkCode = "network_code"
        case customAssetKey = "custom_asset_key"
        case createdAt = "created_at"
        case validUntil = "valid_until"
        case vodContentDuration = "vod_content_duration"
        case eventsVerified = "events_verified"
        case collectorURL = "collector_url"
    }

    init(
        stream: PodStream, plan: PodVODPlan?, decisions: [PodBreakDecision], activity: PodStreamActivity, now: Date,
        baseURL: String
    ) {
        streamID = stream.id
        kind = stream.kind.rawValue
        networkCode = stream.networkCode
        customAssetKey = stream.customAssetKey
        targeting = stream.targeting
        createdAt = PodTimeFormat.iso8601(stream.createdAt)
        validUntil = PodTimeFormat.iso8601(stream.expiresAt)
        expired = stream.isExpired(at: now)
        vodContentDuration = plan?.contentDuration
        breaks = decisions.map { decision in
            Break(
                id: decision.breakID, requestedDuration: decision.requestedDuration, duration: decision.duration,
                slateDuration: decision.slateDuration, decidedAt: PodTimeFormat.iso8601(decision.decidedAt),
                ads: decision.ads.map { ad in
                    Ad(
                        id: ad.adID, position: ad.position, creativeID: ad.creativeID, title: ad.title,
                        duration: ad.duration, offset: ad.offset,
                        events: ad.events.map { event in
                            Event(
                                type: event.type.rawValue, id: event.id, offset: event.offset,
                                verifiedAt: activity.verifiedEvents[event.id].map(PodTimeFormat.iso8601),
                                beaconsSent: activity.beaconsSent[event.id] ?? 0,
                                beaconsPending: activity.beaconsPending[event.id] ?? 0,
                                beaconsAbandoned: activity.beaconsAbandoned[event.id] ?? 0)
                        })
                })
        }
        eventsVerified = activity.verifiedEvents.count
        beacons = Beacons(
            sent: activity.beaconsSent.values.reduce(0, +), pending: activity.beaconsPending.values.reduce(0, +),
            abandoned: activity.beaconsAbandoned.values.reduce(0, +), failedAttempts: activity.failedAttempts)
        collectorURL = "\(baseURL)/api/sessions/\(stream.id)/beacons"
    }
}

extension PodServingService {
    func report(streamID: String, baseURL: String) throws(HTTPError) -> StreamReport {
        let stream = try self.stream(streamID, expiredStatus: nil)
        let decisions = try writtenDecisions(of: stream)
        let plan = try Self.storeCall { () throws(StoreError) in try store.vodPlan(streamID: stream.id) }
        let activity = try Self.storeCall { () throws(StoreError) in try store.activity(streamID: stream.id) }
        return StreamReport(
            stream: stream, plan: plan, decisions: decisions, activity: activity, now: now(), baseURL: baseURL)
    }
}
