import Foundation
import Interlude

/// A ``VideoDisplay`` that plays a stream of known length on a clock (or
/// step by step) and reports the timed metadata the stream carries with
/// its presentation times, each `lead` seconds before the playhead gets
/// there, as a player that parses a segment ahead does. Seeks land at
/// once. For the DAI tests and the stream benchmark.
@MainActor
public final class ScriptedStreamDisplay: VideoDisplay {
    /// One timed-metadata frame in the stream.
    public struct Cue: Sendable, Hashable {
        public var values: [String: String]
        /// Presentation time in stream seconds.
        public var time: TimeInterval
        /// Seconds before `time` the display hands it over (0: at the frame).
        public var lead: TimeInterval

        public init(values: [String: String], time: TimeInterval, lead: TimeInterval = 0) {
            self.values = values
            self.time = time
            self.lead = lead
        }

        /// A TXXX frame carrying `eventID`.
        public static func id3(_ eventID: String, at time: TimeInterval, lead: TimeInterval = 0) -> Cue {
            Cue(values: ["TXXX": eventID], time: time, lead: lead)
        }
    }

    public weak var delegate: (any VideoDisplayDelegate)?
    public var volume: Float = 1
    public private(set) var currentMediaTime: TimeInterval = 0
    /// The stream's length; 0 for a livestream (it never ends).
    public var totalMediaTime: TimeInterval
    public var bufferedMediaTime: TimeInterval { currentMediaTime }
    public private(set) var isPlaying = false
    public private(set) var loadedURL: URL?
    /// Every command received ("loadStream URL", "play", "pause", "reset", "seekStream T").
    public private(set) var commands: [String] = []
    /// Stream seconds per progress report. Default 0.25 (4 Hz).
    public var tickInterval: TimeInterval = 0.25
    /// The stream's timed metadata, in the order the display hands it over.
    public var cues: [Cue] = [] {
        didSet { cursor = min(cursor, cues.count) }
    }
    /// When set, loading fails with this error.
    public var loadFailure: VideoDisplayError?
    /// Whether metadata comes with its presentation time (the newer
    /// delegate call) or without (the older one). Default true.
    public var reportsPresentationTime = true

    private let clock: (any AdClock)?
    private var started = false
    /// The next cue to hand over.
    private var cursor = 0
    private var playback: Task<Void, Never>?
    private var pending: Task<Void, Never>?

    /// A display on `clock` (plays by itself once told to), or without one
    /// (the test calls ``step()``).
    public init(clock: (any AdClock)? = nil, duration: TimeInterval = 0) {
        self.clock = clock
        totalMediaTime = duration
    }

    public func load(_ url: URL, subtitles: [[String: String]]?) { open(url, command: "load") }
    public func loadStream(_ url: URL, subtitles: [[String: String]]?) { open(url, command: "loadStream") }

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
        isPlaying = false
        playback?.cancel()
        playback = nil
        pending?.cancel()
        pending = nil
        loadedURL = nil
        started = false
        currentMediaTime = 0
        cursor = 0
    }

    /// Adds a cue after the others (a long stream's metadata, made as it plays).
    public func append(_ cue: Cue) {
        cues.append(cue)
        // What was handed over is not needed again unless the test seeks back: keep memory flat.
        if cursor > 1024 {
            cues.removeFirst(cursor)
            cursor = 0
        }
    }

    public func seek(to time: TimeInterval) { moveTo(time, command: "seek") }
    public func seekStream(to time: TimeInterval) { moveTo(time, command: "seekStream") }

    /// The user touched the video.
    public func tap() { delegate?.videoDisplayDidClick(self) }

    /// One progress report: metadata due by the new position (minus each
    /// cue's lead) is handed over first, then the position.
    public func step() {
        guard loadedURL != nil else { return }
        var next = currentMediaTime + tickInterval
        if totalMediaTime > 0 { next = min(next, totalMediaTime) }
        deliverCues(upTo: next)
        currentMediaTime = next
        delegate?.videoDisplay(self, didProgressToMediaTime: next, totalTime: totalMediaTime)
        if totalMediaTime > 0, next >= totalMediaTime {
            isPlaying = false
            playback?.cancel()
            playback = nil
            delegate?.videoDisplayDidComplete(self)
        }
    }

    /// Plays `seconds` of stream by direct calls, no clock between reports.
    public func play(for seconds: TimeInterval) {
        let end = currentMediaTime + seconds
        while currentMediaTime < end - 1e-9, loadedURL != nil {
            step()
            if totalMediaTime > 0, currentMediaTime >= totalMediaTime { return }
        }
    }

    // MARK: - Private

    private func open(_ url: URL, command: String) {
        commands.append("\(command) \(url.absoluteString)")
        playback?.cancel()
        playback = nil
        isPlaying = false
        started = false
        loadedURL = url
        currentMediaTime = 0
        cursor = 0
        let failure = loadFailure
        pending = Task { [weak self] in
            await Task.yield()
            guard !Task.isCancelled, let self else { return }
            if let failure {
                self.delegate?.videoDisplay(self, didReceiveError: failure)
            } else {
                self.delegate?.videoDisplayDidLoad(self)
            }
        }
    }

    private func moveTo(_ time: TimeInterval, command: String) {
        commands.append("\(command) \(time)")
        let target = totalMediaTime > 0 ? min(max(0, time), totalMediaTime) : max(0, time)
        // A real player fetches the segments again after a seek back: their metadata comes again.
        if target < currentMediaTime { cursor = cues.firstIndex { $0.time >= target } ?? cues.count }
        currentMediaTime = target
    }

    private func deliverCues(upTo position: TimeInterval) {
        while cursor < cues.count, cues[cursor].time - cues[cursor].lead <= position {
            let cue = cues[cursor]
            cursor += 1
            // Frames a seek jumped over are never parsed.
            guard cue.time >= currentMediaTime else { continue }
            if reportsPresentationTime {
                delegate?.videoDisplay(self, didReceiveTimedMetadata: cue.values, presentationTime: cue.time)
            } else {
                delegate?.videoDisplay(self, didReceiveTimedMetadata: cue.values)
            }
        }
    }

    private func runPlayback() {
        guard let clock else { return }
        let interval = tickInterval
        playback = Task { [weak self] in
            while !Task.isCancelled {
                do { try await clock.sleep(for: interval) } catch { return }
                guard let self, !Task.isCancelled, self.isPlaying else { return }
                self.step()
            }
        }
    }
}
