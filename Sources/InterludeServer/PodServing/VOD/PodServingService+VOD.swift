import Foundation

/// What `POST …/adpods` answers (field names ours where Google's API leaves
/// them to the partner; `ad_pods`, `manifest_uris`, `valid_for`/`valid_until` as Google's).
struct VODAdPodsResponse: Encodable, Sendable {
    struct Ad: Encodable, Sendable {
        var id: String
        var position: Int
        var creativeID: String
        var title: String
        /// Seconds.
        var duration: Double
        /// Seconds from the start of the pod.
        var podOffset: Double

        enum CodingKeys: String, CodingKey {
            case id, position, title, duration
            case creativeID = "creative_id"
            case podOffset = "pod_offset"
        }
    }

    struct AdPod: Encodable, Sendable {
        var index: Int
        var type: String
        /// Content time (s) where the pod is inserted.
        var start: Double
        /// Stream time (s) where the pod starts once stitched.
        var streamStart: Double
        /// Seconds.
        var duration: Double
        /// 1-based among mid-rolls.
        var midrollIndex: Int?
        /// Requested profile name → the pod's media playlist.
        var manifestURIs: [String: String]
        var ads: [Ad]

        enum CodingKeys: String, CodingKey {
            case index, type, start, duration, ads
            case streamStart = "stream_start"
            case midrollIndex = "midroll_index"
            case manifestURIs = "manifest_uris"
        }
    }

    var streamID: String
    var validFor: String
    var validUntil: String
    var adPods: [AdPod]
    /// Requested profiles the pods have no manifest for (an iframe,
    /// audio-only or fMP4 rendition, or one matching no conditioned profile),
    /// with the reason: the VTP leaves those renditions without ads.
    var unsupportedProfiles: [VODAdPodsRequest.UnsupportedProfile]

    enum CodingKeys: String, CodingKey {
        case streamID = "stream_id"
        case validFor = "valid_for"
        case validUntil = "valid_until"
        case adPods = "ad_pods"
        case unsupportedProfiles = "unsupported_profiles"
    }
}

/// A VOD stream's pods in stream time, made from its plan and decisions.
struct VODTimeline: Sendable {
    struct Entry: Sendable {
        var plan: PodVODPlan.Break
        var decision: PodBreakDecision
        /// Stream milliseconds where the pod starts.
        var streamStart: Int
        var midrollIndex: Int?
    }

    var entries: [Entry]

    init(plan: PodVODPlan, decisions: [String: PodBreakDecision]) {
        var entries: [Entry] = []
        var inserted = 0
        var midrolls = 0
        for planned in plan.breaks {
            guard let decision = decisions[planned.breakID] else { continue }
            let contentMilliseconds = Int((planned.contentOffset * 1000).rounded())
            var midrollIndex: Int?
            if planned.type == "mid" {
                midrolls += 1
                midrollIndex = midrolls
            }
            entries.append(
                Entry(
                    plan: planned, decision: decision, streamStart: contentMilliseconds + inserted,
                    midrollIndex: midrollIndex))
            inserted += decision.duration
        }
        self.entries = entries
    }

    /// Milliseconds of ads stitched in.
    var adDuration: Int { entries.reduce(0) { $0 + $1.decision.duration } }
}

extension PodServingService {
    /// Plans (once) and decides a VOD stream's pods for the VTP.
    func adPods(networkCode: String, streamID: String, request: HTTPRequest, baseURL: String) throws(HTTPError)
        -> VODAdPodsResponse
    {
        let network = try knownNetwork(networkCode)
        let stream = try self.stream(streamID)
        guard stream.kind == .vod, stream.networkCode == network.code else {
            throw .notFound("no VOD stream \(streamID) on network \(network.code)")
        }
        let body = try VODAdPodsRequest.parse(request.body)
        let mapping = try body.profileMapping(to: media.profiles)
        let (_, timeline) = try planVODPods(stream, body: body)
        let links = PodServingLinks(baseURL: baseURL)
        let pods = timeline.entries.map { entry in
            VODAdPodsResponse.AdPod(
                index: entry.plan.index, type: entry.plan.type, start: entry.plan.contentOffset,
                streamStart: PodTimeFormat.seconds(milliseconds: entry.streamStart),
                duration: PodTimeFormat.seconds(milliseconds: entry.decision.duration),
                midrollIndex: entry.midrollIndex,
                manifestURIs: entry.decision.ads.isEmpty
                    ? [:]
                    : Dictionary(
                        uniqueKeysWithValues: mapping.keys.map { name in
                            (
                                name,
                                links.vodPodPlaylist(
                                    networkCode: network.code, streamID: stream.id, index: entry.plan.index,
                                    profile: mapping[name] ?? name)
                            )
                        }),
                ads: entry.decision.ads.map { ad in
                    VODAdPodsResponse.Ad(
                        id: ad.adID, position: ad.position, creativeID: ad.creativeID, title: ad.title,
                        duration: PodTimeFormat.seconds(milliseconds: ad.duration),
                        podOffset: PodTimeFormat.seconds(milliseconds: ad.offset))
                })
        }
        return VODAdPodsResponse(
            streamID: stream.id,
            validFor: PodTimeFormat.goDuration(max(0, stream.expiresAt.timeIntervalSince(now()))),
            validUntil: PodTimeFormat.iso8601(stream.expiresAt), adPods: pods,
            unsupportedProfiles: body.unsupportedProfiles(for: media.profiles))
    }

    /// Plans a VOD stream's pods (the first call fixes the plan; later ones
    /// get the stored plan) and decides each: what `POST …/adpods` answers
    /// with, and what the VTP stitches in-process. `body` is checked already.
    func planVODPods(_ stream: PodStream, body: VODAdPodsRequest) throws(HTTPError) -> (
        plan: PodVODPlan, timeline: VODTimeline
    ) {
        if let stored = try Self.storeCall({ () throws(StoreError) in try store.vodPlan(streamID: stream.id) }) {
            return (stored, try vodTimeline(stream, plan: stored))
        }
        let proposed = PodVODPlan(
            breaks: body.breaks(rules: catalog.adRules), contentDuration: body.contentDurationSeconds,
            profiles: try body.profileMapping(to: media.profiles), adTag: body.adTag, createdAt: now())
        let plan = try Self.storeCall { () throws(StoreError) in try store.setVODPlan(proposed, streamID: stream.id) }
        return (plan, try vodTimeline(stream, plan: plan))
    }

    /// The plan's pods decided (each once, like live breaks) in stream time.
    func vodTimeline(_ stream: PodStream, plan: PodVODPlan) throws(HTTPError) -> VODTimeline {
        let length = Int((podCatalog.podRules.vodPodDuration * 1000).rounded())
        var decisions: [String: PodBreakDecision] = [:]
        for planned in plan.breaks {
            decisions[planned.breakID] = try decision(
                for: stream, breakID: planned.breakID, requestedDuration: length, slate: .never)
        }
        return VODTimeline(plan: plan, decisions: decisions)
    }
}
