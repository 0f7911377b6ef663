import Foundation
import InterludeTestSupport
import Testing

@testable import InterludeServer

@Suite struct BeaconStoreTests {
    private func beacon(_ event: String, session: String = "s", key: String? = nil) -> IncomingBeacon {
        IncomingBeacon(
            session: session, ad: "ad", event: event, receivedAt: Date(timeIntervalSince1970: 1_700_000_000.123),
            macros: ["ERRORCODE": "405"], rawQuery: "code=405", idempotencyKey: key)
    }

    @Test func beaconsAreReportedInArrivalOrder() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let store = try BeaconStore(path: directory.url.appendingPathComponent("b.sqlite").path)
        defer { store.close() }
        let events = (0..<500).map { "e\($0)" }
        for event in events { store.record(beacon(event)) }
        #expect(try store.beacons(session: "s").map(\.event) == events)
    }

    @Test func storedFieldsComeBackIntact() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let store = try BeaconStore(path: directory.url.appendingPathComponent("b.sqlite").path)
        defer { store.close() }
        store.record(beacon("error", key: "k1"))
        let stored = try #require(try store.beacons(session: "s").first)
        #expect(stored.ad == "ad" && stored.event == "error")
        #expect(stored.macros == ["ERRORCODE": "405"])
        #expect(stored.query == "code=405")
        #expect(stored.idempotencyKey == "k1")
        #expect(stored.receivedAt == "2023-11-14T22:13:20.123Z")
    }

    @Test func duplicateIdempotencyKeyInASessionIsStoredOnce() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let store = try BeaconStore(path: directory.url.appendingPathComponent("b.sqlite").path)
        defer { store.close() }
        store.record(beacon("start", key: "same"))
        store.record(beacon("start", key: "same"))
        store.record(beacon("start", session: "other", key: "same"))
        store.record(beacon("start"))
        store.record(beacon("start"))
        #expect(try store.beacons(session: "s").count == 3)
        #expect(try store.count() == 4)
    }

    @Test func closeWritesPendingBeaconsAndReopeningKeepsThem() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.url.appendingPathComponent("b.sqlite").path
        let store = try BeaconStore(path: path)
        for index in 0..<100 { store.record(beacon("e\(index)")) }
        store.close()
        let reopened = try BeaconStore(path: path)
        defer { reopened.close() }
        #expect(try reopened.beacons(session: "s").count == 100)
    }

    @Test func databaseIsInWALMode() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.url.appendingPathComponent("b.sqlite").path
        let store = try BeaconStore(path: path)
        store.record(beacon("start"))
        try store.flush()
        #expect(FileManager.default.fileExists(atPath: path + "-wal"))
        store.close()
    }

    @Test func readsAfterCloseFailWithAnError() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let store = try BeaconStore(path: directory.url.appendingPathComponent("b.sqlite").path)
        store.close()
        #expect(throws: StoreError.self) { try store.beacons(session: "s") }
    }

    @Test func unopenableDatabaseFailsWithTypedError() {
        #expect(throws: StoreError.self) { try BeaconStore(path: "/nonexistent-dir/b.sqlite") }
    }
}
