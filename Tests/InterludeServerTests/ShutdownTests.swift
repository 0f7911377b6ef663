import Foundation
import InterludeServerTestSupport
import Testing

@testable import InterludeServer

@Suite struct ShutdownTests {
    /// Waits (bounded) for the server to see `count` requests in flight.
    private func waitForInFlight(_ server: AdServer, _ count: Int) {
        for _ in 0..<2_000 where server.http.requestsInFlight < count { usleep(1_000) }
    }

    @Test func shutdownLetsAnInFlightRequestFinish() throws {
        let (server, directory) = try TestAdServer.start()
        defer { directory.remove() }
        let connection = try LoopbackConnection(port: server.port)
        try connection.send("GET /faults/delay/300 HTTP/1.1\r\nHost: x\r\n\r\n")
        waitForInFlight(server, 1)
        #expect(server.http.requestsInFlight == 1)
        server.shutdown()
        let response = try connection.readResponse()
        #expect(response.status == 200)
        #expect(response.headers["Connection"]?.lowercased() == "close")
        #expect(response.text.contains("<VAST"))
    }

    @Test func shutdownStopsAcceptingConnections() throws {
        let (server, directory) = try TestAdServer.start()
        defer { directory.remove() }
        let port = server.port
        server.shutdown()
        #expect(throws: LoopbackError.self) { try Loopback.get("/health", port: port) }
    }

    @Test func shutdownPastTheGracePeriodAnswersDelayedRequestsAtOnce() throws {
        let (server, directory) = try TestAdServer.start(http: HTTPServer.Configuration(shutdownGraceSeconds: 0.05))
        defer { directory.remove() }
        let delayed = try LoopbackConnection(port: server.port)
        try delayed.send("GET /faults/delay/60000 HTTP/1.1\r\nHost: x\r\n\r\n")
        let dripping = try LoopbackConnection(port: server.port)
        try dripping.send("GET /faults/drip?chunk=1&interval_ms=5000 HTTP/1.1\r\nHost: x\r\n\r\n")
        waitForInFlight(server, 2)
        server.shutdown()
        #expect(try delayed.readResponse().status == 200)
        #expect(try dripping.readResponse().text.contains("</VAST>"))
    }

    @Test func beaconsAcceptedBeforeShutdownAreAllStored() throws {
        let (server, directory) = try TestAdServer.start()
        defer { directory.remove() }
        let connection = try LoopbackConnection(port: server.port)
        for index in 0..<200 { _ = try connection.request("GET", "/track/flush/alpha/e\(index)") }
        server.shutdown()
        let store = try BeaconStore(path: directory.url.appendingPathComponent("beacons.sqlite").path)
        defer { store.close() }
        #expect(try store.beacons(session: "flush").count == 200)
    }

    @Test func shutdownTwiceIsHarmless() throws {
        let (server, directory) = try TestAdServer.start()
        defer { directory.remove() }
        server.shutdown()
        server.shutdown()
    }
}
