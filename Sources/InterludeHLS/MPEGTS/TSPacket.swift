/// One 188-byte MPEG-2 transport stream packet (ISO/IEC 13818-1 section
/// 2.4.3.2) as a value: header fields, optional adaptation field and payload.
///
/// The demuxer and injector read packets in place without building this
/// value; it is for tools, tests and callers that assemble packets by hand.
public struct TSPacket: Sendable, Hashable {
    /// The size of every transport packet, 188 bytes.
    public static let size = 188
    /// The `sync_byte` every packet starts with, 0x47.
    public static let syncByte: UInt8 = 0x47
    /// The PID of null (stuffing) packets, 0x1FFF.
    public static let nullPID: UInt16 = 0x1FFF
    /// The largest PID a stream may use, 0x1FFE (0x1FFF is the null packet).
    public static let maximumPID: UInt16 = 0x1FFE

    /// The packet identifier, 0…0x1FFF.
    public var pid: UInt16
    /// `payload_unit_start_indicator`: the payload starts a PES packet, or
    /// (for PSI) holds a `pointer_field` to a section start.
    public var payloadUnitStart: Bool
    /// `transport_error_indicator`: a demodulator flagged the packet as damaged.
    public var transportError: Bool
    /// `transport_priority`.
    public var transportPriority: Bool
    /// `transport_scrambling_control`, 0 when not scrambled.
    public var scramblingControl: UInt8
    /// `continuity_counter`, 0…15, incremented per packet with payload on a PID.
    public var continuityCounter: UInt8
    /// The adaptation field, when present.
    public var adaptationField: TSAdaptationField?
    /// The payload bytes (empty for an adaptation-field-only packet).
    public var payload: [UInt8]

    /// Creates a packet; `encoded()` adds the stuffing that fills it to 188 bytes.
    public init(
        pid: UInt16, payloadUnitStart: Bool = false, continuityCounter: UInt8 = 0,
        adaptationField: TSAdaptationField? = nil, payload: [UInt8] = []
    ) {
        self.pid = pid
        self.payloadUnitStart = payloadUnitStart
        self.transportError = false
        self.transportPriority = false
        self.scramblingControl = 0
        self.continuityCounter = continuityCounter
        self.adaptationField = adaptationField
        self.payload = payload
    }

    /// Reads a packet from exactly 188 bytes (more are ignored).
    public init(bytes: some Collection<UInt8>) throws(MPEGTSError) {
        let array = Array(bytes.prefix(Self.size))
        guard array.count == Self.size else {
            throw MPEGTSError(.truncatedPacket, "a transport packet needs 188 bytes, got \(array.count)")
        }
        let header = try array.withUnsafeBufferPointer { buffer throws(MPEGTSError) in
            try TSPacketHeader(buffer, at: 0)
        }
        pid = header.pid
        payloadUnitStart = header.payloadUnitStart
        transportError = header.transportError
        transportPriority = array[1] & 0x20 != 0
        scramblingControl = array[3] >> 6
        continuityCounter = header.continuityCounter
        if header.hasAdaptationField {
            adaptationField = try TSAdaptationField(bytes: array[4..<header.payloadOffset])
        } else {
            adaptationField = nil
        }
        payload = header.hasPayload ? Array(array[header.payloadOffset...]) : []
    }

    /// The 188 bytes of the packet. When header, adaptation field and payload
    /// are shorter, the adaptation field is padded with 0xFF stuffing (and
    /// added when absent), as section 2.4.3.5 prescribes for PES data.
    public func encoded() throws(MPEGTSError) -> [UInt8] {
        guard pid <= Self.nullPID else {
            throw MPEGTSError(.invalidArgument, "PID 0x\(String(pid, radix: 16)) is above 0x1FFF")
        }
        // A field whose flags are all clear is encoded as stuffing alone.
        let encodedFields = adaptationField?.encodedFields() ?? []
        let fieldBytes = encodedFields == [0x00] ? [] : encodedFields
        let room = Self.size - 4 - payload.count
        // An adaptation field is needed when fields are present or the payload leaves room.
        let needsField = !fieldBytes.isEmpty || room > 0
        let fieldLength = needsField ? room - 1 : 0
        guard room >= 0, !needsField || fieldLength >= fieldBytes.count else {
            throw MPEGTSError(
                .payloadTooLarge,
                "payload of \(payload.count) bytes and adaptation field of \(fieldBytes.count + 1) do not fit 184 bytes"
            )
        }
        var bytes = [UInt8]()
        bytes.reserveCapacity(Self.size)
        let control: UInt8 = (needsField ? 0x20 : 0) | (payload.isEmpty ? 0 : 0x10)
        bytes.append(Self.syncByte)
        bytes.append(
            (transportError ? 0x80 : 0) | (payloadUnitStart ? 0x40 : 0) | (transportPriority ? 0x20 : 0)
                | UInt8(pid >> 8 & 0x1F))
        bytes.append(UInt8(pid & 0xFF))
        bytes.append((scramblingControl & 3) << 6 | control | continuityCounter & 0x0F)
        if needsField {
            bytes.append(UInt8(fieldLength))
            bytes += fieldBytes
            if fieldLength > 0 && fieldBytes.isEmpty {
                bytes.append(0x00)  // the flags byte of an otherwise empty field
            }
            bytes += repeatElement(0xFF, count: Self.size - bytes.count - payload.count)
        }
        bytes += payload
        return bytes
    }
}

/// The fixed four-byte header of a packet and where its payload starts, read
/// in place from a buffer: the fast path of the demuxer and injector.
struct TSPacketHeader {
    let pid: UInt16
    let payloadUnitStart: Bool
    let transportError: Bool
    let continuityCounter: UInt8
    let hasAdaptationField: Bool
    let hasPayload: Bool
    /// `discontinuity_indicator` of the adaptation field.
    let discontinuity: Bool
    /// Offset of the payload from the packet start (188 when there is none).
    let payloadOffset: Int

    /// Reads the header of the packet at `offset`; `buffer` must hold 188
    /// bytes from there and the first must be the sync byte.
    init(_ buffer: UnsafeBufferPointer<UInt8>, at offset: Int) throws(MPEGTSError) {
        let byte1 = buffer[offset + 1]
        let byte3 = buffer[offset + 3]
        guard buffer[offset] == TSPacket.syncByte else {
            throw MPEGTSError(.lostSync, "no sync byte", byteOffset: offset)
        }
        transportError = byte1 & 0x80 != 0
        payloadUnitStart = byte1 & 0x40 != 0
        pid = UInt16(byte1 & 0x1F) << 8 | UInt16(buffer[offset + 2])
        continuityCounter = byte3 & 0x0F
        hasAdaptationField = byte3 & 0x20 != 0
        hasPayload = byte3 & 0x10 != 0
        guard hasAdaptationField else {
            discontinuity = false
            payloadOffset = 4
            return
        }
        let fieldLength = Int(buffer[offset + 4])
        // 183 fills the packet (adaptation field only); more cannot fit.
        guard fieldLength <= 183 else {
            throw MPEGTSError(
                .invalidAdaptationField, "adaptation_field_length \(fieldLength) exceeds 183", byteOffset: offset + 4)
        }
        discontinuity = fieldLength > 0 && buffer[offset + 5] & 0x80 != 0
        payloadOffset = 5 + fieldLength
    }
}
