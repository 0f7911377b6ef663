import Foundation

/// The journal's contents as records: `+<json>` when a beacon becomes due,
/// `-<key>` when it was delivered or dropped. Replaying gives the beacons
/// still owed, in the order they became due.
///
/// Shared by the ``BeaconQueue`` and its callers: ``add(_:)`` runs on the
/// caller's thread (the main actor, for the ads manager) and returns once
/// the records reached the storage, so an app killed right after an event
/// loses no beacon; ``loadOwed()`` and ``settle(_:)`` run on the queue. It
/// does no I/O when created: the journal is first read by ``loadOwed()``,
/// off the main actor.
///
/// Every field is touched under `lock` (storage calls included, so that the
/// file's order is the order in memory), so the unchecked conformance is sound.
final class BeaconJournal: @unchecked Sendable {
    let storage: any BeaconJournalStorage
    /// Settled records before the journal is compacted while running.
    let compactAfter: Int
    /// Sync the storage after each append (``BeaconJournalStorage/synchronize()``).
    let syncsToDisk: Bool

    private let lock = NSLock()
    /// Beacons owed, by idempotency key, and the order they became due in.
    private var owed: [String: Beacon] = [:]
    private var order: [String] = []
    private var settledSinceCompaction = 0
    private var hasLoaded = false
    /// Keys settled before the journal was read, so that replaying their
    /// `+` record (their `-` may have failed to reach the storage) does not
    /// make them owed again.
    private var settledBeforeLoading: Set<String> = []

    init(storage: any BeaconJournalStorage, compactAfter: Int = 512, syncsToDisk: Bool = false) {
        self.storage = storage
        self.compactAfter = compactAfter
        self.syncsToDisk = syncsToDisk
    }

    /// Beacons owed, oldest first.
    var owedBeacons: [Beacon] { lock.withLock { order.compactMap { owed[$0] } } }

    /// How many beacons are owed.
    var owedCount: Int { lock.withLock { owed.count } }

    /// Records `beacons` as owed, before anyone tries to send them. Any
    /// thread. They are owed in memory even when the storage fails (the
    /// error is thrown: they are then sent without crash safety).
    func add(_ beacons: [Beacon]) throws {
        guard !beacons.isEmpty else { return }
        let encoder = Self.encoder()
        var records: [String] = []
        records.reserveCapacity(beacons.count)
        for beacon in beacons {
            records.append("+" + String(decoding: try encoder.encode(beacon), as: UTF8.self))
        }
        try lock.withLock {
            for beacon in beacons {
                if owed[beacon.idempotencyKey] == nil { order.append(beacon.idempotencyKey) }
                owed[beacon.idempotencyKey] = beacon
            }
            try storage.append(contentsOf: records)
            if syncsToDisk { try storage.synchronize() }
        }
    }

    /// Reads the journal (once; later calls return what is owed) and gives
    /// the beacons owed, oldest first: an earlier run's and this run's.
    /// When most records are settled, the journal is compacted first.
    func loadOwed() throws -> [Beacon] {
        try lock.withLock { try loadLocked() }
    }

    private func loadLocked() throws -> [Beacon] {
        if hasLoaded { return order.compactMap { owed[$0] } }
        let records = try storage.load()
        hasLoaded = true
        var replayed: [String: Beacon] = [:]
        var replayedOrder: [String] = []
        let decoder = JSONDecoder()
        for record in records {
            guard let marker = record.first else { continue }
            let body = record.dropFirst()
            if marker == "+", let beacon = try? decoder.decode(Beacon.self, from: Data(body.utf8)) {
                if replayed[beacon.idempotencyKey] == nil { replayedOrder.append(beacon.idempotencyKey) }
                replayed[beacon.idempotencyKey] = beacon
            } else if marker == "-" {
                replayed[String(body)] = nil
            }
            // Anything else (a record an older version wrote, damage) is skipped.
        }
        for key in settledBeforeLoading { replayed[key] = nil }
        settledBeforeLoading = []
        // This run's beacons whose append failed are in memory only: still owed.
        let unjournaled = order.filter { owed[$0] != nil && replayed[$0] == nil }
        for key in unjournaled { replayed[key] = owed[key] }
        owed = replayed
        order = (replayedOrder + unjournaled).filter { replayed[$0] != nil }
        // Most records settled: rewrite now rather than carry them for another run.
        if records.count - owed.count > owed.count { try compactLocked() }
        return order.compactMap { owed[$0] }
    }

    /// Records that a beacon needs no more sending (delivered or dropped).
    func settle(_ key: String) throws {
        try lock.withLock {
            guard owed.removeValue(forKey: key) != nil else { return }
            if !hasLoaded { settledBeforeLoading.insert(key) }
            settledSinceCompaction += 1
            try storage.append("-" + key)
            if syncsToDisk { try storage.synchronize() }
            guard settledSinceCompaction >= compactAfter else { return }
            // Compaction keeps an earlier run's records, so it reads them first (it may compact then).
            if !hasLoaded { _ = try loadLocked() }
            if settledSinceCompaction >= compactAfter { try compactLocked() }
        }
    }

    /// Rewrites the journal with only what is still owed (reading it first
    /// if that has not happened: an earlier run's beacons must not be lost).
    func compact() throws {
        try lock.withLock {
            if !hasLoaded { _ = try loadLocked() }
            try compactLocked()
        }
    }

    private func compactLocked() throws {
        order.removeAll { owed[$0] == nil }
        let encoder = Self.encoder()
        let records = try order.compactMap { key -> String? in
            guard let beacon = owed[key] else { return nil }
            return "+" + String(decoding: try encoder.encode(beacon), as: UTF8.self)
        }
        // Synced only when appends are: without it the default path holds the lock
        // (and an enqueue that arrives meanwhile) for a write and a rename, not a disk flush.
        try storage.replace(with: records, synchronized: syncsToDisk)
        settledSinceCompaction = 0
    }

    /// Records as JSON with sorted keys and unescaped slashes (URLs stay readable and short).
    private static func encoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }
}
