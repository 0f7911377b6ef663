/// A program clock reference (PCR or OPCR): a 33-bit base at 90 kHz and a
/// 9-bit extension at 27 MHz (ISO/IEC 13818-1 section 2.4.3.5).
public struct TSClockReference: Sendable, Hashable {
    /// `program_clock_reference_base`, 90 kHz units, 33 bits.
    public var base: UInt64
    /// `program_clock_reference_extension`, 27 MHz units, 0…299.
    public var `extension`: UInt16

    /// Creates a clock reference from its two parts.
    public init(base: UInt64, extension: UInt16 = 0) {
        self.base = base & 0x1_FFFF_FFFF
        self.extension = `extension` & 0x1FF
    }

    /// The value in 27 MHz units: `base × 300 + extension`.
    public var value: UInt64 { base * 300 + UInt64(`extension`) }

    init(_ bytes: ArraySlice<UInt8>) {
        let start = bytes.startIndex
        var base: UInt64 = 0
        for index in 0..<4 { base = base << 8 | UInt64(bytes[start + index]) }
        base = base << 1 | UInt64(bytes[start + 4] >> 7)
        self.init(base: base, extension: UInt16(bytes[start + 4] & 1) << 8 | UInt16(bytes[start + 5]))
    }

    var encoded: [UInt8] {
        [
            UInt8(base >> 25 & 0xFF), UInt8(base >> 17 & 0xFF), UInt8(base >> 9 & 0xFF), UInt8(base >> 1 & 0xFF),
            UInt8(base & 1) << 7 | 0x7E | UInt8(`extension` >> 8 & 1), UInt8(`extension` & 0xFF),
        ]
    }
}

/// The adaptation field of a transport packet (ISO/IEC 13818-1 section
/// 2.4.3.4): discontinuity and random-access flags, PCR, splice countdown,
/// private data. Stuffing is not kept: writers add what fills the packet.
public struct TSAdaptationField: Sendable, Hashable {
    /// `discontinuity_indicator`: the continuity counter or clock restarts here.
    public var discontinuity = false
    /// `random_access_indicator`: a decoder can start at this packet (a key frame).
    public var randomAccess = false
    /// `elementary_stream_priority_indicator`.
    public var elementaryStreamPriority = false
    /// The program clock reference, when the packet carries one.
    public var pcr: TSClockReference?
    /// The original program clock reference, when present.
    public var opcr: TSClockReference?
    /// `splice_countdown`, when present.
    public var spliceCountdown: Int8?
    /// `transport_private_data` bytes, when present.
    public var transportPrivateData: [UInt8]?
    /// The `adaptation_field_extension` bytes after its length byte, kept unread.
    public var extensionBytes: [UInt8]?

    /// Creates a field; every flag clear and no optional part by default.
    public init(
        discontinuity: Bool = false, randomAccess: Bool = false, pcr: TSClockReference? = nil
    ) {
        self.discontinuity = discontinuity
        self.randomAccess = randomAccess
        self.pcr = pcr
    }

    /// Reads a field from its bytes, starting with `adaptation_field_length`.
    init(bytes: ArraySlice<UInt8>) throws(MPEGTSError) {
        guard let length = bytes.first.map(Int.init), bytes.count >= 1 + length else {
            throw MPEGTSError(.invalidAdaptationField, "adaptation field is shorter than its length byte says")
        }
        guard length > 0 else { return }
        let flags = bytes[bytes.startIndex + 1]
        let end = bytes.startIndex + 1 + length
        var cursor = bytes.startIndex + 2
        func take(_ count: Int, _ what: String) throws(MPEGTSError) -> ArraySlice<UInt8> {
            guard count >= 0, cursor + count <= end else {
                throw MPEGTSError(.invalidAdaptationField, "\(what) runs past adaptation_field_length \(length)")
            }
            defer { cursor += count }
            return bytes[cursor..<(cursor + count)]
        }
        discontinuity = flags & 0x80 != 0
        randomAccess = flags & 0x40 != 0
        elementaryStreamPriority = flags & 0x20 != 0
        if flags & 0x10 != 0 { pcr = TSClockReference(try take(6, "PCR")) }
        if flags & 0x08 != 0 { opcr = TSClockReference(try take(6, "OPCR")) }
        if flags & 0x04 != 0 { spliceCountdown = Int8(bitPattern: try take(1, "splice_countdown").first!) }
        if flags & 0x02 != 0 {
            let count = Int(try take(1, "transport_private_data_length").first!)
            transportPrivateData = Array(try take(count, "transport_private_data"))
        }
        if flags & 0x01 != 0 {
            let count = Int(try take(1, "adaptation_field_extension_length").first!)
            extensionBytes = Array(try take(count, "adaptation_field_extension"))
        }
    }

    /// The field's bytes after `adaptation_field_length`, without stuffing.
    func encodedFields() -> [UInt8] {
        var flags: UInt8 = 0
        if discontinuity { flags |= 0x80 }
        if randomAccess { flags |= 0x40 }
        if elementaryStreamPriority { flags |= 0x20 }
        if pcr != nil { flags |= 0x10 }
        if opcr != nil { flags |= 0x08 }
        if spliceCountdown != nil { flags |= 0x04 }
        if transportPrivateData != nil { flags |= 0x02 }
        if extensionBytes != nil { flags |= 0x01 }
        var bytes: [UInt8] = [flags]
        if let pcr { bytes += pcr.encoded }
        if let opcr { bytes += opcr.encoded }
        if let spliceCountdown { bytes.append(UInt8(bitPattern: spliceCountdown)) }
        if let transportPrivateData {
            bytes.append(UInt8(min(transportPrivateData.count, 255)))
            bytes += transportPrivateData.prefix(255)
        }
        if let extensionBytes {
            bytes.append(UInt8(min(extensionBytes.count, 255)))
            bytes += extensionBytes.prefix(255)
        }
        return bytes
    }
}
