import Foundation
import InterludeTestSupport
import Testing

@testable import Interlude

/// The journal file's records as text: what comes before the zeros a mapped
/// journal allocates ahead (on Linux, while it is open).
func journalRecords(at file: URL) throws -> String {
    let data = try Data(contentsOf: file)
    return String(decoding: data.prefix { $0 != 0 }, as: UTF8.self)
}

/// The file under the journal: appends that reach the kernel at once (on
/// Linux, stores into a shared mapping), space allocated ahead, one writer.
@Suite("Beacon journal file")
struct BeaconJournalFileTests {
    private func record(_ name: String) -> String {
        BeaconJournal.record(for: beacons(1, prefix: name)[0])
    }

    @Test func anAppendIsInTheFileBeforeItReturnsWithoutAClose() throws {
        let directory = TemporaryDirectory(prefix: "interlude-journal-file")
        defer { directory.remove() }
        let storage = try FileJournalStorage(directory: directory.url)
        try storage.append(contentsOf: [record("a"), record("b")])
        #if os(Linux)
            #expect(storage.appendsThroughMapping)
        #endif
        // Read through the file, as the next run after a kill would: the page cache has it.
        #expect(try journalRecords(at: storage.fileURL) == record("a") + "\n" + record("b") + "\n")
        try storage.synchronize()
        withExtendedLifetime(storage) {}
    }

    @Test func aJournalGrowsPastTheSpaceAllocatedAheadAndIsCutToItsRecordsWhenClosed() throws {
        let directory = TemporaryDirectory(prefix: "interlude-journal-file")
        defer { directory.remove() }
        let names = (0..<1_000).map { "grow\($0)" }
        var expected = 0
        do {
            let storage = try FileJournalStorage(directory: directory.url)
            for name in names {
                try storage.append(record(name))
                expected += record(name).utf8.count + 1
            }
            #expect(try storage.load() == names.map(record))
        }
        let size =
            try FileManager.default.attributesOfItem(
                atPath: directory.url.appendingPathComponent("beacons.journal").path)[.size] as? Int
        #expect(size == expected)
        #expect(try FileJournalStorage(directory: directory.url).load() == names.map(record))
    }

    @Test func aKilledRunsTornRecordAndTheZerosAfterItAreCutOffWhenReopened() throws {
        let directory = TemporaryDirectory(prefix: "interlude-journal-file")
        defer { directory.remove() }
        let file = directory.url.appendingPathComponent("beacons.journal")
        // A mapped run killed mid-store: a whole record, half of the next, then the zeros allocated ahead.
        let torn = String(record("torn").prefix(40))
        try (Data((record("kept") + "\n" + torn).utf8) + Data(count: 64 * 1024)).write(to: file)
        let storage = try FileJournalStorage(directory: directory.url)
        try storage.append(record("next"))
        #expect(try storage.load() == [record("kept"), record("next")])
        #expect(try journalRecords(at: file) == record("kept") + "\n" + record("next") + "\n")
    }

    @Test func aRecordWithZerosWhereBytesWereStillToComeIsSkippedAndTheOthersKept() throws {
        let directory = TemporaryDirectory(prefix: "interlude-journal-file")
        defer { directory.remove() }
        let file = directory.url.appendingPathComponent("beacons.journal")
        var damaged = Array(record("damaged").utf8)
        for index in 10..<30 { damaged[index] = 0 }
        try Data(Array((record("first") + "\n").utf8) + damaged + Array(("\n" + record("last") + "\n").utf8)).write(
            to: file)
        let owed = try BeaconJournal(storage: FileJournalStorage(directory: directory.url)).loadOwed()
        #expect(owed.map(\.idempotencyKey) == ["ad-first0", "ad-last0"])
    }

    @Test func aCompactionWhileMappedThenAppendsKeepsEveryOwedRecord() throws {
        let directory = TemporaryDirectory(prefix: "interlude-journal-file")
        defer { directory.remove() }
        let storage = try FileJournalStorage(directory: directory.url)
        try storage.append(contentsOf: [record("a"), record("b")])
        try storage.replace(with: [record("b")], synchronized: false)
        try storage.append(record("c"))
        #expect(try storage.load() == [record("b"), record("c")])
        #expect(try journalRecords(at: storage.fileURL) == record("b") + "\n" + record("c") + "\n")
    }

    #if os(Linux)
        /// A second writer's `write` into the zeros a mapped journal allocated
        /// ahead would be overwritten by the next store, and its shortening
        /// the file would make that store a SIGBUS: so it may only read.
        @Test func aSecondWriterOnAnOpenJournalMayReadButNotAppend() throws {
            let directory = TemporaryDirectory(prefix: "interlude-journal-file")
            defer { directory.remove() }
            let owner = try FileJournalStorage(directory: directory.url)
            try owner.append(record("owner"))
            let second = try FileJournalStorage(directory: directory.url)
            #expect(try second.load() == [record("owner")])
            #expect(throws: JournalInUseError.self) { try second.append(record("second")) }
            try owner.append(record("later"))
            #expect(try owner.load() == [record("owner"), record("later")])
            withExtendedLifetime(second) {}
        }

        /// A compaction renames a new file over the journal: by a second
        /// process, the owner's later records would go to the file it replaced.
        @Test func aSecondWriterCannotCompactAJournalItDoesNotHold() throws {
            let directory = TemporaryDirectory(prefix: "interlude-journal-file")
            defer { directory.remove() }
            let owner = try FileJournalStorage(directory: directory.url)
            try owner.append(record("owner"))
            let second = try FileJournalStorage(directory: directory.url)
            #expect(throws: JournalInUseError.self) { try second.replace(with: [], synchronized: false) }
            try owner.append(record("later"))
            #expect(try FileJournalStorage(directory: directory.url).load() == [record("owner"), record("later")])
            withExtendedLifetime(second) {}
        }

        @Test func aJournalInUseElsewhereStillSendsAndSaysWhy() async throws {
            let directory = TemporaryDirectory(prefix: "interlude-journal-file")
            defer { directory.remove() }
            let owner = try FileJournalStorage(directory: directory.url)
            try owner.append(record("owner"))
            let logger = RecordingLogger()
            let collector = ScriptedCollector()
            let queue = try BeaconQueue(
                http: collector, clock: ManualClock(), storage: FileJournalStorage(directory: directory.url),
                logger: logger, now: { Date(timeIntervalSince1970: 1000) })
            queue.enqueue(beacons(2, prefix: "sent"))
            await queue.waitUntilIdle()
            #expect(collector.delivered.count == 2)
            #expect(logger.lines.contains { $0.contains("in use by another process") })
            withExtendedLifetime(owner) {}
        }
    #endif
}
