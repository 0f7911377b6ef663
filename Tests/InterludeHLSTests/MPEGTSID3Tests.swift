import Testing

@testable import InterludeHLS

/// ID3v2 tags (id3.org ID3v2.4.0 structure and frames, ID3v2.3.0). Golden
/// bytes are built from the structure document: a header `49 44 33 | major
/// revision | flags | size` with a synchsafe size (7 bits a byte), frames of
/// `id(4) size(4) flags(2) data`, sizes synchsafe in v2.4 and plain in v2.3;
/// TXXX data is `encoding | description 00 | value`, PRIV `owner 00 | data`.
@Suite struct MPEGTSID3Tests {
    static func header(major: UInt8, flags: UInt8 = 0, size: Int) -> [UInt8] {
        [0x49, 0x44, 0x33, major, 0, flags] + ID3Synchsafe.encode(UInt32(size))
    }

    static func frame(_ id: String, _ data: [UInt8], major: UInt8 = 4, flags: [UInt8] = [0, 0]) -> [UInt8] {
        let size =
            major == 4
            ? ID3Synchsafe.encode(UInt32(data.count))
            : [
                UInt8(data.count >> 24 & 0xFF), UInt8(data.count >> 16 & 0xFF), UInt8(data.count >> 8 & 0xFF),
                UInt8(data.count & 0xFF),
            ]
        return Array(id.utf8) + size + flags + data
    }

    static func tag(major: UInt8, flags: UInt8 = 0, _ body: [UInt8]) -> [UInt8] {
        header(major: major, flags: flags, size: body.count) + body
    }

    @Test func synchsafeIntegersUseSevenBitsPerByte() {
        #expect(ID3Synchsafe.encode(127) == [0, 0, 0, 0x7F])
        #expect(ID3Synchsafe.encode(128) == [0, 0, 0x01, 0x00])
        #expect(ID3Synchsafe.encode(0x0FFF_FFFF) == [0x7F, 0x7F, 0x7F, 0x7F])
        #expect(ID3Synchsafe.decode([0, 0, 0x01, 0x00]) == 128)
        #expect(ID3Synchsafe.decode([0, 0, 0, 0x80]) == nil)
    }

    @Test func userTextTagIsWrittenAsID3v24() throws {
        let tag = ID3Tag(frames: [.userText(description: "", value: "google_1")])
        // Frame: TXXX, size 10, no flags, UTF-8, empty description, value. Tag size 20.
        let expected: [UInt8] =
            [0x49, 0x44, 0x33, 0x04, 0x00, 0x00, 0x00, 0x00, 0x00, 0x14]
            + [0x54, 0x58, 0x58, 0x58, 0x00, 0x00, 0x00, 0x0A, 0x00, 0x00]
            + [0x03, 0x00] + Array("google_1".utf8)
        #expect(try tag.encoded() == expected)
    }

    @Test func privateFrameIsOwnerTerminatorData() throws {
        let tag = ID3Tag(frames: [
            .privateData(owner: "com.apple.streaming.transportStreamTimestamp", data: [0, 0, 0, 0, 0, 0, 0x1C, 0x20])
        ])
        let bytes = try tag.encoded()
        let data = Array("com.apple.streaming.transportStreamTimestamp".utf8) + [0, 0, 0, 0, 0, 0, 0, 0x1C, 0x20]
        #expect(bytes == Self.tag(major: 4, Self.frame("PRIV", data)))
        #expect(try ID3Tag(bytes: bytes) == tag)
    }

    @Test func framesRoundTrip() throws {
        let tag = ID3Tag(frames: [
            .userText(description: "event", value: "google_AbC-123_x"),
            .userText(description: "ünïcode", value: "värde ✓"),
            .privateData(owner: "owner", data: [0, 0xFF, 0, 0xE0]),
            .text(id: "TIT2", value: "Ad title"),
            .other(id: "WXXX", data: [0, 0x68, 0x69, 0]),
        ])
        let decoded = try ID3Tag.decode(tag.encoded()[...])
        #expect(decoded.tag == tag)
        #expect(decoded.issues.isEmpty)
        #expect(decoded.byteCount == (try tag.encoded()).count)
        #expect(tag.userTextValues == ["google_AbC-123_x", "värde ✓"])
        #expect(tag.frames.map(\.id) == ["TXXX", "TXXX", "PRIV", "TIT2", "WXXX"])
    }

    @Test func id3v23FrameSizesAreNotSynchsafe() throws {
        // 200 bytes of value: a v2.3 size of 00 00 00 CA (202), which as a
        // synchsafe integer would be invalid (high bit set).
        let value = String(repeating: "a", count: 200)
        let body = Self.frame("TXXX", [0x00, 0x00] + Array(value.utf8), major: 3)
        #expect(Array(body[4..<8]) == [0, 0, 0, 0xCA])
        let decoded = try ID3Tag.decode(Self.tag(major: 3, body)[...])
        #expect(decoded.tag.frames == [.userText(description: "", value: value)])
        #expect(decoded.tag.majorVersion == 3)
        // The same bytes claiming v2.4 have a frame size that is not synchsafe.
        let asV24 = try ID3Tag.decode(Self.tag(major: 4, body)[...])
        #expect(asV24.tag.frames.isEmpty)
        #expect(asV24.issues.map(\.code) == [.invalidSynchsafeInteger])
    }

    @Test func id3v23UnsynchronisationIsUndoneForTheWholeTag() throws {
        // PRIV data FF E0 FF 00 is written FF 00 E0 FF 00 00 once unsynchronised;
        // the frame size (6) is that of the restored frame, the tag size that of the written bytes.
        let written = Array("PRIV".utf8) + [0, 0, 0, 6, 0, 0] + [0x61, 0x00, 0xFF, 0x00, 0xE0, 0xFF, 0x00, 0x00]
        let tag = try ID3Tag(bytes: Self.tag(major: 3, flags: 0x80, written))
        #expect(tag.frames == [.privateData(owner: "a", data: [0xFF, 0xE0, 0xFF, 0x00])])
    }

    @Test func id3v24UnsynchronisationAndDataLengthAreReadPerFrame() throws {
        // Format flags 0x03: unsynchronisation and a four-byte data length indicator.
        let data: [UInt8] = [0, 0, 0, 4] + [0x61, 0x00, 0xFF, 0x00, 0xE0]
        let tag = try ID3Tag(bytes: Self.tag(major: 4, Self.frame("PRIV", data, flags: [0, 0x03])))
        #expect(tag.frames == [.privateData(owner: "a", data: [0xFF, 0xE0])])
        // A grouping identity byte (0x40) is skipped too.
        let grouped = try ID3Tag(bytes: Self.tag(major: 4, Self.frame("TXXX", [9, 3, 0, 0x78], flags: [0, 0x40])))
        #expect(grouped.frames == [.userText(description: "", value: "x")])
    }

    @Test func extendedHeadersAreSkipped() throws {
        let frame = Self.frame("TXXX", [3, 0] + Array("v".utf8))
        // v2.4: synchsafe size 6 counting itself, one flag byte, no flags.
        let v24 = try ID3Tag(bytes: Self.tag(major: 4, flags: 0x40, [0, 0, 0, 6, 1, 0] + frame))
        #expect(v24.frames == [.userText(description: "", value: "v")])
        // v2.3: size 6 not counting itself, flags, padding size.
        let v23Frame = Self.frame("TXXX", [0, 0] + Array("v".utf8), major: 3)
        let v23 = try ID3Tag(bytes: Self.tag(major: 3, flags: 0x40, [0, 0, 0, 6, 0, 0, 0, 0, 0, 0] + v23Frame))
        #expect(v23.frames == [.userText(description: "", value: "v")])
    }

    @Test func textEncodingsAreDecoded() throws {
        // UTF-16 with BOM (little endian), as ID3v2.3 writers use: "a" 00 00 "b".
        let utf16 = Self.frame("TXXX", [1, 0xFF, 0xFE, 0x61, 0x00, 0x00, 0x00, 0xFF, 0xFE, 0x62, 0x00], major: 3)
        #expect(try ID3Tag(bytes: Self.tag(major: 3, utf16)).frames == [.userText(description: "a", value: "b")])
        // UTF-16BE: "é" is 00 E9.
        let utf16BE = Self.frame("TXXX", [2, 0x00, 0x64, 0x00, 0x00, 0x00, 0xE9, 0x00, 0x00])
        #expect(try ID3Tag(bytes: Self.tag(major: 4, utf16BE)).frames == [.userText(description: "d", value: "é")])
        // ISO-8859-1: 0xE9 is "é"; a trailing terminator is dropped.
        let latin1 = Self.frame("TPE1", [0, 0x63, 0x61, 0x66, 0xE9, 0x00])
        #expect(try ID3Tag(bytes: Self.tag(major: 4, latin1)).frames == [.text(id: "TPE1", value: "café")])
    }

    @Test func unknownFramesAreKeptAndPaddingIgnored() throws {
        let body = Self.frame("GEOB", [1, 2, 3]) + Self.frame("TXXX", [3, 0, 0x7A]) + [UInt8](repeating: 0, count: 64)
        let decoded = try ID3Tag.decode(Self.tag(major: 4, body)[...])
        #expect(decoded.tag.frames == [.other(id: "GEOB", data: [1, 2, 3]), .userText(description: "", value: "z")])
        #expect(decoded.issues.isEmpty)
    }

    @Test func footerIsCountedInTheTagSize() throws {
        let body = Self.frame("TXXX", [3, 0, 0x7A])
        let footer: [UInt8] = [0x33, 0x44, 0x49, 4, 0, 0x10] + ID3Synchsafe.encode(UInt32(body.count))
        let bytes = Self.tag(major: 4, flags: 0x10, body) + footer + [0xAA]
        #expect(try ID3Tag.decode(bytes[...]).byteCount == bytes.count - 1)
    }

    // MARK: bad input

    @Test func bytesWithoutAnID3HeaderAreRejected() {
        #expect(code { try ID3Tag(bytes: Array("TAG".utf8)) } == .invalidID3)
        #expect(code { try ID3Tag(bytes: [0x49, 0x44, 0x34, 4, 0, 0, 0, 0, 0, 0]) } == .invalidID3)
        #expect(code { try ID3Tag(bytes: [0x49, 0x44, 0x33, 4]) } == .invalidID3)
    }

    @Test func versionsOtherThan3And4AreUnsupported() {
        #expect(code { try ID3Tag(bytes: Self.header(major: 2, size: 0)) } == .unsupportedID3Version)
        #expect(code { try ID3Tag(bytes: Self.header(major: 5, size: 0)) } == .unsupportedID3Version)
    }

    @Test func tagSizeWithTheHighBitSetIsRejected() {
        #expect(code { try ID3Tag(bytes: [0x49, 0x44, 0x33, 4, 0, 0, 0, 0, 0, 0x80]) } == .invalidSynchsafeInteger)
    }

    @Test func tagSizePastTheBytesIsTruncated() {
        var bytes = Self.tag(major: 4, Self.frame("TXXX", [3, 0, 0x7A]))
        bytes[9] += 1
        #expect(code { try ID3Tag(bytes: bytes) } == .truncatedID3)
        #expect(code { try ID3Tag(bytes: Self.header(major: 4, size: 0x0FFF_FFFF)) } == .truncatedID3)
    }

    @Test func frameOverrunningTheTagEndsTheFramesKeepingEarlierOnes() throws {
        let good = Self.frame("TXXX", [3, 0, 0x61])
        var bad = Self.frame("TXXX", [3, 0, 0x62])
        bad[7] = 0x50  // says 80 bytes
        let decoded = try ID3Tag.decode(Self.tag(major: 4, good + bad)[...])
        #expect(decoded.tag.frames == [.userText(description: "", value: "a")])
        #expect(decoded.issues.map(\.code) == [.truncatedID3])
    }

    @Test func badFrameIdentifierEndsTheFrames() throws {
        let decoded = try ID3Tag.decode(Self.tag(major: 4, Self.frame("tx!x", [3, 0, 0x61]))[...])
        #expect(decoded.tag.frames.isEmpty)
        #expect(decoded.issues.map(\.code) == [.invalidID3Frame])
    }

    @Test func malformedFramesAreSkippedAndLaterOnesRead() throws {
        let body =
            Self.frame("TXXX", [7, 0, 0x61])  // encoding 7
            + Self.frame("TXXX", [])  // no encoding byte
            + Self.frame("PRIV", [0x61, 0x62])  // no owner terminator
            + Self.frame("TIT2", [], flags: [0, 0x08])  // compressed
            + Self.frame("TIT3", [1], flags: [0, 0x01])  // data length indicator cut short
            + Self.frame("TXXX", [3, 0, 0x7A])
        let decoded = try ID3Tag.decode(Self.tag(major: 4, body)[...])
        #expect(decoded.tag.frames == [.userText(description: "", value: "z")])
        #expect(decoded.issues.count == 5)
        #expect(decoded.issues.allSatisfy { $0.code == .invalidID3Frame })
    }

    @Test func extendedHeaderLargerThanTheTagIsTruncated() {
        #expect(code { try ID3Tag(bytes: Self.tag(major: 4, flags: 0x40, [0, 0, 0x7F, 0, 1, 0])) } == .truncatedID3)
        #expect(code { try ID3Tag(bytes: Self.tag(major: 4, flags: 0x40, [0, 0])) } == .truncatedID3)
        #expect(
            code { try ID3Tag(bytes: Self.tag(major: 4, flags: 0x40, [0, 0x80, 0, 6, 1, 0])) }
                == .invalidSynchsafeInteger)
        #expect(code { try ID3Tag(bytes: Self.tag(major: 3, flags: 0x40, [0xFF, 0xFF, 0xFF, 0xFF])) } == .truncatedID3)
    }

    @Test func framesThatCannotBeWrittenAreRejected() {
        #expect(code { try ID3Tag(frames: [.other(id: "abc", data: [])]).encoded() } == .invalidArgument)
        #expect(
            code { try ID3Tag(frames: [.userText(description: "a\u{0}b", value: "")]).encoded() } == .invalidArgument)
        #expect(code { try ID3Tag(frames: [.privateData(owner: "\u{0}", data: [])]).encoded() } == .invalidArgument)
    }
}
