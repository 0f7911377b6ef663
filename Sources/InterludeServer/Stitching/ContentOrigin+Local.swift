import Foundation
import InterludeHLS

extension ContentOrigin {
    /// The media playlist of content made here, synchronously (nothing to
    /// wait for), its segment URIs made root-relative (`/origin/…`) so they
    /// resolve from the VTP's paths and read the same from every server.
    /// Nil when `item` comes from an external origin. Throws as
    /// ``mediaPlaylist(for:profile:)`` does for unknown content or profiles
    /// and a channel with no complete segment yet.
    func localMediaPlaylist(for item: ContentItem, profile: String) throws(OriginError) -> MediaPlaylist? {
        switch item {
        case .live(let id):
            guard let channel = library.liveChannel(id) else { return try external(item) }
            let window = channel.window(at: clock.now)
            guard var playlist = channel.mediaPlaylist(profile: profile, window: window) else {
                throw OriginError(.unknownProfile, "\(item) has no profile '\(profile)'")
            }
            guard !window.segments.isEmpty else {
                throw OriginError(.notYetAvailable, "\(item) has no complete segment yet")
            }
            playlist.prefixSegmentURIs("/origin/live/\(id)/")
            return playlist
        case .vod(let id):
            guard let title = library.vodTitle(id) else { return try external(item) }
            guard var playlist = title.mediaPlaylist(profile: profile) else {
                throw OriginError(.unknownProfile, "\(item) has no profile '\(profile)'")
            }
            playlist.prefixSegmentURIs("/origin/vod/\(id)/")
            return playlist
        }
    }

    /// The multivariant playlist of content made here; nil for an external origin.
    func localMultivariantPlaylist(for item: ContentItem) throws(OriginError) -> MultivariantPlaylist? {
        switch item {
        case .live(let id):
            guard let channel = library.liveChannel(id) else { return try external(item) }
            return channel.multivariantPlaylist
        case .vod(let id):
            guard let title = library.vodTitle(id) else { return try external(item) }
            return title.multivariantPlaylist
        }
    }

    /// True when the catalog has `item` made here (no fetch needed).
    func isLocal(_ item: ContentItem) -> Bool {
        switch item {
        case .live(let id): library.liveChannel(id) != nil
        case .vod(let id): library.vodTitle(id) != nil
        }
    }

    /// Nil for content of an external origin; unknownContent otherwise.
    private func external(_ item: ContentItem) throws(OriginError) -> MediaPlaylist? {
        switch item {
        case .live(let id) where library.content.channel(id: id)?.origin != nil: return nil
        case .vod(let id) where library.content.title(id: id)?.origin != nil: return nil
        default: throw OriginError(.unknownContent, "the catalog has no \(item)")
        }
    }

    private func external(_ item: ContentItem) throws(OriginError) -> MultivariantPlaylist? {
        let _: MediaPlaylist? = try external(item)
        return nil
    }
}

extension MediaPlaylist {
    /// Puts `prefix` before every relative segment URI.
    mutating func prefixSegmentURIs(_ prefix: String) {
        for index in segments.indices where !segments[index].uri.contains("://") && !segments[index].uri.hasPrefix("/")
        {
            segments[index].uri = prefix + segments[index].uri
        }
    }
}
