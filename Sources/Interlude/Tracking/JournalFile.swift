import Foundation

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// The open journal file, and how a record reaches it.
///
/// On Linux, appends are stores into a shared mapping of the file. The
/// mapping is the page cache, so a stored record survives the app being
/// killed exactly as a `write(2)` does, without a system call on the
/// caller's thread: a `write` to ext4 a few milliseconds after the last one
/// cost the main thread 25–40 µs on the benchmark machine, once per
/// verification (`BENCHMARKS.md`). The mapping runs past the records into
/// space allocated ahead and filled with zeros, so that a store never lands
/// on a block the file system has still to find (a full disk then would be a
/// SIGBUS, not an error); readers treat a zero byte as the end of a record,
/// and closing cuts the zeros off. Shortening a file someone has mapped turns
/// their next store into a SIGBUS, and a `write` by someone else into the
/// zeros would be overwritten, so the process that maps the journal holds its
/// lock (`flock`) for as long as it is open, and a second process on the same
/// journal may read it but not append or compact (``JournalInUseError``). A file that
/// cannot be mapped is appended to with `write(2)` (`O_APPEND`), as on every
/// other platform, where nothing is locked or mapped.
///
/// Not thread-safe: ``FileJournalStorage`` holds its lock around every call.
final class JournalFile {
    private let descriptor: Int32
    private let path: String
    private var mapping: Mapping?
    /// Another process holds the journal's lock: reads only.
    private let isInUseElsewhere: Bool
    private var isClosed = false

    /// Opens (creating if needed) the journal at `path` and cuts a torn last
    /// line off (unless another process holds it).
    init(path: String) throws {
        self.path = path
        descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw Self.error(path: path) }
        do {
            #if os(Linux)
                isInUseElsewhere = flock(descriptor, LOCK_EX | LOCK_NB) != 0
                guard !isInUseElsewhere else { return }
            #else
                isInUseElsewhere = false
            #endif
            let end = try Self.healTornTail(descriptor)
            #if os(Linux)
                mapping = Mapping(descriptor: descriptor, recordsEnd: end)
            #endif
            if mapping == nil { try appendWithWrites() }
        } catch {
            _ = closeDescriptor(descriptor)
            throw error
        }
    }

    deinit { close() }

    /// Whether appends are stores into a mapping (false: `write(2)`).
    var isMapped: Bool { mapping != nil }

    /// Appends bytes that end in a newline.
    func append(_ bytes: UnsafeRawBufferPointer) throws {
        guard !bytes.isEmpty else { return }
        try requireWritable()
        if let mapping {
            if mapping.store(bytes) { return }
            // No room could be made: the mapping is gone and the file cut back to its records.
            self.mapping = nil
            try appendWithWrites()
        }
        try Self.writeAll(bytes, to: descriptor)
    }

    /// Throws ``JournalInUseError`` when another process holds the journal.
    func requireWritable() throws {
        guard !isInUseElsewhere else { throw JournalInUseError(path: path) }
    }

    /// Makes what was appended survive a power loss: `msync` of the mapping,
    /// then `fsync` (`F_FULLFSYNC` on Apple platforms, which also flushes the
    /// drive's cache).
    func synchronize() throws {
        guard !isInUseElsewhere else { return }
        try mapping?.synchronize()
        #if canImport(Darwin)
            if fcntl(descriptor, F_FULLFSYNC) == 0 { return }
        #endif
        guard fsync(descriptor) == 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
    }

    /// Unmaps, cuts the zeros allocated ahead off, and closes (which releases the lock).
    func close() {
        guard !isClosed else { return }
        isClosed = true
        if let mapping {
            mapping.unmap()
            _ = ftruncate(descriptor, off_t(mapping.recordsEnd))
            self.mapping = nil
        }
        _ = closeDescriptor(descriptor)
    }

    /// From now on appends are `write(2)`s that the kernel places at the end.
    private func appendWithWrites() throws {
        let flags = fcntl(descriptor, F_GETFL)
        guard flags >= 0, fcntl(descriptor, F_SETFL, flags | O_APPEND) == 0 else { throw Self.error(path: path) }
    }

    /// Cuts the file back to just after its last newline, dropping a torn
    /// last line (and the zeros an earlier run allocated ahead and was killed
    /// before cutting off). Reads only the tail: a few bytes unless the last
    /// line is torn. Returns the new length.
    private static func healTornTail(_ descriptor: Int32) throws -> Int {
        let size = Int(lseek(descriptor, 0, SEEK_END))
        guard size >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        var end = size
        var step = 1
        var found = false
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        // Backwards in growing steps: the last byte first (the usual case: a newline).
        while end > 0, !found {
            let start = max(0, end - step)
            let count = try readFully(descriptor, into: &chunk, count: end - start, at: start)
            if let newline = chunk[0..<count].lastIndex(of: UInt8(ascii: "\n")) {
                end = start + newline + 1
                found = true
            } else {
                end = start
            }
            step = min(step * 16, chunk.count)
        }
        if end != size, ftruncate(descriptor, off_t(end)) != 0 {
            throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
        }
        return end
    }

    private static func readFully(_ descriptor: Int32, into buffer: inout [UInt8], count: Int, at offset: Int) throws
        -> Int
    {
        var done = 0
        while done < count {
            let read = buffer.withUnsafeMutableBytes {
                pread(descriptor, $0.baseAddress! + done, count - done, off_t(offset + done))
            }
            if read < 0 {
                if errno == EINTR { continue }
                throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
            }
            if read == 0 { break }
            done += read
        }
        return done
    }

    /// Writes every byte (a `write` may take part of them, or be interrupted).
    static func writeAll(_ buffer: UnsafeRawBufferPointer, to descriptor: Int32) throws {
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

    private static func error(path: String) -> CocoaError {
        CocoaError(
            .fileWriteUnknown,
            userInfo: [NSFilePathErrorKey: path, NSUnderlyingErrorKey: POSIXError(.init(rawValue: errno) ?? .EIO)])
    }
}

/// `close(2)`, which `JournalFile.close()` hides.
private func closeDescriptor(_ descriptor: Int32) -> Int32 {
    #if canImport(Darwin)
        return Darwin.close(descriptor)
    #elseif canImport(Glibc)
        return Glibc.close(descriptor)
    #else
        return Musl.close(descriptor)
    #endif
}

/// The journal is open in another process, which holds its lock: this one
/// may read it but not append to it (each process needs a journal directory
/// of its own; ``Settings/beaconJournalDirectory``).
public struct JournalInUseError: Error, CustomStringConvertible, Sendable {
    /// The journal file.
    public let path: String
    public var description: String { "the beacon journal \(path) is in use by another process" }
}
