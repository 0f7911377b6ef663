import Foundation

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Durable storage for the beacon journal: append lines, read all lines,
/// replace everything atomically. Injected so tests can crash it.
public protocol BeaconJournalStorage: Sendable {
    /// Appends one record (a line without newlines).
    func append(_ record: String) throws
    /// Appends records in order, at once where the storage can (one write).
    /// Default: ``append(_:)`` for each.
    func append(contentsOf records: [String]) throws
    /// Every complete record, oldest first. A record torn by a kill in the
    /// middle of an append is not returned, and storage that is appended to
    /// afterwards removes it first, so that the next record starts on a line
    /// of its own.
    func load() throws -> [String]
    /// Replaces the whole journal; either all of `records` is stored or the
    /// old content stays.
    func replace(with records: [String]) throws
    /// ``replace(with:)``, with the new content synced to disk before it takes
    /// the old one's place when `synchronized` (so a power loss leaves one or
    /// the other, never an empty journal). Default: ``replace(with:)``.
    func replace(with records: [String], synchronized: Bool) throws
    /// Makes what was appended survive a power loss or a kernel panic, not
    /// only a killed app (`fsync`; `F_FULLFSYNC` on Apple platforms).
    /// Called after each append when ``BeaconQueue/Policy/syncsJournalToDisk``
    /// is on. Default: nothing.
    func synchronize() throws
}

extension BeaconJournalStorage {
    public func append(contentsOf records: [String]) throws {
        for record in records { try append(record) }
    }

    public func replace(with records: [String], synchronized: Bool) throws {
        try replace(with: records)
    }

    public func synchronize() throws {}
}

/// The journal in a file. Appends reach the kernel before they return, so a
/// killed app loses nothing it wrote (``synchronize()`` also survives a power
/// loss): on Linux as stores into a shared mapping of the file, elsewhere as
/// `write(2)`s (`JournalFile` says why and what that takes). Compaction writes
/// a temporary file and renames it over the journal, so a crash mid-compaction
/// leaves either the old or the new journal (synced first when asked, so that
/// a power loss does too). A torn last line (the app killed mid-append) is cut
/// off before anything else is appended or read. One process at a time may
/// change a journal: on Linux a second one reads it but its appends and
/// compactions fail with ``JournalInUseError``.
///
/// All file access holds `lock`, so the unchecked conformance is sound.
public final class FileJournalStorage: BeaconJournalStorage, @unchecked Sendable {
    public let fileURL: URL
    private let lock = NSLock()
    /// Opened (the torn tail cut off) by the first append or load.
    private var file: JournalFile?

    /// A journal at `directory/beacons.journal` (the directory is created).
    /// Nothing is read here: the first append or ``load()`` does.
    public init(directory: URL) throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        fileURL = directory.appendingPathComponent("beacons.journal")
        if !FileManager.default.fileExists(atPath: fileURL.path) {
            guard FileManager.default.createFile(atPath: fileURL.path, contents: nil) else {
                throw CocoaError(.fileWriteNoPermission, userInfo: [NSFilePathErrorKey: fileURL.path])
            }
        }
    }

    /// Whether appends are stores into a mapping of the file (Linux).
    var appendsThroughMapping: Bool { lock.withLock { (try? openFile())?.isMapped ?? false } }

    public func append(_ record: String) throws {
        try append(contentsOf: [record])
    }

    /// One append of the records' bytes (no `Data`): this runs on the
    /// caller's thread for every beacon enqueued.
    public func append(contentsOf records: [String]) throws {
        guard !records.isEmpty else { return }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(records.reduce(records.count) { $0 + $1.utf8.count })
        for record in records {
            bytes.append(contentsOf: record.utf8)
            bytes.append(UInt8(ascii: "\n"))
        }
        try append(lines: bytes)
    }

    /// Appends records already written as UTF-8, each ending in a newline
    /// (the journal writes its records straight into bytes), at once.
    func append(lines bytes: [UInt8]) throws {
        guard !bytes.isEmpty else { return }
        try lock.withLock {
            let file = try openFile()
            try bytes.withUnsafeBytes { try file.append($0) }
        }
    }

    /// Every whole record. A zero byte ends a record as a newline does: the
    /// space allocated ahead of a mapped journal is zeros, and a record a
    /// kill cut short may have zeros where its bytes were still to come.
    public func load() throws -> [String] {
        try lock.withLock {
            _ = try openFile()
            let data = try Data(contentsOf: fileURL)
            return data.split { $0 == UInt8(ascii: "\n") || $0 == 0 }.map { String(decoding: $0, as: UTF8.self) }
        }
    }

    /// Replaces the journal, synced before the rename (the safe choice for
    /// callers that do not say).
    public func replace(with records: [String]) throws {
        try replace(with: records, synchronized: true)
    }

    public func replace(with records: [String], synchronized: Bool) throws {
        try lock.withLock {
            // A rename by a process without the lock would leave the holder's
            // later records in the file it replaced.
            try openFile().requireWritable()
            file?.close()
            file = nil
            let temporary = fileURL.appendingPathExtension("compacting")
            // Written in place through one handle: `FileManager.createFile` would
            // itself write a second temporary file and rename it (two renames).
            if FileManager.default.fileExists(atPath: temporary.path) {
                try FileManager.default.removeItem(at: temporary)
            }
            guard FileManager.default.createFile(atPath: temporary.path, contents: nil) else {
                throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: temporary.path])
            }
            let handle = try FileHandle(forWritingTo: temporary)
            do {
                var data = Data()
                for record in records {
                    data.append(contentsOf: record.utf8)
                    data.append(UInt8(ascii: "\n"))
                }
                try handle.write(contentsOf: data)
                // Synced before the rename: otherwise a power loss could leave the
                // new name on an empty file, with every owed beacon gone.
                if synchronized { try Self.synchronize(handle) }
                try handle.close()
            } catch {
                try? handle.close()
                throw error
            }
            if rename(temporary.path, fileURL.path) != 0 {
                throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: fileURL.path])
            }
        }
    }

    public func synchronize() throws {
        try lock.withLock { try file?.synchronize() }
    }

    /// The open journal (under `lock`), opened on first use: its torn tail cut off.
    private func openFile() throws -> JournalFile {
        if let file { return file }
        let opened = try JournalFile(path: fileURL.path)
        file = opened
        return opened
    }

    /// `fsync`, or on Apple platforms `F_FULLFSYNC`, which also flushes the
    /// drive's own cache (plain `fsync` there does not); file systems that do
    /// not support it fall back to `fsync`.
    private static func synchronize(_ file: FileHandle) throws {
        #if canImport(Darwin)
            if fcntl(file.fileDescriptor, F_FULLFSYNC) == 0 { return }
        #endif
        try file.synchronize()
    }
}
