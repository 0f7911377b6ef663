import Foundation
import Interlude
import InterludeHLS

/// A headless HLS player: a ``VideoDisplay`` that plays HLS streams the
/// way a player does, over real HTTP, without decoding pictures. It loads
/// a multivariant playlist (or a media playlist), picks a variant, reloads
/// live playlists on the RFC 8216bis schedule, downloads segments ahead of
/// the playhead, moves the playhead on its clock only over what it has
/// downloaded (reporting buffering otherwise), follows discontinuities,
/// and reports ID3 timed metadata from MPEG-TS segments and DATERANGE
/// client attributes when the playhead reaches them. What the IMA SDK's
/// `IMAAVPlayerVideoDisplay` is on Apple platforms, for a QA bot or a
/// server-side monitor on Linux or macOS.
///
/// All I/O goes through the injected ``HTTPClient`` and ``AdClock``, so a
/// test plays a stream on a manual clock. ``status`` says what it knows.
@MainActor
public final class HLSStreamDisplay: VideoDisplay {
    /// Receives playback events (IMA's `IMAVideoDisplay.delegate`); set by the SDK or the app.
    public weak var delegate: (any VideoDisplayDelegate)?
    /// Kept for the SDK (nothing is heard).
    public var volume: Float = 1
    /// The playhead, stream seconds, as of now on the display's clock.
    public var currentMediaTime: TimeInterval { state.playhead(at: clock.now) }
    /// The stream's length for VOD (and a live stream that ended); 0 for live.
    public var totalMediaTime: TimeInterval { state.totalTime }
    /// The end of the media downloaded without a hole from the playhead.
    public var bufferedMediaTime: TimeInterval { state.bufferedEnd }
    /// True between `play()` and `pause()` (while waiting for media too), as AVPlayer's rate is.
    public var isPlaying: Bool { state.phase == .playing }
    /// What the display knows: phase, variant, buffer, stalls, bytes, segments, discontinuities.
    public var status: Status {
        var status = state.status
        status.playhead = currentMediaTime
        status.requestsInFlight = (playlistInFlight ? 1 : 0) + (segmentInFlight ? 1 : 0)
        return status
    }
    /// Stream seconds per clock second (``Configuration/speed``); settable while playing.
    public var speed: Double {
        get { state.speed }
        set { run { $0.setSpeed(newValue, now: clock.now, into: &$1) } }
    }
    /// How the display plays (fixed at creation).
    public var configuration: Configuration { state.configuration }

    private let http: any HTTPClient
    private let clock: any AdClock
    private let logger: any AdLogger
    private var state: HLSPlaybackState
    /// Effects waiting to be executed: a delegate call that re-enters the
    /// display queues its effects behind the ones already decided.
    private var queue: [HLSPlaybackEffect] = []
    private var isDraining = false
    private var playlistTask: Task<Void, Never>?
    private var segmentTask: Task<Void, Never>?
    private var playlistInFlight = false
    private var segmentInFlight = false
    /// Fetches started but waiting on the clock for their `notBefore`.
    private var playlistWaitsForClock = false
    private var segmentWaitsForClock = false
    private var wakeTask: Task<Void, Never>?
    private var wakeTime: TimeInterval?
    /// Reports made while `load` runs go out on the next turn, so the SDK
    /// never hears back inside its own call.
    private var deferredReports: [HLSDisplayReport] = []
    private var isLoading = false

    /// A display fetching through `httpClient` (default: URLSession with a
    /// 64 MiB body limit) on `clock` (default: the system clock), logging
    /// what it skips and retries to `logger`.
    public init(
        httpClient: any HTTPClient = URLSessionHTTPClient(maxResponseSize: 64 << 20),
        clock: any AdClock = SystemClock(),
        configuration: Configuration = Configuration(), logger: any AdLogger = SilentLogger()
    ) {
        self.http = httpClient
        self.clock = clock
        self.logger = logger
        self.state = HLSPlaybackState(configuration: configuration)
    }

    /// Loads an HLS URL (a multivariant or media playlist) without
    /// playing; `videoDisplayDidLoad` follows once its media playlist is
    /// read. A URL that is not HLS is a display error. Subtitles are not
    /// fetched.
    public func load(_ url: URL, subtitles: [[String: String]]?) {
        cancelTasks()
        isLoading = true
        run { $0.load(url, now: clock.now, into: &$1) }
        isLoading = false
        let reports = deferredReports
        deferredReports = []
        guard !reports.isEmpty else { return }
        Task { [weak self] in
            await Task.yield()
            guard let self else { return }
            for report in reports { self.deliver(report) }
        }
    }

    /// Loads a stream with its ads stitched in; the same as ``load(_:subtitles:)``. IMA's `loadStream:withSubtitles:`.
    public func loadStream(_ url: URL, subtitles: [[String: String]]?) { load(url, subtitles: subtitles) }

    /// Plays, now or once loading ends; `videoDisplayDidStart` the first
    /// time, `videoDisplayDidResume` after a pause. IMA's `play`.
    public func play() { run { $0.play(now: clock.now, into: &$1) } }

    /// Pauses the playhead (downloads and live reloads go on). IMA's `pause`.
    public func pause() { run { $0.pause(now: clock.now, into: &$1) } }

    /// Stops, cancels every request and unloads. IMA's `reset`.
    public func reset() {
        run { $0.reset(into: &$1) }
        cancelTasks()
    }

    /// Moves the playhead (VOD: anywhere in the stream; live: within the
    /// window up to the hold-back from its end). Progress is reported on
    /// the next turn.
    public func seek(to time: TimeInterval) { run { $0.seek(to: time, now: clock.now, into: &$1) } }

    /// The same as ``seek(to:)``: stream time is media time here. IMA's `seekStreamToTime:`.
    public func seekStream(to time: TimeInterval) { seek(to: time) }

    /// How many of the display's tasks are (or are about to be) asleep on
    /// its clock: the wake-up and fetches waiting for their time. A test
    /// driving a manual clock waits until that many sleepers are registered
    /// before it looks for the next deadline, since a task resumed or
    /// created on a busy machine may not have reached its sleep yet.
    var pendingClockSleeps: Int {
        (wakeTask != nil && wakeTime != nil ? 1 : 0) + (playlistWaitsForClock ? 1 : 0) + (segmentWaitsForClock ? 1 : 0)
    }

    // MARK: - Effects

    private func run(_ transition: (inout HLSPlaybackState, inout [HLSPlaybackEffect]) -> Void) {
        var effects: [HLSPlaybackEffect] = []
        transition(&state, &effects)
        queue.append(contentsOf: effects)
        drain()
    }

    private func drain() {
        guard !isDraining else { return }
        isDraining = true
        while !queue.isEmpty {
            let effect = queue.removeFirst()
            execute(effect)
        }
        isDraining = false
        rescheduleWake()
    }

    private func execute(_ effect: HLSPlaybackEffect) {
        switch effect {
        case .fetchPlaylist(let fetch):
            playlistTask?.cancel()
            setInFlight(isSegment: false, false)
            playlistTask = startFetch(fetch, isSegment: false)
        case .fetchSegment(let fetch):
            segmentTask?.cancel()
            setInFlight(isSegment: true, false)
            segmentTask = startFetch(fetch, isSegment: true)
        case .cancelPlaylistFetch:
            playlistTask?.cancel()
            playlistTask = nil
            setInFlight(isSegment: false, false)
        case .cancelSegmentFetch:
            segmentTask?.cancel()
            segmentTask = nil
            setInFlight(isSegment: true, false)
        case .report(let report):
            if isLoading { deferredReports.append(report) } else { deliver(report) }
        case .log(let level, let message):
            logger.log(level, "HLSStreamDisplay: \(message)")
        }
    }

    private func deliver(_ report: HLSDisplayReport) {
        guard let delegate else { return }
        switch report {
        case .loaded: delegate.videoDisplayDidLoad(self)
        case .started: delegate.videoDisplayDidStart(self)
        case .paused: delegate.videoDisplayDidPause(self)
        case .resumed: delegate.videoDisplayDidResume(self)
        case .progressed(let time, let total):
            delegate.videoDisplay(self, didProgressToMediaTime: time, totalTime: total)
        case .timedMetadata(let values, let time):
            delegate.videoDisplay(self, didReceiveTimedMetadata: values, presentationTime: time)
        case .startedBuffering: delegate.videoDisplayDidStartBuffering(self)
        case .bufferedTo(let time): delegate.videoDisplay(self, didBufferToMediaTime: time)
        case .playbackReady: delegate.videoDisplayIsPlaybackReady(self)
        case .completed: delegate.videoDisplayDidComplete(self)
        case .failed(let error): delegate.videoDisplay(self, didReceiveError: error.displayError)
        }
    }

    private func cancelTasks() {
        playlistTask?.cancel()
        segmentTask?.cancel()
        wakeTask?.cancel()
        playlistTask = nil
        segmentTask = nil
        wakeTask = nil
        wakeTime = nil
        setInFlight(isSegment: false, false)
        setInFlight(isSegment: true, false)
    }

    // MARK: - Clock

    /// One sleeping task wakes the core when its next event is due.
    private func rescheduleWake() {
        let next = state.nextWakeTime(now: clock.now)
        guard next != wakeTime else { return }
        wakeTask?.cancel()
        wakeTime = next
        guard let next else {
            wakeTask = nil
            return
        }
        let clock = self.clock
        wakeTask = Task { [weak self] in
            do { try await clock.sleep(until: next) } catch { return }
            guard let self, !Task.isCancelled else { return }
            self.wakeTime = nil
            self.run { $0.tick(now: clock.now, into: &$1) }
        }
    }

    // MARK: - Network

    private func startFetch(_ fetch: HLSFetch, isSegment: Bool) -> Task<Void, Never> {
        let http = self.http
        let clock = self.clock
        // A request due now counts as on the network from now, not from when its task first runs.
        if fetch.notBefore <= clock.now {
            setInFlight(isSegment: isSegment, true)
        } else if isSegment {
            segmentWaitsForClock = true
        } else {
            playlistWaitsForClock = true
        }
        return Task { [weak self] in
            do { try await clock.sleep(until: fetch.notBefore) } catch { return }
            guard !Task.isCancelled else { return }
            let startedAt = clock.now
            self?.setInFlight(isSegment: isSegment, true)
            let result = await HLSFetcher.fetch(fetch, http: http, clock: clock, readsSegment: isSegment)
            guard !Task.isCancelled, let self else { return }
            self.setInFlight(isSegment: isSegment, false)
            guard let result else { return }
            if isSegment {
                self.run { $0.segmentFetched(id: fetch.id, result: result, now: clock.now, into: &$1) }
            } else {
                self.run {
                    $0.playlistFetched(id: fetch.id, startedAt: startedAt, result: result, now: clock.now, into: &$1)
                }
            }
        }
    }

    /// Marks a fetch as on the network (or not); either way it no longer waits for the clock.
    private func setInFlight(isSegment: Bool, _ value: Bool) {
        if isSegment {
            segmentInFlight = value
            segmentWaitsForClock = false
        } else {
            playlistInFlight = value
            playlistWaitsForClock = false
        }
    }
}
