import Foundation
import InterludeServerTestSupport
import InterludeTestSupport
import Testing

@testable import InterludeServer

@Suite struct ConsoleSessionRouteTests {
    struct Listing: Decodable {
        struct Entry: Decodable {
            var session: String
            var document: String?
            var beacons: Int
            var errors: Int
        }
        var sessions: [Entry]
    }

    struct Report: Decodable {
        struct Break: Decodable {
            struct Ad: Decodable {
                var id: String
                var position: Int
            }
            var id: String
            var ads: [Ad]
        }
        struct Expectation: Decodable, Equatable {
            var ad: String
            var event: String
            var owed: Int
            var received: Int
        }
        var session: String
        var document: String?
        var breaks: [Break]
        var beacons: [Beacon]
        var missing: [Expectation]
        var duplicated: [Expectation]
        var unexpected: [Expectation]
        var errors: Int
    }

    private func beacon(_ session: String, _ ad: String, _ event: String, port: UInt16) throws {
        #expect(try Loopback.get("/track/\(session)/\(ad)/\(event)?code=405", port: port).status == 204)
    }

    @Test func aSessionsBeaconsAreCheckedAgainstTheAdsOfItsVMAP() throws {
        let (server, directory) = try ConsoleTestServer.start()
        defer {
            server.shutdown()
            directory.remove()
        }
        let port = server.port
        #expect(try Loopback.get("/vmap?session=viewer-1", port: port).status == 200)
        // The pre-roll played to its midpoint; the impression and the first quartile never arrived.
        for event in ["breakStart", "creativeView", "start", "midpoint"] {
            try beacon("viewer-1", event == "breakStart" ? "break-preroll" : "alpha", event, port: port)
        }
        try beacon("viewer-1", "alpha", "error", port: port)
        let response = try Loopback.get("/api/console/sessions/viewer-1", port: port)
        #expect(response.status == 200)
        #expect(response.headers["Cache-Control"] == "no-store")
        let report = try JSONDecoder().decode(Report.self, from: response.data)
        #expect(report.document == "vmap")
        // The test catalog: pre-roll of 1, mid-roll pod of 2, post-roll bravo.
        #expect(report.breaks.map(\.id) == ["preroll", "midroll-1", "postroll"])
        #expect(report.breaks.map { $0.ads.map(\.id) } == [["alpha"], ["alpha", "bravo"], ["bravo"]])
        #expect(report.beacons.map(\.event) == ["breakStart", "creativeView", "start", "midpoint", "error"])
        #expect(
            report.missing == [
                .init(ad: "alpha", event: "impression", owed: 1, received: 0),
                .init(ad: "alpha", event: "firstQuartile", owed: 1, received: 0),
                // Ended by its error, the break owes its end.
                .init(ad: "break-preroll", event: "breakEnd", owed: 1, received: 0),
            ])
        #expect(report.errors == 1)
        #expect(report.duplicated.isEmpty)
    }

    @Test func aCreativeInTwoBreaksOwesItsBeaconsOncePerPlay() throws {
        let (server, directory) = try ConsoleTestServer.start()
        defer {
            server.shutdown()
            directory.remove()
        }
        let port = server.port
        #expect(try Loopback.get("/vmap?session=twice", port: port).status == 200)
        let full = ["impression", "creativeView", "start", "firstQuartile", "midpoint", "thirdQuartile", "complete"]
        try beacon("twice", "break-preroll", "breakStart", port: port)
        for event in full { try beacon("twice", "alpha", event, port: port) }
        try beacon("twice", "break-preroll", "breakEnd", port: port)
        // The mid-roll's alpha started a second time and stopped before its first quartile.
        try beacon("twice", "break-midroll-1", "breakStart", port: port)
        for event in ["impression", "creativeView", "start"] { try beacon("twice", "alpha", event, port: port) }
        try beacon("twice", "nobody", "start", port: port)
        let report = try JSONDecoder().decode(
            Report.self, from: try Loopback.get("/api/console/sessions/twice", port: port).data)
        #expect(report.missing.isEmpty)
        #expect(report.duplicated.isEmpty)
        #expect(report.unexpected == [.init(ad: "nobody", event: "start", owed: 0, received: 1)])
    }

    @Test func sessionsAreListedMostRecentlyActiveFirst() throws {
        let (server, directory) = try ConsoleTestServer.start()
        defer {
            server.shutdown()
            directory.remove()
        }
        let port = server.port
        #expect(try Loopback.get("/vmap?session=older", port: port).status == 200)
        try beacon("older", "alpha", "start", port: port)
        try beacon("beacons-only", "alpha", "start", port: port)
        try beacon("beacons-only", "alpha", "error", port: port)
        let listing = try JSONDecoder().decode(
            Listing.self, from: try Loopback.get("/api/console/sessions", port: port).data)
        #expect(listing.sessions.map(\.session).prefix(2) == ["beacons-only", "older"])
        #expect(listing.sessions.first?.errors == 1)
        #expect(listing.sessions.first?.document == nil)
        #expect(listing.sessions.last?.document == "vmap")
        let limited = try JSONDecoder().decode(
            Listing.self, from: try Loopback.get("/api/console/sessions?limit=1", port: port).data)
        #expect(limited.sessions.count == 1)
    }

    @Test func unknownAndInvalidSessionsAreJSONErrors() throws {
        let (server, directory) = try ConsoleTestServer.start()
        defer {
            server.shutdown()
            directory.remove()
        }
        let port = server.port
        let unknown = try Loopback.get("/api/console/sessions/never-seen", port: port)
        #expect(unknown.status == 404)
        #expect(ConsoleTestServer.error(of: unknown)?.status == 404)
        let invalid = try Loopback.get("/api/console/sessions/\(String(repeating: "x", count: 80))", port: port)
        #expect(invalid.status == 400)
        let binary = try Loopback.get("/api/console/sessions/%00%FF", port: port)
        #expect(binary.status == 400)
        for limit in ["0", "501", "-3", "many", "1e3"] {
            let response = try Loopback.get("/api/console/sessions?limit=\(limit)", port: port)
            #expect(response.status == 400, "\(limit)")
            #expect(ConsoleTestServer.error(of: response) != nil)
        }
        let crossSite = try Loopback.get(
            "/api/console/sessions", port: port, headers: [("Origin", "http://attacker.example")])
        #expect(crossSite.status == 403)
    }
}
