import Foundation

extension SpliceInfoSection {
    /// The section as bytes, with `section_length`, `splice_command_length`,
    /// `descriptor_loop_length` and the CRC-32 computed.
    public func encoded() -> [UInt8] {
        var commandWriter = SCTE35BitWriter()
        let commandType: UInt8
        switch command {
        case .spliceNull: commandType = 0x00
        case .spliceInsert(let insert):
            commandType = 0x05
            Self.encode(insert, into: &commandWriter)
        case .timeSignal(let time):
            commandType = 0x06
            Self.encode(time, into: &commandWriter)
        case .bandwidthReservation: commandType = 0x07
        case .other(let type, let bytes):
            commandType = type
            commandWriter.write(bytes: bytes)
        }
        var descriptorWriter = SCTE35BitWriter()
        for descriptor in descriptors { Self.encode(descriptor, into: &descriptorWriter) }
        let commandBytes = commandWriter.bytes
        let descriptorBytes = descriptorWriter.bytes
        // protocol_version … tier (11 bytes after section_length), command, loop, CRC.
        let sectionLength = 11 + commandBytes.count + 2 + descriptorBytes.count + 4

        var writer = SCTE35BitWriter()
        writer.write(0xFC, 8)
        writer.write(false)  // section_syntax_indicator
        writer.write(false)  // private_indicator
        writer.write(UInt64(sapType & 3), 2)
        writer.write(UInt64(sectionLength), 12)
        writer.write(UInt64(protocolVersion), 8)
        writer.write(false)  // encrypted_packet
        writer.write(0, 6)  // encryption_algorithm
        writer.write(ptsAdjustment & 0x1_FFFF_FFFF, 33)
        writer.write(UInt64(cwIndex), 8)
        writer.write(UInt64(tier & 0xFFF), 12)
        writer.write(UInt64(commandBytes.count), 12)
        writer.write(UInt64(commandType), 8)
        writer.write(bytes: commandBytes)
        writer.write(UInt64(descriptorBytes.count), 16)
        writer.write(bytes: descriptorBytes)
        var bytes = writer.bytes
        let crc = SCTE35CRC.checksum(bytes[...])
        bytes += [UInt8(crc >> 24), UInt8(crc >> 16 & 0xFF), UInt8(crc >> 8 & 0xFF), UInt8(crc & 0xFF)]
        return bytes
    }

    /// The section as `0x`-prefixed upper-case hex, the form DATERANGE SCTE35-OUT/IN use.
    public var hexEncoded: String { "0x" + HLSHex.encode(encoded()) }

    /// The section as base64, the form EXT-OATCLS-SCTE35 uses.
    public var base64Encoded: String { Data(encoded()).base64EncodedString() }

    private static func encode(_ time: SpliceTime, into writer: inout SCTE35BitWriter) {
        if let pts = time.ptsTime {
            writer.write(true)
            writer.reserved(6)
            writer.write(pts & 0x1_FFFF_FFFF, 33)
        } else {
            writer.write(false)
            writer.reserved(7)
        }
    }

    private static func encode(_ insert: SpliceInsert, into writer: inout SCTE35BitWriter) {
        writer.write(UInt64(insert.eventID), 32)
        writer.write(insert.isCancel)
        writer.reserved(7)
        guard !insert.isCancel else { return }
        writer.write(insert.isOutOfNetwork)
        writer.write(insert.isProgramSplice)
        writer.write(insert.breakDuration != nil)
        writer.write(insert.isImmediate)
        writer.write(insert.eventIDCompliance)
        writer.reserved(3)
        if insert.isProgramSplice, !insert.isImmediate {
            encode(insert.spliceTime ?? SpliceTime(ptsTime: nil), into: &writer)
        }
        if !insert.isProgramSplice {
            writer.write(UInt64(min(insert.components.count, 255)), 8)
            for component in insert.components.prefix(255) {
                writer.write(UInt64(component.tag), 8)
                if !insert.isImmediate { encode(component.spliceTime ?? SpliceTime(ptsTime: nil), into: &writer) }
            }
        }
        if let duration = insert.breakDuration {
            writer.write(duration.autoReturn)
            writer.reserved(6)
            writer.write(duration.duration & 0x1_FFFF_FFFF, 33)
        }
        writer.write(UInt64(insert.uniqueProgramID), 16)
        writer.write(UInt64(insert.availNumber), 8)
        writer.write(UInt64(insert.availsExpected), 8)
    }

    private static func encode(_ descriptor: SpliceDescriptor, into writer: inout SCTE35BitWriter) {
        var body = SCTE35BitWriter()
        let tag: UInt8
        switch descriptor {
        case .segmentation(let segmentation):
            tag = 0x02
            body.write(UInt64(SegmentationDescriptor.cueIdentifier), 32)
            encode(segmentation, into: &body)
        case .other(let otherTag, let identifier, let data):
            tag = otherTag
            body.write(UInt64(identifier), 32)
            body.write(bytes: data)
        }
        writer.write(UInt64(tag), 8)
        writer.write(UInt64(min(body.bytes.count, 255)), 8)
        writer.write(bytes: Array(body.bytes.prefix(255)))
    }

    private static func encode(_ descriptor: SegmentationDescriptor, into writer: inout SCTE35BitWriter) {
        writer.write(UInt64(descriptor.eventID), 32)
        writer.write(descriptor.isCancel)
        writer.write(descriptor.eventIDCompliance)
        writer.reserved(6)
        guard !descriptor.isCancel else { return }
        writer.write(descriptor.isProgramSegmentation)
        writer.write(descriptor.duration != nil)
        if let restrictions = descriptor.deliveryRestrictions {
            writer.write(false)
            writer.write(restrictions.webDeliveryAllowed)
            writer.write(restrictions.noRegionalBlackout)
            writer.write(restrictions.archiveAllowed)
            writer.write(UInt64(restrictions.deviceRestrictions & 3), 2)
        } else {
            writer.write(true)
            writer.reserved(5)
        }
        if !descriptor.isProgramSegmentation {
            writer.write(UInt64(min(descriptor.components.count, 255)), 8)
            for component in descriptor.components.prefix(255) {
                writer.write(UInt64(component.tag), 8)
                writer.reserved(7)
                writer.write(component.ptsOffset & 0x1_FFFF_FFFF, 33)
            }
        }
        if let duration = descriptor.duration { writer.write(duration & 0xFF_FFFF_FFFF, 40) }
        writer.write(UInt64(descriptor.upidType), 8)
        writer.write(UInt64(min(descriptor.upid.count, 255)), 8)
        writer.write(bytes: Array(descriptor.upid.prefix(255)))
        writer.write(UInt64(descriptor.typeID), 8)
        writer.write(UInt64(descriptor.segmentNumber), 8)
        writer.write(UInt64(descriptor.segmentsExpected), 8)
        if let number = descriptor.subSegmentNumber {
            writer.write(UInt64(number), 8)
            writer.write(UInt64(descriptor.subSegmentsExpected ?? 0), 8)
        }
    }
}
