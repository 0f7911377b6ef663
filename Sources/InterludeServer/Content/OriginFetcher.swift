import Foundation
import Interlude
import InterludeHLS

/// Fetches playlists from external origins: bounded in time and size, only
/// http and https (redirects included), and every failure a typed
/// ``OriginError`` — an origin that is down or answers garbage fails the
/// stream that needs it, never the server.
public struct OriginFetcher: Sendable {
    /// The HTTP client (the SDK's, which bounds the body while it arrives).
    public let client: any HTTPClient
    /// Seconds allowed for one fetch. Default 3 (what MediaTailor allows an ad server).
    public let timeout: TimeInterval
    /// Largest playlist accepted, bytes. Default 2 MiB.
    public let maxSize: Int

    public init(client: (any HTTPClient)? = nil, timeout: TimeInterval = 3, maxSize: Int = 2 * 1024 * 1024) {
        self.client = client ?? URLSessionHTTPClient(maxResponseSize: maxSize)
        self.timeout = timeout
        self.maxSize = maxSize
    }

    /// The multivariant playlist at `url`, variant and rendition URIs made absolute.
    public func multivariant(_ url: URL, for item: ContentItem) async throws(OriginError) -> MultivariantPlaylist {
        switch try await fetch(url, for: item) {
        case .multivariant(var playlist):
            for index in playlist.entries.indices {
                if case .variant(var variant) = playlist.entries[index] {
                    variant.uri = Self.absolute(variant.uri, against: url)
                    playlist.entries[index] = .variant(variant)
                }
            }
            return playlist
        case .media:
            throw OriginError(
                .wrongPlaylistKind, "\(item): \(url) is a media playlist where a multivariant playlist was expected")
        }
    }

    /// The media playlist at `url`, segment URIs made absolute.
    public func media(_ url: URL, for item: ContentItem) async throws(OriginError) -> MediaPlaylist {
        switch try await fetch(url, for: item) {
        case .media(var playlist):
            for index in playlist.segments.indices {
                playlist.segments[index].uri = Self.absolute(playlist.segments[index].uri, against: url)
            }
            return playlist
        case .multivariant:
            throw OriginError(
                .wrongPlaylistKind, "\(item): \(url) is a multivariant playlist where a media playlist was expected")
        }
    }

    private func fetch(_ url: URL, for item: ContentItem) async throws(OriginError) -> HLSPlaylist {
        let response: Interlude.HTTPResponse
        do {
            response = try await client.send(Interlude.HTTPRequest(url: url, timeout: timeout))
        } catch let error as HTTPClientError {
            switch error {
            case .timedOut:
                throw OriginError(.timedOut, "\(item): the origin \(url) did not answer within \(timeout) s")
            case .cancelled:
                throw OriginError(.unreachable, "\(item): the fetch from the origin \(url) was cancelled")
            case .responseTooLarge(let limit):
                throw OriginError(.tooLarge, "\(item): the origin \(url) answered more than \(limit) bytes")
            case .unreachable(let reason):
                throw OriginError(.unreachable, "\(item): the origin \(url) is unreachable (\(reason))")
            case .unsupportedScheme(let scheme):
                throw OriginError(
                    .unreachable, "\(item): the origin \(url) led to a '\(scheme)' URL; only http(s) is fetched")
            case .tooManyRedirects:
                throw OriginError(.unreachable, "\(item): the origin \(url) redirected too many times")
            }
        } catch {
            throw OriginError(.unreachable, "\(item): the origin \(url) failed: \(error)")
        }
        guard (200..<300).contains(response.statusCode) else {
            throw OriginError(
                .badStatus, "\(item): the origin \(url) answered HTTP \(response.statusCode)",
                status: response.statusCode)
        }
        guard response.body.count <= maxSize else {
            throw OriginError(.tooLarge, "\(item): the origin \(url) answered more than \(maxSize) bytes")
        }
        do {
            return try HLSParser().parse([UInt8](response.body))
        } catch {
            throw OriginError(
                .notAPlaylist, "\(item): the origin \(url) answered something that is not a playlist (\(error.message))"
            )
        }
    }

    static func absolute(_ uri: String, against base: URL) -> String {
        URL(string: uri, relativeTo: base)?.absoluteString ?? uri
    }
}
