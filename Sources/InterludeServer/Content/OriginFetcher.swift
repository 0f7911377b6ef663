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

    /// The multivariant playlist at `url`: its variables resolved (EXT-X-DEFINE,
    /// QUERYPARAM from `url`), and every URI in it made absolute (variants,
    /// and the `URI` of renditions, I-frame streams and session keys), so
    /// what is written from it elsewhere still points at the origin.
    public func multivariant(_ url: URL, for item: ContentItem) async throws(OriginError) -> MultivariantPlaylist {
        switch try await fetch(url, for: item) {
        case .multivariant(var playlist):
            let query = HLSQueryParameters.values(in: url)
            do {
                playlist = try playlist.resolvingVariables(queryParameters: query)
            } catch {
                throw OriginError(.notAPlaylist, "\(item): the origin \(url) has a bad variable (\(error.message))")
            }
            for index in playlist.entries.indices {
                switch playlist.entries[index] {
                case .tag(let tag) where !tag.isComment && tag.name == HLSTagName.define:
                    playlist.entries[index] = .tag(Self.explicitDefinition(tag, imported: [:], query: query))
                case .variant(var variant):
                    variant.uri = Self.absolute(variant.uri, against: url)
                    variant.tagsBeforeURI = variant.tagsBeforeURI.map { Self.absoluteURIAttribute($0, against: url) }
                    playlist.entries[index] = .variant(variant)
                case .tag(let tag):
                    playlist.entries[index] = .tag(Self.absoluteURIAttribute(tag, against: url))
                }
            }
            return playlist
        case .media:
            throw OriginError(
                .wrongPlaylistKind, "\(item): \(url) is a media playlist where a multivariant playlist was expected")
        }
    }

    /// The media playlist at `url`: its variables resolved (EXT-X-DEFINE,
    /// IMPORT from `imported`, the multivariant playlist's variables, and
    /// QUERYPARAM from `url`), and every URI made absolute: segments, and the
    /// `URI` of EXT-X-MAP, EXT-X-KEY, EXT-X-PART, EXT-X-PRELOAD-HINT and
    /// EXT-X-RENDITION-REPORT. A stitched playlist is served from another
    /// URL, where a relative initialization section or key would not be found.
    public func media(_ url: URL, for item: ContentItem, imported: [String: String] = [:]) async throws(OriginError)
        -> MediaPlaylist
    {
        switch try await fetch(url, for: item) {
        case .media(var playlist):
            let query = HLSQueryParameters.values(in: url)
            if !playlist.definitions.isEmpty {
                do {
                    playlist = try playlist.resolvingVariables(imported: imported, queryParameters: query)
                } catch {
                    throw OriginError(.notAPlaylist, "\(item): the origin \(url) has a bad variable (\(error.message))")
                }
            }
            playlist.tags = playlist.tags.map {
                !$0.isComment && $0.name == HLSTagName.define
                    ? Self.explicitDefinition($0, imported: imported, query: query)
                    : Self.absoluteURIAttribute($0, against: url)
            }
            for index in playlist.segments.indices {
                playlist.segments[index].uri = Self.absolute(playlist.segments[index].uri, against: url)
                if playlist.segments[index].tags.contains(where: Self.hasURIAttribute) {
                    playlist.segments[index].tags = playlist.segments[index].tags.map {
                        Self.absoluteURIAttribute($0, against: url)
                    }
                }
                if playlist.segments[index].tagsAfterInfo.contains(where: Self.hasURIAttribute) {
                    playlist.segments[index].tagsAfterInfo = playlist.segments[index].tagsAfterInfo.map {
                        Self.absoluteURIAttribute($0, against: url)
                    }
                }
            }
            playlist.trailingTags = playlist.trailingTags.map { Self.absoluteURIAttribute($0, against: url) }
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

    private static func hasURIAttribute(_ tag: HLSTag) -> Bool {
        if case .attributes(let list) = tag.value { return list.contains("URI") }
        return false
    }

    /// `tag` with its quoted `URI` attribute made absolute against `base`.
    static func absoluteURIAttribute(_ tag: HLSTag, against base: URL) -> HLSTag {
        guard case .attributes(var list) = tag.value, let uri = list.string("URI") else { return tag }
        list["URI"] = .quoted(absolute(uri, against: base))
        var result = tag
        result.value = .attributes(list)
        return result
    }

    /// An EXT-X-DEFINE as `NAME`/`VALUE` once its references are resolved: an
    /// IMPORT or QUERYPARAM left in a playlist served from another URL would
    /// make a client look for a parameter that URL does not have (and fail
    /// to parse, as RFC 8216bis 4.4.2.3 requires).
    static func explicitDefinition(_ tag: HLSTag, imported: [String: String], query: [String: String]) -> HLSTag {
        let list = tag.attributes
        let value: String?
        let name: String
        if let imports = list.string("IMPORT") {
            name = imports
            value = imported[imports]
        } else if let parameter = list.string("QUERYPARAM") {
            name = parameter
            value = query[parameter]
        } else {
            return tag
        }
        return HLSTag(
            HLSTagName.define, attributes: HLSAttributeList(["NAME": .quoted(name), "VALUE": .quoted(value ?? "")]),
            line: tag.line)
    }
}
