import Testing

@testable import InterludeHLS

/// PAT and PMT sections (ISO/IEC 13818-1 sections 2.4.4.3–2.4.4.9) and their
/// CRC-32/MPEG-2 (Annex A). The golden sections are the ones ffmpeg wrote
/// into the fixture (see ``MPEGTSFixture``), decoded by hand.
@Suite struct MPEGTSSectionTests {
    @Test func crcIsCRC32MPEG2() {
        // The catalogue check value of CRC-32/MPEG-2: "123456789" → 0x0376E6E7.
        #expect(SCTE35CRC.checksum(Array("123456789".utf8)[...]) == 0x0376_E6E7)
    }

    @Test func ffmpegPATReadsAndWritesBackExactly() throws {
        let table = try ProgramAssociationTable(section: MPEGTSFixture.patSection)
        #expect(table.transportStreamID == 1)
        #expect(table.version == 0)
        #expect(table.isCurrent)
        #expect(table.programs == [.init(number: 1, pid: 0x1000)])
        #expect(try table.encodedSection() == MPEGTSFixture.patSection)
        #expect(
            try ProgramAssociationTable(programs: [.init(number: 1, pid: 0x1000)]).encodedSection()
                == MPEGTSFixture.patSection)
    }

    @Test func ffmpegPMTReadsAndWritesBackExactly() throws {
        let table = try ProgramMapTable(section: MPEGTSFixture.pmtSection)
        #expect(table.programNumber == 1)
        #expect(table.version == 0)
        #expect(table.pcrPID == 0x0100)
        #expect(table.programDescriptors.isEmpty)
        #expect(
            table.streams == [
                .init(streamType: .h264, pid: 0x0100), .init(streamType: .aacADTS, pid: 0x0101),
            ])
        #expect(table.id3Stream == nil)
        #expect(try table.encodedSection() == MPEGTSFixture.pmtSection)
    }

    @Test func tablesPacketiseAsFFmpegDoes() throws {
        // Fixture packets 1 and 2: pointer_field 0, the section, 0xFF stuffing, counter 0.
        var counter: UInt8 = 0
        let pat = try ProgramAssociationTable(section: MPEGTSFixture.patSection).encodedPackets(
            continuityCounter: &counter)
        #expect(pat == MPEGTSFixture.packet(MPEGTSFixture.segment, 1))
        #expect(counter == 1)
        counter = 0
        let pmt = try ProgramMapTable(section: MPEGTSFixture.pmtSection).encodedPackets(
            pid: 0x1000, continuityCounter: &counter)
        #expect(pmt == MPEGTSFixture.packet(MPEGTSFixture.segment, 2))
    }

    @Test func descriptorsAndLoopsRoundTrip() throws {
        let table = ProgramMapTable(
            programNumber: 7, version: 31, pcrPID: 0x1FFF,
            programDescriptors: [TSDescriptor(tag: 0x05, data: Array("CUEI".utf8))],
            streams: [
                .init(streamType: .h265, pid: 0x0200, descriptors: [TSDescriptor(tag: 0x28, data: [1, 2, 3, 4])]),
                .init(streamType: .scte35, pid: 0x01F4),
                .init(
                    streamType: TSStreamType(rawValue: 0x87), pid: 0x0201,
                    descriptors: [TSDescriptor(tag: 0x0A, data: [])]),
            ])
        let section = try table.encodedSection()
        #expect(try ProgramMapTable(section: section) == table)
    }

    @Test func sectionSpanningPacketsReassembles() throws {
        // Four streams with 200-byte descriptors: a section of 844 bytes, five packets.
        let streams = (0..<4).map { index in
            ProgramMapTable.ElementaryStream(
                streamType: .privatePES, pid: UInt16(0x0300 + index),
                descriptors: [TSDescriptor(tag: 0x80, data: [UInt8](repeating: UInt8(index), count: 200))])
        }
        let table = ProgramMapTable(pcrPID: 0x0300, streams: streams)
        var counter: UInt8 = 14
        let packets = try table.encodedPackets(pid: 0x0042, continuityCounter: &counter)
        #expect(packets.count == 5 * 188)
        #expect(counter == 3)
        var assembler = PSISectionAssembler()
        var issues: [MPEGTSError] = []
        var sections: [[UInt8]] = []
        for index in 0..<5 {
            let packet = MPEGTSFixture.packet(packets, index)
            #expect((packet[1] & 0x40 != 0) == (index == 0))
            sections += packet.withUnsafeBufferPointer { buffer in
                assembler.append(
                    payload: UnsafeBufferPointer(rebasing: buffer[4...]), unitStart: index == 0, issues: &issues,
                    offset: index * 188)
            }
        }
        #expect(issues.isEmpty)
        #expect(sections.count == 1)
        #expect(try ProgramMapTable(section: sections[0]) == table)
    }

    @Test func pointerFieldSeparatesTheEndOfOneSectionFromTheNext() throws {
        // A section of 200 bytes whose last 20 bytes share a packet with the start of the next.
        let first = try ProgramMapTable(
            pcrPID: 0x100,
            streams: [
                .init(
                    streamType: .h264, pid: 0x100,
                    descriptors: [TSDescriptor(tag: 0x80, data: .init(repeating: 1, count: 177))])
            ]
        ).encodedSection()
        #expect(first.count == 200)
        let second = MPEGTSFixture.pmtSection
        let packet1 = [0] + first.prefix(183)
        let packet2 = [UInt8(first.count - 183)] + first.suffix(from: 183) + second
        var assembler = PSISectionAssembler()
        var issues: [MPEGTSError] = []
        var sections: [[UInt8]] = []
        for payload in [packet1, packet2] {
            sections += payload.withUnsafeBufferPointer { buffer in
                assembler.append(payload: buffer, unitStart: true, issues: &issues, offset: 0)
            }
        }
        #expect(issues.isEmpty)
        #expect(sections == [first, second])
    }

    // MARK: bad input

    @Test func crcMismatchIsReported() {
        var section = MPEGTSFixture.pmtSection
        section[13] ^= 0x01
        #expect(code { try ProgramMapTable(section: section) } == .checksumMismatch)
        var pat = MPEGTSFixture.patSection
        pat[pat.count - 1] ^= 0xFF
        #expect(code { try ProgramAssociationTable(section: pat) } == .checksumMismatch)
    }

    @Test func sectionLengthPastTheBytesIsTruncated() {
        #expect(code { try ProgramMapTable(section: MPEGTSFixture.pmtSection.dropLast(5)) } == .truncatedSection)
        #expect(code { try ProgramMapTable(section: [0x02, 0xB0]) } == .truncatedSection)
        #expect(code { try ProgramAssociationTable(section: []) } == .truncatedSection)
    }

    @Test func sectionLengthOver1021IsInvalid() {
        var section = MPEGTSFixture.pmtSection
        section[1] = 0xB3
        section[2] = 0xFE
        #expect(code { try ProgramMapTable(section: section) } == .invalidSection)
    }

    @Test func wrongTableIDOrSyntaxIndicatorIsInvalid() {
        #expect(code { try ProgramMapTable(section: MPEGTSFixture.patSection) } == .invalidSection)
        var section = MPEGTSFixture.pmtSection
        section[1] &= 0x7F
        #expect(code { try ProgramMapTable(section: section) } == .invalidSection)
    }

    @Test func loopsRunningPastTheSectionAreInvalid() {
        // ES_info_length of the AAC stream says 0x0FF bytes follow; the CRC is made to match.
        var body = Array(MPEGTSFixture.pmtSection.dropLast(4))
        body[21] = 0xFF
        #expect(code { try ProgramMapTable(section: withCRC(body)) } == .invalidSection)
        // program_info_length too long.
        body = Array(MPEGTSFixture.pmtSection.dropLast(4))
        body[11] = 0x40
        #expect(code { try ProgramMapTable(section: withCRC(body)) } == .invalidSection)
        // A PAT loop that is not a multiple of four bytes.
        let pat: [UInt8] = [0x00, 0xB0, 0x0E, 0x00, 0x01, 0xC1, 0x00, 0x00, 0x00, 0x01, 0xF0, 0x00, 0x00]
        #expect(code { try ProgramAssociationTable(section: withCRC(pat)) } == .invalidSection)
    }

    @Test func tableTooLargeForOneSectionDoesNotEncode() {
        let streams = (0..<6).map { index in
            ProgramMapTable.ElementaryStream(
                streamType: .privatePES, pid: UInt16(0x0300 + index),
                descriptors: [TSDescriptor(tag: 0x80, data: [UInt8](repeating: 0, count: 200))])
        }
        #expect(code { try ProgramMapTable(pcrPID: 0x300, streams: streams).encodedSection() } == .sectionTooLarge)
        let oversized = ProgramMapTable(
            pcrPID: 0x300, programDescriptors: [TSDescriptor(tag: 1, data: .init(repeating: 0, count: 300))],
            streams: [])
        #expect(code { try oversized.encodedSection() } == .sectionTooLarge)
    }

    @Test func pointerFieldPastThePacketIsReported() {
        var assembler = PSISectionAssembler()
        var issues: [MPEGTSError] = []
        let payload: [UInt8] = [200, 1, 2, 3]
        let sections = payload.withUnsafeBufferPointer {
            assembler.append(payload: $0, unitStart: true, issues: &issues, offset: 0)
        }
        #expect(sections.isEmpty)
        #expect(issues.map(\.code) == [.truncatedSection])
    }
}

/// `bytes` (a section without its CRC) with its CRC-32/MPEG-2 appended.
func withCRC(_ bytes: [UInt8]) -> [UInt8] {
    let crc = SCTE35CRC.checksum(bytes[...])
    return bytes + [UInt8(crc >> 24), UInt8(crc >> 16 & 0xFF), UInt8(crc >> 8 & 0xFF), UInt8(crc & 0xFF)]
}
