import Foundation
import InterludeServerTestSupport
import InterludeTestSupport

@testable import InterludeServer

/// The test server of ``TestAdServer`` with console options of the test's choosing.
enum ConsoleTestServer {
    static func start(console: ConsoleOptions = ConsoleOptions()) throws -> (
        server: AdServer, directory: TemporaryDirectory
    ) {
        let directory = TemporaryDirectory(prefix: "interlude-console-test")
        let media = directory.url.appendingPathComponent("media")
        try FileManager.default.createDirectory(at: media, withIntermediateDirectories: true)
        for creative in TestAdServer.catalog.creatives {
            for rendition in creative.renditions {
                guard let file = rendition.file else { continue }
                try Data(TestAdServer.mediaBytes(for: creative.id)).write(to: media.appendingPathComponent(file))
            }
        }
        let server = try AdServer.start(
            AdServer.Configuration(
                host: "127.0.0.1", port: 0, dataDirectory: directory.url, catalog: TestAdServer.catalog,
                generatesMedia: false, http: HTTPServer.Configuration(threadCount: 2), console: console))
        return (server, directory)
    }

    /// `POST /api/inspect` with a JSON body.
    static func inspect(_ json: String, port: UInt16, headers: [(String, String)] = []) throws -> LoopbackResponse {
        try Loopback.get(
            "/api/inspect", port: port, method: "POST",
            headers: [("Content-Type", "application/json")] + headers, body: Array(json.utf8))
    }

    /// The `{"error":{"status","message"}}` of an answer, or nil when it is not one.
    static func error(of response: LoopbackResponse) -> (status: Int, message: String)? {
        struct Body: Decodable {
            struct Detail: Decodable {
                var status: Int
                var message: String
            }
            var error: Detail
        }
        guard response.headers["Content-Type"] == "application/json",
            let body = try? JSONDecoder().decode(Body.self, from: response.data)
        else { return nil }
        return (body.error.status, body.error.message)
    }

    /// A JSON string literal of `text`.
    static func quoted(_ text: String) -> String {
        String(decoding: try! JSONEncoder().encode(text), as: UTF8.self)
    }
}

/// A loopback HTTP server answering every request with `respond`.
func withTagServer(
    _ respond: @escaping @Sendable (HTTPRequest) -> HTTPResponse, run body: (UInt16) throws -> Void
) throws {
    let server = try HTTPServer.start(host: "127.0.0.1", port: 0, handler: respond)
    defer { server.shutdown() }
    try body(server.port)
}
