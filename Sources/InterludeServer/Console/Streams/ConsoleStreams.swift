import Foundation
internal import InterludeFormatting

/// Pod-serving streams for the console: the newest registrations with a
/// summary each, and one stream's report with its timeline and the URL of
/// its stitched stream.
final class ConsoleStreams: Sendable {
    let pods: PodServingService
    let beacons: BeaconStore
    let library: MediaLibrary
    /// Live stitch states, read with those still waiting to be written.
    let stitchStates: LiveStitchStateWriter

    init(pods: PodServingService, beacons: BeaconStore, library: MediaLibrary, stitchStates: LiveStitchStateWriter) {
        self.pods = pods
        self.beacons = beacons
        self.library = library
        self.stitchStates = stitchStates
    }

    struct Listing: Encodable, Sendable {
        struct Entry: Encodable, Sendable {
            var streamID: String
            /// `live` or `vod`.
            var kind: String
            var networkCode: String
            var customAssetKey: String?
            var createdAt: String
            /// The last verification, or the registration.
            var lastActivityAt: String
            var expired: Bool
            var breaks: Int
            var eventsVerified: Int
            /// Events with a beacon given up on.
            var beaconsAbandoned: Int
            var failedAttempts: Int
        }
        var streams: [Entry]
    }

    /// The newest registrations first.
    func list(limit: Int) throws(HTTPError) -> Listing {
        let summaries = try PodServingService.storeCall { () throws(StoreError) in
            try pods.store.recentStreams(limit: limit)
        }
        let now = pods.now()
        return Listing(
            streams: summaries.map { summary in
                let stream = summary.stream
                return Listing.Entry(
                    streamID: stream.id, kind: stream.kind.rawValue, networkCode: stream.networkCode,
                    customAssetKey: stream.customAssetKey, createdAt: ISO8601Timestamp.string(from: stream.createdAt),
                    lastActivityAt: ISO8601Timestamp.string(
                        from: max(summary.lastVerifiedAt ?? stream.createdAt, stream.createdAt)),
                    expired: stream.isExpired(at: now), breaks: summary.breaksDecided,
                    eventsVerified: summary.eventsVerified, beaconsAbandoned: summary.eventsWithAbandonedBeacons,
                    failedAttempts: summary.failedAttempts)
            })
    }

    /// `GET /api/console/streams/{id}`.
    struct Report: Encodable, Sendable {
        /// What `GET /api/streams/{id}` answers.
        var stream: StreamReport
        var timeline: StreamTimeline
        /// The VTP's multivariant playlist of the stream on this server.
        var preview: String?
        /// Why there is no preview.
        var previewUnavailable: String?
    }

    /// One stream; 404 for an unknown or malformed ID (expired streams are reported).
    func report(streamID: String, baseURL: String) throws(HTTPError) -> Report {
        let stream = try pods.stream(streamID, expiredStatus: nil)
        let decisions = try pods.writtenDecisions(of: stream)
        let store = pods.store
        let plan = try PodServingService.storeCall { () throws(StoreError) in try store.vodPlan(streamID: stream.id) }
        let activity = try PodServingService.storeCall { () throws(StoreError) in
            try store.activity(streamID: stream.id)
        }
        let failures = try PodServingService.storeCall { () throws(StoreError) in
            try store.beaconFailures(streamID: stream.id)
        }
        let liveStates =
            stream.kind == .live
            ? Array(
                try PodServingService.storeCall { () throws(StoreError) in
                    try stitchStates.states(streamID: stream.id)
                }
                .values) : []
        let received: [Beacon]
        do {
            received = try beacons.beacons(session: stream.id)
        } catch {
            throw HTTPError(status: 503, message: "beacon store: \(error.message)")
        }
        let now = pods.now()
        let content = vodContent(of: stream, plan: plan)
        let timeline = StreamTimeline(
            StreamTimeline.Input(
                stream: stream, plan: plan, decisions: decisions, activity: activity, failures: failures,
                liveStates: liveStates, beacons: received,
                contentDuration: content.flatMap { library.vodTitle($0.title)?.duration }, now: now))
        let expired = stream.isExpired(at: now)
        let links = PodServingLinks(baseURL: baseURL)
        var preview: String?
        var unavailable: String?
        switch stream.kind {
        case .vod:
            if let content {
                preview = links.vtpVODTemplate(contentID: content.contentID)
            } else {
                unavailable = "network \(stream.networkCode) offers no VOD content"
            }
        case .live:
            if let key = stream.customAssetKey,
                let live = pods.podCatalog.liveStream(customAssetKey: key, network: stream.networkCode)
            {
                preview = links.vtpLiveTemplate(channel: live.channel)
            } else {
                unavailable = "custom asset key \(stream.customAssetKey ?? "(none)") plays no channel of the catalog"
            }
        }
        return Report(
            stream: StreamReport(
                stream: stream, plan: plan, decisions: decisions, activity: activity, now: now, baseURL: baseURL),
            timeline: timeline,
            preview: expired ? nil : preview?.replacingOccurrences(of: "[[STREAMID]]", with: stream.id),
            previewUnavailable: expired
                ? "the stream expired at \(ISO8601Timestamp.string(from: stream.expiresAt))" : unavailable)
    }

    /// The VOD content a stream plays: of its network's, the one as long as
    /// the plan's content (the VTP plans pods for one content per stream),
    /// else the first.
    func vodContent(of stream: PodStream, plan: PodVODPlan?) -> PodVODContent? {
        guard stream.kind == .vod else { return nil }
        let offered = pods.podCatalog.vodContent.filter { $0.network == nil || $0.network == stream.networkCode }
        if let duration = plan?.contentDuration,
            let match = offered.first(where: { content in
                library.vodTitle(content.title).map { abs($0.duration - duration) < 0.5 } ?? false
            })
        {
            return match
        }
        return offered.first
    }
}
