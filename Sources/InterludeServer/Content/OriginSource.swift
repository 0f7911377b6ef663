import Foundation
import InterludeHLS

/// A channel or title of the catalog.
public enum ContentItem: Sendable, Hashable, CustomStringConvertible {
    /// A live channel by id.
    case live(String)
    /// A VOD title by id.
    case vod(String)

    public var description: String {
        switch self {
        case .live(let id): "live channel '\(id)'"
        case .vod(let id): "VOD title '\(id)'"
        }
    }
}

/// Why an origin playlist could not be had; each case says what to tell the viewer.
public struct OriginError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What kind of failure.
    public enum Kind: String, Sendable, Hashable {
        /// The catalog has no such channel or title.
        case unknownContent
        /// The content has no rendition for the profile.
        case unknownProfile
        /// A live channel made here has no complete segment yet.
        case notYetAvailable
        /// The external origin answered an HTTP error status.
        case badStatus
        /// The external origin could not be reached (refused, reset, bad redirect).
        case unreachable
        /// The external origin did not answer within the timeout.
        case timedOut
        /// The external origin's answer was larger than the limit.
        case tooLarge
        /// The answer is not a playlist.
        case notAPlaylist
        /// A multivariant playlist where a media playlist was expected, or the reverse.
        case wrongPlaylistKind
    }

    /// What kind of failure.
    public var kind: Kind
    /// For people: names the content, the URL and what was wrong.
    public var message: String
    /// The HTTP status for ``Kind/badStatus``.
    public var status: Int?

    public init(_ kind: Kind, _ message: String, status: Int? = nil) {
        self.kind = kind
        self.message = message
        self.status = status
    }

    public var description: String { message }

    /// The status a VTP answers its viewer with: 404 for unknown content or
    /// profile, 503 for not yet live, 502 for a failing external origin
    /// (504 when it timed out).
    public var httpStatus: Int {
        switch kind {
        case .unknownContent, .unknownProfile: 404
        case .notYetAvailable: 503
        case .timedOut: 504
        case .badStatus, .unreachable, .tooLarge, .notAPlaylist, .wrongPlaylistKind: 502
        }
    }
}

/// Where the VTP gets a channel's or title's playlists: from the media made
/// here, or from the external origin the catalog names.
public protocol OriginSource: Sendable {
    /// The multivariant playlist of `item`.
    func multivariantPlaylist(for item: ContentItem) async throws(OriginError) -> MultivariantPlaylist
    /// The media playlist of `item` in `profile` (now, for live content).
    func mediaPlaylist(for item: ContentItem, profile: String) async throws(OriginError) -> MediaPlaylist
}

/// The catalog's origins. Content made here is answered from the
/// ``MediaLibrary`` at the clock's time, with URIs as the `/origin` routes
/// serve them (relative to the playlist). An external origin is fetched over
/// HTTP with a timeout and a size limit; its variant for a profile is the one
/// whose RESOLUTION matches the profile's, and the segment and variant URIs
/// of what it returns are made absolute against the URL they came from.
public struct ContentOrigin: OriginSource {
    /// The media made here.
    public let library: MediaLibrary
    /// The clock live windows are computed at.
    public let clock: ServerClock
    /// Fetches external origins.
    public let fetcher: OriginFetcher

    public init(library: MediaLibrary, clock: ServerClock, fetcher: OriginFetcher = OriginFetcher()) {
        self.library = library
        self.clock = clock
        self.fetcher = fetcher
    }

    public func multivariantPlaylist(for item: ContentItem) async throws(OriginError) -> MultivariantPlaylist {
        switch try resolve(item) {
        case .live(let channel): return channel.multivariantPlaylist
        case .vod(let title): return title.multivariantPlaylist
        case .external(let url): return try await fetcher.multivariant(url, for: item)
        }
    }

    public func mediaPlaylist(for item: ContentItem, profile: String) async throws(OriginError) -> MediaPlaylist {
        switch try resolve(item) {
        case .live(let channel):
            let window = channel.window(at: clock.now)
            guard let playlist = channel.mediaPlaylist(profile: profile, window: window) else {
                throw OriginError(.unknownProfile, "\(item) has no profile '\(profile)'")
            }
            guard !window.segments.isEmpty else {
                throw OriginError(.notYetAvailable, "\(item) has no complete segment yet")
            }
            return playlist
        case .vod(let title):
            guard let playlist = title.mediaPlaylist(profile: profile) else {
                throw OriginError(.unknownProfile, "\(item) has no profile '\(profile)'")
            }
            return playlist
        case .external(let url):
            guard let wanted = library.content.profile(id: profile) else {
                throw OriginError(.unknownProfile, "the ladder has no profile '\(profile)'")
            }
            let multivariant = try await fetcher.multivariant(url, for: item)
            let variant = multivariant.variants.first {
                $0.resolution?.width == wanted.width && $0.resolution?.height == wanted.height
            }
            guard let variant, let mediaURL = URL(string: variant.uri) else {
                let offered = multivariant.variants.compactMap { $0.resolution.map { "\($0.width)x\($0.height)" } }
                throw OriginError(
                    .unknownProfile,
                    "\(item): the origin \(url) offers no \(wanted.width)x\(wanted.height) variant for profile "
                        + "'\(profile)' (it has \(offered.isEmpty ? "none with RESOLUTION" : offered.joined(separator: ", ")))"
                )
            }
            return try await fetcher.media(mediaURL, for: item, imported: multivariant.variables)
        }
    }

    private enum Resolved {
        case live(LiveChannel)
        case vod(VODTitle)
        case external(URL)
    }

    private func resolve(_ item: ContentItem) throws(OriginError) -> Resolved {
        switch item {
        case .live(let id):
            if let channel = library.liveChannel(id) { return .live(channel) }
            if let text = library.content.channel(id: id)?.origin, let url = URL(string: text) { return .external(url) }
        case .vod(let id):
            if let title = library.vodTitle(id) { return .vod(title) }
            if let text = library.content.title(id: id)?.origin, let url = URL(string: text) { return .external(url) }
        }
        throw OriginError(.unknownContent, "the catalog has no \(item)")
    }
}
