import Testing

@testable import InterludeHLS

/// A pod-serving event ID in every shape ID3 writers give a TXXX frame,
/// built from the ID3v2.3.0 and ID3v2.4.0 structure documents: both
/// versions, each text encoding (0 ISO-8859-1, 1 UTF-16 with BOM, 2
/// UTF-16BE, 3 UTF-8), with and without a terminator after the value, an
/// empty description written with or without its BOM; unsynchronisation
/// (the tag in v2.3, each frame in v2.4), extended headers, padding and
/// footer; and several tags in one payload.
@Suite struct MPEGTSID3WriterShapesTests {
    typealias ID3 = MPEGTSID3Tests
    static let eventID = "google_0123456789abcdef011a1b2c3d4"
    static let timestampOwner = "com.apple.streaming.transportStreamTimestamp"

    static func utf16LE(_ text: String) -> [UInt8] { text.utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] } }
    static func utf16BE(_ text: String) -> [UInt8] { text.utf16.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] } }

    static func values(_ bytes: [UInt8]) throws -> [String] { try ID3Tag(bytes: bytes).userTextValues }

    /// The unsynchronisation scheme (ID3v2.4.0 structure, section 6.1): a
    /// zero after every 0xFF that precedes %111xxxxx or 0x00, or ends the data.
    static func unsynchronised(_ bytes: [UInt8]) -> [UInt8] {
        var output: [UInt8] = []
        for (index, byte) in bytes.enumerated() {
            output.append(byte)
            guard byte == 0xFF else { continue }
            if index + 1 == bytes.count || bytes[index + 1] & 0xE0 == 0xE0 || bytes[index + 1] == 0 { output.append(0) }
        }
        return output
    }

    @Test(arguments: [UInt8(3), 4])
    func everyTextEncodingOfTXXXGivesTheEventID(major: UInt8) throws {
        let id = Self.eventID
        for terminator: [UInt8] in [[], [0]] {
            let latin1 = ID3.frame("TXXX", [0, 0] + Array(id.utf8) + terminator, major: major)
            #expect(try Self.values(ID3.tag(major: major, latin1)) == [id])
            let utf8 = ID3.frame("TXXX", [3, 0] + Array(id.utf8) + terminator, major: major)
            #expect(try Self.values(ID3.tag(major: major, utf8)) == [id])
        }
        for terminator: [UInt8] in [[], [0, 0]] {
            // Each string with its BOM, little endian (FF FE) and big endian (FE FF).
            let little = [1, 0xFF, 0xFE, 0, 0, 0xFF, 0xFE] + Self.utf16LE(id) + terminator
            #expect(try Self.values(ID3.tag(major: major, ID3.frame("TXXX", little, major: major))) == [id])
            let big = [1, 0xFE, 0xFF, 0, 0, 0xFE, 0xFF] + Self.utf16BE(id) + terminator
            #expect(try Self.values(ID3.tag(major: major, ID3.frame("TXXX", big, major: major))) == [id])
            // An empty description written as a bare terminator, without a BOM.
            let bare = [1, 0, 0, 0xFF, 0xFE] + Self.utf16LE(id) + terminator
            #expect(try Self.values(ID3.tag(major: major, ID3.frame("TXXX", bare, major: major))) == [id])
            let utf16BE = [2, 0, 0] + Self.utf16BE(id) + terminator
            #expect(try Self.values(ID3.tag(major: major, ID3.frame("TXXX", utf16BE, major: major))) == [id])
        }
    }

    @Test func aUTF16ValueWithoutItsOwnBOMIsReadInTheDescriptionsByteOrder() throws {
        // "All strings in the same frame SHALL have the same byteorder"
        // (ID3v2.4.0 structure, section 4): one BOM, on the description, serves both.
        let data = [1, 0xFF, 0xFE] + Self.utf16LE("d") + [0, 0] + Self.utf16LE(Self.eventID) + [0, 0]
        let tag = try ID3Tag(bytes: ID3.tag(major: 4, ID3.frame("TXXX", data)))
        #expect(tag.frames == [.userText(description: "d", value: Self.eventID)])
        // Without any BOM the frame is read big endian, as UTF-16 without a mark is.
        let unmarked = [1] + Self.utf16BE("d") + [0, 0] + Self.utf16BE(Self.eventID)
        #expect(try Self.values(ID3.tag(major: 4, ID3.frame("TXXX", unmarked))) == [Self.eventID])
    }

    @Test func applesTimestampFrameAndTheIDAreReadFromUnsynchronisedTags() throws {
        // 33-bit PTS 0x1_FFE0_0001 in eight bytes: FF E0 and 00 need unsynchronising.
        let timestamp: [UInt8] = [0, 0, 0, 1, 0xFF, 0xE0, 0x00, 0x01]
        let privData = Array(Self.timestampOwner.utf8) + [0] + timestamp
        let expected: [ID3Frame] = [
            .privateData(owner: Self.timestampOwner, data: timestamp),
            .userText(description: "", value: Self.eventID),
        ]
        // v2.3: the whole tag after the header, frame sizes those of the restored frames.
        let v23 =
            ID3.frame("PRIV", privData, major: 3) + ID3.frame("TXXX", [0, 0] + Array(Self.eventID.utf8), major: 3)
        #expect(try ID3Tag(bytes: ID3.tag(major: 3, flags: 0x80, Self.unsynchronised(v23))).frames == expected)
        // v2.4 with only the tag's flag set: every frame is unsynchronised, sizes as written.
        let v24 =
            ID3.frame("PRIV", Self.unsynchronised(privData)) + ID3.frame("TXXX", [3, 0] + Array(Self.eventID.utf8))
        #expect(try ID3Tag(bytes: ID3.tag(major: 4, flags: 0x80, v24)).frames == expected)
        // v2.4 with the frame's flag (0x02) set as well.
        let flagged =
            ID3.frame("PRIV", Self.unsynchronised(privData), flags: [0, 0x02])
            + ID3.frame("TXXX", [3, 0] + Array(Self.eventID.utf8))
        #expect(try ID3Tag(bytes: ID3.tag(major: 4, flags: 0x80, flagged)).frames == expected)
    }

    @Test func extendedHeadersWithACRCPaddingAndAFooterAreSkipped() throws {
        let id = Self.eventID
        // v2.4: synchsafe size 12 counting itself, one flag byte, CRC flag (0x20) with 5 bytes of data.
        let extended24: [UInt8] = [0, 0, 0, 12, 1, 0x20, 5, 1, 2, 3, 4, 5]
        let body24 = extended24 + ID3.frame("TXXX", [3, 0] + Array(id.utf8) + [0]) + [UInt8](repeating: 0, count: 32)
        let footer: [UInt8] = [0x33, 0x44, 0x49, 4, 0, 0x50] + ID3Synchsafe.encode(UInt32(body24.count))
        let tag24 = ID3.tag(major: 4, flags: 0x50, body24) + footer
        let decoded = try ID3Tag.decode(tag24[...])
        #expect(decoded.tag.userTextValues == [id])
        #expect(decoded.issues.isEmpty)
        #expect(decoded.byteCount == tag24.count)
        // v2.3: size 10 not counting itself, CRC flag (0x8000), padding size 32, the CRC.
        let extended23: [UInt8] = [0, 0, 0, 10, 0x80, 0, 0, 0, 0, 32, 1, 2, 3, 4]
        let body23 =
            extended23 + ID3.frame("TXXX", [0, 0] + Array(id.utf8), major: 3) + [UInt8](repeating: 0, count: 32)
        #expect(try Self.values(ID3.tag(major: 3, flags: 0x40, body23)) == [id])
    }

    @Test func anUnreadableLaterTagKeepsTheFramesOfTheTagsBeforeIt() throws {
        let first = try ID3Tag(frames: [.userText(description: "", value: Self.eventID)]).encoded()
        let second = ID3.tag(major: 3, ID3.frame("TXXX", [0, 0] + Array("google_second".utf8), major: 3))
        // An ID3v2.2 tag after them, then one whose size runs past the payload.
        let v22 = ID3.header(major: 2, size: 0)
        var cut = try ID3Tag(frames: [.userText(description: "", value: "google_cut")]).encoded()
        cut[9] += 40
        for last in [v22, cut] {
            let read = try ID3Tag.decodeAll((first + second + last)[...])
            #expect(read.frames.compactMap(\.textValue) == [Self.eventID, "google_second"])
            #expect(read.issues.map(\.byteOffset) == [first.count + second.count])
        }
        // A payload that does not start with a readable tag is still an error.
        #expect(throws: MPEGTSError.self) { try ID3Tag.decodeAll((v22 + first)[...]) }
    }
}
