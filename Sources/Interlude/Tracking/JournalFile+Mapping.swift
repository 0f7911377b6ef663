#if os(Linux)
    import Foundation
    import Glibc

    extension JournalFile {
        /// The journal mapped shared: its records, then zeros allocated ahead
        /// for the next ones, in steps of ``step``.
        final class Mapping {
            /// Space allocated ahead at a time: about 250 verification records.
            static let step = 64 * 1024
            private let descriptor: Int32
            private var base: UnsafeMutableRawPointer
            private var capacity: Int
            /// Where the next record goes: the records' length.
            private(set) var recordsEnd: Int

            /// Nil when the space cannot be allocated or the file mapped (the
            /// file is then left as it was, and appended to with `write(2)`).
            init?(descriptor: Int32, recordsEnd: Int) {
                let capacity = Self.capacity(holding: recordsEnd)
                guard let base = Self.map(descriptor, allocating: recordsEnd..<capacity, records: recordsEnd) else {
                    return nil
                }
                self.descriptor = descriptor
                self.base = base
                self.capacity = capacity
                self.recordsEnd = recordsEnd
            }

            /// Stores `bytes` (a whole number of records, ending in a newline)
            /// after the records. False when no room could be made: the mapping
            /// is then gone and the file cut back to its records.
            func store(_ bytes: UnsafeRawBufferPointer) -> Bool {
                guard let source = bytes.baseAddress else { return true }
                if recordsEnd + bytes.count > capacity, !grow(toHold: bytes.count) { return false }
                let target = base + recordsEnd
                // The newline last: a record cut short by a kill ends without one
                // (or with zeros where bytes were still to come) and is read as torn.
                target.copyMemory(from: source, byteCount: bytes.count - 1)
                target.storeBytes(of: bytes[bytes.count - 1], toByteOffset: bytes.count - 1, as: UInt8.self)
                recordsEnd += bytes.count
                return true
            }

            func synchronize() throws {
                guard msync(base, capacity, MS_SYNC) == 0 else {
                    throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
                }
            }

            func unmap() { _ = munmap(base, capacity) }

            /// Maps a larger stretch of the file (the records stay where they
            /// are: the mapping covers the file from its start).
            private func grow(toHold count: Int) -> Bool {
                let larger = Self.capacity(holding: recordsEnd + count)
                guard let newBase = Self.map(descriptor, allocating: capacity..<larger, records: recordsEnd) else {
                    unmap()
                    _ = ftruncate(descriptor, off_t(recordsEnd))
                    return false
                }
                unmap()
                base = newBase
                capacity = larger
                return true
            }

            /// Room for `length` bytes and at least one more, in whole steps.
            private static func capacity(holding length: Int) -> Int { (length / step + 1) * step }

            /// Allocates `space` (zeros) and maps the file up to its end. On
            /// failure the file is cut back to `records` bytes.
            private static func map(_ descriptor: Int32, allocating space: Range<Int>, records: Int)
                -> UnsafeMutableRawPointer?
            {
                // Allocated, not only sized: a store into a hole that a full disk
                // cannot fill is a SIGBUS, where a failed allocation here is an error.
                guard posix_fallocate(descriptor, off_t(space.lowerBound), off_t(space.count)) == 0 else {
                    _ = ftruncate(descriptor, off_t(records))
                    return nil
                }
                let mapped = mmap(nil, space.upperBound, PROT_READ | PROT_WRITE, MAP_SHARED, descriptor, 0)
                guard let mapped, mapped != UnsafeMutableRawPointer(bitPattern: -1) else {
                    _ = ftruncate(descriptor, off_t(records))
                    return nil
                }
                return mapped
            }
        }
    }
#else
    extension JournalFile {
        /// No mapping on this platform: appends are `write(2)`s (an Apple
        /// platform's data protection can make a mapped file unreadable while the
        /// device is locked, a crash where a `write` is an error).
        enum Mapping {
            var recordsEnd: Int { switch self {} }
            func store(_ bytes: UnsafeRawBufferPointer) -> Bool { switch self {} }
            func synchronize() throws { switch self {} }
            func unmap() { switch self {} }
        }
    }
#endif
