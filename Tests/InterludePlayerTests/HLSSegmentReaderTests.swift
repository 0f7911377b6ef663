import Foundation
import InterludeHLS
import Testing

@testable import InterludePlayer

/// What the display reads out of a segment's bytes, on ffmpeg-made
/// segments damaged on purpose: bad input is skipped and counted, never fatal.
@Suite(.enabled(if: HLSMediaFixture.isAvailable, HLSMediaFixture.skipMessage))
struct HLSSegmentReaderTests {
    static func fixture() async throws -> HLSMediaFixture { try await HLSMediaFixture.shared() }

    /// `packets` inserted right after the segment's first PAT/PMT (its PMT declaring the ID3 stream).
    static func inserting(_ packets: [UInt8], into segment: [UInt8]) throws -> (bytes: [UInt8], pid: UInt16) {
        let injector = try TSMetadataInjector(segment: segment)
        let bytes =
            Array(injector.segment[..<injector.insertionOffset]) + packets
            + Array(injector.segment[injector.insertionOffset...])
        return (bytes, injector.metadataPID)
    }

    @Test func aSegmentReadsItsFirstVideoPTSAndItsFrames() async throws {
        let fixture = try await Self.fixture()
        let contents = HLSSegmentContents.read(try fixture.low(2, withTXXX: "google_x", at: 1))
        #expect(contents.isTransportStream)
        #expect(contents.firstMediaPTS == fixture.firstVideoPTS[2])
        #expect(contents.metadata.map(\.pts) == [fixture.firstVideoPTS[2] + 90_000])
        #expect(contents.metadata.first?.frames == [.userText(description: "", value: "google_x")])
        #expect(contents.issueCount == 0)
    }

    @Test func aTruncatedMetadataPESIsSkippedAndTheNextOneRead() async throws {
        let fixture = try await Self.fixture()
        let injector = try TSMetadataInjector(segment: fixture.low[0])
        let pts = fixture.firstVideoPTS[0]
        // Two PES packets in one call, so their continuity counters run on.
        var packets = try injector.metadataPackets([
            (pts: pts, tag: ID3Tag(frames: [.userText(description: "", value: "lost")])),
            (pts: pts + 9_000, tag: ID3Tag(frames: [.userText(description: "", value: "kept")])),
        ])
        // The first one's PES_packet_length says 4,000 bytes; its packet holds a few dozen.
        if let start = (0..<(packets.count - 6)).first(where: {
            packets[$0] == 0 && packets[$0 + 1] == 0 && packets[$0 + 2] == 1 && packets[$0 + 3] == 0xBD
        }) {
            packets[start + 4] = 0x0F
            packets[start + 5] = 0xA0
        }
        let (bytes, _) = try Self.inserting(packets, into: fixture.low[0])
        let contents = HLSSegmentContents.read(bytes)
        #expect(contents.metadata.flatMap(\.frames) == [.userText(description: "", value: "kept")])
        #expect(contents.issueCount >= 1)
    }

    @Test(arguments: [
        // A size byte with its high bit set (not synchsafe).
        [0x49, 0x44, 0x33, 4, 0, 0, 0x00, 0x00, 0x80, 0x10] as [UInt8],
        // A tag size past the PES.
        [0x49, 0x44, 0x33, 4, 0, 0, 0x7F, 0x7F, 0x7F, 0x7F],
        // A frame size past the tag.
        [0x49, 0x44, 0x33, 4, 0, 0, 0, 0, 0, 12] + Array("TXXX".utf8) + [0x7F, 0x7F, 0x7F, 0x7F, 0, 0, 3, 0],
        // ID3v2.2, not read.
        [0x49, 0x44, 0x33, 2, 0, 0, 0, 0, 0, 0],
    ])
    func aBadTagIsSkippedAndCounted(tag: [UInt8]) async throws {
        let fixture = try await Self.fixture()
        let injector = try TSMetadataInjector(segment: fixture.low[1])
        var counter: UInt8 = 0
        let packets = try PESPacket(streamID: PESPacket.privateStream1, pts: fixture.firstVideoPTS[1], payload: tag)
            .encodedPackets(pid: injector.metadataPID, continuityCounter: &counter)
        let (bytes, _) = try Self.inserting(packets, into: fixture.low[1])
        let contents = HLSSegmentContents.read(bytes)
        #expect(contents.metadata.flatMap(\.frames).isEmpty)
        #expect(contents.issueCount >= 1)
        #expect(contents.firstMediaPTS == fixture.firstVideoPTS[1])
    }

    @Test func bytesThatAreNotATransportStreamGiveNoMetadataAndNoIssues() {
        let notTS = HLSSegmentContents.read(Array("ftypisom".utf8) + [UInt8](repeating: 0x20, count: 4000))
        #expect(!notTS.isTransportStream)
        #expect(notTS.issueCount == 0)
        #expect(HLSSegmentContents.read([UInt8]()) == .unread)
    }
}
