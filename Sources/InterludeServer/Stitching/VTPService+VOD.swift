import Foundation
import InterludeHLS

/// A VOD stream's pods as pod serving planned and decided them (once).
struct VODPods: Sendable {
    var plan: PodVODPlan
    var timeline: VODTimeline
}

extension VTPService {
    /// `GET /vtp/stream_id/{stream_id}/video/{content_id}.m3u8`: the content's
    /// multivariant playlist, each variant at `{content_id}/{profile}.m3u8`
    /// with the request's options.
    func vodMultivariant(streamID: String, file: String, request: HTTPRequest) throws(HTTPError) -> HTTPResponse {
        let contentID = try Self.stripping(".m3u8", from: file, what: "a content playlist")
        let options = try VTPRequestOptions(query: request.query)
        let (_, content) = try vodStream(streamID, contentID: contentID)
        let item = ContentItem.vod(content.title)
        return try multivariant(of: item, pathPrefix: contentID, options: options, maxAge: 3600)
    }

    /// `GET /vtp/stream_id/{stream_id}/video/{content_id}/{profile}.m3u8`: the
    /// rendition with the stream's pods in it (asked of pod serving on the
    /// stream's first rendition request, then the same for good).
    func vodMediaPlaylist(
        streamID: String, contentID: String, file: String, request: HTTPRequest, baseURL: String
    ) throws(HTTPError) -> HTTPResponse {
        let profileID = try Self.stripping(".m3u8", from: file, what: "a rendition playlist")
        let options = try VTPRequestOptions(query: request.query)
        let (stream, content) = try vodStream(streamID, contentID: contentID)
        let profile = try ladderProfile(profileID)
        let key = "\(stream.id)\n\(contentID)\n\(profile.id)\n\(options.query)"
        if let cached = vodPlaylists[key] { return Self.playlist(cached, maxAge: 3600) }
        let item = ContentItem.vod(content.title)
        let stitch = { @Sendable [self] (playlist: MediaPlaylist) throws(HTTPError) -> HTTPResponse in
            let bytes = try stitchVOD(
                playlist, stream: stream, profile: profile, options: options, source: "\(item)", baseURL: baseURL)
            vodPlaylists.store(bytes, for: key)
            return Self.playlist(bytes, maxAge: 3600)
        }
        let local: MediaPlaylist?
        do {
            local = try origin.localMediaPlaylist(for: item, profile: profile.id)
        } catch {
            throw Self.httpError(error)
        }
        if let local { return try stitch(local) }
        let origin = self.origin
        return Self.deferred { () async throws(HTTPError) -> HTTPResponse in
            let fetched: MediaPlaylist
            do throws(OriginError) {
                fetched = try await origin.mediaPlaylist(for: item, profile: profile.id)
            } catch {
                throw Self.httpError(error)
            }
            return try stitch(fetched)
        }
    }

    /// The rendition `content` with the stream's pods for `profile`.
    func stitchVOD(
        _ content: MediaPlaylist, stream: PodStream, profile: EncodingProfile, options: VTPRequestOptions,
        source: String, baseURL: String
    ) throws(HTTPError) -> [UInt8] {
        guard content.isEnded else {
            throw HTTPError(
                status: 502, message: "\(source): the origin's playlist has no ENDLIST; VOD content must be complete")
        }
        guard !content.segments.isEmpty else {
            throw HTTPError(status: 502, message: "\(source): the origin's playlist has no segments")
        }
        let decided = try vodPods(for: stream, content: content, baseURL: baseURL)
        // One VOD stream plays one content: its pods were placed for that content's length.
        if let planned = decided.plan.contentDuration, abs(planned - content.totalDuration) > 1 {
            throw HTTPError(
                status: 409,
                message:
                    "stream \(stream.id)'s pods were planned for content of \(planned) s; \(source) lasts \(VODCuepoints.milliseconds(content.totalDuration)) s (register a stream per content)"
            )
        }
        let podProfile = decided.plan.profiles[profile.id] ?? profile.id
        let network = PodServingLinks.encode(stream.networkCode)
        var insertions: [VODPodInsertion] = []
        for entry in decided.timeline.entries where !entry.decision.ads.isEmpty {
            let base = "/ondemand/pods/api/v1/network/\(network)/streams/\(stream.id)/pods/\(entry.plan.index)/profile/"
            let layout = try pods.layout(entry.decision, profile: podProfile)
            let segments = layout.entries.enumerated().map { index, placed in
                (
                    segment: AdSegment(
                        uri: "\(base)\(podProfile)/\(index).ts", duration: Double(placed.milliseconds) / 1000),
                    startsRun: placed.discontinuity
                )
            }
            insertions.append(
                VODPodInsertion(
                    breakID: entry.decision.breakID, contentOffset: entry.plan.contentOffset,
                    pod: AdPod(runs: segments, id: entry.decision.breakID), assetURI: "\(base)\(podProfile).m3u8"))
        }
        // Dates start at the stream's registration (to the millisecond), the same in every process.
        let anchor = Date(
            timeIntervalSince1970: (stream.createdAt.timeIntervalSince1970 * 1000).rounded(.down) / 1000)
        do {
            return HLSWriter.bytes(
                try VODStitcher.stitch(content, pods: insertions, mode: options.mode, anchor: anchor))
        } catch {
            throw HTTPError(status: 502, message: "\(source): cannot stitch the pods in: \(error.message)")
        }
    }

    /// The stream's pods: planned on the first call from `content`'s
    /// boundaries and the catalog's rules, then the stored plan.
    func vodPods(for stream: PodStream, content: MediaPlaylist, baseURL: String) throws(HTTPError) -> VODPods {
        if let cached = vodPods[stream.id] { return cached }
        let profiles = library.profiles.map { profile in
            VODAdPodsRequest.EncodingProfile(
                profileName: profile.id, type: "media", containerType: "mpeg2ts",
                videoSettings: .init(
                    codec: "h264", bitrate: profile.videoBitrate * 1000, framesPerSecond: Double(profile.frameRate),
                    resolution: .init(width: profile.width, height: profile.height)))
        }
        let body = VODAdPodsRequest(
            encodingProfiles: profiles, adTag: "\(baseURL)/vmap?session=\(stream.id)",
            cuepoints: VODCuepoints.times(for: content, rules: catalog.adRules),
            contentDurationSeconds: VODCuepoints.milliseconds(content.totalDuration))
        let (plan, timeline) = try pods.planVODPods(stream, body: body)
        let decided = VODPods(plan: plan, timeline: timeline)
        vodPods.store(decided, for: stream.id)
        return decided
    }
}

extension MediaPlaylist {
    /// True for a playlist that will not change (`ENDLIST`).
    var isEnded: Bool { hasEndList }
}
