import Foundation
import InterludeServerTestSupport
import InterludeVAST
import Testing

@testable import InterludeServer

@Suite struct MediaServingTests {
    let expected = TestAdServer.mediaBytes(for: "alpha")

    @Test func wholeFileIsServedAsMP4WithAcceptRanges() throws {
        let (server, directory) = try TestAdServer.start()
        defer {
            server.shutdown()
            directory.remove()
        }
        let response = try Loopback.get("/media/alpha-360p.mp4", port: server.port)
        #expect(response.status == 200)
        #expect(response.headers["Content-Type"] == "video/mp4")
        #expect(response.headers["Accept-Ranges"] == "bytes")
        #expect(response.body == expected)
    }

    @Test func closedRangeAnswers206WithThoseBytes() throws {
        let (server, directory) = try TestAdServer.start()
        defer {
            server.shutdown()
            directory.remove()
        }
        let response = try Loopback.get(
            "/media/alpha-360p.mp4", port: server.port, headers: [("Range", "bytes=100-199")])
        #expect(response.status == 206)
        #expect(response.headers["Content-Range"] == "bytes 100-199/\(expected.count)")
        #expect(response.body == Array(expected[100...199]))
    }

    @Test func openAndSuffixRangesResumeAtTheEnd() throws {
        let (server, directory) = try TestAdServer.start()
        defer {
            server.shutdown()
            directory.remove()
        }
        let open = try Loopback.get("/media/alpha-360p.mp4", port: server.port, headers: [("Range", "bytes=4000-")])
        #expect(open.status == 206)
        #expect(open.body == Array(expected[4000...]))
        let suffix = try Loopback.get("/media/alpha-360p.mp4", port: server.port, headers: [("Range", "bytes=-10")])
        #expect(suffix.body == Array(expected.suffix(10)))
    }

    @Test func rangePastTheEndAnswers416WithContentRange() throws {
        let (server, directory) = try TestAdServer.start()
        defer {
            server.shutdown()
            directory.remove()
        }
        let response = try Loopback.get(
            "/media/alpha-360p.mp4", port: server.port, headers: [("Range", "bytes=999999-")])
        #expect(response.status == 416)
        #expect(response.headers["Content-Range"] == "bytes */\(expected.count)")
    }

    @Test func headReturnsLengthWithoutBody() throws {
        let (server, directory) = try TestAdServer.start()
        defer {
            server.shutdown()
            directory.remove()
        }
        let connection = try LoopbackConnection(port: server.port)
        let response = try connection.request("HEAD", "/media/alpha-360p.mp4")
        #expect(response.status == 200)
        #expect(response.headers["Content-Length"] == String(expected.count))
        // The connection is still usable: no body bytes were sent.
        #expect(try connection.request("GET", "/health").status == 200)
    }

    @Test func missingFileIs404JSON() throws {
        let (server, directory) = try TestAdServer.start()
        defer {
            server.shutdown()
            directory.remove()
        }
        let response = try Loopback.get("/media/nothing.mp4", port: server.port)
        #expect(response.status == 404)
        #expect(response.headers["Content-Type"] == "application/json")
    }

    @Test func traversalVariantsAreRefusedAndNeverServeTheDatabase() throws {
        let (server, directory) = try TestAdServer.start()
        defer {
            server.shutdown()
            directory.remove()
        }
        let attempts = [
            "/media/../beacons.sqlite", "/media/%2e%2e/beacons.sqlite", "/media/%2E%2E%2Fbeacons.sqlite",
            "/media/..%2fbeacons.sqlite", "/media/%252e%252e/beacons.sqlite", "/media/%2fetc%2fpasswd",
            "/media//etc/passwd", "/media/..%5cbeacons.sqlite", "/media/a%00.mp4", "/media/.",
            "/media/.alpha-360p.mp4.part",
        ]
        for target in attempts {
            let response = try Loopback.get(target, port: server.port)
            #expect((400...404).contains(response.status), "\(target) → \(response.status)")
            #expect(response.headers["Content-Type"] == "application/json", "\(target)")
            #expect(!response.text.contains("SQLite format"), "\(target)")
        }
    }

    @Test func symlinkLeavingTheMediaDirectoryIsRefused() throws {
        let (server, directory) = try TestAdServer.start()
        defer {
            server.shutdown()
            directory.remove()
        }
        let outside = directory.url.appendingPathComponent("secret.txt")
        try Data("secret".utf8).write(to: outside)
        try FileManager.default.createSymbolicLink(
            at: directory.url.appendingPathComponent("media/link.mp4"), withDestinationURL: outside)
        let response = try Loopback.get("/media/link.mp4", port: server.port)
        #expect(response.status == 403)
        #expect(response.text != "secret")
    }

    @Test func servedVASTMediaURLsResolveToFiles() throws {
        let (server, directory) = try TestAdServer.start()
        defer {
            server.shutdown()
            directory.remove()
        }
        let vast = try InterludeVASTFacade.parse(try Loopback.get("/vast?pod=2", port: server.port).data)
        for url in vast {
            #expect(try Loopback.get(TestAdServer.target(of: url), port: server.port).status == 200)
        }
    }
}

/// Media URLs of every ad in a VAST document.
enum InterludeVASTFacade {
    static func parse(_ data: Data) throws -> [String] {
        try VASTParser().parseVAST(data).document.ads.flatMap { $0.linear?.mediaFiles.map(\.url) ?? [] }
    }
}
