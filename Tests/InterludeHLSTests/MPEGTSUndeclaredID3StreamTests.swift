import Testing

@testable import InterludeHLS

/// A segment whose muxer wrote its timed-ID3 stream as `stream_type` 0x15
/// without a `metadata_descriptor`. hls.js takes the first 0x15 stream of
/// the PMT as its ID3 PID and reads no other, so an injector that declared a
/// second stream beside it put the ad's event IDs where hls.js never looks.
/// The undeclared stream is declared instead, and its PID carries the tags.
@Suite struct MPEGTSUndeclaredID3StreamTests {
    static let originPID: UInt16 = 0x1F0
    static let originTag = ID3Tag(frames: [.userText(description: "origin", value: "encoder-note")])
    static let adTag = ID3Tag(frames: [.userText(description: "", value: "google_0123456789abcdef011a1b2c3d4")])
    static let klv = MPEGTSMetadataStreamTypeTests.klv

    /// PAT, PMT (H.264 on 0x100 and `metadata` streams), the origin's ID3
    /// PES on 0x1F0 and one video PES.
    static func segment(metadata: [ProgramMapTable.ElementaryStream]) throws -> [UInt8] {
        var patCounter: UInt8 = 0
        var pmtCounter: UInt8 = 0
        var metadataCounter: UInt8 = 0
        var videoCounter: UInt8 = 0
        let pat = try ProgramAssociationTable(programs: [.init(number: 1, pid: 0x1000)])
            .encodedPackets(continuityCounter: &patCounter)
        let pmt = try ProgramMapTable(pcrPID: 0x100, streams: [.init(streamType: .h264, pid: 0x100)] + metadata)
            .encodedPackets(pid: 0x1000, continuityCounter: &pmtCounter)
        let video = try PESPacket(streamID: 0xE0, pts: 90_000, payload: [0, 0, 0, 1, 0x09, 0xF0])
            .encodedPackets(pid: 0x100, continuityCounter: &videoCounter)
        let origin = try PESPacket(streamID: 0xBD, pts: 90_000, payload: originTag.encoded())
            .encodedPackets(pid: originPID, continuityCounter: &metadataCounter)
        return pat + pmt + video + origin
    }

    @Test func theInjectorDeclaresAndUsesTheUndeclaredStream() throws {
        let segment = try Self.segment(metadata: [.init(streamType: .metadataPES, pid: Self.originPID)])
        let injector = try TSMetadataInjector(segment: segment)
        #expect(injector.metadataPID == Self.originPID)
        #expect(injector.rewroteProgramMap)
        let output = try injector.injecting([(pts: 90_000, tag: Self.adTag)])
        let map = try TSSegmentSummary(segment: output).programMap
        #expect(map.streams.filter { $0.streamType == .metadataPES }.map(\.pid) == [Self.originPID])
        #expect(map.id3Stream?.pid == Self.originPID)
        #expect(map.programDescriptors.contains { $0.tag == TSDescriptor.metadataPointerTag && $0.describesID3 })
        let events = MPEGTSDemuxerTests.events(output).events
        #expect(MPEGTSDemuxerTests.issues(events).isEmpty)  // the inserted packets' counters run into the origin's
        let values = MPEGTSDemuxerTests.metadata(events).flatMap(\.frames)
        #expect(values == Self.adTag.frames + Self.originTag.frames)
    }

    @Test func aRegistrationDescriptorAloneStillCountsAsUndeclared() throws {
        let registration = MPEGTSMetadataStreamTypeTests.registration
        let map = ProgramMapTable(
            pcrPID: 0x100,
            streams: [
                .init(streamType: .h264, pid: 0x100),
                .init(streamType: .metadataPES, pid: Self.originPID, descriptors: [registration]),
            ])
        #expect(map.undeclaredID3Stream?.pid == Self.originPID)
        var declared = map
        #expect(try declared.declareID3Stream(pid: Self.originPID))
        #expect(declared.streams.count == 2)
        #expect(declared.streams[1].descriptors == [registration, .id3Metadata])
        #expect(declared.version == (map.version + 1) & 0x1F)
        #expect(declared.undeclaredID3Stream == nil)
    }

    @Test func aNewStreamGoesBeforeAnotherFormatsMetadataStream() throws {
        // hls.js would read the KLV stream as ID3 and never ours, were ours after it.
        let segment = try Self.segment(metadata: [
            .init(streamType: .metadataPES, pid: Self.originPID, descriptors: [Self.klv])
        ])
        let injector = try TSMetadataInjector(segment: segment)
        #expect(injector.metadataPID == ProgramMapTable.defaultID3PID)
        let map = try TSSegmentSummary(segment: injector.segment).programMap
        #expect(map.streams.map(\.pid) == [0x100, ProgramMapTable.defaultID3PID, Self.originPID])
    }

    @Test func aDeclaredStreamIsNeverAdoptedTwiceNorAnotherStreamsPID() throws {
        let declared = ProgramMapTable(
            pcrPID: 0x100,
            streams: [
                .init(streamType: .h264, pid: 0x100),
                .init(streamType: .metadataPES, pid: 0x1F1, descriptors: [.id3Metadata]),
                .init(streamType: .metadataPES, pid: Self.originPID),
            ])
        #expect(declared.undeclaredID3Stream == nil)
        var video = ProgramMapTable(pcrPID: 0x100, streams: [.init(streamType: .h264, pid: 0x100)])
        #expect(throws: MPEGTSError.self) { try video.declareID3Stream(pid: 0x100) }
        var klvOnly = ProgramMapTable(
            pcrPID: 0x100,
            streams: [.init(streamType: .metadataPES, pid: Self.originPID, descriptors: [Self.klv])])
        #expect(throws: MPEGTSError.self) { try klvOnly.declareID3Stream(pid: Self.originPID) }
    }

    @Test func anUndeclaredStreamWhosePESSpansTheMapIsLeftWholeAndANewStreamGoesFirst() throws {
        // The origin's ID3 PES (two packets) starts before the PAT and ends after the PMT:
        // inserting on its PID there would split it, so a stream of our own goes before it.
        var patCounter: UInt8 = 0
        var pmtCounter: UInt8 = 0
        var metadataCounter: UInt8 = 0
        let longTag = ID3Tag(frames: [.userText(description: "origin", value: String(repeating: "x", count: 300))])
        let origin = try PESPacket(streamID: 0xBD, pts: 90_000, payload: longTag.encoded())
            .encodedPackets(pid: Self.originPID, continuityCounter: &metadataCounter)
        #expect(origin.count == 2 * TSPacket.size)
        let pat = try ProgramAssociationTable(programs: [.init(number: 1, pid: 0x1000)])
            .encodedPackets(continuityCounter: &patCounter)
        let pmt = try ProgramMapTable(
            pcrPID: 0x100,
            streams: [.init(streamType: .h264, pid: 0x100), .init(streamType: .metadataPES, pid: Self.originPID)]
        ).encodedPackets(pid: 0x1000, continuityCounter: &pmtCounter)
        let segment = Array(origin[..<TSPacket.size]) + pat + pmt + Array(origin[TSPacket.size...])
        let injector = try TSMetadataInjector(segment: segment)
        #expect(injector.metadataPID == ProgramMapTable.defaultID3PID)
        let output = try injector.injecting([(pts: 90_000, tag: Self.adTag)])
        let map = try TSSegmentSummary(segment: output).programMap
        #expect(map.streams.map(\.pid) == [0x100, ProgramMapTable.defaultID3PID, Self.originPID])
        let events = MPEGTSDemuxerTests.events(output).events
        let values = MPEGTSDemuxerTests.metadata(events).flatMap(\.frames)
        #expect(values.contains(Self.adTag.frames[0]))
        // Asked for the undeclared stream's own PID, the injector refuses rather than split its PES.
        #expect(throws: MPEGTSError.self) { try TSMetadataInjector(segment: segment, metadataPID: Self.originPID) }
    }
}
