import Foundation
import InterludeHLS

/// The VTP (video technical partner) of the seed: given a pod-serving
/// stream ID, it answers the content's playlists with that viewer's pods
/// stitched in. VOD asks pod serving for the stream's pods in-process
/// (``PodServingService/planVODPods(_:body:)``, what `POST …/adpods` runs);
/// live runs a ``LiveStitchTimeline`` per rendition over each reload of the
/// origin, its state in the ``SessionStore`` so any process answers any
/// reload alike. Content comes from ``ContentOrigin``: the media made here
/// (answered on the polling thread) or an external origin (fetched off it,
/// with the fetcher's timeout and size limit).
final class VTPService: Sendable {
    let pods: PodServingService
    let origin: ContentOrigin
    /// Stitched VOD renditions by stream, content, profile and options: pods
    /// are decided once, so a rendition never changes.
    let vodPlaylists = BoundedCache<String, [UInt8]>(limit: 20_000)
    /// Multivariant playlists of content made here, by content and options:
    /// the same for every viewer, and the local ladder does not change while
    /// the server runs (an external origin's is fetched on every request).
    let localMultivariants = BoundedCache<String, [UInt8]>(limit: 1_024)
    /// A VOD stream's pods, decided once.
    let vodPods = BoundedCache<String, VODPods>(limit: 20_000)
    /// The last live reload written per stream, rendition and options, with
    /// the origin window it was written for: another request for the same
    /// window gets the same bytes without a store read.
    let liveOutputs = BoundedCache<String, LiveOutput>(limit: 50_000)
    /// Each live pod as the timeline stitches it, by stream, pod, `pd` and profile.
    let livePods = BoundedCache<String, AdPod>(limit: 50_000)
    /// The origin window of a channel made here, per profile, with the
    /// number of segments complete when it was made.
    let liveWindows = Locked<[String: (completed: Int, window: PreparedOriginWindow)]>([:])

    /// A break signalled without a duration (CUE-OUT alone) is asked of pod
    /// serving as this long; the pod is cut at the break's CUE-IN, slate
    /// fills a break that runs longer.
    static let assumedBreakDuration: Double = 30

    struct LiveOutput: Sendable {
        var window: Int
        var bytes: [UInt8]
    }

    /// Live breaks decided for the channel's viewers when they first appear.
    let decideAhead: VTPDecideAhead
    /// Live stitch states, read through it and written behind the answers.
    let stitchStates: LiveStitchStateWriter

    init(pods: PodServingService, origin: ContentOrigin) {
        self.pods = pods
        self.origin = origin
        // The poll reaches back to this service weakly: the service owns the thread.
        let service = Locked(WeakService())
        decideAhead = VTPDecideAhead(
            now: pods.now, poll: { channels in service.withLock { $0.value }?.prepareWindows(of: channels) },
            decide: { [pods] job, streams in Self.decideAhead(job, for: streams, pods: pods) })
        stitchStates = LiveStitchStateWriter(
            store: pods.store,
            reportFailure: { [logger = pods.sender?.logger] error in
                logger?.message(.error, "live stitch states not written yet (tried again): \(error)")
            })
        service.withLock { $0.value = self }
    }

    private struct WeakService { weak var value: VTPService? }

    /// Stops deciding ahead and writes the stitch states still queued (before the store closes).
    func shutdown() {
        decideAhead.stop()
        stitchStates.stop()
    }

    var library: MediaLibrary { origin.library }
    var catalog: Catalog { pods.catalog }
    var store: any SessionStore { pods.store }

    /// The multivariant playlist of `item` with each variant at
    /// `{pathPrefix}/{profile}.m3u8` plus the request's options: content made
    /// here is written once and answered from memory (the same for every
    /// viewer), an external origin's is fetched off the polling thread.
    func multivariant(
        of item: ContentItem, pathPrefix: String, options: VTPRequestOptions, maxAge: Int
    ) throws(HTTPError) -> HTTPResponse {
        let ladder = library.profiles
        let write = { @Sendable (origin: MultivariantPlaylist) throws(HTTPError) -> [UInt8] in
            let (playlist, _) = try VTPMultivariant.stitched(origin, ladder: ladder, source: "\(item)") {
                "\(pathPrefix)/\($0.id).m3u8\(options.query)"
            }
            return HLSWriter.bytes(playlist)
        }
        let local: MultivariantPlaylist?
        do {
            local = try origin.localMultivariantPlaylist(for: item)
        } catch {
            throw Self.httpError(error)
        }
        if let local {
            let key = "\(item)\n\(pathPrefix)\n\(options.query)"
            if let cached = localMultivariants[key] { return Self.playlist(cached, maxAge: maxAge) }
            let bytes = try write(local)
            localMultivariants.store(bytes, for: key)
            return Self.playlist(bytes, maxAge: maxAge)
        }
        let origin = self.origin
        return Self.deferred { () async throws(HTTPError) -> HTTPResponse in
            let fetched: MultivariantPlaylist
            do throws(OriginError) {
                fetched = try await origin.multivariantPlaylist(for: item)
            } catch {
                throw Self.httpError(error)
            }
            return Self.playlist(try write(fetched), maxAge: maxAge)
        }
    }

    // MARK: Streams and content

    /// The VOD stream `streamID` and the catalog title behind `contentID` on
    /// its network. 404 for an unknown stream or content, 410 expired, 400
    /// for a live stream, 403 for content its network does not offer.
    func vodStream(_ streamID: String, contentID: String) throws(HTTPError) -> (PodStream, PodVODContent) {
        let stream = try pods.stream(streamID)
        guard stream.kind == .vod else {
            throw .badRequest(
                "stream \(stream.id) is a live stream: ask /vtp/stream_id/\(stream.id)/live/{channel}.m3u8")
        }
        let podCatalog = catalog.podServing
        guard let content = podCatalog.vodContent(id: contentID, network: stream.networkCode) else {
            if podCatalog.vodContent.contains(where: { $0.contentID == contentID }) {
                throw HTTPError(
                    status: 403, message: "content '\(contentID)' is not offered on network \(stream.networkCode)")
            }
            throw .notFound("no VOD content '\(contentID.prefix(64))'")
        }
        return (stream, content)
    }

    /// The live stream `streamID` and the channel it plays, which must be
    /// `channelID`. 404 for an unknown stream or channel, 410 expired, 400
    /// for a VOD stream, 403 for a channel other than the stream's.
    func liveStream(_ streamID: String, channelID: String) throws(HTTPError) -> (PodStream, PodLiveStream) {
        let stream = try pods.stream(streamID)
        guard stream.kind == .live, let asset = stream.customAssetKey else {
            throw .badRequest(
                "stream \(stream.id) is a VOD stream: ask /vtp/stream_id/\(stream.id)/video/{content_id}.m3u8")
        }
        guard let live = catalog.podServing.liveStream(customAssetKey: asset, network: stream.networkCode) else {
            throw .notFound("stream \(stream.id): custom asset key '\(asset)' is no longer in the catalog")
        }
        guard live.channel == channelID else {
            guard catalog.content.channel(id: channelID) != nil else {
                throw .notFound("no live channel '\(channelID.prefix(64))'")
            }
            throw HTTPError(
                status: 403,
                message:
                    "stream \(stream.id) was registered for \(stream.networkCode)/\(asset), which plays channel '\(live.channel)', not '\(channelID)'"
            )
        }
        return (stream, live)
    }

    /// The ladder profile `id`; 404 otherwise.
    func ladderProfile(_ id: String) throws(HTTPError) -> EncodingProfile {
        guard let profile = library.profile(id) else {
            throw .notFound(
                "no profile '\(id.prefix(64))' (\(library.profiles.map(\.id).joined(separator: ", ")))")
        }
        return profile
    }

    /// `name` without `suffix`; 404 when it does not end with it.
    static func stripping(_ suffix: String, from name: String, what: String) throws(HTTPError) -> String {
        guard name.hasSuffix(suffix), name.utf8.count > suffix.utf8.count else {
            throw .notFound("expected \(what) ending in \(suffix), got '\(name.prefix(64))'")
        }
        return String(name.dropLast(suffix.count))
    }

    // MARK: Answers

    static func playlist(_ bytes: [UInt8], maxAge: Int) -> HTTPResponse {
        HTTPResponse(
            status: 200,
            headers: HTTPHeaders([
                ("Content-Type", "application/vnd.apple.mpegurl"),
                ("Cache-Control", "private, max-age=\(max(1, maxAge))"),
            ]), body: .bytes(bytes))
    }

    /// An origin failure as the viewer sees it (404, 502, 503 or 504).
    static func httpError(_ error: OriginError) -> HTTPError {
        HTTPError(status: error.httpStatus, message: error.message)
    }

    /// An answer produced off the polling thread (content from an external
    /// origin): its thrown error becomes the JSON error answer.
    static func deferred(_ answer: @escaping @Sendable () async throws(HTTPError) -> HTTPResponse) -> HTTPResponse {
        .deferred {
            do throws(HTTPError) {
                return try await answer()
            } catch {
                return error.response
            }
        }
    }
}
