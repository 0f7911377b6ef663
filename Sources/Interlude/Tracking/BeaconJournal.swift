import Foundation

/// Durable storage for the beacon journal: append a line, read all lines,
/// replace everything atomically. Injected so tests can crash it.
public protocol BeaconJournalStorage: Sendable {
    /// Appends one record (a line without newlines).
    func append(_ record: String) throws
    /// Every record, oldest first.
    func load() throws -> [String]
    /// Replaces the whole journal; either all of `records` is stored or the
    /// old content stays.
    func replace(with records: [String]) throws
}

/// The journal in a file. Appends go straight to the kernel (a killed
/// process loses nothing it wrote); compaction writes a temporary file,
/// syncs it and renames it over the journal, so a crash mid-compaction
/// leaves either the old or the new journal.
///
/// All file access holds `lock`, so the unchecked conformance is sound.
public final class FileJournalStorage: BeaconJournalStorage, @unchecked Sendable {
    public let fileURL: URL
    private let lock = NSLock()
    private var handle: FileHandle?

    /// A journal at `directory/beacons.journal` (the directory is created).
    public init(directory: URL) throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        fileURL = directory.appendingPathComponent("beacons.journal")
        if !FileManager.default.fileExists(atPath: fileURL.path) {
            guard FileManager.default.createFile(atPath: fileURL.path, contents: nil) else {
                throw CocoaError(.fileWriteNoPermission, userInfo: [NSFilePathErrorKey: fileURL.path])
            }
        }
    }

    deinit { try? handle?.close() }

    public func append(_ record: String) throws {
        try lock.withLock {
            if handle == nil {
                handle = try FileHandle(forWritingTo: fileURL)
            }
            try handle!.seekToEnd()
            try handle!.write(contentsOf: Data((record + "\n").utf8))
        }
    }

    public func load() throws -> [String] {
        try lock.withLock {
            let data = try Data(contentsOf: fileURL)
            return String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init)
        }
    }

    public func replace(with records: [String]) throws {
        try lock.withLock {
            try handle?.close()
            handle = nil
            let temporary = fileURL.appendingPathExtension("compacting")
            let data = Data(records.map { $0 + "\n" }.joined().utf8)
            guard FileManager.default.createFile(atPath: temporary.path, contents: data) else {
                throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: temporary.path])
            }
            let file = try FileHandle(forWritingTo: temporary)
            try file.synchronize()
            try file.close()
            if rename(temporary.path, fileURL.path) != 0 {
                throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: fileURL.path])
            }
        }
    }
}

/// The journal's contents as records: `+<json>` when a beacon becomes due,
/// `-<key>` when it was delivered or dropped. Replaying gives the beacons
/// still owed, in the order they became due.
struct BeaconJournal {
    let storage: any BeaconJournalStorage
    /// Beacons owed, by idempotency key, and their order.
    private(set) var owed: [String: Beacon] = [:]
    private(set) var order: [String] = []
    private var settledSinceCompaction = 0
    let compactAfter: Int

    init(storage: any BeaconJournalStorage, compactAfter: Int = 512) throws {
        self.storage = storage
        self.compactAfter = compactAfter
        let decoder = JSONDecoder()
        for record in try storage.load() {
            guard let marker = record.first else { continue }
            let body = record.dropFirst()
            if marker == "+", let beacon = try? decoder.decode(Beacon.self, from: Data(body.utf8)) {
                if owed[beacon.idempotencyKey] == nil { order.append(beacon.idempotencyKey) }
                owed[beacon.idempotencyKey] = beacon
            } else if marker == "-" {
                owed[String(body)] = nil
            }
            // A torn last line (a crash mid-append) decodes as nothing and is skipped.
        }
        order.removeAll { owed[$0] == nil }
    }

    /// Beacons owed, oldest first.
    var owedBeacons: [Beacon] { order.compactMap { owed[$0] } }

    /// Records `beacons` as owed, before anyone tries to send them.
    mutating func add(_ beacons: [Beacon]) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        for beacon in beacons {
            let json = String(decoding: try encoder.encode(beacon), as: UTF8.self)
            try storage.append("+" + json)
            if owed[beacon.idempotencyKey] == nil { order.append(beacon.idempotencyKey) }
            owed[beacon.idempotencyKey] = beacon
        }
    }

    /// Records that a beacon needs no more sending (delivered or dropped).
    mutating func settle(_ key: String) throws {
        guard owed.removeValue(forKey: key) != nil else { return }
        try storage.append("-" + key)
        settledSinceCompaction += 1
        if settledSinceCompaction >= compactAfter { try compact() }
    }

    /// Rewrites the journal with only what is still owed.
    mutating func compact() throws {
        order.removeAll { owed[$0] == nil }
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let records = try order.compactMap { key -> String? in
            guard let beacon = owed[key] else { return nil }
            return "+" + String(decoding: try encoder.encode(beacon), as: UTF8.self)
        }
        try storage.replace(with: records)
        settledSinceCompaction = 0
    }
}
