import Foundation
import InterludeServerTestSupport
import InterludeTestSupport
import Testing

@testable import InterludeServer

/// The console in a real browser: headless Chromium, driven over the
/// DevTools protocol by `scripts/console-browser.py`, against an in-process
/// server. Screenshots land in `.build/console/` for a person to look at.
@Suite struct ConsoleBrowserTests {
    struct Inspection: Decodable {
        var kind: String?
        var ads: [String]
        var hops: [Int]
        var codes: [Int]
        var refusedStatus: Int?
    }

    struct Observed: Decodable {
        var error: String?
        var pageLoaded: Bool?
        var good: Inspection?
        var wrapper: Inspection?
        var broken: Inspection?
        var refused: Inspection?
        var sessionListed: Bool?
        var sessionBeaconsShown: Int?
        var sessionMissing: String?
        var streamID: String?
        var streamListed: Bool?
        var eventsVerified: Int?
        var timelineVerifiedEvents: Int?
        var timelineSpans: [String]?
        var preview: String?
    }

    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// Runs the driver against `baseURL`; its one JSON line decoded.
    static func drive(_ baseURL: String, extraArguments: [String] = []) throws -> Observed {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        let screenshots = packageRoot.appendingPathComponent(".build/console").path
        process.arguments =
            [
                "python3", packageRoot.appendingPathComponent("scripts/console-browser.py").path, baseURL,
                "--screenshot-dir", screenshots,
            ] + extraArguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let line = String(decoding: data, as: UTF8.self).split(separator: "\n").last.map(String.init) ?? ""
        return try JSONDecoder().decode(Observed.self, from: Data(line.utf8))
    }

    @Test func theInspectorAndASessionShowInChromium() throws {
        let (server, directory) = try ConsoleTestServer.start()
        defer {
            server.shutdown()
            directory.remove()
        }
        let observed = try Self.drive(server.baseURL)
        #expect(observed.error == nil)
        #expect(observed.pageLoaded == true)
        // A good tag: the test catalog's pod of two.
        #expect(observed.good?.kind == "vast")
        #expect(observed.good?.ads == ["alpha", "bravo"])
        #expect(observed.good?.codes == [])
        // A wrapper chain: two wrappers, then the inline ad, hop by hop.
        #expect(observed.wrapper?.hops == [0, 1, 2])
        #expect(observed.wrapper?.ads == ["alpha"])
        // A broken tag: XML parsing error, VAST code 100.
        #expect(observed.broken?.kind == "invalid")
        #expect(observed.broken?.codes.contains(100) == true)
        // A host outside loopback: refused.
        #expect(observed.refused?.refusedStatus == 403)
        // A client-side session with three beacons, one owed beacon missing.
        #expect(observed.sessionListed == true)
        #expect(observed.sessionBeaconsShown == 3)
        #expect(observed.sessionMissing?.contains("creativeView") == true)
    }
}
