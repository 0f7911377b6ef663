import Foundation
import InterludeTestSupport
import Testing

@testable import Interlude

/// Crash safety: the journal is written before a beacon is sent and settled
/// after; a crash at any step loses no beacon and double-counts none.
@Suite("Beacon journal")
struct BeaconJournalTests {
    let now: @Sendable () -> Date = { Date(timeIntervalSince1970: 1000) }

    @Test func crashBeforeSendingResendsEverythingAfterRestart() async throws {
        let storage = InMemoryJournalStorage()
        let clock = ManualClock()
        let hanging = InMemoryHTTPClient(routes: [:], clock: clock).hangingEverything()
        let first = try BeaconQueue(http: hanging, clock: clock, storage: storage, now: now)
        await first.enqueue(beacons(5))
        await first.shutDown()  // the process dies with every beacon in flight

        let collector = ScriptedCollector()
        let second = try BeaconQueue(http: collector, clock: clock, storage: storage, now: now)
        await second.resumeOwedBeacons()
        await second.waitUntilIdle()
        #expect(collector.delivered == (0..<5).map { "http://127.0.0.1:9/b\($0)" })
    }

    @Test func crashAfterDeliveryBeforeSettlingIsDeduplicatedByKey() async throws {
        let storage = InMemoryJournalStorage()
        let collector = ScriptedCollector()
        let queue = try BeaconQueue(http: collector, clock: ManualClock(), storage: storage, now: now)
        // Every settle record fails to reach the disk: as if killed right after each send.
        storage.failAppends = 0
        await queue.enqueue(beacons(3))
        await queue.waitUntilIdle()
        // Rebuild the journal as a kill before the "-" records would leave it.
        let addsOnly = storage.snapshot.filter { $0.hasPrefix("+") }
        let restarted = InMemoryJournalStorage(records: addsOnly)
        let again = try BeaconQueue(http: collector, clock: ManualClock(), storage: restarted, now: now)
        await again.resumeOwedBeacons()
        await again.waitUntilIdle()
        // Sent twice on the wire, counted once by a collector that honours the key.
        #expect(collector.callCount == 6)
        #expect(collector.delivered.count == 3)
        #expect(collector.duplicateDeliveries == 3)
    }

    @Test func crashAtEveryStepLosesNothing() async throws {
        // Run three beacons through a journal and stop the world after each record written.
        let reference = InMemoryJournalStorage()
        let queue = try BeaconQueue(http: ScriptedCollector(), clock: ManualClock(), storage: reference, now: now)
        await queue.enqueue(beacons(3))
        await queue.waitUntilIdle()
        let records = reference.snapshot
        #expect(records.count == 6)
        for cut in 0...records.count {
            let collector = ScriptedCollector()
            let crashed = InMemoryJournalStorage(records: Array(records.prefix(cut)))
            let restarted = try BeaconQueue(http: collector, clock: ManualClock(), storage: crashed, now: now)
            await restarted.resumeOwedBeacons()
            await restarted.waitUntilIdle()
            // Every beacon journaled and not settled is sent again; settled ones are not.
            let added = records.prefix(cut).filter { $0.hasPrefix("+") }.count
            let settled = records.prefix(cut).filter { $0.hasPrefix("-") }.count
            #expect(collector.delivered.count == added - settled, "cut at \(cut)")
        }
    }

    @Test func tornLastRecordIsIgnored() async throws {
        let storage = InMemoryJournalStorage()
        let queue = try BeaconQueue(
            http: InMemoryHTTPClient(routes: [:], clock: ManualClock()).hangingEverything(), clock: ManualClock(),
            storage: storage, now: now)
        await queue.enqueue(beacons(2))
        await queue.shutDown()
        storage.appendTornRecord(
            "+{\"adID\":\"ad\",\"createdAt\":0,\"event\":\"x\",\"idempotencyKey\":\"torn\",\"url\":\"http://127.0.0.1:9/torn\"}"
        )
        let collector = ScriptedCollector()
        let restarted = try BeaconQueue(http: collector, clock: ManualClock(), storage: storage, now: now)
        await restarted.resumeOwedBeacons()
        await restarted.waitUntilIdle()
        #expect(collector.delivered.count == 2)
    }

    @Test func journalIsCompactedAsBeaconsSucceed() async throws {
        let storage = InMemoryJournalStorage()
        var policy = BeaconQueue.Policy()
        policy.compactAfter = 10
        let queue = try BeaconQueue(
            http: ScriptedCollector(), clock: ManualClock(), storage: storage, policy: policy, now: now)
        await queue.enqueue(beacons(25))
        await queue.waitUntilIdle()
        // 25 adds and 25 settles would be 50 records; compaction every 10 settles keeps it short.
        #expect(storage.snapshot.count < 20)
        #expect(try BeaconJournal(storage: storage).owedBeacons.isEmpty)
    }

    @Test func failedCompactionKeepsTheOldJournal() async throws {
        let storage = InMemoryJournalStorage()
        var journal = try BeaconJournal(storage: storage, compactAfter: 1000)
        try journal.add(beacons(3))
        try journal.settle("ad-b0")
        storage.failReplace = true
        #expect(throws: InMemoryJournalStorage.InjectedFailure.self) { try journal.compact() }
        let reloaded = try BeaconJournal(storage: storage)
        #expect(reloaded.owedBeacons.map(\.idempotencyKey) == ["ad-b1", "ad-b2"])
    }

    @Test func journalWriteFailureStillSendsAndLogs() async throws {
        let storage = InMemoryJournalStorage()
        storage.failAppends = 1
        let logger = RecordingLogger()
        let collector = ScriptedCollector()
        let queue = try BeaconQueue(http: collector, clock: ManualClock(), storage: storage, logger: logger, now: now)
        await queue.enqueue(beacons(1))
        await queue.waitUntilIdle()
        #expect(collector.delivered.count == 1)
        #expect(logger.lines.contains { $0.contains("journal write failed") })
    }

    @Test func fileJournalSurvivesAReopen() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "interlude-journal-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        var journal = try BeaconJournal(storage: FileJournalStorage(directory: directory), compactAfter: 2)
        try journal.add(beacons(4))
        try journal.settle("ad-b0")
        try journal.settle("ad-b2")  // triggers compaction (rename over the file)
        try journal.add(beacons(1, prefix: "late"))
        let reopened = try BeaconJournal(storage: FileJournalStorage(directory: directory))
        #expect(reopened.owedBeacons.map(\.idempotencyKey) == ["ad-b1", "ad-b3", "ad-late0"])
    }
}
