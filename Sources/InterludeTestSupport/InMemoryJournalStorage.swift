import Foundation
import Interlude

/// A beacon journal in memory that can be told to fail, to simulate a crash
/// at any step. Every field is guarded by `lock`, so the unchecked
/// conformance is sound.
public final class InMemoryJournalStorage: BeaconJournalStorage, @unchecked Sendable {
    public struct InjectedFailure: Error {}

    private let lock = NSLock()
    private var records: [String] = []
    private var loads: [Bool] = []
    private var syncs = 0
    private var replaces: [Bool] = []
    /// Fail the next N appends (a crash before the record reached the disk).
    public var failAppends = 0
    /// Fail every replace (a crash mid-compaction: the old journal stays).
    public var failReplace = false

    public init(records: [String] = []) { self.records = records }

    /// What is stored, as a crash would leave it.
    public var snapshot: [String] { lock.withLock { records } }

    public func append(_ record: String) throws {
        try lock.withLock {
            if failAppends > 0 {
                failAppends -= 1
                throw InjectedFailure()
            }
            records.append(record)
        }
    }

    public func load() throws -> [String] {
        lock.withLock {
            loads.append(Thread.isMainThread)
            return records
        }
    }

    /// One entry per ``load()`` so far: whether it ran on the main thread.
    public var loadsOnMainThread: [Bool] { lock.withLock { loads } }

    public func synchronize() throws { lock.withLock { syncs += 1 } }

    /// How many times ``synchronize()`` was called.
    public var synchronizeCount: Int { lock.withLock { syncs } }

    public func replace(with newRecords: [String]) throws {
        try replace(with: newRecords, synchronized: true)
    }

    public func replace(with newRecords: [String], synchronized: Bool) throws {
        try lock.withLock {
            if failReplace { throw InjectedFailure() }
            replaces.append(synchronized)
            records = newRecords
        }
    }

    /// One entry per replace (compaction) so far: whether it was to be synced to disk.
    public var replacesSynchronized: [Bool] { lock.withLock { replaces } }

    /// Appends half of a record, as a kill in the middle of a write would.
    public func appendTornRecord(_ record: String) {
        lock.withLock { records.append(String(record.prefix(record.count / 2))) }
    }
}
