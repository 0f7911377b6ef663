import Foundation
import InterludeHLS

extension HLSStreamDisplay {
    /// Where playback is.
    public enum PlaybackPhase: String, Sendable, Hashable {
        /// Nothing loaded.
        case idle
        /// Fetching the first playlists.
        case loading
        /// Loaded, not started.
        case ready
        /// Playing (``Status/isBuffering`` tells whether it waits for media).
        case playing
        /// Paused by ``HLSStreamDisplay/pause()``.
        case paused
        /// Played to the end of a VOD (or an ended live) stream.
        case ended
        /// Stopped by an error (``Status/error``).
        case failed
    }

    /// The variant being played.
    public struct Variant: Sendable, Hashable {
        /// Its 0-based position among the multivariant playlist's variants;
        /// nil when the loaded URL was a media playlist.
        public var index: Int?
        /// The media playlist's URL.
        public var url: URL
        /// `BANDWIDTH`, bit/s.
        public var bandwidth: UInt64?
        /// `AVERAGE-BANDWIDTH`, bit/s.
        public var averageBandwidth: UInt64?
        /// `RESOLUTION`.
        public var resolution: HLSResolution?
        /// `CODECS`.
        public var codecs: String?

        /// Creates a value (the display creates these).
        public init(
            index: Int?, url: URL, bandwidth: UInt64? = nil, averageBandwidth: UInt64? = nil,
            resolution: HLSResolution? = nil, codecs: String? = nil
        ) {
            self.index = index
            self.url = url
            self.bandwidth = bandwidth
            self.averageBandwidth = averageBandwidth
            self.resolution = resolution
            self.codecs = codecs
        }
    }

    /// What the display knows, for a QA bot or a monitor to read or log.
    /// Times are stream seconds (0 is the start of the first segment of
    /// the first playlist loaded); counts run from the last load.
    public struct Status: Sendable, Hashable {
        /// Where playback is.
        public var phase: PlaybackPhase = .idle
        /// True while playing but waiting for media (startup or a stall).
        public var isBuffering = false
        /// The URL given to `load` or `loadStream`.
        public var url: URL?
        /// The variant chosen, once its playlist is known.
        public var variant: Variant?
        /// True for a playlist without `EXT-X-ENDLIST` (still growing).
        public var isLive = false
        /// The playhead.
        public var playhead: TimeInterval = 0
        /// The stream's length when known (VOD or ended live), else nil.
        public var duration: TimeInterval?
        /// The media downloaded without a hole from the playhead on, if any.
        public var bufferedRange: ClosedRange<TimeInterval>?
        /// Stream seconds the current playlist window covers.
        public var windowRange: ClosedRange<TimeInterval>?
        /// `EXT-X-MEDIA-SEQUENCE` of the latest playlist.
        public var mediaSequence: UInt64 = 0
        /// `EXT-X-DISCONTINUITY-SEQUENCE` of the latest playlist.
        public var discontinuitySequence: UInt64 = 0
        /// `EXT-X-TARGETDURATION` of the latest playlist, seconds.
        public var targetDuration: TimeInterval = 0
        /// Times playback waited for media after it had started (startup not counted).
        public var stallCount = 0
        /// Clock seconds spent waiting for media after it had started.
        public var stalledSeconds: TimeInterval = 0
        /// Bytes of playlists and segments downloaded.
        public var bytesDownloaded = 0
        /// Segments downloaded.
        public var segmentsDownloaded = 0
        /// Segments played over as gaps: `EXT-X-GAP`, failed under
        /// ``FailedSegmentPolicy/skip``, or gone from a live window before
        /// they could be downloaded.
        public var segmentsSkipped = 0
        /// Segments that are encrypted (`EXT-X-KEY` other than NONE): downloaded, their metadata not read.
        public var encryptedSegments = 0
        /// `EXT-X-DISCONTINUITY` tags seen, each once.
        public var discontinuitiesSeen = 0
        /// Playlist downloads, reloads included.
        public var playlistLoads = 0
        /// Live reloads that found the playlist unchanged.
        public var unchangedReloads = 0
        /// Requests that failed and were tried again (or, for live reloads, waited out).
        public var retries = 0
        /// Timed-metadata reports made to the delegate (ID3 frames and date ranges).
        public var timedMetadataReported = 0
        /// Damaged transport packets, sections, PES packets or ID3 frames skipped while reading segments.
        public var transportStreamIssues = 0
        /// Playlist and segment requests on the network now.
        public var requestsInFlight = 0
        /// Why playback stopped, when ``phase`` is ``PlaybackPhase/failed``.
        public var error: HLSStreamError?

        /// An empty status.
        public init() {}
    }
}
