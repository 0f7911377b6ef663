import Foundation
import Interlude

/// A ``VideoDisplay`` that "plays" media of a known duration on a clock:
/// real time, N× faster, or a test's manual clock. It can be told to fail,
/// to stall (never load), to buffer mid-play, or to report timed metadata.
/// Tests, the terminal player and the demo use it.
@MainActor
public final class SimulatedVideoDisplay: VideoDisplay {
    /// How a media URL behaves.
    public enum Behavior: Sendable, Hashable {
        /// Loads and plays to its end.
        case plays
        /// Fails to load with this error.
        case failsToLoad(VideoDisplayError)
        /// Fails with this error after playing this many seconds.
        case failsAfter(TimeInterval, VideoDisplayError)
        /// Never loads (the SDK's load timeout fires).
        case stalls
        /// Plays, but on reaching `at` seconds waits `for` clock seconds (at
        /// 1×) for media, reporting buffering start, progress and readiness.
        case buffers(at: TimeInterval, for: TimeInterval)
    }

    public weak var delegate: (any VideoDisplayDelegate)?
    public var volume: Float = 1
    /// How much of the video is on screen (``VideoDisplay/visibleFraction``);
    /// nil, the default, when the simulation does not say.
    public var visibleFraction: Double?
    public private(set) var currentMediaTime: TimeInterval = 0
    public private(set) var totalMediaTime: TimeInterval = 0
    public var bufferedMediaTime: TimeInterval { isBuffering ? currentMediaTime : totalMediaTime }
    /// True while a ``Behavior/buffers(at:for:)`` wait is on (and while paused in one).
    public private(set) var isBuffering = false
    public private(set) var isPlaying = false
    /// The loaded URL.
    public private(set) var loadedURL: URL?
    /// Every command received, for tests ("load URL", "play", "pause", "reset", "seek T").
    public private(set) var commands: [String] = []

    /// Media seconds per clock second. Default 1.
    public var speed: Double
    /// Media seconds between progress reports. Default 0.25 (4 Hz at 1×).
    public var tickInterval: TimeInterval = 0.25
    /// The duration of a URL's media. Default 10 s.
    public var durationForURL: (URL) -> TimeInterval = { _ in 10 }
    /// How a URL behaves. Default: plays.
    public var behaviorForURL: (URL) -> Behavior = { _ in .plays }
    /// When set, `load` first asks the media's server (`HEAD`) whether the
    /// file exists, as a real player's fetch would find out: 404/410 report
    /// `mediaNotFound` (401), other failures `cannotDisplay` (405).
    public var mediaProbe: (any HTTPClient)?

    private let clock: any AdClock
    private var started = false
    /// The one mid-play wait of a ``Behavior/buffers(at:for:)`` URL is over.
    private var hasBuffered = false
    private var playback: Task<Void, Never>?
    private var pending: Task<Void, Never>?

    public init(clock: any AdClock = SystemClock(), speed: Double = 1) {
        self.clock = clock
        self.speed = speed
    }

    public func load(_ url: URL, subtitles: [[String: String]]?) {
        stopPlayback()
        commands.append("load \(url.absoluteString)")
        loadedURL = url
        started = false
        hasBuffered = false
        currentMediaTime = 0
        totalMediaTime = durationForURL(url)
        switch behaviorForURL(url) {
        case .stalls:
            return
        case .failsToLoad(let error):
            later { display in display.delegate?.videoDisplay(display, didReceiveError: error) }
        case .plays, .failsAfter, .buffers:
            if let probe = mediaProbe, url.isHTTPOrHTTPS {
                pending = Task { [weak self] in
                    let outcome: VideoDisplayError?
                    do {
                        let response = try await probe.send(HTTPRequest(url: url, method: "HEAD", timeout: 8))
                        switch response.statusCode {
                        case 200..<300: outcome = nil
                        case 404, 410: outcome = .mediaNotFound
                        default: outcome = .cannotDisplay("HTTP \(response.statusCode)")
                        }
                    } catch {
                        outcome = .cannotDisplay("\(error)")
                    }
                    guard !Task.isCancelled, let self else { return }
                    if let outcome {
                        self.delegate?.videoDisplay(self, didReceiveError: outcome)
                    } else {
                        self.delegate?.videoDisplayDidLoad(self)
                    }
                }
            } else {
                later { display in display.delegate?.videoDisplayDidLoad(display) }
            }
        }
    }

    public func play() {
        commands.append("play")
        guard loadedURL != nil, !isPlaying else { return }
        isPlaying = true
        if started {
            delegate?.videoDisplayDidResume(self)
        } else {
            started = true
            delegate?.videoDisplayDidStart(self)
        }
        runPlayback()
    }

    public func pause() {
        commands.append("pause")
        guard isPlaying else { return }
        isPlaying = false
        playback?.cancel()
        playback = nil
        delegate?.videoDisplayDidPause(self)
    }

    public func reset() {
        commands.append("reset")
        stopPlayback()
        loadedURL = nil
        started = false
        currentMediaTime = 0
        totalMediaTime = 0
    }

    public func seek(to time: TimeInterval) {
        commands.append("seek \(time)")
        currentMediaTime = min(max(0, time), totalMediaTime)
    }

    /// The user touched the video.
    public func tap() { delegate?.videoDisplayDidClick(self) }

    /// Reports timed metadata as a stream would (ID3 or DATERANGE attributes).
    public func reportTimedMetadata(_ metadata: [String: String]) {
        delegate?.videoDisplay(self, didReceiveTimedMetadata: metadata)
    }

    // MARK: - Clock

    private func stopPlayback() {
        isPlaying = false
        isBuffering = false
        playback?.cancel()
        playback = nil
        pending?.cancel()
        pending = nil
    }

    /// Runs `action` on the next turn, so the SDK never hears back inside its own call.
    private func later(_ action: @escaping @MainActor (SimulatedVideoDisplay) -> Void) {
        pending = Task { [weak self] in
            await Task.yield()
            guard !Task.isCancelled, let self else { return }
            action(self)
        }
    }

    private func runPlayback() {
        let clock = self.clock
        let failure: (TimeInterval, VideoDisplayError)?
        if let url = loadedURL, case .failsAfter(let seconds, let error) = behaviorForURL(url) {
            failure = (seconds, error)
        } else {
            failure = nil
        }
        var stall: (at: TimeInterval, seconds: TimeInterval)?
        if let url = loadedURL, case .buffers(let at, let seconds) = behaviorForURL(url) { stall = (at, seconds) }
        playback = Task { [weak self] in
            while !Task.isCancelled {
                // A due buffering wait takes the place of the next tick. The
                // display is held only between sleeps, never across one.
                guard
                    let (interval, waiting) = self.map({ display -> (TimeInterval, Bool) in
                        let rate = max(display.speed, 0.0001)
                        guard let wait = stall, !display.hasBuffered, display.currentMediaTime >= wait.at else {
                            return (display.tickInterval / rate, false)
                        }
                        // Resumed after a pause mid-wait: the wait starts over, announced once.
                        if !display.isBuffering {
                            display.isBuffering = true
                            display.delegate?.videoDisplayDidStartBuffering(display)
                        }
                        return (wait.seconds / rate, true)
                    })
                else { return }
                do { try await clock.sleep(for: interval) } catch { return }
                guard let self, !Task.isCancelled, self.isPlaying else { return }
                if waiting {
                    self.isBuffering = false
                    self.hasBuffered = true
                    self.delegate?.videoDisplay(self, didBufferToMediaTime: self.totalMediaTime)
                    self.delegate?.videoDisplayIsPlaybackReady(self)
                    continue
                }
                self.currentMediaTime = min(self.totalMediaTime, self.currentMediaTime + self.tickInterval)
                if let failure, self.currentMediaTime >= failure.0 {
                    self.isPlaying = false
                    self.delegate?.videoDisplay(self, didReceiveError: failure.1)
                    return
                }
                self.delegate?.videoDisplay(
                    self, didProgressToMediaTime: self.currentMediaTime, totalTime: self.totalMediaTime)
                if self.currentMediaTime >= self.totalMediaTime {
                    self.isPlaying = false
                    self.delegate?.videoDisplayDidComplete(self)
                    return
                }
            }
        }
    }
}
