/// Reads big-endian bit fields from a SCTE-35 section, throwing instead of
/// reading past the end so a truncated payload is an error, not a crash.
struct SCTE35BitReader {
    let bytes: [UInt8]
    private(set) var bitPosition = 0
    /// The byte offset reads may not cross (a descriptor's or command's end).
    var limit: Int

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
        self.limit = bytes.count
    }

    var bytePosition: Int { bitPosition / 8 }
    var remainingBytes: Int { max(0, limit - bytePosition) }

    mutating func read(_ count: Int) throws(HLSError) -> UInt64 {
        guard bitPosition + count <= limit * 8 else {
            throw HLSError(.truncatedSection, "SCTE-35 section ends inside a field at byte \(bytePosition)")
        }
        var value: UInt64 = 0
        for _ in 0..<count {
            let byte = bytes[bitPosition >> 3]
            let bit = (byte >> (7 - UInt8(bitPosition & 7))) & 1
            value = value << 1 | UInt64(bit)
            bitPosition += 1
        }
        return value
    }

    mutating func flag() throws(HLSError) -> Bool { try read(1) == 1 }

    mutating func skip(_ count: Int) throws(HLSError) { _ = try read(count) }

    mutating func readBytes(_ count: Int) throws(HLSError) -> [UInt8] {
        guard bitPosition % 8 == 0, bytePosition + count <= limit, count >= 0 else {
            throw HLSError(
                .truncatedSection, "SCTE-35 section ends inside a \(count)-byte field at byte \(bytePosition)")
        }
        let start = bytePosition
        bitPosition += count * 8
        return Array(bytes[start..<(start + count)])
    }

    mutating func seek(toByte offset: Int) { bitPosition = offset * 8 }
}

/// Writes big-endian bit fields.
struct SCTE35BitWriter {
    private(set) var bytes: [UInt8] = []
    private var bitCount = 0

    mutating func write(_ value: UInt64, _ count: Int) {
        for shift in stride(from: count - 1, through: 0, by: -1) {
            if bitCount % 8 == 0 { bytes.append(0) }
            if (value >> UInt64(shift)) & 1 == 1 {
                bytes[bytes.count - 1] |= 1 << UInt8(7 - bitCount % 8)
            }
            bitCount += 1
        }
    }

    mutating func write(_ flag: Bool) { write(flag ? 1 : 0, 1) }

    /// Reserved bits are ones (SCTE 35 section 9.1).
    mutating func reserved(_ count: Int) { write(UInt64.max >> UInt64(64 - count), count) }

    mutating func write(bytes newBytes: [UInt8]) {
        for byte in newBytes { write(UInt64(byte), 8) }
    }
}

/// CRC-32/MPEG-2 (polynomial 0x04C11DB7, initial 0xFFFFFFFF, no reflection),
/// the checksum SCTE 35 section 9.6 puts at the end of a section. Package
/// access: `interlude inspect --scte35` reports a bad CRC with the right one.
package enum SCTE35CRC {
    private static let table: [UInt32] = (0..<256).map { index in
        var crc = UInt32(index) << 24
        for _ in 0..<8 {
            crc = crc & 0x8000_0000 != 0 ? (crc << 1) ^ 0x04C1_1DB7 : crc << 1
        }
        return crc
    }

    package static func checksum(_ bytes: ArraySlice<UInt8>) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc = (crc << 8) ^ table[Int((crc >> 24) ^ UInt32(byte))]
        }
        return crc
    }
}
