import Testing

@testable import InterludeHLS

/// Transport packets (ISO/IEC 13818-1 section 2.4.3.2–2.4.3.5). Expected
/// values are read by hand from the fixture's bytes: its first video packet
/// (index 3) is `47 41 00 30 | 07 50 00 00 7B 0C 7E 00 | 00 00 01 E0 …`:
/// payload_unit_start, PID 0x0100, adaptation field and payload, counter 0;
/// an adaptation field of 7 bytes with random_access and PCR flags, PCR base
/// 0x00007B0C << 1 = 63000, extension 0.
@Suite struct MPEGTSPacketTests {
    @Test func readsHeaderAdaptationFieldAndPCR() throws {
        let packet = try TSPacket(bytes: MPEGTSFixture.packet(MPEGTSFixture.segment, 3))
        #expect(packet.pid == 0x0100)
        #expect(packet.payloadUnitStart)
        #expect(!packet.transportError)
        #expect(packet.continuityCounter == 0)
        #expect(packet.adaptationField?.randomAccess == true)
        #expect(packet.adaptationField?.discontinuity == false)
        #expect(packet.adaptationField?.pcr == TSClockReference(base: 63_000, extension: 0))
        #expect(packet.adaptationField?.pcr?.value == 63_000 * 300)
        #expect(packet.payload.count == 188 - 4 - 8)
        #expect(Array(packet.payload.prefix(4)) == [0x00, 0x00, 0x01, 0xE0])
    }

    @Test func everyFixturePacketEncodesBackToItsBytes() throws {
        let segment = MPEGTSFixture.segment
        #expect(segment.count == MPEGTSFixture.packetCount * 188)
        for index in 0..<MPEGTSFixture.packetCount {
            let bytes = MPEGTSFixture.packet(segment, index)
            #expect(try TSPacket(bytes: bytes).encoded() == bytes, "packet \(index)")
        }
    }

    @Test func shortPayloadIsPaddedWithAdaptationFieldStuffing() throws {
        let payload: [UInt8] = Array(1...10)
        let bytes = try TSPacket(pid: 0x0102, payloadUnitStart: true, continuityCounter: 5, payload: payload).encoded()
        #expect(bytes.count == 188)
        #expect(Array(bytes[0..<4]) == [0x47, 0x41, 0x02, 0x35])
        // adaptation_field_length 173, flags 0, 171 bytes of 0xFF, then the payload.
        #expect(bytes[4] == 173)
        #expect(bytes[5] == 0x00)
        #expect(bytes[6..<178].allSatisfy { $0 == 0xFF })
        #expect(Array(bytes[178...]) == payload)
        let read = try TSPacket(bytes: bytes)
        #expect(read.payload == payload)
        #expect(read.adaptationField == TSAdaptationField())
    }

    @Test func oneByteOfStuffingIsAnEmptyAdaptationField() throws {
        let payload = [UInt8](repeating: 0xAB, count: 183)
        let bytes = try TSPacket(pid: 0x0100, payload: payload).encoded()
        #expect(bytes[3] == 0x30)
        #expect(bytes[4] == 0)
        #expect(Array(bytes[5...]) == payload)
    }

    @Test func adaptationFieldOnlyPacketHasNoPayload() throws {
        let field = TSAdaptationField(discontinuity: true, pcr: TSClockReference(base: 0x1_2345_6789, extension: 299))
        let bytes = try TSPacket(pid: 0x0100, adaptationField: field).encoded()
        #expect(bytes[3] & 0x30 == 0x20)
        #expect(bytes[4] == 183)
        let read = try TSPacket(bytes: bytes)
        #expect(read.payload.isEmpty)
        #expect(read.adaptationField == field)
        #expect(read.adaptationField?.pcr?.base == 0x1_2345_6789)
    }

    @Test func optionalAdaptationFieldPartsRoundTrip() throws {
        var field = TSAdaptationField(randomAccess: true)
        field.opcr = TSClockReference(base: 42, extension: 7)
        field.spliceCountdown = -3
        field.transportPrivateData = [1, 2, 3]
        field.extensionBytes = [0x1F]
        let packet = TSPacket(pid: 0x30, adaptationField: field, payload: [9, 9])
        #expect(try TSPacket(bytes: packet.encoded()) == packet)
    }

    // MARK: bad input

    @Test func fewerThan188BytesIsATruncatedPacket() {
        #expect(code { try TSPacket(bytes: [0x47] + [UInt8](repeating: 0, count: 99)) } == .truncatedPacket)
        #expect(code { try TSPacket(bytes: []) } == .truncatedPacket)
    }

    @Test func wrongSyncByteIsLostSync() {
        var bytes = MPEGTSFixture.packet(MPEGTSFixture.segment, 3)
        bytes[0] = 0x48
        #expect(code { try TSPacket(bytes: bytes) } == .lostSync)
    }

    @Test func adaptationFieldLongerThanThePacketIsRejected() {
        var bytes = MPEGTSFixture.packet(MPEGTSFixture.segment, 3)
        bytes[4] = 190
        #expect(code { try TSPacket(bytes: bytes) } == .invalidAdaptationField)
    }

    @Test func pcrFlagWithoutRoomForThePCRIsRejected() {
        var bytes = [UInt8](repeating: 0xFF, count: 188)
        bytes[0...5] = [0x47, 0x01, 0x00, 0x30, 3, 0x10]
        #expect(code { try TSPacket(bytes: bytes) } == .invalidAdaptationField)
    }

    @Test func payloadOver184BytesDoesNotEncode() {
        let packet = TSPacket(pid: 0x100, payload: [UInt8](repeating: 0, count: 185))
        #expect(code { try packet.encoded() } == .payloadTooLarge)
        let crowded = TSPacket(
            pid: 0x100, adaptationField: TSAdaptationField(pcr: TSClockReference(base: 1)),
            payload: [UInt8](repeating: 0, count: 180))
        #expect(code { try crowded.encoded() } == .payloadTooLarge)
    }
}

/// The code of the ``MPEGTSError`` `body` throws, or nil when it does not throw.
func code<T>(_ body: () throws -> T) -> MPEGTSError.Code? {
    do {
        _ = try body()
        return nil
    } catch let error as MPEGTSError {
        return error.code
    } catch {
        return MPEGTSError.Code("not an MPEGTSError: \(error)")
    }
}
