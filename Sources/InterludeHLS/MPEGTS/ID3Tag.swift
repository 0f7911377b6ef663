/// An ID3v2 tag: the timed metadata HLS carries in MPEG-TS (Apple, "Timed
/// Metadata for HTTP Live Streaming") and the player reports when the
/// playhead reaches its PTS.
///
/// Written as ID3v2.4 (synchsafe sizes, UTF-8 text); read from ID3v2.3 and
/// ID3v2.4, with unsynchronisation undone, the extended header skipped and
/// unknown frames kept as ``ID3Frame/other(id:data:)``.
public struct ID3Tag: Sendable, Hashable {
    /// The frames, in tag order.
    public var frames: [ID3Frame]
    /// The ID3v2 major version as read (3 or 4); 4 for a tag built in code,
    /// which is what ``encoded()`` always writes.
    public var majorVersion: UInt8

    /// Creates a tag from its frames.
    public init(frames: [ID3Frame]) {
        self.frames = frames
        self.majorVersion = 4
    }

    /// Reads a tag from the start of `bytes` (bytes after it are ignored).
    /// A malformed frame is skipped; use ``decode(_:)`` to learn which.
    /// - Throws: when the header is not an ID3v2.3/2.4 header or the tag is
    ///   larger than `bytes`.
    public init(bytes: some Collection<UInt8>) throws(MPEGTSError) {
        self = try Self.decode(Array(bytes)[...]).tag
    }

    /// The `TXXX` values of the tag, in order: where pod serving puts its event IDs.
    public var userTextValues: [String] {
        frames.compactMap { frame in
            if case .userText(_, let value) = frame { return value }
            return nil
        }
    }

    /// The tag as ID3v2.4 bytes: a ten-byte header with a synchsafe size, no
    /// flags, then each frame with a synchsafe size and no flags; no padding.
    /// - Throws: `invalidArgument` for a frame identifier that is not four
    ///   characters A–Z/0–9 or a description or owner holding U+0000;
    ///   `payloadTooLarge` past the 256 MiB a synchsafe size can state.
    public func encoded() throws(MPEGTSError) -> [UInt8] {
        var body: [UInt8] = []
        for frame in frames {
            let id = Array(frame.id.utf8)
            guard ID3Frame.isValidIdentifier(id) else {
                throw MPEGTSError(.invalidArgument, "ID3 frame identifier \"\(frame.id)\" is not four of A–Z, 0–9")
            }
            let data = try frame.encodedData()
            guard data.count < 1 << 28 else {
                throw MPEGTSError(.payloadTooLarge, "ID3 frame \(frame.id) is over 256 MiB")
            }
            body += id
            body += ID3Synchsafe.encode(UInt32(data.count))
            body += [0, 0]
            body += data
        }
        guard body.count < 1 << 28 else {
            throw MPEGTSError(.payloadTooLarge, "ID3 tag is over 256 MiB")
        }
        return [0x49, 0x44, 0x33, 4, 0, 0] + ID3Synchsafe.encode(UInt32(body.count)) + body
    }
}

/// A tag read by ``ID3Tag/decode(_:)``, with what it skipped.
public struct ID3DecodedTag: Sendable, Hashable {
    /// The tag, with the frames that could be read.
    public var tag: ID3Tag
    /// The bytes the tag occupies from its start (header, body and footer),
    /// so a caller can read the next tag that follows it.
    public var byteCount: Int
    /// Frames skipped or reading stopped early, with offsets from the tag start.
    public var issues: [MPEGTSError]
}

/// Synchsafe integers (ID3v2.4.0 structure, section 6.2): 28 bits in four
/// bytes of seven bits each, the high bit always zero.
enum ID3Synchsafe {
    static func encode(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 21 & 0x7F), UInt8(value >> 14 & 0x7F), UInt8(value >> 7 & 0x7F), UInt8(value & 0x7F)]
    }

    /// The value of four bytes; nil when one has its high bit set.
    static func decode(_ bytes: ArraySlice<UInt8>) -> Int? {
        guard bytes.count == 4, bytes.allSatisfy({ $0 & 0x80 == 0 }) else { return nil }
        return bytes.reduce(0) { $0 << 7 | Int($1) }
    }

    /// A plain big-endian 32-bit value (ID3v2.3 frame and extended header sizes).
    static func decodePlain(_ bytes: ArraySlice<UInt8>) -> Int {
        bytes.reduce(0) { $0 << 8 | Int($1) }
    }

    /// Undoes unsynchronisation (ID3v2.4.0 structure, section 6.1): every
    /// 0xFF 0x00 becomes 0xFF.
    static func removeUnsynchronisation(_ bytes: ArraySlice<UInt8>) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count)
        var previous: UInt8 = 0
        for byte in bytes {
            if !(previous == 0xFF && byte == 0x00) { output.append(byte) }
            previous = byte
        }
        return output
    }
}
