import Foundation
import InterludeHLS
import InterludeTestSupport
import Testing

@testable import InterludeServer

/// ``ContentOrigin`` in front of origins it did not make: the in-process
/// server's own origin and fault routes stand in for a CDN that works, is
/// down, is slow or answers garbage.
@Suite struct ExternalOriginTests {
    /// A catalog whose channel `ext` and title `ext-vod` are fetched from `url`.
    static func origin(channel url: String, fetcher: OriginFetcher = OriginFetcher()) -> ContentOrigin {
        var catalog = Catalog.podServingTest
        catalog.content.channels.append(CatalogChannel(id: "ext", title: "External", origin: url))
        catalog.content.titles.append(CatalogTitle(id: "ext-vod", title: "External VOD", origin: url))
        let directory = URL(fileURLWithPath: "/nonexistent")
        let library = MediaLibrary(
            catalog: catalog, plan: MediaPlan(catalog: catalog, dataDirectory: directory, fontFile: nil),
            dataDirectory: directory)
        return ContentOrigin(library: library, clock: .fixed(OriginRouteTests.now), fetcher: fetcher)
    }

    private func failure(_ operation: () async throws -> Void) async -> OriginError? {
        do {
            try await operation()
            return nil
        } catch {
            return error as? OriginError
        }
    }

    @Test func aWorkingExternalOriginIsFetchedWithAbsoluteURIs() async throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let server = try OriginRouteTests.start(directory)
        defer { server.shutdown() }
        let base = "http://127.0.0.1:\(server.port)"
        let origin = Self.origin(channel: "\(base)/origin/live/test-live.m3u8")
        let multivariant = try await origin.multivariantPlaylist(for: .live("ext"))
        #expect(
            multivariant.variants.map(\.uri) == [
                "\(base)/origin/live/test-live/180p.m3u8", "\(base)/origin/live/test-live/360p.m3u8",
            ])
        let media = try await origin.mediaPlaylist(for: .live("ext"), profile: "360p")
        #expect(media.segments.count == 5)
        #expect(media.segments.allSatisfy { $0.uri.hasPrefix("\(base)/origin/live/test-live/360p/") })
        let vod = try await origin.mediaPlaylist(for: .vod("ext-vod"), profile: "180p")
        #expect(vod.segments.count == 5)
    }

    @Test func contentMadeHereComesFromTheLibrary() async throws {
        let origin = Self.origin(channel: "http://127.0.0.1:1/unused.m3u8")
        let media = try await origin.mediaPlaylist(for: .vod("test-film"), profile: "360p")
        #expect(media.segments.count == 8)
        let live = try await origin.mediaPlaylist(for: .live("test-live"), profile: "180p")
        #expect(live.mediaSequence == 899)
        let unknown = await failure { _ = try await origin.mediaPlaylist(for: .live("nope"), profile: "180p") }
        #expect(unknown?.kind == .unknownContent)
        #expect(unknown?.httpStatus == 404)
        let profile = await failure { _ = try await origin.mediaPlaylist(for: .vod("test-film"), profile: "4k") }
        #expect(profile?.kind == .unknownProfile)
    }

    @Test func downSlowAndGarbageOriginsAreTypedErrors() async throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let server = try OriginRouteTests.start(directory)
        defer { server.shutdown() }
        let base = "http://127.0.0.1:\(server.port)"
        let cases: [(String, OriginError.Kind)] = [
            ("\(base)/faults/status/503", .badStatus),
            ("\(base)/faults/malformed", .notAPlaylist),
            ("\(base)/faults/reset", .unreachable),
            ("\(base)/faults/redirect-scheme?to=file:///etc/passwd", .unreachable),
            ("\(base)/faults/delay/30000", .timedOut),
            // Nothing listens on port 1.
            ("http://127.0.0.1:1/live.m3u8", .unreachable),
        ]
        // 5 s: far below the slow route's 30 s, far above what a quick fault route
        // takes on a loaded 2-core machine (0.5 s timed out a malformed answer in CI).
        for (url, kind) in cases {
            let origin = Self.origin(channel: url, fetcher: OriginFetcher(timeout: 5))
            let error = await failure { _ = try await origin.multivariantPlaylist(for: .live("ext")) }
            #expect(error?.kind == kind, "\(url): \(String(describing: error))")
            #expect(error?.message.contains(url) == true)
        }
        let status = await failure {
            _ = try await Self.origin(channel: "\(base)/faults/status/503").mediaPlaylist(
                for: .live("ext"), profile: "360p")
        }
        #expect(status?.status == 503)
        #expect(status?.httpStatus == 502)
    }

    @Test func theWrongKindOfPlaylistIsRefused() async throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let server = try OriginRouteTests.start(directory)
        defer { server.shutdown() }
        let base = "http://127.0.0.1:\(server.port)"
        // A media playlist where the multivariant was expected.
        let media = await failure {
            _ = try await Self.origin(channel: "\(base)/origin/live/test-live/360p.m3u8").multivariantPlaylist(
                for: .live("ext"))
        }
        #expect(media?.kind == .wrongPlaylistKind)
        // A multivariant where a media playlist was expected.
        let fetcher = OriginFetcher()
        let multivariant = await failure {
            _ = try await fetcher.media(URL(string: "\(base)/origin/vod/test-film.m3u8")!, for: .vod("ext-vod"))
        }
        #expect(multivariant?.kind == .wrongPlaylistKind)
        // A profile the ladder does not have.
        let noVariant = await failure {
            _ = try await Self.origin(channel: "\(base)/origin/live/test-live.m3u8").mediaPlaylist(
                for: .live("ext"), profile: "nope")
        }
        #expect(noVariant?.kind == .unknownProfile)
        // Larger than the limit.
        let large = await failure {
            _ = try await Self.origin(
                channel: "\(base)/origin/vod/test-film/360p.m3u8", fetcher: OriginFetcher(maxSize: 64)
            )
            .multivariantPlaylist(for: .live("ext"))
        }
        #expect(large?.kind == .tooLarge)
    }
}
