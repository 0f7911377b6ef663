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

/// The journal in a file. Appends go straight to the kernel, so a killed
/// app loses nothing it wrote (``synchronize()`` also survives a power
/// loss); compaction writes a temporary file and renames it over the
/// journal, so a crash mid-compaction leaves either the old or the new
/// journal (synced first when asked, so that a power loss does too). A torn
/// last line (the app killed mid-append) is cut off before anything else is
/// appended or read.
///
/// All file access holds `lock`, so the unchecked conformance is sound.
public final class FileJournalStorage: BeaconJournalStorage, @unchecked Sendable {
    public let fileURL: URL
    private let lock = NSLock()
    private var handle: FileHandle?
    /// The torn tail (if any) was cut off since this file was last opened or replaced.
    private var isHealed = false

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

    deinit { try? handle?.close() }

    public func append(_ record: String) throws {
        try append(contentsOf: [record])
    }

    /// One `write` to a descriptor opened with `O_APPEND` (the kernel puts
    /// it at the end: no seek), from the records' bytes (no `Data`): this
    /// runs on the caller's thread for every beacon enqueued.
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
    /// (the journal writes its records straight into bytes), in one `write`.
    func append(lines bytes: [UInt8]) throws {
        guard !bytes.isEmpty else { return }
        try lock.withLock {
            let descriptor = try openForAppending().fileDescriptor
            try bytes.withUnsafeBytes { try Self.writeAll($0, to: descriptor) }
        }
    }

    /// Writes every byte (a `write` may take part of them, or be interrupted).
    private static func writeAll(_ buffer: UnsafeRawBufferPointer, to descriptor: Int32) throws {
        guard var next = buffer.baseAddress else { return }
        var left = buffer.count
        while left > 0 {
            let written = write(descriptor, next, left)
            if written < 0 {
                if errno == EINTR { continue }
                throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
            }
            next += written
            left -= written
        }
    }

    public func load() throws -> [String] {
        try lock.withLock {
            try healTornTail()
            let data = try Data(contentsOf: fileURL)
            return data.split(separator: UInt8(ascii: "\n")).map { String(decoding: $0, as: UTF8.self) }
        }
    }

    /// Replaces the journal, synced before the rename (the safe choice for
    /// callers that do not say).
    public func replace(with records: [String]) throws {
        try replace(with: records, synchronized: true)
    }

    public func replace(with records: [String], synchronized: Bool) throws {
        try lock.withLock {
            try handle?.close()
            handle = nil
            let temporary = fileURL.appendingPathExtension("compacting")
            // Written in place through one handle: `FileManager.createFile` would
            // itself write a second temporary file and rename it (two renames).
            if FileManager.default.fileExists(atPath: temporary.path) {
                try FileManager.default.removeItem(at: temporary)
            }
            guard FileManager.default.createFile(atPath: temporary.path, contents: nil) else {
                throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: temporary.path])
            }
            let file = try FileHandle(forWritingTo: temporary)
            do {
                var data = Data()
                for record in records {
                    data.append(contentsOf: record.utf8)
                    data.append(UInt8(ascii: "\n"))
                }
                try file.write(contentsOf: data)
                // Synced before the rename: otherwise a power loss could leave the
                // new name on an empty file, with every owed beacon gone.
                if synchronized { try Self.synchronize(file) }
                try file.close()
            } catch {
                try? file.close()
                throw error
            }
            if rename(temporary.path, fileURL.path) != 0 {
                throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: fileURL.path])
            }
            isHealed = true  // written whole, every line ends in a newline
        }
    }

    public func synchronize() throws {
        try lock.withLock {
            guard let handle else { return }
            try Self.synchronize(handle)
        }
    }

    /// The write handle (`O_APPEND`: every write lands at the end, with no
    /// seek), opened on first use after the torn tail is cut off.
    private func openForAppending() throws -> FileHandle {
        if let handle { return handle }
        try healTornTail()
        let descriptor = open(fileURL.path, O_WRONLY | O_APPEND | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw CocoaError(
                .fileWriteUnknown,
                userInfo: [
                    NSFilePathErrorKey: fileURL.path, NSUnderlyingErrorKey: POSIXError(.init(rawValue: errno) ?? .EIO),
                ])
        }
        let opened = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
        handle = opened
        return opened
    }

    /// Cuts the file back to its last newline when it does not end in one.
    /// Reads only the tail: a few bytes unless the last line is torn.
    private func healTornTail() throws {
        guard !isHealed else { return }
        let file = try FileHandle(forUpdating: fileURL)
        defer { try? file.close() }
        let size = try file.seekToEnd()
        var end = size
        var step: UInt64 = 1
        // Backwards in growing steps: the last byte first (the usual case: a newline).
        scan: while end > 0 {
            let start = end > step ? end - step : 0
            try file.seek(toOffset: start)
            let chunk = try file.read(upToCount: Int(end - start)) ?? Data()
            if let newline = chunk.lastIndex(of: UInt8(ascii: "\n")) {
                end = start + UInt64(newline - chunk.startIndex) + 1
                break scan
            }
            end = start
            step = min(step * 16, 64 * 1024)
        }
        if end != size { try file.truncate(atOffset: end) }
        isHealed = true
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
