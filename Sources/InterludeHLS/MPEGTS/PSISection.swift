/// A long-form PSI section (ISO/IEC 13818-1 section 2.4.4.10 and table 2-30):
/// the eight-byte header every PAT and PMT shares, the table body and the
/// CRC-32/MPEG-2 over the whole section.
struct PSISection {
    /// The largest `section_length` of a PAT or PMT (section 2.4.4.3: the first
    /// two bits are zero and the value does not exceed 1021).
    static let maximumLength = 1021

    var tableID: UInt8
    var tableIDExtension: UInt16
    var version: UInt8
    var isCurrent: Bool
    var sectionNumber: UInt8
    var lastSectionNumber: UInt8
    /// The bytes between the header and the CRC.
    var body: ArraySlice<UInt8>

    init(
        tableID: UInt8, tableIDExtension: UInt16, version: UInt8, isCurrent: Bool, sectionNumber: UInt8 = 0,
        lastSectionNumber: UInt8 = 0, body: ArraySlice<UInt8>
    ) {
        self.tableID = tableID
        self.tableIDExtension = tableIDExtension
        self.version = version
        self.isCurrent = isCurrent
        self.sectionNumber = sectionNumber
        self.lastSectionNumber = lastSectionNumber
        self.body = body
    }

    /// Reads a section of the given table, checking the syntax bits, the
    /// length against the bytes and the CRC. Bytes past the section are ignored.
    init(bytes: ArraySlice<UInt8>, tableID expected: UInt8, name: String) throws(MPEGTSError) {
        let start = bytes.startIndex
        guard bytes.count >= 3 else {
            throw MPEGTSError(.truncatedSection, "\(name) section is \(bytes.count) bytes, shorter than its header")
        }
        guard bytes[start] == expected else {
            throw MPEGTSError(
                .invalidSection,
                "\(name) table_id is 0x\(String(bytes[start], radix: 16)), not 0x\(String(expected, radix: 16))")
        }
        guard bytes[start + 1] & 0x80 != 0 else {
            throw MPEGTSError(.invalidSection, "\(name) section_syntax_indicator is 0")
        }
        let length = Int(bytes[start + 1] & 0x0F) << 8 | Int(bytes[start + 2])
        guard length >= 9, length <= Self.maximumLength else {
            throw MPEGTSError(.invalidSection, "\(name) section_length \(length) is outside 9…1021")
        }
        guard bytes.count >= 3 + length else {
            throw MPEGTSError(
                .truncatedSection, "\(name) section_length \(length) runs past the \(bytes.count - 3) bytes that follow"
            )
        }
        let end = start + 3 + length
        // The CRC over a section including its own CRC field is zero (Annex A).
        guard SCTE35CRC.checksum(bytes[start..<end]) == 0 else {
            let written = bytes[(end - 4)..<end].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
            throw MPEGTSError(
                .checksumMismatch,
                "\(name) CRC-32 is 0x\(String(written, radix: 16)), computed 0x\(String(SCTE35CRC.checksum(bytes[start..<(end - 4)]), radix: 16))"
            )
        }
        tableID = expected
        tableIDExtension = UInt16(bytes[start + 3]) << 8 | UInt16(bytes[start + 4])
        version = bytes[start + 5] >> 1 & 0x1F
        isCurrent = bytes[start + 5] & 1 != 0
        sectionNumber = bytes[start + 6]
        lastSectionNumber = bytes[start + 7]
        body = bytes[(start + 8)..<(end - 4)]
    }

    /// The section's bytes with `section_length` and the CRC computed.
    func encoded(name: String) throws(MPEGTSError) -> [UInt8] {
        let length = 5 + body.count + 4
        guard length <= Self.maximumLength else {
            throw MPEGTSError(.sectionTooLarge, "\(name) section would be \(length) bytes long, over 1021")
        }
        var bytes: [UInt8] = [
            tableID, 0xB0 | UInt8(length >> 8), UInt8(length & 0xFF),
            UInt8(tableIDExtension >> 8), UInt8(tableIDExtension & 0xFF),
            0xC0 | (version & 0x1F) << 1 | (isCurrent ? 1 : 0), sectionNumber, lastSectionNumber,
        ]
        bytes.reserveCapacity(3 + length)
        bytes += body
        let crc = SCTE35CRC.checksum(bytes[...])
        bytes += [UInt8(crc >> 24), UInt8(crc >> 16 & 0xFF), UInt8(crc >> 8 & 0xFF), UInt8(crc & 0xFF)]
        return bytes
    }

    /// Transport packets carrying `section` on `pid`: the first with
    /// `payload_unit_start_indicator` and a zero `pointer_field`, the last
    /// filled with 0xFF stuffing bytes (section 2.4.4.1), one continuity
    /// counter step per packet starting at `continuityCounter`.
    static func packets(carrying section: [UInt8], pid: UInt16, continuityCounter: inout UInt8) -> [UInt8] {
        var output: [UInt8] = []
        var remaining = section[...]
        var first = true
        repeat {
            output.append(TSPacket.syncByte)
            output.append((first ? 0x40 : 0) | UInt8(pid >> 8 & 0x1F))
            output.append(UInt8(pid & 0xFF))
            output.append(0x10 | continuityCounter & 0x0F)
            continuityCounter = (continuityCounter + 1) & 0x0F
            var room = 184
            if first {
                output.append(0)  // pointer_field
                room -= 1
            }
            let chunk = remaining.prefix(room)
            output += chunk
            remaining = remaining.dropFirst(chunk.count)
            output += repeatElement(0xFF, count: room - chunk.count)
            first = false
        } while !remaining.isEmpty
        return output
    }
}

/// Reads `tag, length, data` descriptors until `bytes` ends (section 2.6).
func readDescriptors(_ bytes: ArraySlice<UInt8>, in name: String) throws(MPEGTSError) -> [TSDescriptor] {
    var descriptors: [TSDescriptor] = []
    var cursor = bytes.startIndex
    while cursor < bytes.endIndex {
        guard cursor + 2 <= bytes.endIndex, cursor + 2 + Int(bytes[cursor + 1]) <= bytes.endIndex else {
            throw MPEGTSError(.invalidSection, "a descriptor in the \(name) runs past its loop")
        }
        let length = Int(bytes[cursor + 1])
        descriptors.append(TSDescriptor(tag: bytes[cursor], data: Array(bytes[(cursor + 2)..<(cursor + 2 + length)])))
        cursor += 2 + length
    }
    return descriptors
}

/// Writes descriptors as `tag, length, data`.
func writeDescriptors(_ descriptors: [TSDescriptor], into bytes: inout [UInt8]) throws(MPEGTSError) {
    for descriptor in descriptors {
        guard descriptor.data.count <= 255 else {
            throw MPEGTSError(
                .sectionTooLarge,
                "descriptor 0x\(String(descriptor.tag, radix: 16)) has \(descriptor.data.count) bytes, over 255")
        }
        bytes.append(descriptor.tag)
        bytes.append(UInt8(descriptor.data.count))
        bytes += descriptor.data
    }
}

/// The big-endian 16-bit value at `index`.
func bigEndian16(_ bytes: [UInt8], at index: Int) -> UInt16 {
    UInt16(bytes[index]) << 8 | UInt16(bytes[index + 1])
}
