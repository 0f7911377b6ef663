import Foundation
import Interlude

/// Content of a known duration "playing" on a clock, N× faster if asked: the
/// content side of the terminal player and the demo. It is the
/// ``ContentPlayhead`` the SDK reads to schedule VMAP breaks.
@MainActor
public final class SimulatedContentPlayer: ContentPlayhead {
    public let duration: TimeInterval
    public var speed: Double
    public private(set) var currentTime: TimeInterval = 0
    public private(set) var isPlaying = false
    public private(set) var hasEnded = false
    /// Content seconds between ticks. Default 0.25.
    public var tickInterval: TimeInterval = 0.25
    /// Called on every tick while playing.
    public var onTick: (() -> Void)?
    /// Called once when the content reaches its end.
    public var onEnd: (() -> Void)?

    private let clock: any AdClock
    private var playback: Task<Void, Never>?

    public init(duration: TimeInterval, clock: any AdClock = SystemClock(), speed: Double = 1) {
        self.duration = duration
        self.clock = clock
        self.speed = speed
    }

    public func play() {
        guard !isPlaying, !hasEnded else { return }
        isPlaying = true
        let clock = self.clock
        playback = Task { [weak self] in
            while !Task.isCancelled {
                guard let interval = self.map({ $0.tickInterval / max($0.speed, 0.0001) }) else { return }
                do { try await clock.sleep(for: interval) } catch { return }
                guard let self, self.isPlaying else { return }
                self.currentTime = min(self.duration, self.currentTime + self.tickInterval)
                self.onTick?()
                if self.currentTime >= self.duration {
                    self.isPlaying = false
                    self.hasEnded = true
                    self.onEnd?()
                    return
                }
            }
        }
    }

    public func pause() {
        isPlaying = false
        playback?.cancel()
        playback = nil
    }

    /// Stops for good (the player quits).
    public func stop() {
        pause()
        onTick = nil
        onEnd = nil
    }
}
