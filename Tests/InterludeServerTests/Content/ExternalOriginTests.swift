import Foundation
import Interlude
import InterludeHLS
import InterludeTestSupport
import Testing

@testable import InterludeServer

/// ``ContentOrigin`` in front of origins it did not make: the in-process
/// server's own origin and fault routes stand in for a CDN that works, is
/// down, is slow or answers garbage.
@Suite struct ExternalOriginTests {
    /// A catalog whose channel `ext` and title `ext-vod` are fetched from `url`.
    static func origin(
        channel url: String, fetcher: OriginFetcher = OriginFetcher(timeout: VTPTest.loopbackOriginTimeout)
    ) -> ContentOrigin {
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
        let fetcher = OriginFetcher(timeout: VTPTest.loopbackOriginTimeout)
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
                channel: "\(base)/origin/vod/test-film/360p.m3u8",
                fetcher: OriginFetcher(timeout: VTPTest.loopbackOriginTimeout, maxSize: 64)
            )
            .multivariantPlaylist(for: .live("ext"))
        }
        #expect(large?.kind == .tooLarge)
    }
}

/// An origin that serves fixed bodies by URL, as a CDN would.
private struct FixedBodiesClient: HTTPClient {
    let bodies: [String: String]
    func send(_ request: Interlude.HTTPRequest) async throws -> Interlude.HTTPResponse {
        guard let body = bodies[request.url.absoluteString] else {
            return Interlude.HTTPResponse(statusCode: 404, url: request.url)
        }
        return Interlude.HTTPResponse(statusCode: 200, body: Data(body.utf8), url: request.url)
    }
}

/// What a stitched playlist, served from the VTP's own URL, needs from an
/// origin playlist: nothing relative and no unresolved variable.
@Suite struct ExternalOriginURITests {
    static let base = "http://origin.test/live/channel"
    static let multivariant = """
        #EXTM3U
        #EXT-X-VERSION:8
        #EXT-X-DEFINE:NAME="cdn",VALUE="http://cdn.test"
        #EXT-X-DEFINE:QUERYPARAM="token"
        #EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="aud",NAME="English",DEFAULT=YES,URI="audio/en.m3u8?t={$token}"
        #EXT-X-I-FRAME-STREAM-INF:BANDWIDTH=90000,RESOLUTION=640x360,URI="iframe/360p.m3u8"
        #EXT-X-STREAM-INF:BANDWIDTH=900000,RESOLUTION=640x360,AUDIO="aud"
        {$cdn}/live/channel/360p.m3u8?t={$token}
        """
    static let media = """
        #EXTM3U
        #EXT-X-VERSION:8
        #EXT-X-TARGETDURATION:4
        #EXT-X-MEDIA-SEQUENCE:10
        #EXT-X-DEFINE:IMPORT="cdn"
        #EXT-X-DEFINE:QUERYPARAM="t"
        #EXT-X-MAP:URI="init.mp4"
        #EXT-X-KEY:METHOD=AES-128,URI="keys/1.bin?t={$t}",IV=0x00000000000000000000000000000001
        #EXTINF:4.000,
        seg10.m4s
        #EXT-X-KEY:METHOD=AES-128,URI="{$cdn}/keys/2.bin"
        #EXTINF:4.000,
        seg11.m4s
        """

    @Test func everyURIIsAbsoluteAndEveryVariableResolved() async throws {
        let client = FixedBodiesClient(bodies: [
            "\(Self.base).m3u8?token=abc": Self.multivariant,
            "http://cdn.test/live/channel/360p.m3u8?t=abc": Self.media,
        ])
        let origin = ExternalOriginTests.origin(
            channel: "\(Self.base).m3u8?token=abc", fetcher: OriginFetcher(client: client))
        let multivariant = try await origin.multivariantPlaylist(for: .live("ext"))
        #expect(multivariant.variants.map(\.uri) == ["http://cdn.test/live/channel/360p.m3u8?t=abc"])
        #expect(
            multivariant.renditions.first?.attributes.string("URI") == "http://origin.test/live/audio/en.m3u8?t=abc")
        #expect(multivariant.iFrameVariants.first?.string("URI") == "http://origin.test/live/iframe/360p.m3u8")
        let defines = multivariant.tags.filter { $0.name == HLSTagName.define }.map(\.attributes)
        #expect(defines.allSatisfy { $0.contains("NAME") && $0.contains("VALUE") }, "\(defines)")

        let media = try await origin.mediaPlaylist(for: .live("ext"), profile: "360p")
        #expect(
            media.segments.map(\.uri) == [
                "http://cdn.test/live/channel/seg10.m4s", "http://cdn.test/live/channel/seg11.m4s",
            ])
        let keys =
            media.tags.filter { $0.name == HLSTagName.key }
            + media.segments.flatMap(\.tags).filter { $0.name == HLSTagName.key }
        #expect(
            keys.map { $0.attributes.string("URI") } == [
                "http://cdn.test/live/channel/keys/1.bin?t=abc", "http://cdn.test/keys/2.bin",
            ])
        let maps = (media.tags + media.segments.flatMap(\.tags)).filter { $0.name == HLSTagName.map }
        #expect(maps.map { $0.attributes.string("URI") } == ["http://cdn.test/live/channel/init.mp4"])
        let mediaDefines = media.tags.filter { $0.name == HLSTagName.define }.map(\.attributes)
        #expect(
            mediaDefines.map { [$0.string("NAME") ?? "", $0.string("VALUE") ?? ""] } == [
                ["cdn", "http://cdn.test"], ["t", "abc"],
            ])
    }

    @Test func aVariableTheOriginNeverDefinesIsAClearError() async throws {
        let client = FixedBodiesClient(bodies: ["\(Self.base).m3u8": Self.multivariant])
        let origin = ExternalOriginTests.origin(channel: "\(Self.base).m3u8", fetcher: OriginFetcher(client: client))
        var caught: OriginError?
        do {
            _ = try await origin.multivariantPlaylist(for: .live("ext"))
        } catch {
            caught = error
        }
        let error = try #require(caught, "a QUERYPARAM missing from the URL was accepted")
        #expect(error.kind == .notAPlaylist)
        #expect(error.message.contains("token"), "\(error.message)")
    }
}
