import Foundation
import Interlude
import InterludeHLS

extension HLSPlaybackState {
    mutating func requestPlaylist(
        _ url: URL, stage: PlaylistStage, attempt: Int, notBefore: TimeInterval, into effects: inout [HLSPlaybackEffect]
    ) {
        let id = makeID()
        playlistRequest = PlaylistRequest(id: id, stage: stage, url: url, attempt: attempt)
        effects.append(
            .fetchPlaylist(
                HLSFetch(id: id, url: url, timeout: configuration.playlistTimeout, notBefore: notBefore)))
    }

    /// The answer to playlist request `id`, which went out at clock time `startedAt`.
    mutating func playlistFetched(
        id: UInt64, startedAt: TimeInterval, result: Result<HLSFetchResponse, HTTPClientError>, now: TimeInterval,
        into effects: inout [HLSPlaybackEffect]
    ) {
        guard let request = playlistRequest, request.id == id, phase != .failed, phase != .idle else { return }
        playlistRequest = nil
        let what: String
        switch request.stage {
        case .loadedURL: what = "the playlist"
        case .variant: what = "the variant playlist"
        case .reload: what = "the live playlist"
        }
        let response: HLSFetchResponse
        switch result {
        case .failure(let error):
            let problem = HLSStreamError.transport(
                error, what: what, url: request.url, timeout: configuration.playlistTimeout)
            playlistFailed(problem, request: request, startedAt: startedAt, now: now, into: &effects)
            return
        case .success(let answer):
            response = answer
        }
        counters.bytesDownloaded += response.byteCount
        counters.playlistLoads += 1
        guard (200..<300).contains(response.statusCode) else {
            let problem = HLSStreamError.status(
                response.statusCode, what: what, url: request.url, isLoadedURL: request.stage == .loadedURL)
            playlistFailed(problem, request: request, startedAt: startedAt, now: now, into: &effects)
            return
        }
        guard Self.startsLikeHLS(response.body) else {
            let type = response.headers.first { $0.key.lowercased() == "content-type" }?.value ?? "no Content-Type"
            let problem = HLSStreamError(
                .notHLS,
                "\(what) \(request.url.absoluteString) answered \(response.byteCount) bytes (\(type)) that are not an HLS playlist: they do not start with #EXTM3U",
                url: request.url)
            playlistFailed(problem, request: request, startedAt: startedAt, now: now, into: &effects)
            return
        }
        let parsed: HLSPlaylist
        do {
            parsed = try HLSParser().parse(response.body)
        } catch {
            let problem = HLSStreamError(
                .undecodablePlaylist, "\(what) \(request.url.absoluteString) could not be read: \(error)",
                url: request.url)
            playlistFailed(problem, request: request, startedAt: startedAt, now: now, into: &effects)
            return
        }
        switch parsed {
        case .multivariant(let playlist) where request.stage == .loadedURL:
            multivariantLoaded(playlist, url: response.url, now: now, into: &effects)
        case .multivariant:
            let problem = HLSStreamError(
                .undecodablePlaylist,
                "\(what) \(request.url.absoluteString) is a multivariant playlist where a media playlist belongs",
                url: request.url)
            playlistFailed(problem, request: request, startedAt: startedAt, now: now, into: &effects)
        case .media(let playlist):
            if let problem = Self.emptinessProblem(playlist, url: request.url) {
                playlistFailed(problem, request: request, startedAt: startedAt, now: now, into: &effects)
                return
            }
            if request.stage == .loadedURL {
                variant = HLSStreamDisplay.Variant(index: nil, url: response.url)
                mediaPlaylistURL = request.url
            }
            mediaPlaylistLoaded(
                playlist, body: response.body, request: request, baseURL: response.url, startedAt: startedAt,
                now: now, into: &effects)
        }
    }

    /// Why a playlist read as a media playlist has nothing to play: no
    /// segments, and either multivariant tags without a variant, or no
    /// EXT-X-TARGETDURATION (required, RFC 8216bis 4.4.3.1). Nil otherwise.
    static func emptinessProblem(_ playlist: MediaPlaylist, url: URL) -> HLSStreamError? {
        guard playlist.segments.isEmpty else { return nil }
        let multivariantTags = [HLSTagName.media, HLSTagName.iFrameStreamInf, HLSTagName.sessionData]
        if playlist.tags.contains(where: { tag in multivariantTags.contains(tag.name) && !tag.isComment }) {
            return HLSStreamError(
                .noVariant, "the multivariant playlist \(url.absoluteString) lists no variant streams", url: url)
        }
        guard playlist.targetDuration == nil else { return nil }
        return HLSStreamError(
            .undecodablePlaylist,
            "the playlist \(url.absoluteString) has neither segments nor EXT-X-TARGETDURATION: nothing to play",
            url: url)
    }

    /// True when the bytes start with `#EXTM3U`, after an optional UTF-8 byte order mark and white space.
    static func startsLikeHLS(_ body: [UInt8]) -> Bool {
        var index = body.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        while index < body.count, [0x20, 0x09, 0x0D, 0x0A].contains(body[index]) { index += 1 }
        return body[index...].starts(with: Array("#EXTM3U".utf8))
    }

    private mutating func multivariantLoaded(
        _ playlist: MultivariantPlaylist, url: URL, now: TimeInterval, into effects: inout [HLSPlaybackEffect]
    ) {
        var playlist = playlist
        do {
            playlist = try playlist.resolvingVariables(queryParameters: HLSQueryParameters.values(in: url))
        } catch {
            fail(
                HLSStreamError(
                    .undecodablePlaylist, "the playlist \(url.absoluteString) could not be read: \(error)", url: url),
                into: &effects)
            return
        }
        importedVariables = playlist.variables
        switch HLSVariantSelector.choose(configuration.variant, from: playlist, url: url) {
        case .failure(let error):
            fail(error, into: &effects)
        case .success(let chosen):
            variant = chosen
            mediaPlaylistURL = chosen.url
            let bandwidth = chosen.bandwidth.map { "\($0) bit/s" } ?? "no BANDWIDTH"
            effects.append(
                .log(.info, "playing variant \(chosen.index.map(String.init) ?? "?") (\(bandwidth)): \(chosen.url)"))
            requestPlaylist(chosen.url, stage: .variant, attempt: 0, notBefore: now, into: &effects)
        }
    }

    private mutating func mediaPlaylistLoaded(
        _ playlist: MediaPlaylist, body: [UInt8], request: PlaylistRequest, baseURL: URL, startedAt: TimeInterval,
        now: TimeInterval, into effects: inout [HLSPlaybackEffect]
    ) {
        var playlist = playlist
        if !playlist.definitions.isEmpty {
            do {
                playlist = try playlist.resolvingVariables(
                    imported: importedVariables, queryParameters: HLSQueryParameters.values(in: request.url))
            } catch {
                let problem = HLSStreamError(
                    .undecodablePlaylist, "the playlist \(request.url.absoluteString) could not be read: \(error)",
                    url: request.url)
                playlistFailed(problem, request: request, startedAt: startedAt, now: now, into: &effects)
                return
            }
        }
        let isFirst = !timeline.hasLoaded
        let changed = isFirst || lastPlaylistBody != body
        lastPlaylistBody = body
        switch timeline.update(with: playlist, url: baseURL) {
        case .failure(let error):
            if error.code == .inconsistentPlaylist {
                fail(error, into: &effects)
            } else {
                playlistFailed(error, request: request, startedAt: startedAt, now: now, into: &effects)
            }
            return
        case .success(let update):
            counters.discontinuitiesSeen += update.newDiscontinuities
            counters.encryptedSegments += update.newEncrypted
            if update.sequenceMismatches > 0 {
                effects.append(
                    .log(
                        .warning,
                        "the playlist \(request.url.absoluteString) renumbered the discontinuities of \(update.sequenceMismatches) segments (RFC 8216bis 6.2.2); their first placement is kept"
                    ))
            }
            if update.newSegments > 0 || isFirst {
                lastNewSegmentAt = now
                reloadsSinceNewSegment = 0
                lastReloadProblem = nil
            } else {
                reloadsSinceNewSegment += 1
            }
        }
        if request.stage == .reload && !changed { counters.unchangedReloads += 1 }
        if let first = timeline.window.first {
            ptsAnchors = ptsAnchors.filter { $0.key >= first.discontinuitySequence }
        }
        if isFirst {
            playhead = pendingSeek.map { min(max($0, timeline.windowStart), seekableEnd) } ?? startPosition
            pendingSeek = nil
            phase = .ready
            effects.append(.report(.loaded))
            if playWhenReady { play(now: now, into: &effects) }
        }
        scheduleDateRanges()
        if isBuffering { resumeIfBuffered(now: now, into: &effects) }
        if !timeline.isEnded {
            guard !isStale(now: now, url: request.url, into: &effects) else { return }
            scheduleReload(startedAt: startedAt, changed: changed, now: now, into: &effects)
        }
        requestNextSegment(now: now, into: &effects)
    }

    /// A playlist request that failed: a live reload waits for the next
    /// one (within the stale limit); a first load is retried if the
    /// failure is transient, else playback fails.
    private mutating func playlistFailed(
        _ problem: HLSStreamError, request: PlaylistRequest, startedAt: TimeInterval, now: TimeInterval,
        into effects: inout [HLSPlaybackEffect]
    ) {
        if request.stage == .reload {
            counters.retries += 1
            reloadsSinceNewSegment += 1
            lastReloadProblem = problem.message
            effects.append(.log(.warning, "\(problem.message); trying again"))
            guard !isStale(now: now, url: request.url, into: &effects) else { return }
            scheduleReload(startedAt: startedAt, changed: false, now: now, into: &effects)
            return
        }
        guard problem.isTransient, request.attempt < configuration.retryLimit else {
            fail(problem, into: &effects)
            return
        }
        counters.retries += 1
        let delay = configuration.retryDelay * Double(request.attempt + 1)
        effects.append(.log(.warning, "\(problem.message); retrying in \(HLSSeconds.text(delay)) s"))
        requestPlaylist(
            request.url, stage: request.stage, attempt: request.attempt + 1, notBefore: now + delay, into: &effects)
    }

    /// RFC 8216bis 6.3.4: the next reload no sooner than one target
    /// duration after the last load began when it changed, one half of it
    /// when it had not.
    private mutating func scheduleReload(
        startedAt: TimeInterval, changed: Bool, now: TimeInterval, into effects: inout [HLSPlaybackEffect]
    ) {
        guard let url = mediaPlaylistURL else { return }
        let wait = changed ? timeline.targetDuration : timeline.targetDuration / 2
        requestPlaylist(url, stage: .reload, attempt: 0, notBefore: max(now, startedAt + wait), into: &effects)
    }

    /// Fails with ``HLSStreamError/Code/stalePlaylist`` once a live
    /// playlist has gone ``HLSStreamDisplay/Configuration/stalePlaylistLimit``
    /// target durations without a new segment.
    private mutating func isStale(now: TimeInterval, url: URL, into effects: inout [HLSPlaybackEffect]) -> Bool {
        let limit = configuration.stalePlaylistLimit * timeline.targetDuration
        let waited = now - lastNewSegmentAt
        guard waited > limit + HLSTime.epsilon else { return false }
        let last = lastReloadProblem.map { "the last failed: \($0)" } ?? "unchanged or without a new segment"
        fail(
            HLSStreamError(
                .stalePlaylist,
                "the live playlist \(url.absoluteString) brought no new segment for \(HLSSeconds.text(waited)) s over \(reloadsSinceNewSegment) reloads (\(last)); the limit is \(HLSSeconds.text(configuration.stalePlaylistLimit)) target durations, \(HLSSeconds.text(limit)) s",
                url: url),
            into: &effects)
        return true
    }

    /// Where playback starts: `EXT-X-START` if given (from the end when
    /// negative), else the start for VOD and, for live, the last segment
    /// starting at least the hold-back from the end (RFC 8216bis 6.3.3).
    /// Snapped to a segment start unless `PRECISE=YES`.
    var startPosition: TimeInterval {
        let start = timeline.windowStart
        let end = timeline.end
        var position: TimeInterval
        if let (offset, precise) = timeline.startOffset {
            position = min(max(offset >= 0 ? start + offset : end + offset, start), end)
            if precise { return position }
        } else if timeline.isEnded {
            return start
        } else {
            position = max(start, end - liveHoldBack)
        }
        var snapped = start
        for segment in timeline.window {
            guard segment.start <= position + HLSTime.epsilon else { break }
            snapped = segment.start
        }
        return snapped
    }
}
