import Testing

@testable import InterludeHLS

/// PES packets (ISO/IEC 13818-1 section 2.4.3.6–2.4.3.7). Time stamps are
/// five bytes: a prefix (0010 PTS only, 0011 PTS with DTS, 0001 DTS), then
/// bits 32–30, 29–15 and 14–0, each part followed by a marker bit 1. For
/// PTS 90000 (0x15F90): `0010 000 1 | 0000 0000 0000 010 1 | 1011 1111 0010 000 1`
/// = `21 00 05 BF 21`.
@Suite struct MPEGTSPESTests {
    @Test func timestampsHaveTheSpecifiedBytes() {
        #expect(PESPacket.encodeTimestamp(90_000, prefix: 0x2) == [0x21, 0x00, 0x05, 0xBF, 0x21])
        #expect(PESPacket.encodeTimestamp(0x1_FFFF_FFFF, prefix: 0x3) == [0x3F, 0xFF, 0xFF, 0xFF, 0xFF])
        #expect(PESPacket.encodeTimestamp(0, prefix: 0x1) == [0x11, 0x00, 0x01, 0x00, 0x01])
        #expect(PESPacket.decodeTimestamp([0x21, 0x00, 0x05, 0xBF, 0x21]) == 90_000)
    }

    @Test func id3PESHasTheTimedMetadataHeader() throws {
        // private_stream_1, PES_packet_length 11, '10' + data_alignment_indicator,
        // PTS_DTS_flags '10', PES_header_data_length 5, the PTS, the payload.
        let packet = PESPacket(streamID: PESPacket.privateStream1, pts: 90_000, payload: [1, 2, 3])
        #expect(
            try packet.encoded() == [
                0x00, 0x00, 0x01, 0xBD, 0x00, 0x0B, 0x84, 0x80, 0x05, 0x21, 0x00, 0x05, 0xBF, 0x21, 1, 2, 3,
            ])
    }

    @Test func fixtureVideoPESIsUnboundedWithPTSAndDTS() throws {
        let packet = try TSPacket(bytes: MPEGTSFixture.packet(MPEGTSFixture.segment, 3))
        let pes = try PESPacket(bytes: packet.payload)
        #expect(pes.streamID == 0xE0)
        #expect(pes.declaredLength == 0)
        #expect(pes.pts == MPEGTSFixture.firstVideoPTS)
        #expect(pes.dts == 126_000)
        // The payload of an unbounded PES runs to the end of what is given: an H.264 access unit delimiter first.
        #expect(Array(pes.payload.prefix(5)) == [0x00, 0x00, 0x00, 0x01, 0x09])
    }

    @Test func encodedPacketsRoundTrip() throws {
        let packets: [PESPacket] = [
            PESPacket(streamID: 0xBD, pts: 1, payload: []),
            PESPacket(streamID: 0xC0, pts: 0x1_0000_0000, dts: 0x0_FFFF_FFFF, dataAlignment: false, payload: [0xFF]),
            PESPacket(streamID: 0xE0, pts: nil, payload: [UInt8](repeating: 7, count: 1000)),
            PESPacket(streamID: 0xBE, pts: nil, payload: [UInt8](repeating: 0xFF, count: 20)),
        ]
        for packet in packets {
            var read = try PESPacket(bytes: packet.encoded())
            read.declaredLength = nil
            #expect(
                read
                    == (packet.streamID == 0xBE
                        ? PESPacket(streamID: 0xBE, pts: nil, dataAlignment: false, payload: packet.payload) : packet))
        }
    }

    @Test func largeVideoPESIsWrittenUnbounded() throws {
        let bytes = try PESPacket(streamID: 0xE0, pts: 0, payload: [UInt8](repeating: 1, count: 70_000)).encoded()
        #expect(bytes[4] == 0 && bytes[5] == 0)
        #expect(try PESPacket(bytes: bytes).payload.count == 70_000)
    }

    @Test func packetisingFillsTheLastPacketWithStuffing() throws {
        let payload = (0..<400).map { UInt8($0 & 0xFF) }
        var counter: UInt8 = 15
        let pes = PESPacket(streamID: 0xBD, pts: 3000, payload: payload)
        let bytes = try pes.encodedPackets(pid: 0x0102, continuityCounter: &counter)
        #expect(bytes.count == 3 * 188)
        #expect(counter == 2)
        var reassembled: [UInt8] = []
        for index in 0..<3 {
            let packet = try TSPacket(bytes: MPEGTSFixture.packet(bytes, index))
            #expect(packet.pid == 0x0102)
            #expect(packet.payloadUnitStart == (index == 0))
            #expect(packet.continuityCounter == [15, 0, 1][index])
            #expect((packet.adaptationField != nil) == (index == 2))
            reassembled += packet.payload
        }
        #expect(try PESPacket(bytes: reassembled) == PESPacket(bytes: pes.encoded()))
        #expect(reassembled.count == 414)
    }

    // MARK: bad input

    @Test func declaredLengthPastTheDataIsTruncated() throws {
        var bytes = try PESPacket(streamID: 0xBD, pts: 0, payload: [1, 2, 3]).encoded()
        bytes[5] = 100
        #expect(code { try PESPacket(bytes: bytes) } == .truncatedPES)
        #expect(code { try PESPacket(bytes: [0, 0, 1]) } == .truncatedPES)
        #expect(code { try PESPacket(bytes: [0, 0, 1, 0xBD, 0, 10, 0x84]) } == .truncatedPES)
    }

    @Test func declaredLengthShorterThanTheHeaderIsInvalid() throws {
        var bytes = try PESPacket(streamID: 0xBD, pts: 0, payload: [1, 2, 3]).encoded()
        bytes[5] = 4
        #expect(code { try PESPacket(bytes: bytes) } == .invalidPES)
    }

    @Test func badStartCodeMarkerBitsOrFlagsAreInvalid() throws {
        let good = try PESPacket(streamID: 0xBD, pts: 0, payload: [1, 2, 3]).encoded()
        var bytes = good
        bytes[2] = 2
        #expect(code { try PESPacket(bytes: bytes) } == .invalidPES)
        bytes = good
        bytes[6] = 0x44
        #expect(code { try PESPacket(bytes: bytes) } == .invalidPES)
        bytes = good
        bytes[7] = 0x40  // PTS_DTS_flags 01
        #expect(code { try PESPacket(bytes: bytes) } == .invalidPES)
        bytes = good
        bytes[8] = 2  // header data too short for the PTS
        #expect(code { try PESPacket(bytes: bytes) } == .invalidPES)
    }

    @Test func oversizedPrivatePESDoesNotEncode() {
        let packet = PESPacket(streamID: 0xBD, pts: 0, payload: [UInt8](repeating: 0, count: 65_528))
        #expect(code { try packet.encoded() } == .payloadTooLarge)
        var counter: UInt8 = 0
        #expect(code { try packet.encodedPackets(pid: 0x2000, continuityCounter: &counter) } == .invalidArgument)
    }
}
