import Foundation
import InterludeServer
import InterludeTestSupport

/// Starts an ``AdServer`` in-process on an ephemeral loopback port with a
/// tiny catalog whose media are small files written by the test (no ffmpeg).
public enum TestAdServer {
    /// Bytes of the provided media file of creative `id`: a repeating,
    /// position-dependent pattern, so a byte range can be checked exactly.
    public static func mediaBytes(for id: String, count: Int = 4096) -> [UInt8] {
        let salt = UInt8(truncatingIfNeeded: id.utf8.reduce(0) { $0 &+ Int($1) })
        return (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 7) ^ salt }
    }

    /// Two creatives, `alpha` (6 s, skippable at 5 s, UI hideable) and
    /// `bravo` (10 s, not skippable, not hideable), each with one 360p file.
    public static let catalog = Catalog(
        creatives: [
            CatalogCreative(
                id: "alpha", title: "Alpha Ad", advertiser: "Alpha Inc", duration: 6,
                clickThrough: "https://example.com/alpha", skipOffset: 5, uiHideable: true,
                renditions: [Rendition(width: 640, height: 360, bitrate: 800, file: "alpha-360p.mp4")]),
            CatalogCreative(
                id: "bravo", title: "Bravo Ad", advertiser: "Bravo Ltd", duration: 10,
                clickThrough: "https://example.com/bravo", skipOffset: nil, uiHideable: false,
                renditions: [Rendition(width: 640, height: 360, bitrate: 800, file: "bravo-360p.mp4")]),
        ],
        adRules: AdRules(
            preroll: BreakRule(podSize: 1), midrolls: [BreakRule(offset: 30, podSize: 2)],
            postroll: BreakRule(podSize: 1, ads: ["bravo"])))

    /// Starts a server over `directory` (a new one when nil), writing the
    /// tiny catalog's media files first.
    public static func start(
        directory: TemporaryDirectory? = nil, catalog: Catalog = TestAdServer.catalog,
        http: HTTPServer.Configuration = HTTPServer.Configuration(threadCount: 2)
    ) throws -> (server: AdServer, directory: TemporaryDirectory) {
        let directory = directory ?? TemporaryDirectory()
        let media = directory.url.appendingPathComponent("media")
        try FileManager.default.createDirectory(at: media, withIntermediateDirectories: true)
        for creative in catalog.creatives {
            for rendition in creative.renditions {
                guard let file = rendition.file else { continue }
                let path = media.appendingPathComponent(file)
                if !FileManager.default.fileExists(atPath: path.path) {
                    try Data(mediaBytes(for: creative.id)).write(to: path)
                }
            }
        }
        let server = try AdServer.start(
            AdServer.Configuration(
                host: "127.0.0.1", port: 0, dataDirectory: directory.url, catalog: catalog, generatesMedia: false,
                http: http))
        return (server, directory)
    }

    /// The path and query of an absolute URL (`http://h:p/path?q` → `/path?q`).
    public static func target(of url: String) -> String {
        guard let scheme = url.range(of: "://") else { return url }
        let rest = url[scheme.upperBound...]
        return rest.firstIndex(of: "/").map { String(rest[$0...]) } ?? "/"
    }
}
