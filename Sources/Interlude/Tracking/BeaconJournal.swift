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
    /// `storage` when it is the file journal, which takes records as bytes.
    private let fileStorage: FileJournalStorage?
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
        fileStorage = storage as? FileJournalStorage
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
        // The file journal takes the records' bytes as written: no string per
        // record, no second copy (this runs on the caller's thread for every beacon).
        if let file = fileStorage {
            var lines: [UInt8] = []
            lines.reserveCapacity(beacons.reduce(0) { $0 + $1.url.utf8.count + $1.idempotencyKey.utf8.count + 128 })
            for beacon in beacons {
                Self.appendRecord(for: beacon, to: &lines)
                lines.append(UInt8(ascii: "\n"))
            }
            try lock.withLock {
                markOwed(beacons)
                try file.append(lines: lines)
                if syncsToDisk { try storage.synchronize() }
            }
            return
        }
        var records: [String] = []
        records.reserveCapacity(beacons.count)
        for beacon in beacons { records.append(Self.record(for: beacon)) }
        try lock.withLock {
            markOwed(beacons)
            try storage.append(contentsOf: records)
            if syncsToDisk { try storage.synchronize() }
        }
    }

    /// Holds `beacons` as owed, in order (under `lock`).
    private func markOwed(_ beacons: [Beacon]) {
        for beacon in beacons {
            if owed[beacon.idempotencyKey] == nil { order.append(beacon.idempotencyKey) }
            owed[beacon.idempotencyKey] = beacon
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
        // Housekeeping only: when it cannot be done (a journal another process
        // holds, a full disk) the records read are intact and are returned.
        if records.count - owed.count > owed.count { try? compactLocked() }
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
        let records = order.compactMap { key -> String? in owed[key].map(Self.record(for:)) }
        // Synced only when appends are: without it the default path holds the lock
        // (and an enqueue that arrives meanwhile) for a write and a rename, not a disk flush.
        try storage.replace(with: records, synchronized: syncsToDisk)
        settledSinceCompaction = 0
    }

    /// `+` and the beacon as JSON: the text `JSONEncoder` writes with sorted
    /// keys and unescaped slashes (URLs stay readable and short), written by
    /// hand because ``add(_:)`` runs on the caller's thread for every
    /// beacon (each verification of a stream, on the main actor) and
    /// Foundation's encoder costs several microseconds a call on Linux.
    /// Read back with `JSONDecoder` (``loadOwed()``).
    static func record(for beacon: Beacon) -> String {
        var bytes: [UInt8] = []
        appendRecord(for: beacon, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// `record(for:)`'s UTF-8, appended to `bytes`.
    static func appendRecord(for beacon: Beacon, to bytes: inout [UInt8]) {
        bytes.reserveCapacity(bytes.count + beacon.url.utf8.count + beacon.idempotencyKey.utf8.count + 128)
        bytes.append(contentsOf: "+{\"adID\":".utf8)
        appendJSONString(beacon.adID, to: &bytes)
        bytes.append(contentsOf: ",\"createdAt\":".utf8)
        bytes.append(contentsOf: jsonNumber(beacon.createdAt.timeIntervalSinceReferenceDate).utf8)
        bytes.append(contentsOf: ",\"event\":".utf8)
        appendJSONString(beacon.event, to: &bytes)
        bytes.append(contentsOf: ",\"idempotencyKey\":".utf8)
        appendJSONString(beacon.idempotencyKey, to: &bytes)
        bytes.append(contentsOf: ",\"url\":".utf8)
        appendJSONString(beacon.url, to: &bytes)
        bytes.append(UInt8(ascii: "}"))
    }

    /// A `Date`'s seconds as `JSONEncoder` writes a `Double`: the shortest
    /// text that reads back the same, without a trailing `.0`.
    private static func jsonNumber(_ value: Double) -> String {
        // Dates are finite; a non-finite one (never made here) is written as 0 rather than as invalid JSON.
        guard value.isFinite else { return "0" }
        let text = value.description
        return text.hasSuffix(".0") ? String(text.dropLast(2)) : text
    }

    /// Whether bytes hold a character a JSON string must escape.
    private static func needEscaping<Bytes: Sequence<UInt8>>(_ bytes: Bytes) -> Bool {
        bytes.contains { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }
    }

    /// `text` as a JSON string literal: `"` and `\` escaped, control
    /// characters as `\n`, `\t`, … or `\u00XX`, everything else (slashes,
    /// non-ASCII) as it is, as `JSONEncoder` does with `.withoutEscapingSlashes`.
    private static func appendJSONString(_ text: String, to output: inout [UInt8]) {
        output.append(UInt8(ascii: "\""))
        let needsEscaping =
            text.utf8.withContiguousStorageIfAvailable(needEscaping) ?? needEscaping(text.utf8)
        guard needsEscaping else {
            output.append(contentsOf: text.utf8)
            output.append(UInt8(ascii: "\""))
            return
        }
        let hex = Array("0123456789abcdef".utf8)
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""): output += [UInt8(ascii: "\\"), UInt8(ascii: "\"")]
            case UInt8(ascii: "\\"): output += [UInt8(ascii: "\\"), UInt8(ascii: "\\")]
            case 0x0A: output += [UInt8(ascii: "\\"), UInt8(ascii: "n")]
            case 0x0D: output += [UInt8(ascii: "\\"), UInt8(ascii: "r")]
            case 0x09: output += [UInt8(ascii: "\\"), UInt8(ascii: "t")]
            case 0x08: output += [UInt8(ascii: "\\"), UInt8(ascii: "b")]
            case 0x0C: output += [UInt8(ascii: "\\"), UInt8(ascii: "f")]
            case 0..<0x20:
                output += Array("\\u00".utf8) + [hex[Int(byte >> 4)], hex[Int(byte & 0x0F)]]
            default: output.append(byte)
            }
        }
        output.append(UInt8(ascii: "\""))
    }
}
