import Foundation
import InterludeTestSupport
import Testing

@testable import Interlude

/// Crash safety: the journal is written before a beacon is sent and settled
/// after; a crash at any step loses no beacon and double-counts none.
@Suite("Beacon journal")
struct BeaconJournalTests {
    let now: @Sendable () -> Date = { Date(timeIntervalSince1970: 1000) }

    /// The hand-written record is what Foundation's encoder writes (sorted
    /// keys, slashes unescaped) and reads back as the same beacon, for
    /// quotes, backslashes, every control character, non-ASCII and any date.
    @Test func aRecordIsWhatJSONEncoderWritesAndReadsBackTheSame() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let controls = String(String.UnicodeScalarView((0..<0x20).compactMap(Unicode.Scalar.init)))
        let texts = [
            "http://127.0.0.1:9/pods/v1/streams/s/media/google_0123abcd15_c4f1", "", "a\"b\\c/d", controls,
            "é 😀 \u{2028} \u{7F} ~%20", "https://x.example/t?u=http%3A%2F%2Fy&q=\"1\"",
        ]
        let seconds: [Double] = [0, 1.5, 786_297_600.123456, 1e-7, 1e17, -3.25, 786_297_600, 0.1, 1_000_000_000.000001]
        for (index, text) in texts.enumerated() {
            for time in seconds {
                let beacon = Beacon(
                    url: text, event: texts[(index + 1) % texts.count], adID: texts[(index + 2) % texts.count],
                    idempotencyKey: text + "/k", createdAt: Date(timeIntervalSinceReferenceDate: time))
                let record = BeaconJournal.record(for: beacon)
                #expect(record == "+" + String(decoding: try encoder.encode(beacon), as: UTF8.self))
                let decoded = try JSONDecoder().decode(Beacon.self, from: Data(record.dropFirst().utf8))
                #expect(decoded == beacon)
            }
        }
    }

    @Test func crashBeforeSendingResendsEverythingAfterRestart() async throws {
        let storage = InMemoryJournalStorage()
        let clock = ManualClock()
        let hanging = InMemoryHTTPClient(routes: [:], clock: clock).hangingEverything()
        let first = try BeaconQueue(http: hanging, clock: clock, storage: storage, now: now)
        first.enqueue(beacons(5))
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
        queue.enqueue(beacons(3))
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
        queue.enqueue(beacons(3))
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
        queue.enqueue(beacons(2))
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
        queue.enqueue(beacons(25))
        await queue.waitUntilIdle()
        // 25 adds and 25 settles would be 50 records; compaction every 10 settles keeps it short.
        #expect(storage.snapshot.count < 20)
        #expect(try BeaconJournal(storage: storage).loadOwed().isEmpty)
    }

    @Test func failedCompactionKeepsTheOldJournal() async throws {
        let storage = InMemoryJournalStorage()
        let journal = BeaconJournal(storage: storage, compactAfter: 1000)
        try journal.add(beacons(3))
        try journal.settle("ad-b0")
        storage.failReplace = true
        #expect(throws: InMemoryJournalStorage.InjectedFailure.self) { try journal.compact() }
        let reloaded = BeaconJournal(storage: storage)
        #expect(try reloaded.loadOwed().map(\.idempotencyKey) == ["ad-b1", "ad-b2"])
    }

    @Test func journalWriteFailureStillSendsAndLogs() async throws {
        let storage = InMemoryJournalStorage()
        storage.failAppends = 1
        let logger = RecordingLogger()
        let collector = ScriptedCollector()
        let queue = try BeaconQueue(http: collector, clock: ManualClock(), storage: storage, logger: logger, now: now)
        queue.enqueue(beacons(1))
        await queue.waitUntilIdle()
        #expect(collector.delivered.count == 1)
        #expect(logger.lines.contains { $0.contains("journal write failed") })
    }

    @Test func fileJournalSurvivesAReopen() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "interlude-journal-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let journal = BeaconJournal(storage: try FileJournalStorage(directory: directory), compactAfter: 2)
        _ = try journal.loadOwed()
        try journal.add(beacons(4))
        try journal.settle("ad-b0")
        try journal.settle("ad-b2")  // triggers compaction (rename over the file)
        try journal.add(beacons(1, prefix: "late"))
        let reopened = BeaconJournal(storage: try FileJournalStorage(directory: directory))
        #expect(try reopened.loadOwed().map(\.idempotencyKey) == ["ad-b1", "ad-b3", "ad-late0"])
    }
}

/// The journal on disk and in the hands of the main actor: healed when
/// opened, compacted when mostly settled, read off the main actor, written
/// before `enqueue` returns, synced when asked.
@Suite("Beacon journal: opening, compaction, durability")
struct BeaconJournalDurabilityTests {
    let now: @Sendable () -> Date = { Date(timeIntervalSince1970: 1000) }

    /// The records a journal writes for `count` beacons (`ad-<prefix>N`).
    private func records(_ count: Int, prefix: String = "b") throws -> [String] {
        let storage = InMemoryJournalStorage()
        try BeaconJournal(storage: storage).add(beacons(count, prefix: prefix))
        return storage.snapshot
    }

    @Test func aTornLastLineIsCutOffBeforeTheNextAppend() throws {
        let directory = TemporaryDirectory(prefix: "interlude-journal")
        defer { directory.remove() }
        // A run killed in the middle of its second append: one whole record, then half of one.
        let written = try records(2)
        let torn = String(written[1].prefix(written[1].count / 2))
        let file = directory.url.appendingPathComponent("beacons.journal")
        try Data((written[0] + "\n" + torn).utf8).write(to: file)
        // The next run appends first, before anything reads the journal (as the main actor does).
        let journal = BeaconJournal(storage: try FileJournalStorage(directory: directory.url))
        try journal.add(beacons(1, prefix: "next"))
        let reopened = BeaconJournal(storage: try FileJournalStorage(directory: directory.url))
        #expect(try reopened.loadOwed().map(\.idempotencyKey) == ["ad-b0", "ad-next0"])
        let text = try journalRecords(at: file)
        #expect(!text.contains(torn))
        #expect(text.split(separator: "\n").count == 2 && text.hasSuffix("\n"))
    }

    @Test func aJournalWithNoWholeLineIsEmptiedBeforeTheNextAppend() throws {
        let directory = TemporaryDirectory(prefix: "interlude-journal")
        defer { directory.remove() }
        let file = directory.url.appendingPathComponent("beacons.journal")
        try Data("+{\"adID\":\"a".utf8).write(to: file)
        let storage = try FileJournalStorage(directory: directory.url)
        #expect(try storage.load().isEmpty)
        try storage.append("-k")
        #expect(try journalRecords(at: file) == "-k\n")
    }

    @Test func aMostlySettledJournalIsCompactedWhenItIsRead() async throws {
        let seed = InMemoryJournalStorage()
        let writer = BeaconJournal(storage: seed, compactAfter: 10_000)
        _ = try writer.loadOwed()
        try writer.add(beacons(100))
        for index in 0..<90 { try writer.settle("ad-b\(index)") }
        #expect(seed.snapshot.count == 190)
        let storage = InMemoryJournalStorage(records: seed.snapshot)
        let clock = ManualClock()
        let queue = try BeaconQueue(
            http: InMemoryHTTPClient(routes: [:], clock: clock).hangingEverything(), clock: clock, storage: storage,
            now: now)
        await queue.resumeOwedBeacons()
        #expect(storage.snapshot == Array(seed.snapshot[90..<100]))
        await queue.shutDown()
    }

    @Test func aJournalThatIsMostlyOwedIsNotRewrittenWhenRead() async throws {
        let seed = InMemoryJournalStorage()
        let writer = BeaconJournal(storage: seed, compactAfter: 10_000)
        _ = try writer.loadOwed()
        try writer.add(beacons(10))
        // 2 settled of 12 records: 4 records are dead, 8 alive.
        for index in 0..<2 { try writer.settle("ad-b\(index)") }
        let storage = InMemoryJournalStorage(records: seed.snapshot)
        let owed = try BeaconJournal(storage: storage).loadOwed()
        #expect(owed.map(\.idempotencyKey) == (2..<10).map { "ad-b\($0)" })
        #expect(storage.snapshot == seed.snapshot)
    }

    @MainActor
    @Test func theJournalIsReadOnTheQueueNotWhereTheQueueIsCreated() async throws {
        let storage = InMemoryJournalStorage(records: try records(2))
        let collector = ScriptedCollector()
        let queue = try BeaconQueue(http: collector, clock: ManualClock(), storage: storage, now: now)
        #expect(storage.loadsOnMainThread.isEmpty)
        await queue.resumeOwedBeacons()
        #expect(storage.loadsOnMainThread == [false])
        await queue.waitUntilIdle()
        #expect(collector.delivered == ["http://127.0.0.1:9/b0", "http://127.0.0.1:9/b1"])
    }

    @MainActor
    @Test func enqueueJournalsBeforeItReturns() throws {
        let storage = InMemoryJournalStorage()
        let clock = ManualClock()
        let queue = try BeaconQueue(
            http: InMemoryHTTPClient(routes: [:], clock: clock).hangingEverything(), clock: clock, storage: storage,
            now: now)
        queue.enqueue(beacons(3))
        // No suspension point since: the records are in the storage already.
        #expect(storage.snapshot == (try records(3)))
    }

    @Test(arguments: [false, true])
    func everyAppendIsSyncedToDiskOnlyWhenThePolicySaysSo(syncs: Bool) async throws {
        let storage = InMemoryJournalStorage()
        var policy = BeaconQueue.Policy()
        policy.syncsJournalToDisk = syncs
        let queue = try BeaconQueue(
            http: ScriptedCollector(), clock: ManualClock(), storage: storage, policy: policy, now: now)
        queue.enqueue(beacons(3))
        queue.enqueue(beacons(2, prefix: "c"))
        await queue.waitUntilIdle()
        // Two appends of due beacons and five of settled ones.
        #expect(storage.synchronizeCount == (syncs ? 7 : 0))
    }

    @Test(arguments: [false, true])
    func aCompactionIsSyncedToDiskOnlyWhenThePolicySaysSo(syncs: Bool) async throws {
        let storage = InMemoryJournalStorage()
        var policy = BeaconQueue.Policy()
        policy.syncsJournalToDisk = syncs
        policy.compactAfter = 4
        let queue = try BeaconQueue(
            http: ScriptedCollector(), clock: ManualClock(), storage: storage, policy: policy, now: now)
        await queue.resumeOwedBeacons()
        queue.enqueue(beacons(8))
        await queue.waitUntilIdle()
        #expect(storage.replacesSynchronized == [syncs, syncs])
    }

    @Test func aFileJournalSyncedToDiskDeliversAndKeepsNothingOwed() async throws {
        let directory = TemporaryDirectory(prefix: "interlude-journal")
        defer { directory.remove() }
        var policy = BeaconQueue.Policy()
        policy.syncsJournalToDisk = true
        let collector = ScriptedCollector()
        let storage = try FileJournalStorage(directory: directory.url)
        let queue = try BeaconQueue(http: collector, clock: ManualClock(), storage: storage, policy: policy, now: now)
        queue.enqueue(beacons(4))
        await queue.waitUntilIdle()
        #expect(collector.delivered.count == 4)
        #expect(try BeaconJournal(storage: FileJournalStorage(directory: directory.url)).loadOwed().isEmpty)
    }

    @Test func settingsChooseTheQueuePolicy() {
        var settings = Settings()
        settings.beaconMaxAge = 600
        settings.beaconMaxAttempts = 3
        settings.syncsBeaconJournalToDisk = true
        let policy = BeaconQueue.Policy(settings: settings)
        #expect(policy.maxAge == 600 && policy.maxAttempts == 3 && policy.syncsJournalToDisk)
        let defaults = BeaconQueue.Policy(settings: Settings())
        #expect(defaults == BeaconQueue.Policy())
        #expect(defaults.maxAttempts == 10 && !defaults.syncsJournalToDisk)
    }
}
