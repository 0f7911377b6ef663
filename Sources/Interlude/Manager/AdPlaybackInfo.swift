import Foundation

/// Where the playing ad is, as its display reports it. IMA's `IMAAdPlaybackInfo`.
public struct AdPlaybackInfo: Sendable, Hashable {
    /// Seconds into the ad's media.
    public var currentMediaTime: TimeInterval
    /// Seconds of media in total (0 until the display knows).
    public var totalMediaTime: TimeInterval
    /// Seconds of media buffered from the start.
    public var bufferedMediaTime: TimeInterval
    /// Whether the ad's media is playing.
    public var isPlaying: Bool
}
