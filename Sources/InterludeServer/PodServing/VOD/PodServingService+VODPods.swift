import Foundation

extension PodServingService {
    /// The VOD pod `index` of a stream whose pods the VTP asked for.
    func vodPod(network: String, streamID: String, index indexText: String) throws(HTTPError) -> PodBreakDecision {
        let networkEntry = try knownNetwork(network)
        let stream = try self.stream(streamID)
        guard stream.kind == .vod, stream.networkCode == networkEntry.code else {
            throw .notFound("no VOD stream \(streamID) on network \(network)")
        }
        guard indexText.utf8.count <= 3, let index = Int(indexText), index >= 0 else {
            throw .badRequest("pod index must be a whole number, got '\(indexText.prefix(16))'")
        }
        guard let plan = try Self.storeCall({ () throws(StoreError) in try store.vodPlan(streamID: stream.id) }) else {
            throw .notFound("stream \(stream.id) has no pods yet (POST …/adpods first)")
        }
        guard let planned = plan.breaks.first(where: { $0.index == index }) else {
            throw .notFound("stream \(stream.id) has no pod \(index) (0–\(plan.breaks.count - 1))")
        }
        guard !media.profiles.isEmpty else {
            throw HTTPError(
                status: 503, message: "no conditioned media: pods cannot be served (started with --no-media?)")
        }
        return try decision(
            for: stream, breakID: planned.breakID,
            requestedDuration: Int((podCatalog.podRules.vodPodDuration * 1000).rounded()), slate: .never)
    }

    /// The media playlist of a VOD pod in one profile.
    func vodPodPlaylist(network: String, streamID: String, index: String, file: String) throws(HTTPError)
        -> HTTPResponse
    {
        let profile = try knownProfile(try Self.stripping(".m3u8", from: file))
        let decision = try vodPod(network: network, streamID: streamID, index: index)
        guard !decision.ads.isEmpty else { throw .notFound("pod \(index) of stream \(streamID) has no ads") }
        let layout = try self.layout(decision, profile: profile)
        let bytes = Array(PodPlaylistWriter.media(layout) { "\(profile)/\($0).ts" }.utf8)
        return Self.playlist(bytes)
    }

    /// A VOD pod segment: the shared bytes with the ID3 packets of the events
    /// it holds added, as live pod segments have them. Google's clients learn
    /// VOD ad events from them; ours read the timeline and ignore them.
    func vodPodSegment(network: String, streamID: String, index: String, profile: String, file: String)
        throws(HTTPError) -> HTTPResponse
    {
        let number = try Self.segmentNumber(try Self.stripping(".ts", from: file))
        let profile = try knownProfile(profile)
        let decision = try vodPod(network: network, streamID: streamID, index: index)
        let layout = try self.layout(decision, profile: profile)
        guard layout.entries.indices.contains(number) else { throw .notFound("no segment \(number) in this pod") }
        return try segmentResponse(layout, number: number, events: layout.timedMetadata(of: number, in: decision))
    }
}
