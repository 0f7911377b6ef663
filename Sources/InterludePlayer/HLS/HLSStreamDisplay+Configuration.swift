import Foundation
import InterludeHLS

extension HLSStreamDisplay {
    /// Which variant of a multivariant playlist to play. The choice is made
    /// once per load (the display does not switch variants while playing).
    public enum VariantChoice: Sendable, Hashable {
        /// The highest `BANDWIDTH` among the variants within both caps (a
        /// cap left nil does not apply; a variant without `RESOLUTION`
        /// passes the resolution cap). When none fits, the lowest
        /// `BANDWIDTH` of all, as players fall back. The default, uncapped.
        case highestBandwidth(maximumBandwidth: UInt64? = nil, maximumResolution: HLSResolution? = nil)
        /// The variant at this 0-based position in the playlist's list of variants.
        case index(Int)
        /// The variant whose URI, as written or resolved to an absolute URL, is this.
        case uri(String)
    }

    /// What the display does when a segment still fails after its retries.
    public enum FailedSegmentPolicy: Sendable, Hashable {
        /// Stop and report the error to the delegate. The default: a QA
        /// bot or a monitor wants to know.
        case fail
        /// Play over the segment as a gap (as for `EXT-X-GAP`), count it in
        /// ``Status/segmentsSkipped`` and go on.
        case skip
    }

    /// How an ``HLSStreamDisplay`` plays. Every property has a default.
    public struct Configuration: Sendable, Hashable {
        /// Which variant to play. Default: the highest bandwidth, uncapped.
        public var variant: VariantChoice
        /// Stream seconds per clock second: 1 plays in real time, 20 plays
        /// twenty times faster (tests and demos). Default 1.
        public var speed: Double
        /// How far ahead of the playhead segments are downloaded, in
        /// seconds (AVPlayer's `preferredForwardBufferDuration`). Default 30.
        public var forwardBufferDuration: TimeInterval
        /// Seconds buffered ahead of the playhead needed to play on after
        /// waiting for media (or less, when that is all there is to
        /// download for now). Default 2.
        public var resumeBufferDuration: TimeInterval
        /// Stream seconds between progress reports (IMA's AVPlayer display
        /// reports about every 200 ms). Default 0.2.
        public var progressInterval: TimeInterval
        /// Seconds allowed for a playlist request. Default 10.
        public var playlistTimeout: TimeInterval
        /// Seconds allowed for a segment request. Default 20.
        public var segmentTimeout: TimeInterval
        /// Retries of a request that failed transiently (timeout, broken
        /// connection, HTTP 5xx, 408, 429); other HTTP errors are final.
        /// Default 2.
        public var retryLimit: Int
        /// Seconds before the first retry; each later retry waits one
        /// more of these. Default 1.
        public var retryDelay: TimeInterval
        /// Target durations a live playlist may go without a new segment
        /// (reloads unchanged, or failing) before the display reports
        /// ``HLSStreamError/Code/stalePlaylist``. A server publishes a new
        /// segment about every target duration; streamlink gives up after
        /// 2. Default 3.
        public var stalePlaylistLimit: Double
        /// What to do with a segment that fails after its retries. Default ``FailedSegmentPolicy/fail``.
        public var failedSegmentPolicy: FailedSegmentPolicy

        /// Creates a configuration; every parameter has the default above.
        public init(
            variant: VariantChoice = .highestBandwidth(), speed: Double = 1, forwardBufferDuration: TimeInterval = 30,
            resumeBufferDuration: TimeInterval = 2, progressInterval: TimeInterval = 0.2,
            playlistTimeout: TimeInterval = 10, segmentTimeout: TimeInterval = 20, retryLimit: Int = 2,
            retryDelay: TimeInterval = 1, stalePlaylistLimit: Double = 3,
            failedSegmentPolicy: FailedSegmentPolicy = .fail
        ) {
            self.variant = variant
            self.speed = speed
            self.forwardBufferDuration = forwardBufferDuration
            self.resumeBufferDuration = resumeBufferDuration
            self.progressInterval = progressInterval
            self.playlistTimeout = playlistTimeout
            self.segmentTimeout = segmentTimeout
            self.retryLimit = retryLimit
            self.retryDelay = retryDelay
            self.stalePlaylistLimit = stalePlaylistLimit
            self.failedSegmentPolicy = failedSegmentPolicy
        }

        /// The values made safe to compute with: positive where a zero would
        /// stall or spin, non-negative counts.
        var sanitized: Configuration {
            var copy = self
            copy.speed = speed.isFinite && speed > 0 ? speed : 1
            copy.forwardBufferDuration = max(1, forwardBufferDuration.isFinite ? forwardBufferDuration : 30)
            copy.resumeBufferDuration = max(0, resumeBufferDuration.isFinite ? resumeBufferDuration : 2)
            copy.progressInterval = max(0.01, progressInterval.isFinite ? progressInterval : 0.2)
            copy.playlistTimeout = max(0.001, playlistTimeout.isFinite ? playlistTimeout : 10)
            copy.segmentTimeout = max(0.001, segmentTimeout.isFinite ? segmentTimeout : 20)
            copy.retryLimit = max(0, retryLimit)
            copy.retryDelay = max(0, retryDelay.isFinite ? retryDelay : 1)
            copy.stalePlaylistLimit = max(0.5, stalePlaylistLimit.isFinite ? stalePlaylistLimit : 3)
            return copy
        }
    }
}
