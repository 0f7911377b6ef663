import Foundation

extension SpliceInfoSection {
    /// Decodes a section from hex (`0xFC30…` or `FC30…`, as in DATERANGE
    /// SCTE35-OUT) or base64, padded or not (as in EXT-OATCLS-SCTE35),
    /// checking the CRC-32.
    public init(encoded text: String) throws(HLSError) {
        guard let bytes = SCTE35Text.bytes(text) else {
            throw HLSError(.invalidEncoding, "SCTE-35 payload is neither hex nor base64")
        }
        try self.init(bytes: bytes)
    }

    /// Decodes a section from its bytes, checking `table_id`, the lengths and,
    /// when `verifyingChecksum` (the default), the CRC-32. Ad-break detection
    /// passes false: a cue in a playlist came over HTTP intact, so a wrong CRC
    /// there is a packager that rewrote a field without recomputing it, not
    /// damage; players hand a playlist's SCTE-35 bytes on undecoded (hls.js,
    /// AVPlayer, ExoPlayer), and threefive decodes without checking it.
    public init(bytes: [UInt8], verifyingChecksum: Bool = true) throws(HLSError) {
        var reader = SCTE35BitReader(bytes)
        guard try reader.read(8) == 0xFC else {
            throw HLSError(.invalidTableID, "SCTE-35 table_id is not 0xFC")
        }
        try reader.skip(2)  // section_syntax_indicator, private_indicator
        let sapType = UInt8(try reader.read(2))
        let sectionLength = Int(try reader.read(12))
        guard sectionLength >= 15, 3 + sectionLength <= bytes.count else {
            throw HLSError(
                .truncatedSection, "SCTE-35 section_length \(sectionLength) does not fit \(bytes.count) bytes")
        }
        let end = 3 + sectionLength
        if verifyingChecksum {
            let crc = SCTE35CRC.checksum(bytes[0..<(end - 4)])
            let written = bytes[(end - 4)..<end].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
            guard crc == written else {
                throw HLSError(
                    .checksumMismatch,
                    "SCTE-35 CRC-32 is 0x\(String(written, radix: 16)), computed 0x\(String(crc, radix: 16))")
            }
        }
        reader.limit = end - 4
        let protocolVersion = UInt8(try reader.read(8))
        guard try !reader.flag() else {
            throw HLSError(.unsupportedFeature, "encrypted SCTE-35 sections are not decoded")
        }
        try reader.skip(6)  // encryption_algorithm
        let ptsAdjustment = try reader.read(33)
        let cwIndex = UInt8(try reader.read(8))
        let tier = UInt16(try reader.read(12))
        let commandLength = Int(try reader.read(12))
        let commandType = UInt8(try reader.read(8))
        let commandStart = reader.bytePosition
        let command = try Self.decodeCommand(type: commandType, length: commandLength, reader: &reader)
        // 0xFFF is the legacy "unknown length": trust the parse position then.
        if commandLength != 0xFFF { reader.seek(toByte: commandStart + commandLength) }
        let loopLength = Int(try reader.read(16))
        let loopEnd = reader.bytePosition + loopLength
        guard loopEnd <= reader.limit else {
            throw HLSError(.truncatedSection, "SCTE-35 descriptor loop runs past the section")
        }
        var descriptors: [SpliceDescriptor] = []
        while reader.bytePosition < loopEnd {
            descriptors.append(try Self.decodeDescriptor(reader: &reader, loopEnd: loopEnd))
        }
        self.init(command: command, descriptors: descriptors)
        self.protocolVersion = protocolVersion
        self.sapType = sapType
        self.ptsAdjustment = ptsAdjustment
        self.cwIndex = cwIndex
        self.tier = tier
    }

    private static func decodeCommand(type: UInt8, length: Int, reader: inout SCTE35BitReader) throws(HLSError)
        -> SpliceCommand
    {
        switch type {
        case 0x00: return .spliceNull
        case 0x05: return .spliceInsert(try decodeInsert(reader: &reader))
        case 0x06: return .timeSignal(try decodeTime(reader: &reader))
        case 0x07: return .bandwidthReservation
        default:
            guard length != 0xFFF else {
                throw HLSError(.unsupportedFeature, "SCTE-35 command 0x\(String(type, radix: 16)) without a length")
            }
            return .other(type: type, bytes: try reader.readBytes(length))
        }
    }

    static func decodeTime(reader: inout SCTE35BitReader) throws(HLSError) -> SpliceTime {
        if try reader.flag() {
            try reader.skip(6)
            return SpliceTime(ptsTime: try reader.read(33))
        }
        try reader.skip(7)
        return SpliceTime(ptsTime: nil)
    }

    private static func decodeInsert(reader: inout SCTE35BitReader) throws(HLSError) -> SpliceInsert {
        var insert = SpliceInsert(eventID: UInt32(try reader.read(32)))
        insert.isCancel = try reader.flag()
        try reader.skip(7)
        insert.isImmediate = false
        guard !insert.isCancel else { return insert }
        insert.isOutOfNetwork = try reader.flag()
        insert.isProgramSplice = try reader.flag()
        let hasDuration = try reader.flag()
        insert.isImmediate = try reader.flag()
        insert.eventIDCompliance = try reader.flag()
        try reader.skip(3)
        if insert.isProgramSplice, !insert.isImmediate {
            insert.spliceTime = try decodeTime(reader: &reader)
        }
        if !insert.isProgramSplice {
            let count = Int(try reader.read(8))
            for _ in 0..<count {
                let tag = UInt8(try reader.read(8))
                let time = insert.isImmediate ? nil : try decodeTime(reader: &reader)
                insert.components.append(SpliceInsert.Component(tag: tag, spliceTime: time))
            }
        }
        if hasDuration {
            let autoReturn = try reader.flag()
            try reader.skip(6)
            insert.breakDuration = BreakDuration(autoReturn: autoReturn, duration: try reader.read(33))
        }
        insert.uniqueProgramID = UInt16(try reader.read(16))
        insert.availNumber = UInt8(try reader.read(8))
        insert.availsExpected = UInt8(try reader.read(8))
        return insert
    }

    private static func decodeDescriptor(reader: inout SCTE35BitReader, loopEnd: Int) throws(HLSError)
        -> SpliceDescriptor
    {
        let tag = UInt8(try reader.read(8))
        let length = Int(try reader.read(8))
        let end = reader.bytePosition + length
        guard length >= 4, end <= loopEnd else {
            throw HLSError(.truncatedSection, "SCTE-35 descriptor of \(length) bytes runs past its loop")
        }
        let outerLimit = reader.limit
        reader.limit = end
        defer { reader.limit = outerLimit }
        let identifier = UInt32(try reader.read(32))
        if tag == 0x02, identifier == SegmentationDescriptor.cueIdentifier {
            let descriptor = try decodeSegmentation(reader: &reader, end: end)
            reader.seek(toByte: end)
            return .segmentation(descriptor)
        }
        return .other(tag: tag, identifier: identifier, data: try reader.readBytes(end - reader.bytePosition))
    }

    private static func decodeSegmentation(reader: inout SCTE35BitReader, end: Int) throws(HLSError)
        -> SegmentationDescriptor
    {
        var descriptor = SegmentationDescriptor(eventID: UInt32(try reader.read(32)), typeID: 0)
        descriptor.isCancel = try reader.flag()
        descriptor.eventIDCompliance = try reader.flag()
        try reader.skip(6)
        guard !descriptor.isCancel else { return descriptor }
        descriptor.isProgramSegmentation = try reader.flag()
        let hasDuration = try reader.flag()
        let notRestricted = try reader.flag()
        if notRestricted {
            try reader.skip(5)
        } else {
            descriptor.deliveryRestrictions = SegmentationDescriptor.DeliveryRestrictions(
                webDeliveryAllowed: try reader.flag(), noRegionalBlackout: try reader.flag(),
                archiveAllowed: try reader.flag(), deviceRestrictions: UInt8(try reader.read(2)))
        }
        if !descriptor.isProgramSegmentation {
            let count = Int(try reader.read(8))
            for _ in 0..<count {
                let tag = UInt8(try reader.read(8))
                try reader.skip(7)
                descriptor.components.append(SegmentationDescriptor.Component(tag: tag, ptsOffset: try reader.read(33)))
            }
        }
        if hasDuration { descriptor.duration = try reader.read(40) }
        descriptor.upidType = UInt8(try reader.read(8))
        let upidLength = Int(try reader.read(8))
        descriptor.upid = try reader.readBytes(upidLength)
        descriptor.typeID = UInt8(try reader.read(8))
        descriptor.segmentNumber = UInt8(try reader.read(8))
        descriptor.segmentsExpected = UInt8(try reader.read(8))
        // Older senders omit the sub-segment fields; read them only if present.
        if end - reader.bytePosition >= 2 {
            descriptor.subSegmentNumber = UInt8(try reader.read(8))
            descriptor.subSegmentsExpected = UInt8(try reader.read(8))
        }
        return descriptor
    }
}
