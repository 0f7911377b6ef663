import Foundation
import Interlude

extension HLSPlaybackState {
    /// The clock said it is `now`: the playhead moves on.
    mutating func tick(now: TimeInterval, into effects: inout [HLSPlaybackEffect]) {
        advance(now: now, into: &effects)
        if progressDue { reportProgress(force: true, into: &effects) }
    }

    /// Moves the playhead by the clock time since the last move times the
    /// speed, but only over media that is playable (downloaded, or a gap);
    /// reports the timed metadata it passes, progress, a stall, the end.
    mutating func advance(now: TimeInterval, into effects: inout [HLSPlaybackEffect]) {
        guard phase == .playing, !isBuffering else { return }
        let elapsed = max(0, now - (lastAdvanceAt ?? now)) * speed
        lastAdvanceAt = now
        skipUnavailableMedia(into: &effects)
        var limit = timeline.playableEnd(from: playhead)
        if timeline.isEnded { limit = min(limit, timeline.end) }
        let target = playhead + elapsed
        // Within rounding of the limit is at it: the wake-up was computed to land there.
        let reached = target >= limit - HLSTime.epsilon ? max(playhead, limit) : max(playhead, target)
        reportMetadata(upTo: reached, into: &effects)
        if reached > playhead + HLSTime.epsilon { hasPlayedMedia = true }
        playhead = reached
        timeline.discardPlayed(before: playhead)
        if timeline.isEnded, playhead >= timeline.end - HLSTime.epsilon {
            complete(now: now, into: &effects)
            return
        }
        reportProgress(force: false, into: &effects)
        if target >= limit - HLSTime.epsilon {
            // What follows may be gone from a live window: jump rather than wait for it forever.
            skipUnavailableMedia(into: &effects)
            if !hasEnoughBuffer { startBuffering(now: now, countsAsStall: hasPlayedMedia, into: &effects) }
        }
        requestNextSegment(now: now, into: &effects)
    }

    /// Where the playhead is at clock time `now`: between wake-ups it
    /// moves on (over playable media only), as a player's clock does.
    func playhead(at now: TimeInterval) -> TimeInterval {
        guard phase == .playing, !isBuffering, let last = lastAdvanceAt, now > last else { return playhead }
        var limit = timeline.playableEnd(from: playhead)
        if timeline.isEnded { limit = min(limit, timeline.end) }
        return max(playhead, min(playhead + (now - last) * speed, limit))
    }

    /// When the clock should next wake the core: the next progress report,
    /// timed-metadata frame or end of the buffer, whichever the playhead
    /// reaches first; nil when nothing moves until something arrives.
    func nextWakeTime(now: TimeInterval) -> TimeInterval? {
        if progressDue { return now }
        guard phase == .playing, !isBuffering, let last = lastAdvanceAt else { return nil }
        var next = (lastProgressPosition ?? playhead) + configuration.progressInterval
        if let metadata = pendingMetadata.first { next = min(next, metadata.time) }
        var limit = timeline.playableEnd(from: playhead)
        if timeline.isEnded { limit = min(limit, timeline.end) }
        next = min(next, limit)
        // At least a millisecond ahead, so rounding can never spin the clock.
        return max(last + (next - playhead) / speed, last + 0.001)
    }

    /// True when enough is buffered ahead to play: the resume buffer, the
    /// rest of an ended stream, or all there is to fetch for now.
    var hasEnoughBuffer: Bool {
        let end = timeline.playableEnd(from: playhead)
        let ahead = end - playhead
        if timeline.isEnded, end >= timeline.end - HLSTime.epsilon { return true }
        if ahead >= configuration.resumeBufferDuration - HLSTime.epsilon, ahead > HLSTime.epsilon { return true }
        let moreToFetch = segmentRequest != nil || timeline.nextDownload(from: playhead, before: .infinity) != nil
        return !moreToFetch && ahead > HLSTime.epsilon
    }

    mutating func startBuffering(now: TimeInterval, countsAsStall: Bool, into effects: inout [HLSPlaybackEffect]) {
        guard !isBuffering else { return }
        isBuffering = true
        if countsAsStall {
            counters.stallCount += 1
            effects.append(.log(.info, "stalled at \(HLSSeconds.text(playhead)) s: waiting for media"))
        }
        stallStartedAt = hasPlayedMedia ? now : nil
        effects.append(.report(.startedBuffering))
    }

    /// Plays on if playback waits and enough has arrived (or the stream ended where the playhead is).
    mutating func resumeIfBuffered(now: TimeInterval, into effects: inout [HLSPlaybackEffect]) {
        guard isBuffering, phase == .playing else { return }
        skipUnavailableMedia(into: &effects)
        if timeline.isEnded, playhead >= timeline.end - HLSTime.epsilon {
            complete(now: now, into: &effects)
            return
        }
        guard hasEnoughBuffer else { return }
        endBuffering(now: now)
        lastAdvanceAt = now
        effects.append(.report(.playbackReady))
    }

    /// Stops waiting (resumed, paused or ended), adding the wait to the stall time.
    mutating func endBuffering(now: TimeInterval) {
        guard isBuffering else { return }
        isBuffering = false
        if let started = stallStartedAt { counters.stalledSeconds += max(0, now - started) }
        stallStartedAt = nil
    }

    /// A playhead in a segment that can no longer be fetched (it left the
    /// live window before it was downloaded, or in a hole of the numbering)
    /// jumps to the first segment that can be played or fetched, as players
    /// do when they fall behind a live window.
    mutating func skipUnavailableMedia(into effects: inout [HLSPlaybackEffect]) {
        guard let (index, inside) = timeline.position(of: playhead) else { return }
        let segments = timeline.segments
        if inside && (segments[index].isPlayable || index >= timeline.windowStartIndex) { return }
        var next = index
        var skipped = 0
        while next < segments.count, next < timeline.windowStartIndex, !segments[next].isPlayable,
            segments[next].sequence != segmentRequest?.sequence
        {
            next += 1
            skipped += 1
        }
        guard next < segments.count, next != index || !inside else { return }
        let from = playhead
        playhead = segments[next].start
        counters.segmentsSkipped += skipped
        let dropped = pendingMetadata.prefix { $0.time < playhead - HLSTime.epsilon }.count
        pendingMetadata.removeFirst(dropped)
        effects.append(
            .log(
                .warning,
                "jumped from \(HLSSeconds.text(from)) s to \(HLSSeconds.text(playhead)) s over \(skipped) segments no longer available\(dropped > 0 ? ", dropping \(dropped) timed-metadata frames" : "")"
            ))
        progressDue = true
    }

    /// Progress every ``HLSStreamDisplay/Configuration/progressInterval`` of stream time (or now, when `force`).
    mutating func reportProgress(force: Bool, into effects: inout [HLSPlaybackEffect]) {
        progressDue = false
        if !force, let last = lastProgressPosition,
            abs(playhead - last) < configuration.progressInterval - HLSTime.epsilon
        {
            return
        }
        lastProgressPosition = playhead
        effects.append(.report(.progressed(playhead, total: totalTime)))
    }

    /// Played to the end: a last progress report at the end, then completion.
    mutating func complete(now: TimeInterval, into effects: inout [HLSPlaybackEffect]) {
        endBuffering(now: now)
        playhead = timeline.end
        if lastProgressPosition.map({ abs($0 - playhead) > HLSTime.epsilon }) ?? true {
            reportProgress(force: true, into: &effects)
        }
        progressDue = false
        phase = .ended
        effects.append(.report(.completed))
    }
}
