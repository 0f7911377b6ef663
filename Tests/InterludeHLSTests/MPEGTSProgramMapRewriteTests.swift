import Testing

@testable import InterludeHLS

/// Declaring the timed-ID3 stream in a PMT as Apple's "Timed Metadata for
/// HTTP Live Streaming" section 2 specifies, with the descriptor layouts of
/// ISO/IEC 13818-1 sections 2.6.58 (metadata_pointer_descriptor) and 2.6.60
/// (metadata_descriptor):
///
/// - metadata_pointer_descriptor `25 0F | FF FF | 49 44 33 20 | FF | 49 44 33 20 | 00 | 1F | 00 01`:
///   metadata_application_format 0xFFFF and its identifier `ID3 `, metadata_format 0xFF and
///   its identifier `ID3 `, metadata_service_id 0, metadata_locator_record_flag 0,
///   MPEG_carriage_flags 0 (this transport stream), reserved 11111, program_number 1.
/// - metadata_descriptor `26 0D | FF FF | 49 44 33 20 | FF | 49 44 33 20 | 00 | 0F`:
///   the same formats and service, decoder_config_flags 000, DSM-CC_flag 0, reserved 1111.
@Suite struct MPEGTSProgramMapRewriteTests {
    static let pointerDescriptor: [UInt8] = [
        0x25, 0x0F, 0xFF, 0xFF, 0x49, 0x44, 0x33, 0x20, 0xFF, 0x49, 0x44, 0x33, 0x20, 0x00, 0x1F, 0x00, 0x01,
    ]
    static let metadataDescriptor: [UInt8] = [
        0x26, 0x0D, 0xFF, 0xFF, 0x49, 0x44, 0x33, 0x20, 0xFF, 0x49, 0x44, 0x33, 0x20, 0x00, 0x0F,
    ]

    @Test func descriptorsHaveTheSpecifiedBytes() {
        let pointer = TSDescriptor.id3MetadataPointer(programNumber: 1)
        #expect([pointer.tag, UInt8(pointer.data.count)] + pointer.data == Self.pointerDescriptor)
        let metadata = TSDescriptor.id3Metadata
        #expect([metadata.tag, UInt8(metadata.data.count)] + metadata.data == Self.metadataDescriptor)
        #expect(pointer.formatIdentifier == 0x4944_3320)
        #expect(metadata.describesID3)
        #expect(TSDescriptor(tag: 0x05, data: Array("ID3 ".utf8)).describesID3)
        #expect(!TSDescriptor(tag: 0x05, data: Array("CUEI".utf8)).describesID3)
        #expect(!TSDescriptor(tag: 0x26, data: [0xFF]).describesID3)
    }

    @Test func declaringAddsTheStreamAndPointerToFFmpegsPMT() throws {
        var table = try ProgramMapTable(section: MPEGTSFixture.pmtSection)
        #expect(try table.declareID3Stream())
        // section_length 60: 5 header bytes, PCR_PID and program_info_length (4),
        // the pointer (17), three stream entries (5 + 5 + 20), CRC (4).
        let expectedWithoutCRC: [UInt8] =
            [0x02, 0xB0, 0x3C, 0x00, 0x01, 0xC3, 0x00, 0x00, 0xE1, 0x00, 0xF0, 0x11] + Self.pointerDescriptor
            + [0x1B, 0xE1, 0x00, 0xF0, 0x00, 0x0F, 0xE1, 0x01, 0xF0, 0x00, 0x15, 0xE1, 0x02, 0xF0, 0x0F]
            + Self.metadataDescriptor
        let section = try table.encodedSection()
        #expect(section == withCRC(expectedWithoutCRC))
        #expect(table.version == 1)
        #expect(table.id3Stream?.pid == 0x0102)
        #expect(table.id3Stream?.streamType == .metadataPES)
    }

    @Test func declaringIsIdempotent() throws {
        let once = try ProgramMapTable(section: MPEGTSFixture.pmtSection).declaringID3Stream()
        var twice = once
        #expect(try !twice.declareID3Stream())
        #expect(twice == once)
        #expect(try !twice.declareID3Stream(pid: 0x0200))
        #expect(twice == once)
    }

    @Test func anExistingID3StreamOnAnotherPIDIsKept() throws {
        var table = ProgramMapTable(
            pcrPID: 0x100,
            streams: [
                .init(streamType: .h264, pid: 0x100),
                .init(streamType: .metadataPES, pid: 0x1F0, descriptors: [.id3Metadata]),
            ])
        #expect(try !table.declareID3Stream())
        #expect(table.id3Stream?.pid == 0x1F0)
        #expect(table.programDescriptors.isEmpty)
    }

    @Test func privatePESRegisteredAsID3CountsAsDeclared() {
        let stream = ProgramMapTable.ElementaryStream(
            streamType: .privatePES, pid: 0x1F1, descriptors: [TSDescriptor(tag: 0x05, data: Array("ID3 ".utf8))])
        #expect(stream.isID3Metadata)
        #expect(!ProgramMapTable.ElementaryStream(streamType: .metadataPES, pid: 0x1F1).isID3Metadata)
    }

    @Test func anExistingPointerIsNotDuplicated() throws {
        var table = ProgramMapTable(
            pcrPID: 0x100, programDescriptors: [.id3MetadataPointer(programNumber: 1)],
            streams: [.init(streamType: .h264, pid: 0x100)])
        try table.declareID3Stream()
        #expect(table.programDescriptors.count == 1)
        #expect(table.streams.count == 2)
    }

    @Test func versionWrapsAt32() throws {
        var table = ProgramMapTable(version: 31, pcrPID: 0x100, streams: [.init(streamType: .h264, pid: 0x100)])
        try table.declareID3Stream()
        #expect(table.version == 0)
    }

    // MARK: bad input

    @Test func aPIDInUseIsAConflict() throws {
        var table = try ProgramMapTable(section: MPEGTSFixture.pmtSection)
        let original = table
        #expect(code { try table.declareID3Stream(pid: 0x0101) } == .pidConflict)
        #expect(table == original)
        var separatePCR = ProgramMapTable(pcrPID: 0x1FF, streams: [.init(streamType: .h264, pid: 0x100)])
        #expect(code { try separatePCR.declareID3Stream(pid: 0x1FF) } == .pidConflict)
    }

    @Test func reservedAndNullPIDsAreRejected() throws {
        var table = try ProgramMapTable(section: MPEGTSFixture.pmtSection)
        #expect(code { try table.declareID3Stream(pid: 0x0000) } == .invalidArgument)
        #expect(code { try table.declareID3Stream(pid: 0x000F) } == .invalidArgument)
        #expect(code { try table.declareID3Stream(pid: 0x1FFF) } == .invalidArgument)
        #expect(code { try table.declareID3Stream(pid: 0x2000) } == .invalidArgument)
    }

    @Test func aTableWithNoRoomLeftIsNotChanged() {
        let streams = (0..<5).map { index in
            ProgramMapTable.ElementaryStream(
                streamType: .privatePES, pid: UInt16(0x0300 + index),
                descriptors: [TSDescriptor(tag: 0x80, data: [UInt8](repeating: 0, count: 190))])
        }
        var table = ProgramMapTable(pcrPID: 0x300, streams: streams)
        let original = table
        #expect(code { try table.declareID3Stream() } == .sectionTooLarge)
        #expect(table == original)
    }
}
