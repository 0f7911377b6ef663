/// Bytes written once, then only read, that many responses send from where
/// they are: a tagged segment's unchanged head and tail are the same for
/// every viewer, so an answer is those two slices and its few ID3 packets
/// (``HTTPResponse/Body/parts(_:)``), never a copy of the whole segment.
///
/// `@unchecked Sendable` is safe here: `storage` is allocated and filled in
/// `init`, never written after, and freed in `deinit` when no slice (and so
/// no response being sent) holds the object any more; reads from any number
/// of threads need no lock.
public final class SharedBytes: @unchecked Sendable, Hashable {
    /// A range of shared bytes.
    public struct Slice: Sendable, Hashable {
        /// The bytes sliced.
        public let bytes: SharedBytes
        /// The range, within `0..<bytes.count`.
        public let range: Range<Int>

        /// The slice's bytes, copied (for the delivery modes that stream a copy).
        public var array: [UInt8] { bytes.withUnsafeBytes { Array($0[range]) } }

        public static func == (lhs: Slice, rhs: Slice) -> Bool { lhs.array == rhs.array }

        public func hash(into hasher: inout Hasher) { hasher.combine(array) }
    }

    private let storage: UnsafeMutableRawBufferPointer

    /// Copies `bytes` once.
    public init(_ bytes: some Collection<UInt8>) {
        storage = UnsafeMutableRawBufferPointer.allocate(byteCount: max(1, bytes.count), alignment: 16)
        _ = storage.initializeMemory(as: UInt8.self, from: bytes)
        count = bytes.count
        file = nil
    }

    /// Copies `bytes` once, and notes that the file at `file` holds the
    /// same bytes from its start, so a server able to send from files
    /// (the direct path, with `sendfile`) sends slices from the file's page
    /// cache instead of copying them into the socket. The file must not
    /// change while these bytes are in use (conditioned media never does:
    /// it is written once under its content hash).
    public init(_ bytes: some Collection<UInt8>, file: String) {
        storage = UnsafeMutableRawBufferPointer.allocate(byteCount: max(1, bytes.count), alignment: 16)
        _ = storage.initializeMemory(as: UInt8.self, from: bytes)
        count = bytes.count
        self.file = file
    }

    /// The file holding these bytes from its start, if one was named.
    public let file: String?

    deinit { storage.deallocate() }

    /// How many bytes.
    public let count: Int

    /// Every byte, as one slice.
    public var whole: Slice { Slice(bytes: self, range: 0..<count) }

    /// The slice of `range`, clamped to the bytes there are.
    public func slice(_ range: Range<Int>) -> Slice {
        Slice(bytes: self, range: range.clamped(to: 0..<count))
    }

    /// Runs `body` with the bytes.
    public func withUnsafeBytes<Result>(_ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result {
        try body(UnsafeRawBufferPointer(rebasing: storage[0..<count]))
    }

    /// Where byte `offset` is, valid while this object lives.
    func address(of offset: Int) -> UnsafeRawPointer { UnsafeRawPointer(storage.baseAddress!) + offset }

    public static func == (lhs: SharedBytes, rhs: SharedBytes) -> Bool { lhs.whole == rhs.whole }

    public func hash(into hasher: inout Hasher) { hasher.combine(whole) }
}
