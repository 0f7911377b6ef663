/// A packetised elementary stream packet (ISO/IEC 13818-1 section 2.4.3.6):
/// stream ID, timestamps and payload.
public struct PESPacket: Sendable, Hashable {
    /// `private_stream_1`, 0xBD: the stream ID of timed ID3 in HLS.
    public static let privateStream1: UInt8 = 0xBD
    /// The largest payload a bounded PES can hold with a PTS-only header
    /// (`PES_packet_length` 65535 minus the 8 header bytes after it).
    public static let maximumBoundedPayload = 65535 - 8

    /// `stream_id` (0xE0–0xEF video, 0xC0–0xDF audio, 0xBD private stream 1…).
    public var streamID: UInt8
    /// The presentation time stamp, 90 kHz, 33 bits.
    public var pts: UInt64?
    /// The decoding time stamp, 90 kHz, 33 bits (only with a PTS).
    public var dts: UInt64?
    /// `data_alignment_indicator`: the payload starts with an access unit
    /// (for ID3, a whole tag).
    public var dataAlignment: Bool
    /// The `PES_packet_data_byte`s.
    public var payload: [UInt8]
    /// `PES_packet_length` as read: 0 for an unbounded (video) packet, nil
    /// for a packet built in code (`encoded()` computes it).
    public var declaredLength: Int?

    /// Creates a packet; `encoded()` computes the lengths.
    public init(streamID: UInt8, pts: UInt64?, dts: UInt64? = nil, dataAlignment: Bool = true, payload: [UInt8]) {
        self.streamID = streamID
        self.pts = pts.map { $0 & 0x1_FFFF_FFFF }
        self.dts = dts.map { $0 & 0x1_FFFF_FFFF }
        self.dataAlignment = dataAlignment
        self.payload = payload
        self.declaredLength = nil
    }

    /// True for the stream IDs whose packets have no optional PES header
    /// (program_stream_map, padding, private_stream_2, ECM, EMM, DSM-CC,
    /// H.222.1 type E, program_stream_directory).
    static func hasNoOptionalHeader(_ streamID: UInt8) -> Bool {
        [0xBC, 0xBE, 0xBF, 0xF0, 0xF1, 0xF2, 0xF8, 0xFF].contains(streamID)
    }

    /// Reads a whole packet. With `PES_packet_length` 0 (unbounded) every byte
    /// after the header is payload; otherwise bytes past the stated length
    /// are ignored.
    /// - Throws: `invalidPES` for a bad start code or header, `truncatedPES`
    ///   when fewer bytes than `PES_packet_length` states are given.
    public init(bytes: some Collection<UInt8>) throws(MPEGTSError) {
        let array = Array(bytes)
        let header = try PESHeader(array[...])
        let end: Int
        if header.packetLength == 0 {
            end = array.count
        } else {
            end = 6 + header.packetLength
            guard end <= array.count else {
                throw MPEGTSError(
                    .truncatedPES,
                    "PES_packet_length \(header.packetLength) needs \(end) bytes, \(array.count) are there")
            }
        }
        guard header.payloadOffset <= array.count else {
            throw MPEGTSError(.truncatedPES, "PES header of \(header.payloadOffset) bytes is cut short")
        }
        guard header.payloadOffset <= end else {
            throw MPEGTSError(
                .invalidPES, "PES header of \(header.payloadOffset) bytes is longer than PES_packet_length allows")
        }
        streamID = header.streamID
        pts = header.pts
        dts = header.dts
        dataAlignment = header.dataAlignment
        payload = Array(array[header.payloadOffset..<end])
        declaredLength = header.packetLength
    }

    /// The packet's bytes: start code, stream ID, `PES_packet_length`, and
    /// (except for the stream IDs that have none) an optional header with
    /// the time stamps, marker bits `10`, `data_alignment_indicator` and
    /// `PES_header_data_length`.
    /// - Throws: `payloadTooLarge` when the length does not fit 16 bits
    ///   (a video stream ID is written unbounded, length 0, instead).
    public func encoded() throws(MPEGTSError) -> [UInt8] {
        var bytes: [UInt8] = [0x00, 0x00, 0x01, streamID, 0, 0]
        if !Self.hasNoOptionalHeader(streamID) {
            let timestamps: UInt8 = pts == nil ? 0 : (dts == nil ? 0x80 : 0xC0)
            bytes += [0x80 | (dataAlignment ? 0x04 : 0), timestamps, 0]
            if let pts {
                bytes += Self.encodeTimestamp(pts, prefix: dts == nil ? 0x2 : 0x3)
                if let dts { bytes += Self.encodeTimestamp(dts, prefix: 0x1) }
            }
            bytes[8] = UInt8(bytes.count - 9)
        }
        bytes.reserveCapacity(bytes.count + payload.count)
        bytes += payload
        let length = bytes.count - 6
        if length <= 0xFFFF {
            bytes[4] = UInt8(length >> 8)
            bytes[5] = UInt8(length & 0xFF)
        } else if !(0xE0...0xEF).contains(streamID) {
            // Only video PES packets may be unbounded in a transport stream (2.4.3.7).
            throw MPEGTSError(.payloadTooLarge, "PES packet of \(length) bytes does not fit PES_packet_length")
        }
        return bytes
    }

    /// The five bytes of a PTS or DTS: a four-bit prefix, then the 33 bits
    /// in parts of 3, 15 and 15, each followed by a marker bit of one.
    static func encodeTimestamp(_ value: UInt64, prefix: UInt8) -> [UInt8] {
        let value = value & 0x1_FFFF_FFFF
        return [
            prefix << 4 | UInt8(value >> 29 & 0x0E) | 1,
            UInt8(value >> 22 & 0xFF), UInt8(value >> 14 & 0xFE) | 1,
            UInt8(value >> 7 & 0xFF), UInt8(value << 1 & 0xFE) | 1,
        ]
    }

    static func decodeTimestamp(_ bytes: ArraySlice<UInt8>) -> UInt64 {
        let start = bytes.startIndex
        return UInt64(bytes[start] >> 1 & 0x07) << 30 | UInt64(bytes[start + 1]) << 22
            | UInt64(bytes[start + 2] >> 1) << 15 | UInt64(bytes[start + 3]) << 7 | UInt64(bytes[start + 4] >> 1)
    }
}

/// The fields of a PES header up to its time stamps, read from the first
/// bytes of a packet: what the demuxer needs for a stream's first PTS.
struct PESHeader {
    var streamID: UInt8
    /// `PES_packet_length`; 0 means unbounded.
    var packetLength: Int
    var pts: UInt64?
    var dts: UInt64?
    var dataAlignment: Bool
    /// Offset of the first payload byte from the start code.
    var payloadOffset: Int

    /// The bytes a header needs before it can be read: 9, or 9 plus
    /// `PES_header_data_length`; nil when fewer than 9 are there yet.
    static func requiredLength(_ bytes: ArraySlice<UInt8>) -> Int? {
        guard bytes.count >= 9 else {
            return bytes.count >= 6 && PESPacket.hasNoOptionalHeader(bytes[bytes.startIndex + 3]) ? 6 : nil
        }
        let streamID = bytes[bytes.startIndex + 3]
        return PESPacket.hasNoOptionalHeader(streamID) ? 6 : 9 + Int(bytes[bytes.startIndex + 8])
    }

    init(_ bytes: ArraySlice<UInt8>) throws(MPEGTSError) {
        let start = bytes.startIndex
        guard bytes.count >= 6 else {
            throw MPEGTSError(.truncatedPES, "PES packet of \(bytes.count) bytes is shorter than its 6-byte start")
        }
        guard bytes[start] == 0, bytes[start + 1] == 0, bytes[start + 2] == 1 else {
            throw MPEGTSError(.invalidPES, "PES packet does not start with packet_start_code_prefix 00 00 01")
        }
        streamID = bytes[start + 3]
        packetLength = Int(bytes[start + 4]) << 8 | Int(bytes[start + 5])
        guard !PESPacket.hasNoOptionalHeader(streamID) else {
            dataAlignment = false
            payloadOffset = 6
            return
        }
        guard bytes.count >= 9 else {
            throw MPEGTSError(.truncatedPES, "PES header is cut short before PES_header_data_length")
        }
        guard bytes[start + 6] & 0xC0 == 0x80 else {
            throw MPEGTSError(.invalidPES, "PES header does not start with the marker bits 10")
        }
        dataAlignment = bytes[start + 6] & 0x04 != 0
        let timestampFlags = bytes[start + 7] >> 6
        let headerDataLength = Int(bytes[start + 8])
        payloadOffset = 9 + headerDataLength
        guard timestampFlags != 1 else {
            throw MPEGTSError(.invalidPES, "PTS_DTS_flags is 01, which is forbidden")
        }
        let timestampBytes = timestampFlags == 3 ? 10 : (timestampFlags == 2 ? 5 : 0)
        guard timestampBytes <= headerDataLength else {
            throw MPEGTSError(
                .invalidPES,
                "PES_header_data_length \(headerDataLength) cannot hold the \(timestampBytes) time stamp bytes")
        }
        guard bytes.count >= 9 + timestampBytes else {
            throw MPEGTSError(.truncatedPES, "PES header is cut short inside its time stamps")
        }
        if timestampFlags >= 2 { pts = PESPacket.decodeTimestamp(bytes[(start + 9)..<(start + 14)]) }
        if timestampFlags == 3 { dts = PESPacket.decodeTimestamp(bytes[(start + 14)..<(start + 19)]) }
        if packetLength != 0 && packetLength < 3 + headerDataLength {
            throw MPEGTSError(
                .invalidPES,
                "PES_packet_length \(packetLength) is shorter than its own header (\(3 + headerDataLength))")
        }
    }
}

extension PESPacket {
    /// The packet as transport packets on `pid`: the first with
    /// `payload_unit_start_indicator`, 184 payload bytes each, the last
    /// filled to 188 bytes with adaptation-field stuffing (section 2.4.3.5),
    /// continuity counters from `continuityCounter` (advanced past the last).
    public func encodedPackets(pid: UInt16, continuityCounter: inout UInt8) throws(MPEGTSError) -> [UInt8] {
        guard pid <= TSPacket.maximumPID else {
            throw MPEGTSError(.invalidArgument, "PID 0x\(String(pid, radix: 16)) is above 0x1FFE")
        }
        var output: [UInt8] = []
        Self.packetize(try encoded(), pid: pid, continuityCounter: &continuityCounter, into: &output)
        return output
    }

    /// The number of transport packets `packetize` makes of a PES of `byteCount` bytes.
    static func packetCount(forByteCount byteCount: Int) -> Int { (byteCount + 183) / 184 }

    /// Appends the transport packets carrying the PES `bytes` to `output`.
    static func packetize(_ bytes: [UInt8], pid: UInt16, continuityCounter: inout UInt8, into output: inout [UInt8]) {
        output.reserveCapacity(output.count + packetCount(forByteCount: bytes.count) * TSPacket.size)
        var cursor = 0
        while cursor < bytes.count {
            let chunk = min(184, bytes.count - cursor)
            let stuffing = 184 - chunk
            output.append(TSPacket.syncByte)
            output.append((cursor == 0 ? 0x40 : 0) | UInt8(pid >> 8 & 0x1F))
            output.append(UInt8(pid & 0xFF))
            output.append((stuffing > 0 ? 0x30 : 0x10) | continuityCounter & 0x0F)
            continuityCounter = (continuityCounter + 1) & 0x0F
            if stuffing > 0 {
                // adaptation_field_length, then (when there is room) a flags byte and 0xFF stuffing.
                output.append(UInt8(stuffing - 1))
                if stuffing > 1 {
                    output.append(0x00)
                    output.append(contentsOf: repeatElement(0xFF, count: stuffing - 2))
                }
            }
            output.append(contentsOf: bytes[cursor..<(cursor + chunk)])
            cursor += chunk
        }
    }
}
