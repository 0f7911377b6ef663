import Testing

@testable import InterludeHLS

/// Which PMT entries the demuxer reads timed ID3 from. Apple's spec
/// declares `stream_type` 0x15 with a `metadata_descriptor` naming `ID3 `
/// (ffmpeg writes the same descriptor without its last byte); muxers also
/// write 0x15 with no descriptor, which hls.js (`case 0x15`) and ExoPlayer
/// (`TS_STREAM_TYPE_ID3`) read as ID3 all the same, or put ID3 on private
/// PES (0x06) named by a registration or metadata descriptor.
@Suite struct MPEGTSMetadataStreamTypeTests {
    static let tag = ID3Tag(frames: [.userText(description: "", value: "google_0123456789abcdef011a1b2c3d4")])
    static let ffmpegDescriptor = TSDescriptor(
        tag: TSDescriptor.metadataTag, data: [0xFF, 0xFF, 0x49, 0x44, 0x33, 0x20, 0xFF, 0x49, 0x44, 0x33, 0x20, 0x00])
    static let registration = TSDescriptor(tag: TSDescriptor.registrationTag, data: Array("ID3 ".utf8))
    /// SMPTE KLV, as MISB ST 1402 declares it: a metadata descriptor naming `KLVA`.
    static let klv = TSDescriptor(
        tag: TSDescriptor.metadataTag, data: [0x01, 0x00, 0xFF, 0x4B, 0x4C, 0x56, 0x41, 0x00, 0x0F])

    /// The timed metadata read from a PAT, a PMT with H.264 on 0x100 and
    /// `stream` on 0x102, and one metadata PES on 0x102.
    static func metadataRead(on stream: ProgramMapTable.ElementaryStream) throws -> [TimedID3Metadata] {
        var patCounter: UInt8 = 0
        var pmtCounter: UInt8 = 0
        let pat = try ProgramAssociationTable(programs: [.init(number: 1, pid: 0x1000)])
            .encodedPackets(continuityCounter: &patCounter)
        let pmt = try ProgramMapTable(pcrPID: 0x100, streams: [.init(streamType: .h264, pid: 0x100), stream])
            .encodedPackets(pid: 0x1000, continuityCounter: &pmtCounter)
        let body = try MPEGTSDemuxerTests.metadataPackets([(90_000, tag)])
        return MPEGTSDemuxerTests.metadata(MPEGTSDemuxerTests.events(pat + pmt + body).events)
    }

    @Test(arguments: [
        ProgramMapTable.ElementaryStream(streamType: .metadataPES, pid: 0x102, descriptors: [.id3Metadata]),
        ProgramMapTable.ElementaryStream(streamType: .metadataPES, pid: 0x102, descriptors: [ffmpegDescriptor]),
        ProgramMapTable.ElementaryStream(streamType: .metadataPES, pid: 0x102),
        ProgramMapTable.ElementaryStream(streamType: .metadataPES, pid: 0x102, descriptors: [registration]),
        ProgramMapTable.ElementaryStream(streamType: .privatePES, pid: 0x102, descriptors: [registration]),
        ProgramMapTable.ElementaryStream(streamType: .privatePES, pid: 0x102, descriptors: [.id3Metadata]),
    ])
    func timedID3IsReadWherePlayersReadIt(stream: ProgramMapTable.ElementaryStream) throws {
        let read = try Self.metadataRead(on: stream)
        #expect(read.map(\.frames) == [Self.tag.frames])
        #expect(read.map(\.pts) == [90_000])
    }

    @Test func otherMetadataAndUndescribedPrivateStreamsAreNotReadAsID3() throws {
        #expect(try Self.metadataRead(on: .init(streamType: .metadataPES, pid: 0x102, descriptors: [Self.klv])).isEmpty)
        #expect(try Self.metadataRead(on: .init(streamType: .privatePES, pid: 0x102)).isEmpty)
        #expect(try Self.metadataRead(on: .init(streamType: .h264, pid: 0x102, descriptors: [.id3Metadata])).isEmpty)
    }

    @Test func writersStillDeclareWhatApplesSpecDeclares() {
        // The injector declares an undeclared one before using it (MPEGTSUndeclaredID3StreamTests).
        let undeclared = ProgramMapTable.ElementaryStream(streamType: .metadataPES, pid: 0x102)
        #expect(undeclared.isReadAsID3Metadata)
        #expect(!undeclared.isID3Metadata)
    }
}
