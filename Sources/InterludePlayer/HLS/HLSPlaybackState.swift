import Foundation
import Interlude
import InterludeHLS

/// The decisions of ``HLSStreamDisplay``, as a value: what to fetch and
/// when, where the playhead is, when playback waits, what to report.
/// Each transition takes the clock's time and appends the effects the
/// shell executes (requests, reports, log lines); nothing here does I/O
/// or reads a clock, so it is tested on its own.
struct HLSPlaybackState: Sendable {
    /// Which playlist an answer is for.
    enum PlaylistStage: Sendable, Hashable {
        /// The URL given to `load`: a multivariant or a media playlist.
        case loadedURL
        /// The chosen variant's media playlist, first load.
        case variant
        /// A reload of the live media playlist.
        case reload
    }

    struct PlaylistRequest: Sendable, Hashable {
        var id: UInt64
        var stage: PlaylistStage
        var url: URL
        var attempt: Int
    }

    struct SegmentRequest: Sendable, Hashable {
        var id: UInt64
        var sequence: UInt64
        var attempt: Int
    }

    let configuration: HLSStreamDisplay.Configuration
    /// Stream seconds per clock second.
    private(set) var speed: Double
    var phase: HLSStreamDisplay.PlaybackPhase = .idle
    /// Counters and facts, kept as they change; ``status`` adds the derived ones.
    var counters = HLSStreamDisplay.Status()
    var timeline = HLSSegmentTimeline()
    var playhead: TimeInterval = 0
    var isBuffering = false

    // Loading
    var loadedURL: URL?
    var variant: HLSStreamDisplay.Variant?
    var mediaPlaylistURL: URL?
    var importedVariables: [String: String] = [:]
    var playlistRequest: PlaylistRequest?
    var lastPlaylistBody: [UInt8]?
    var lastNewSegmentAt: TimeInterval = 0
    var lastReloadProblem: String?
    var reloadsSinceNewSegment = 0

    // Segments
    var segmentRequest: SegmentRequest?
    var ptsAnchors: [UInt64: (pts: UInt64, time: TimeInterval)] = [:]

    // Playhead
    var lastAdvanceAt: TimeInterval?
    var hasStarted = false
    var hasPlayedMedia = false
    var stallStartedAt: TimeInterval?
    var playWhenReady = false
    var pendingSeek: TimeInterval?
    var lastProgressPosition: TimeInterval?
    var progressDue = false

    // Metadata
    var pendingMetadata: [HLSScheduledMetadata] = []
    var reportedDateRanges: Set<String> = []

    private var nextID: UInt64 = 0

    init(configuration: HLSStreamDisplay.Configuration) {
        self.configuration = configuration.sanitized
        self.speed = self.configuration.speed
    }

    /// Stream seconds of the whole stream when it has an end, else 0 (a live stream's length is not known).
    var totalTime: TimeInterval { timeline.hasLoaded && timeline.isEnded ? timeline.end : 0 }
    /// The end of the media downloaded without a hole from the playhead.
    var bufferedEnd: TimeInterval { timeline.playableEnd(from: playhead) }
    var isLive: Bool { timeline.hasLoaded && !timeline.isEnded }

    /// Everything known, for ``HLSStreamDisplay/status``.
    var status: HLSStreamDisplay.Status {
        var status = counters
        status.phase = phase
        status.isBuffering = isBuffering
        status.url = loadedURL
        status.variant = variant
        status.isLive = isLive
        status.playhead = playhead
        status.duration = timeline.hasLoaded && timeline.isEnded ? timeline.end : nil
        let buffered = bufferedEnd
        status.bufferedRange = buffered > playhead + HLSTime.epsilon ? playhead...buffered : nil
        status.windowRange = timeline.window.isEmpty ? nil : timeline.windowStart...timeline.end
        status.mediaSequence = timeline.mediaSequence
        status.discontinuitySequence = timeline.discontinuitySequence
        status.targetDuration = timeline.hasLoaded ? timeline.targetDuration : 0
        return status
    }

    mutating func makeID() -> UInt64 {
        nextID += 1
        return nextID
    }

    // MARK: - Commands

    /// Starts loading `url` (a multivariant or media playlist), without playing.
    mutating func load(_ url: URL, now: TimeInterval, into effects: inout [HLSPlaybackEffect]) {
        reset(into: &effects)
        phase = .loading
        loadedURL = url
        if let problem = Self.nonHLSReason(url) {
            fail(HLSStreamError(.notHLS, problem, url: url), into: &effects)
            return
        }
        requestPlaylist(url, stage: .loadedURL, attempt: 0, notBefore: now, into: &effects)
    }

    /// Why `url` cannot be an HLS playlist without fetching it, or nil.
    static func nonHLSReason(_ url: URL) -> String? {
        guard url.isHTTPOrHTTPS else {
            return "\(url.absoluteString) is not an http or https URL, so not an HLS stream this display can fetch"
        }
        let mediaFiles: Set<String> = [
            "mp4", "m4v", "mov", "webm", "mkv", "mp3", "m4a", "aac", "ts", "mpd", "ogg", "ogv", "flv", "avi", "wav",
        ]
        let fileExtension = url.pathExtension.lowercased()
        guard mediaFiles.contains(fileExtension) else { return nil }
        return "\(url.absoluteString) is a .\(fileExtension) file, not an HLS playlist (.m3u8)"
    }

    mutating func play(now: TimeInterval, into effects: inout [HLSPlaybackEffect]) {
        switch phase {
        case .loading:
            playWhenReady = true
        case .ready, .paused:
            phase = .playing
            lastAdvanceAt = now
            effects.append(.report(hasStarted ? .resumed : .started))
            hasStarted = true
            if !hasEnoughBuffer { startBuffering(now: now, countsAsStall: false, into: &effects) }
        case .idle, .playing, .ended, .failed:
            break
        }
    }

    mutating func pause(now: TimeInterval, into effects: inout [HLSPlaybackEffect]) {
        switch phase {
        case .loading:
            playWhenReady = false
        case .playing:
            advance(now: now, into: &effects)
            guard phase == .playing else { return }
            endBuffering(now: now)
            phase = .paused
            effects.append(.report(.paused))
        case .idle, .ready, .paused, .ended, .failed:
            break
        }
    }

    /// Stops and unloads; counters start over with the next load.
    mutating func reset(into effects: inout [HLSPlaybackEffect]) {
        if playlistRequest != nil { effects.append(.cancelPlaylistFetch) }
        if segmentRequest != nil { effects.append(.cancelSegmentFetch) }
        let keptSpeed = speed
        self = HLSPlaybackState(configuration: configuration)
        speed = keptSpeed
    }

    /// Changes the speed, the time played so far counted at the old one.
    mutating func setSpeed(_ newSpeed: Double, now: TimeInterval, into effects: inout [HLSPlaybackEffect]) {
        advance(now: now, into: &effects)
        speed = newSpeed.isFinite && newSpeed > 0 ? newSpeed : 1
    }

    /// Moves the playhead to `time`, clamped to what can be played: the
    /// whole stream for VOD, the window up to the live hold-back for live.
    mutating func seek(to time: TimeInterval, now: TimeInterval, into effects: inout [HLSPlaybackEffect]) {
        guard time.isFinite else { return }
        switch phase {
        case .idle, .failed: return
        case .loading:
            pendingSeek = time
            return
        case .playing: advance(now: now, into: &effects)
        case .ready, .paused, .ended: break
        }
        guard phase != .failed else { return }
        let target = min(max(time, timeline.windowStart), seekableEnd)
        if let (index, inside) = timeline.position(of: target), inside, timeline.segments[index].isPlayable {
            timeline.discardPlayed(before: target)
        } else {
            timeline.discardBuffer()
            if segmentRequest != nil {
                segmentRequest = nil
                effects.append(.cancelSegmentFetch)
            }
        }
        playhead = target
        lastAdvanceAt = now
        progressDue = true
        rebuildPendingMetadata()
        if phase == .ended { phase = .paused }
        if phase == .playing {
            if isBuffering {
                resumeIfBuffered(now: now, into: &effects)
            } else if !hasEnoughBuffer {
                startBuffering(now: now, countsAsStall: false, into: &effects)
            }
        }
        requestNextSegment(now: now, into: &effects)
    }

    /// The latest stream time a seek may reach.
    var seekableEnd: TimeInterval {
        guard isLive else { return timeline.end }
        return max(timeline.windowStart, timeline.end - liveHoldBack)
    }

    /// How far from the end of a live playlist playback starts (RFC 8216bis
    /// 6.3.3: HOLD-BACK, else three target durations).
    var liveHoldBack: TimeInterval { timeline.holdBack ?? 3 * timeline.targetDuration }

    // MARK: - Failure

    /// Stops with `error`, reported once.
    mutating func fail(_ error: HLSStreamError, into effects: inout [HLSPlaybackEffect]) {
        guard phase != .failed else { return }
        if playlistRequest != nil {
            playlistRequest = nil
            effects.append(.cancelPlaylistFetch)
        }
        if segmentRequest != nil {
            segmentRequest = nil
            effects.append(.cancelSegmentFetch)
        }
        phase = .failed
        isBuffering = false
        counters.error = error
        effects.append(.log(.error, error.message))
        effects.append(.report(.failed(error)))
    }
}
