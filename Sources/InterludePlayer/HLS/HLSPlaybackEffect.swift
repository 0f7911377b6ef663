import Foundation
import Interlude

/// One HTTP request the playback core asks for.
struct HLSFetch: Sendable, Hashable {
    /// Matches the answer to the request; answers to superseded requests are ignored.
    var id: UInt64
    var url: URL
    /// Bytes first…last of the resource (`EXT-X-BYTERANGE`), sent as `Range`.
    var byteRange: ClosedRange<UInt64>?
    var timeout: TimeInterval
    /// Clock time before which the request must not start (reload schedule, retry delay).
    var notBefore: TimeInterval
    /// A segment whose bytes are read for timed metadata (not an encrypted one).
    var readsContents = false

    /// The request as the HTTP client takes it.
    var request: HTTPRequest {
        var headers: [String: String] = [:]
        if let byteRange { headers["Range"] = "bytes=\(byteRange.lowerBound)-\(byteRange.upperBound)" }
        return HTTPRequest(url: url, headers: headers, timeout: timeout)
    }
}

/// What the playback core tells the display's delegate.
enum HLSDisplayReport: Sendable, Hashable {
    case loaded
    case started
    case paused
    case resumed
    case progressed(TimeInterval, total: TimeInterval)
    case timedMetadata([String: String], presentationTime: TimeInterval)
    case startedBuffering
    case bufferedTo(TimeInterval)
    case playbackReady
    case completed
    case failed(HLSStreamError)
}

/// What the playback core asks its shell to do, in order.
enum HLSPlaybackEffect: Sendable, Hashable {
    /// Fetch a playlist, in place of any playlist request in flight or waiting.
    case fetchPlaylist(HLSFetch)
    /// Fetch a segment, in place of any segment request in flight or waiting.
    case fetchSegment(HLSFetch)
    case cancelPlaylistFetch
    case cancelSegmentFetch
    case report(HLSDisplayReport)
    case log(AdLogLevel, String)
}

/// An answer to an ``HLSFetch``.
struct HLSFetchResponse: Sendable, Hashable {
    var statusCode: Int
    /// The URL that answered, after redirects.
    var url: URL
    var headers: [String: String]
    /// The body for playlists; empty for segments (read on the way, see ``contents``).
    var body: [UInt8]
    var byteCount: Int
    /// A segment's contents, read off the main actor.
    var contents: HLSSegmentContents?
}
