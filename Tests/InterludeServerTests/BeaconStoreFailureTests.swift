import Foundation
import InterludeServerTestSupport
import InterludeTestSupport
import Testing

@testable import InterludeServer

/// The collector answers 204 before a beacon is on disk, so a failed write
/// must not lose what it already acknowledged, and what waits for the disk
/// must be bounded.
@Suite struct BeaconStoreFailureTests {
    private func beacon(_ event: String) -> IncomingBeacon {
        IncomingBeacon(session: "s", ad: "ad", event: event, receivedAt: Date(timeIntervalSince1970: 1_700_000_000))
    }

    /// Makes every insert into the beacon table fail, from another connection,
    /// as a full disk or a locked database would (`RAISE(ABORT)` in a trigger).
    private func refuseInserts(_ path: String) throws {
        let other = try SQLiteConnection(path: path)
        try other.execute(
            "CREATE TRIGGER refuse BEFORE INSERT ON beacons BEGIN SELECT RAISE(ABORT, 'injected: disk full'); END;")
        other.close()
    }

    private func acceptInserts(_ path: String) throws {
        let other = try SQLiteConnection(path: path)
        try other.execute("DROP TRIGGER refuse;")
        other.close()
    }

    @Test func aBatchWhoseWriteFailedIsLoggedKeptAndWrittenLaterInOrder() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.url.appendingPathComponent("b.sqlite").path
        let logger = MemoryLogger()
        let store = try BeaconStore(path: path, logger: logger)
        defer { store.close() }
        try refuseInserts(path)
        for index in 0..<3 { #expect(store.record(beacon("e\(index)"))) }
        #expect(throws: StoreError.self) { try store.flush() }
        #expect(logger.loggedMessages.contains { $0.hasPrefix("error:") && $0.contains("injected: disk full") })
        try acceptInserts(path)
        #expect(store.record(beacon("e3")))
        #expect(try store.beacons(session: "s").map(\.event) == ["e0", "e1", "e2", "e3"])
    }

    @Test func aFailedBackgroundWriteIsRetriedByItself() async throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.url.appendingPathComponent("b.sqlite").path
        let logger = MemoryLogger()
        let store = try BeaconStore(path: path, logger: logger, retryDelay: 0.05)
        defer { store.close() }
        try refuseInserts(path)
        store.record(beacon("e0"))
        // The writer's own attempt fails and is logged. A bounded wait that suspends
        // (it must not hold one of the few threads the other tests run on), not a timing assertion.
        for _ in 0..<6000 where !logger.loggedMessages.contains(where: { $0.contains("kept") }) {
            try await Task.sleep(for: .milliseconds(10))
        }
        #expect(logger.loggedMessages.contains { $0.contains("1 beacon(s)") && $0.contains("kept") })
        try acceptInserts(path)
        // No flush: the writer retries by itself. Counted from another connection.
        var stored = 0
        for _ in 0..<6000 where stored == 0 {
            try await Task.sleep(for: .milliseconds(10))
            let reader = try SQLiteConnection(path: path)
            stored = Int(try reader.scalarText("SELECT COUNT(*) FROM beacons") ?? "0") ?? 0
            reader.close()
        }
        #expect(stored == 1)
    }

    @Test func aFullBacklogRefusesMoreUntilItIsWritten() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.url.appendingPathComponent("b.sqlite").path
        let store = try BeaconStore(path: path, maxPending: 5)
        defer { store.close() }
        try refuseInserts(path)
        #expect((0..<5).map { store.record(beacon("e\($0)")) } == Array(repeating: true, count: 5))
        #expect(!store.record(beacon("refused")))
        try acceptInserts(path)
        try store.flush()
        #expect(store.record(beacon("e5")))
        #expect(try store.beacons(session: "s").map(\.event) == (0...5).map { "e\($0)" })
    }

    @Test func aFullCollectorAnswers503WithRetryAfterSoTheSDKRetries() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.url.appendingPathComponent("b.sqlite").path
        let store = try BeaconStore(path: path, maxPending: 1)
        defer { store.close() }
        try refuseInserts(path)
        let catalog = TestAdServer.catalog
        let library = MediaLibrary(
            catalog: catalog, plan: MediaPlan(catalog: catalog, dataDirectory: directory.url, fontFile: nil),
            dataDirectory: directory.url)
        let router = ServerRoutes(
            decisioner: AdDecisioner(catalog: catalog), store: store, mediaFiles: StaticFiles(root: directory.url),
            library: library, clock: .system
        ).makeRouter()
        let first = router.respond(to: try HTTPRequest(method: "GET", target: "/track/s/ad/start"))
        #expect(first.status == 204)
        let second = router.respond(to: try HTTPRequest(method: "GET", target: "/track/s/ad/firstQuartile"))
        #expect(second.status == 503)
        #expect(second.headers["Retry-After"] == "1")
        guard case .bytes(let body) = second.body else {
            Issue.record("no JSON body")
            return
        }
        #expect(String(decoding: body, as: UTF8.self).contains(#""status":503"#))
    }

    @Test func closeLogsWhatItCouldNotWrite() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.url.appendingPathComponent("b.sqlite").path
        let logger = MemoryLogger()
        let store = try BeaconStore(path: path, logger: logger)
        try refuseInserts(path)
        store.record(beacon("e0"))
        store.close()
        #expect(logger.loggedMessages.contains { $0.contains("lost") && $0.contains("injected: disk full") })
    }
}
