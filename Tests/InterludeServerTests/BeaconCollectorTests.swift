import Foundation
import InterludeServerTestSupport
import InterludeVAST
import Testing

@testable import InterludeServer

@Suite struct BeaconCollectorTests {
    private struct Report: Decodable {
        var session: String
        var beacons: [Beacon]
    }

    private func report(_ session: String, port: UInt16) throws -> Report {
        try JSONDecoder().decode(
            Report.self, from: try Loopback.get("/api/sessions/\(session)/beacons", port: port).data)
    }

    @Test func trackAnswers204WithNoBody() throws {
        let (server, directory) = try TestAdServer.start()
        defer {
            server.shutdown()
            directory.remove()
        }
        let response = try Loopback.get("/track/s/alpha/start?cb=1", port: server.port)
        #expect(response.status == 204)
        #expect(response.body.isEmpty)
    }

    @Test func beaconsAreReportedInTheOrderSent() throws {
        let (server, directory) = try TestAdServer.start()
        defer {
            server.shutdown()
            directory.remove()
        }
        let events = ["impression", "start", "firstQuartile", "midpoint", "thirdQuartile", "complete"]
        let connection = try LoopbackConnection(port: server.port)
        for event in events {
            #expect(try connection.request("GET", "/track/ordered/alpha/\(event)").status == 204)
        }
        let beacons = try report("ordered", port: server.port).beacons
        #expect(beacons.map(\.event) == events)
        #expect(beacons.allSatisfy { $0.ad == "alpha" && $0.session == "ordered" })
    }

    @Test func filledMacrosAreStoredUnderTheirNamesAndUnfilledOnesAreNot() throws {
        let (server, directory) = try TestAdServer.start()
        defer {
            server.shutdown()
            directory.remove()
        }
        let query = "code=405&cb=12345678&t=2026-01-02T03%3A04%3A05.678Z&ph=[ADPLAYHEAD]"
        _ = try Loopback.get("/track/m/alpha/error?\(query)", port: server.port)
        let beacon = try #require(try report("m", port: server.port).beacons.first)
        #expect(
            beacon.macros == ["ERRORCODE": "405", "CACHEBUSTING": "12345678", "TIMESTAMP": "2026-01-02T03:04:05.678Z"])
        #expect(beacon.query == query)
    }

    @Test func servedTrackingURLsWithFilledMacrosAreCollected() throws {
        let (server, directory) = try TestAdServer.start()
        defer {
            server.shutdown()
            directory.remove()
        }
        let vast = try VASTParser().parseVAST(try Loopback.get("/vast?session=filled", port: server.port).data).document
        let errorURL = try #require(vast.ads.first?.inLine?.errors.first)
        // Filled the way the SDK fills it, with InterludeVAST's macro filler.
        let filler = VASTMacroFiller(
            now: { Date(timeIntervalSince1970: 1_767_225_600) }, timeZone: TimeZone(identifier: "UTC")!,
            cacheBuster: { "00000042" })
        let filled = filler.fill(errorURL, with: [.errorCode: "401"])
        #expect(try Loopback.get(TestAdServer.target(of: filled), port: server.port).status == 204)
        let beacon = try #require(try report("filled", port: server.port).beacons.first)
        #expect(beacon.event == "error" && beacon.ad == "alpha")
        #expect(beacon.macros["ERRORCODE"] == "401")
        #expect(beacon.macros["CACHEBUSTING"] == "00000042")
        #expect(beacon.macros["TIMESTAMP"]?.hasPrefix("2026-01-01T00:00:00.000") == true)
    }

    @Test func duplicateIdempotencyKeyIsStoredOnce() throws {
        let (server, directory) = try TestAdServer.start()
        defer {
            server.shutdown()
            directory.remove()
        }
        for _ in 0..<3 { _ = try Loopback.get("/track/idk/alpha/impression?idk=abc", port: server.port) }
        _ = try Loopback.get("/track/idk/alpha/impression?idk=def", port: server.port)
        let beacons = try report("idk", port: server.port).beacons
        #expect(beacons.map(\.idempotencyKey) == ["abc", "def"])
    }

    @Test func beaconsSurviveARestart() throws {
        let (first, directory) = try TestAdServer.start()
        defer { directory.remove() }
        for event in ["start", "complete"] { _ = try Loopback.get("/track/keep/alpha/\(event)", port: first.port) }
        first.shutdown()
        let (second, _) = try TestAdServer.start(directory: directory)
        defer { second.shutdown() }
        #expect(try report("keep", port: second.port).beacons.map(\.event) == ["start", "complete"])
    }

    @Test func postBeaconsAreAcceptedToo() throws {
        let (server, directory) = try TestAdServer.start()
        defer {
            server.shutdown()
            directory.remove()
        }
        #expect(
            try Loopback.get("/track/p/alpha/start", port: server.port, method: "POST", body: Array("x".utf8)).status
                == 204)
        #expect(try report("p", port: server.port).beacons.count == 1)
    }

    @Test func invalidSessionInTrackPathIs400() throws {
        let (server, directory) = try TestAdServer.start()
        defer {
            server.shutdown()
            directory.remove()
        }
        #expect(try Loopback.get("/track/%3Cscript%3E/alpha/start", port: server.port).status == 400)
        #expect(try Loopback.get("/api/sessions/a%20b/beacons", port: server.port).status == 400)
    }

    @Test func unknownSessionReportsNoBeacons() throws {
        let (server, directory) = try TestAdServer.start()
        defer {
            server.shutdown()
            directory.remove()
        }
        #expect(try report("nobody", port: server.port).beacons.isEmpty)
    }
}
