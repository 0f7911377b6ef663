import Foundation
import InterludeHLS

extension VTPService {
    /// `GET /vtp/stream_id/{stream_id}/live/{channel}.m3u8`: the channel's
    /// multivariant playlist, each variant at `{channel}/{profile}.m3u8` with
    /// the request's options.
    func liveMultivariant(streamID: String, file: String, request: HTTPRequest) throws(HTTPError) -> HTTPResponse {
        let channelID = try Self.stripping(".m3u8", from: file, what: "a channel playlist")
        let options = try VTPRequestOptions(query: request.query)
        let (_, live) = try liveStream(streamID, channelID: channelID)
        let item = ContentItem.live(live.channel)
        return try multivariant(of: item, pathPrefix: channelID, options: options, maxAge: 60)
    }

    /// `GET /vtp/stream_id/{stream_id}/live/{channel}/{profile}.m3u8`: one
    /// reload of the rendition, the origin's window with each break replaced
    /// by the viewer's pod (or announced as an interstitial).
    func liveMediaPlaylist(streamID: String, channelID: String, file: String, request: HTTPRequest)
        throws(HTTPError) -> HTTPResponse
    {
        let profileID = try Self.stripping(".m3u8", from: file, what: "a rendition playlist")
        let options = try VTPRequestOptions(query: request.query)
        let (stream, live) = try liveStream(streamID, channelID: channelID)
        let profile = try ladderProfile(profileID)
        if let channel = library.liveChannel(live.channel) {
            decideAhead.noteReload(streamID: stream.id, channel: channel.id, at: pods.now())
            let outputKey = "\(stream.id)\n\(options.stateKey(profile: profile.id))"
            let (completed, window) = try liveWindow(channel, profile: profile.id)
            let targetDuration = window.playlist.targetDuration
            if let cached = liveOutputs[outputKey], cached.window == completed {
                return Self.livePlaylist(cached.bytes, targetDuration: targetDuration)
            }
            let bytes = try stitchLive(window, stream: stream, profile: profile, options: options)
            liveOutputs.store(LiveOutput(window: completed, bytes: bytes), for: outputKey)
            return Self.livePlaylist(bytes, targetDuration: targetDuration)
        }
        guard catalog.content.channel(id: live.channel)?.origin != nil else {
            throw .notFound("the catalog has no live channel '\(live.channel)'")
        }
        let item = ContentItem.live(live.channel)
        let origin = self.origin
        return Self.deferred { [self] () async throws(HTTPError) -> HTTPResponse in
            let window: MediaPlaylist
            do throws(OriginError) {
                window = try await origin.mediaPlaylist(for: item, profile: profile.id)
            } catch {
                throw Self.httpError(error)
            }
            let prepared: PreparedOriginWindow
            do throws(HLSError) {
                prepared = try PreparedOriginWindow(window)
            } catch {
                throw Self.unstitchable(error)
            }
            let bytes = try stitchLive(prepared, stream: stream, profile: profile, options: options)
            return Self.livePlaylist(bytes, targetDuration: window.targetDuration)
        }
    }

    /// The origin window of a channel made here now, and how many segments
    /// were complete (the window's identity): computed and prepared for
    /// stitching once per profile and window, shared by every viewer.
    ///
    /// A new window also announces the breaks it holds to deciding ahead,
    /// and those of the window one window's length later: the channel is
    /// made here, so its schedule is known before its segments exist (as an
    /// origin's early ad-break notice is to a real pod-serving stack), and
    /// the viewers' pods are decided while the break is still ahead rather
    /// than all at once when its first segment appears.
    func liveWindow(_ channel: LiveChannel, profile: String) throws(HTTPError) -> (Int, PreparedOriginWindow) {
        let now = origin.clock.now
        let completed = channel.completedSegments(at: now)
        let key = "\(channel.id)\n\(profile)"
        if let cached = liveWindows.withLock({ $0[key] }), cached.completed == completed {
            return (completed, cached.window)
        }
        let prepared = try preparedWindow(of: channel, profile: profile, at: now)
        let isNew = liveWindows.withLock { windows -> Bool in
            defer { windows[key] = (completed, prepared) }
            return windows[key].map { $0.completed < completed } ?? true
        }
        if isNew {
            let first = prepared.playlist.segments.first?.mediaSequence ?? prepared.playlist.mediaSequence
            let breaks = breaksStarting(in: prepared)
            let later = now.addingTimeInterval(Self.noticeAhead(of: channel))
            let upcoming =
                (try? preparedWindow(of: channel, profile: profile, at: later)).map(breaksStarting(in:)) ?? []
            decideAhead.windowPrepared(
                channel: channel.id, windowStart: first, breaks: breaks,
                upcoming: upcoming.filter { !breaks.contains($0) }, at: pods.now())
        }
        return (completed, prepared)
    }

    /// How far ahead (clock seconds) a channel made here announces its
    /// breaks: half a window's length of channel time (at least a segment),
    /// so every break is seen before its first segment appears, and, with
    /// breaks a window or more apart, the next one is decided for halfway
    /// between two breaks rather than when one appears, which is when every
    /// viewer's reload writes its stitch state.
    static func noticeAhead(of channel: LiveChannel) -> TimeInterval {
        Double(max(1, channel.settings.windowSegments / 2)) * channel.segmentDuration / channel.settings.speed
    }

    /// The channel's window at clock date `date` as the origin writes it,
    /// prepared for stitching.
    func preparedWindow(of channel: LiveChannel, profile: String, at date: Date) throws(HTTPError)
        -> PreparedOriginWindow
    {
        let window = channel.window(at: date)
        guard var playlist = channel.mediaPlaylist(profile: profile, window: window) else {
            throw .notFound("channel '\(channel.id)' has no profile '\(profile)'")
        }
        guard !window.segments.isEmpty else {
            throw HTTPError(
                status: 503, message: "channel '\(channel.id)' has no complete segment yet",
                headers: HTTPHeaders([("Retry-After", "\(Int(channel.segmentDuration.rounded(.up)))")]))
        }
        playlist.prefixSegmentURIs("/origin/live/\(channel.id)/")
        // The origin leaves the DISCONTINUITY of a source wrap off the window's
        // first segment (its DISCONTINUITY-SEQUENCE counts it instead), which
        // would change a segment still in the viewer's window (RFC 8216bis
        // 6.2.2): keep the tag there, counted the RFC's way.
        if let first = window.segments.first, first.sequence > 0, first.sequence % channel.sourceSegmentCount == 0,
            !playlist.segments.isEmpty, !playlist.segments[0].isDiscontinuity, playlist.discontinuitySequence > 0
        {
            playlist.segments[0].tags.insert(HLSTag(HLSTagName.discontinuity), at: 0)
            playlist.discontinuitySequence -= 1
        }
        do throws(HLSError) {
            return try PreparedOriginWindow(playlist)
        } catch {
            throw Self.unstitchable(error)
        }
    }

    /// One reload: the rendition's state from the store (or a sibling
    /// rendition's, for one that joins late), the timeline over `window`, the
    /// state handed to be written behind the answer when it changed
    /// (``LiveStitchStateWriter``), the bytes.
    func stitchLive(
        _ prepared: PreparedOriginWindow, stream: PodStream, profile: EncodingProfile, options: VTPRequestOptions
    ) throws(HTTPError) -> [UInt8] {
        let window = prepared.playlist
        let stateKey = options.stateKey(profile: profile.id)
        let stored = try PodServingService.storeCall { () throws(StoreError) in
            try stitchStates.state(streamID: stream.id, rendition: stateKey)
        }
        var initial: LiveStitchState
        if let stored {
            initial = stored
        } else {
            initial = try seedState(for: stream, stateKey: stateKey, options: options, window: window)
        }
        var output: MediaPlaylist
        var timeline = LiveStitchTimeline(options: timelineOptions(options), state: initial)
        do throws(HTTPError) {
            output = try stitch(prepared, timeline: &timeline, stream: stream, profile: profile, podsOnlyFor: nil)
        } catch {
            guard error.status == 422 else { throw error }
            // A new break's pod cannot be spliced here (another container): new breaks keep their content.
            timeline = LiveStitchTimeline(options: timelineOptions(options), state: initial)
            output = try stitch(
                prepared, timeline: &timeline, stream: stream, profile: profile,
                podsOnlyFor: Set(initial.breaks.map(\.originStart)))
        }
        if timeline.state != stored, !Self.onlyAnchorsMoved(from: stored, to: timeline.state, window: window) {
            stitchStates.submit(LiveStitchUpdate(streamID: stream.id, rendition: stateKey, state: timeline.state))
        }
        VODStitcher.tagBreaks(&output, ids: Set(timeline.state.breaks.map(\.request.breakID))) {
            VTPBreakIdentity.podIdentifier(breakID: $0).breakID
        }
        return HLSWriter.bytes(output)
    }

    private func stitch(
        _ window: PreparedOriginWindow, timeline: inout LiveStitchTimeline, stream: PodStream,
        profile: EncodingProfile, podsOnlyFor: Set<UInt64>?
    ) throws(HTTPError) -> MediaPlaylist {
        let provider = VTPLivePods(
            service: self, library: library, stream: stream, profile: profile.id, podsOnlyFor: podsOnlyFor)
        do {
            return try timeline.stitch(window, pods: provider)
        } catch {
            if let failure = provider.failure { throw failure }
            throw Self.unstitchable(error)
        }
    }

    /// A window the timeline cannot stitch: 422 for a pod that cannot be spliced, else 502.
    static func unstitchable(_ error: HLSError) -> HTTPError {
        let status = error.code == .invalidAdPod ? 422 : 502
        return HTTPError(status: status, message: "the origin's window cannot be stitched: \(error.message)")
    }

    /// True when `new` differs from `stored` only in the anchors of breaks
    /// still open, and every stored anchor is in the second half of the window
    /// or later: the stored state gives the same playlists for a few reloads
    /// more, so the write can wait (during a long break the anchor would
    /// otherwise be written on every reload).
    static func onlyAnchorsMoved(from stored: LiveStitchState?, to new: LiveStitchState, window: MediaPlaylist) -> Bool
    {
        guard let stored, stored.settled == new.settled, stored.breaks.count == new.breaks.count else { return false }
        let first = window.segments.first?.mediaSequence ?? window.mediaSequence
        let keep = first + UInt64(max(1, window.segments.count / 2))
        for (old, now) in zip(stored.breaks, new.breaks) where old != now {
            var moved = old
            moved.anchor = now.anchor
            guard moved == now, old.end == nil, old.anchor.sequence >= keep else { return false }
        }
        return true
    }

    func timelineOptions(_ options: VTPRequestOptions) -> LiveStitchTimeline.Options {
        LiveStitchTimeline.Options(
            mode: options.mode, passesMarkersThrough: options.passesMarkersThrough, writesDateRanges: true,
            maximumBreakDuration: Double(catalog.podServing.podRules.maxPodDuration) / 1000)
    }

    /// The state a rendition starts from: a sibling rendition's (same
    /// options, another profile) when the stream has one, so a player that
    /// switches renditions gets the same numbering, with the ends of breaks
    /// still in or after the window left to this rendition to find; else empty.
    func seedState(for stream: PodStream, stateKey: String, options: VTPRequestOptions, window: MediaPlaylist)
        throws(HTTPError) -> LiveStitchState
    {
        let siblings = try PodServingService.storeCall { () throws(StoreError) in
            try stitchStates.states(streamID: stream.id)
        }
        let suffix = options.stateKey(profile: "")
        guard
            let sibling = siblings.filter({
                $0.key != stateKey && $0.key.hasSuffix(suffix) && !$0.key.dropLast(suffix.count).contains("+")
            })
            .min(by: { $0.key < $1.key })?.value
        else { return LiveStitchState() }
        var state = sibling
        let first = window.segments.first?.mediaSequence ?? window.mediaSequence
        for index in state.breaks.indices {
            if let end = state.breaks[index].originEnd, end > first { state.breaks[index].end = nil }
        }
        return state
    }

    static func livePlaylist(_ bytes: [UInt8], targetDuration: Int?) -> HTTPResponse {
        playlist(bytes, maxAge: max(1, (targetDuration ?? 2) / 2))
    }
}
