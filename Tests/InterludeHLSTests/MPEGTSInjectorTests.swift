import Testing

@testable import InterludeHLS

/// Injecting timed ID3 into the ffmpeg fixture (facts in ``MPEGTSFixture``).
@Suite struct MPEGTSInjectorTests {
    static let start = ID3Tag(frames: [.userText(description: "", value: "google_start_1")])
    static let midpoint = ID3Tag(frames: [.userText(description: "", value: "google_midpoint_1")])

    /// Each tag goes before the first video PES at or after its time (as a
    /// muxer interleaves; a tag seconds ahead at the head stalls GStreamer),
    /// never before the first PMT; every other packet is copied in order.
    @Test func eachTagGoesWhereTheVideoReachesItsTimeAndTheRestIsCopied() throws {
        let original = MPEGTSFixture.segment
        let injector = try TSMetadataInjector(segment: original)
        #expect(injector.rewroteProgramMap)
        #expect(injector.metadataPID == 0x0102)
        #expect(injector.insertionOffset == 3 * 188)
        #expect(injector.firstVideoPTS == MPEGTSFixture.firstVideoPTS)
        let starts = TSMetadataPacketizer.videoIndex(
            in: injector.segment, from: injector.insertionOffset, videoPIDs: [MPEGTSFixture.videoPID]
        ).starts
        #expect(starts.first?.pts == MPEGTSFixture.firstVideoPTS)
        // ffprobe (-show_entries packet=pts,pos) puts the first video PES at or after PTS 177,000 in
        // packet 31 of the fixture (pos 5828); the rewrite keeps every packet where it was.
        let midpointAt = 31
        #expect(starts.first { $0.pts >= 177_000 }?.offset == midpointAt * 188)
        let output = try injector.injecting([(pts: 132_000, tag: Self.start), (pts: 177_000, tag: Self.midpoint)])
        #expect(output.count == original.count + 2 * 188)
        var pids = MPEGTSFixture.pids(output)
        #expect(Array(pids[0..<5]) == [0x11, 0x0000, 0x1000, 0x0102, MPEGTSFixture.videoPID])
        // The midpoint's packet comes one later than the PES it precedes, the start's being before it.
        #expect(pids.indices.filter { pids[$0] == 0x0102 } == [3, midpointAt + 1])
        #expect(pids[midpointAt + 2] == MPEGTSFixture.videoPID)
        // Every packet but the PMTs and the two added is the original's, in order.
        pids.remove(at: midpointAt + 1)
        pids.remove(at: 3)
        #expect(pids == MPEGTSFixture.pids(original))
        var outputPackets = (0..<(output.count / 188)).map { MPEGTSFixture.packet(output, $0) }
        outputPackets.remove(at: midpointAt + 1)
        outputPackets.remove(at: 3)
        for index in 0..<MPEGTSFixture.packetCount where !MPEGTSFixture.programMapPacketIndices.contains(index) {
            #expect(outputPackets[index] == MPEGTSFixture.packet(original, index), "packet \(index)")
        }
        // Each PMT now declares the stream, with its counter unchanged.
        for index in MPEGTSFixture.programMapPacketIndices {
            let packet = try TSPacket(bytes: outputPackets[index])
            #expect(packet.continuityCounter == UInt8(MPEGTSFixture.programMapPacketIndices.firstIndex(of: index)!))
            let table = try ProgramMapTable(section: packet.payload.dropFirst())
            #expect(table.id3Stream?.pid == 0x0102)
            #expect(table.version == 1)
        }
    }

    @Test func injectedMetadataReadsBack() throws {
        let output = try TSMetadataInjector.inject(
            [(pts: 132_000, tag: Self.start), (pts: 177_000, tag: Self.midpoint)], into: MPEGTSFixture.segment)
        let summary = try TSSegmentSummary(segment: output)
        #expect(summary.timedMetadata.map(\.pts) == [132_000, 177_000])
        #expect(summary.timedMetadata.map(\.frames) == [Self.start.frames, Self.midpoint.frames])
        #expect(summary.issues.isEmpty)
        #expect(summary.programMap.id3Stream?.pid == 0x0102)
        #expect(summary.firstVideoPTS == MPEGTSFixture.firstVideoPTS)
        #expect(summary.firstAudioPTS == MPEGTSFixture.firstAudioPTS)
    }

    @Test func aDeclaredSegmentIsCopiedUnchangedAroundTheMetadata() throws {
        let declared = try TSMetadataInjector.declaringID3Stream(in: MPEGTSFixture.segment)
        #expect(declared.count == MPEGTSFixture.segment.count)
        let injector = try TSMetadataInjector(segment: declared)
        #expect(!injector.rewroteProgramMap)
        #expect(injector.segment == declared)
        let metadata = try injector.metadataPackets([(pts: 1, tag: Self.start)])
        let output = try injector.injecting([(pts: 1, tag: Self.start)])
        #expect(
            output == Array(declared[..<injector.insertionOffset]) + metadata + declared[injector.insertionOffset...])
        // Declaring again changes nothing.
        #expect(try TSMetadataInjector.declaringID3Stream(in: declared) == declared)
    }

    @Test func noTagsLeavesOnlyTheDeclaration() throws {
        let declared = try TSMetadataInjector.declaringID3Stream(in: MPEGTSFixture.segment)
        #expect(try TSMetadataInjector.inject([], into: declared) == declared)
    }

    @Test func anExistingID3StreamIsUsed() throws {
        let declared = try TSMetadataInjector.declaringID3Stream(in: MPEGTSFixture.segment, metadataPID: 0x01F0)
        let injector = try TSMetadataInjector(segment: declared, metadataPID: 0x0102)
        #expect(injector.metadataPID == 0x01F0)
        let output = try injector.injecting([(pts: 5, tag: Self.start)])
        #expect(try TSSegmentSummary(segment: output).timedMetadata.map(\.pid) == [0x01F0])
    }

    @Test func countersRunIntoMetadataAlreadyInTheSegment() throws {
        // Inject twice: the second set of packets must end just before the first.
        let once = try TSMetadataInjector.inject(
            [(pts: 1, tag: Self.start), (pts: 2, tag: Self.midpoint)], into: MPEGTSFixture.segment)
        let big = ID3Tag(frames: [.privateData(owner: "o", data: [UInt8](repeating: 3, count: 500))])
        let twice = try TSMetadataInjector.inject([(pts: 0, tag: big)], into: once)
        let counters = stride(from: 0, to: twice.count, by: 188).compactMap { offset -> UInt8? in
            let pid = UInt16(twice[offset + 1] & 0x1F) << 8 | UInt16(twice[offset + 2])
            return pid == 0x0102 ? twice[offset + 3] & 0x0F : nil
        }
        #expect(counters.count == 5)
        for (previous, next) in zip(counters, counters.dropFirst()) { #expect(next == (previous + 1) & 0x0F) }
        #expect(counters.last == 1)
        let summary = try TSSegmentSummary(segment: twice)
        #expect(summary.timedMetadata.map(\.pts) == [0, 1, 2])
        #expect(summary.issues.isEmpty)
    }

    @Test func aMultiPacketPMTIsRewrittenWhereItWas() throws {
        // A PMT of two packets, then media packets on 0x100 and a PMT repeat.
        let streams: [ProgramMapTable.ElementaryStream] = [
            .init(
                streamType: .h264, pid: 0x100,
                descriptors: [TSDescriptor(tag: 0x80, data: .init(repeating: 9, count: 250))])
        ]
        let table = ProgramMapTable(pcrPID: 0x100, streams: streams)
        var patCounter: UInt8 = 0
        var pmtCounter: UInt8 = 4
        var videoCounter: UInt8 = 0
        let pat = try ProgramAssociationTable(programs: [.init(number: 1, pid: 0x20)]).encodedPackets(
            continuityCounter: &patCounter)
        let video = try PESPacket(streamID: 0xE0, pts: 3003, payload: [UInt8](repeating: 0, count: 300))
            .encodedPackets(pid: 0x100, continuityCounter: &videoCounter)
        let segment =
            pat + (try table.encodedPackets(pid: 0x20, continuityCounter: &pmtCounter)) + video
            + (try table.encodedPackets(pid: 0x20, continuityCounter: &pmtCounter))
        #expect(MPEGTSFixture.pids(segment) == [0, 0x20, 0x20, 0x100, 0x100, 0x20, 0x20])
        let injector = try TSMetadataInjector(segment: segment)
        #expect(injector.insertionOffset == 3 * 188)
        #expect(injector.firstVideoPTS == 3003)
        let output = try injector.injecting([(pts: 3003, tag: Self.start)])
        #expect(MPEGTSFixture.pids(output) == [0, 0x20, 0x20, 0x102, 0x100, 0x100, 0x20, 0x20])
        let pmtCounters = stride(from: 0, to: output.count, by: 188).filter { output[$0 + 2] == 0x20 }.map {
            output[$0 + 3] & 0x0F
        }
        #expect(pmtCounters == [4, 5, 6, 7])
        let summary = try TSSegmentSummary(segment: output)
        #expect(summary.programMap.streams.map(\.pid) == [0x100, 0x102])
        #expect(summary.timedMetadata.map(\.pts) == [3003])
        #expect(summary.issues.isEmpty)
    }

    @Test func largeTagsSpanPackets() throws {
        let big = ID3Tag(frames: [.privateData(owner: "o", data: (0..<5000).map { UInt8($0 % 251) })])
        let output = try TSMetadataInjector.inject([(pts: 1, tag: big)], into: MPEGTSFixture.segment)
        #expect(try TSSegmentSummary(segment: output).timedMetadata.map(\.frames) == [big.frames])
    }

    // MARK: bad input

    @Test func segmentsWithoutATableAreRejected() throws {
        #expect(code { try TSMetadataInjector(segment: []) } == .missingProgramMap)
        #expect(code { try TSMetadataInjector(segment: (0..<3000).map { UInt8($0 & 0xFF) }) } == .missingProgramMap)
        // A PAT alone, or a PMT before any PAT.
        let segment = MPEGTSFixture.segment
        let patOnly = MPEGTSFixture.packet(segment, 1) + MPEGTSFixture.packet(segment, 3)
        #expect(code { try TSMetadataInjector(segment: patOnly) } == .missingProgramMap)
        let pmtFirst = MPEGTSFixture.packet(segment, 2) + MPEGTSFixture.packet(segment, 1)
        #expect(code { try TSMetadataInjector(segment: pmtFirst) } == .missingProgramMap)
        var badCRC = Array(segment[0..<(3 * 188)])
        badCRC[188 * 2 + 10] ^= 0xFF
        #expect(code { try TSMetadataInjector(segment: badCRC) } == .missingProgramMap)
    }

    @Test func metadataPIDInUseIsAConflict() {
        #expect(code { try TSMetadataInjector(segment: MPEGTSFixture.segment, metadataPID: 0x0100) } == .pidConflict)
        #expect(code { try TSMetadataInjector(segment: MPEGTSFixture.segment, metadataPID: 0x1000) } == .pidConflict)
        #expect(
            code { try TSMetadataInjector(segment: MPEGTSFixture.segment, metadataPID: 0x1FFF) } == .invalidArgument)
    }

    @Test func tagsTooLargeForAPESAreRejected() throws {
        let injector = try TSMetadataInjector(segment: MPEGTSFixture.segment)
        let huge = ID3Tag(frames: [.privateData(owner: "o", data: [UInt8](repeating: 0, count: 70_000))])
        #expect(code { try injector.injecting([(pts: 0, tag: huge)]) } == .payloadTooLarge)
        let unwritable = ID3Tag(frames: [.other(id: "no", data: [])])
        #expect(code { try injector.metadataPackets([(pts: 0, tag: unwritable)]) } == .invalidArgument)
    }

    @Test func damagedPacketsAroundTheTablesAreCopiedAsTheyAre() throws {
        var segment = MPEGTSFixture.segment
        let garbage: [UInt8] = [0x47, 0x00, 0x11, 0x22, 0x33]
        segment.insert(contentsOf: garbage, at: 188 * 10)
        let output = try TSMetadataInjector.inject([(pts: 7, tag: Self.start)], into: segment)
        #expect(output.count == segment.count + 188)
        let summary = try TSSegmentSummary(segment: output)
        #expect(summary.timedMetadata.map(\.pts) == [7])
        #expect(summary.issues.map(\.code) == [.lostSync])
    }
}

extension MPEGTSInjectorTests {
    @Test func aTagAfterEveryVideoFrameGoesAtTheEndAndTagsKeepTheirCounterRun() throws {
        let injector = try TSMetadataInjector(segment: MPEGTSFixture.segment)
        let output = try injector.injecting([
            (pts: 10_000_000, tag: Self.midpoint), (pts: 0, tag: Self.start),
        ])
        let pids = MPEGTSFixture.pids(output)
        let metadata = pids.indices.filter { pids[$0] == 0x0102 }
        #expect(metadata == [3, pids.count - 1])
        // Counters run in stream order, so a demuxer sees no gap.
        let counters = try metadata.map { try TSPacket(bytes: MPEGTSFixture.packet(output, $0)).continuityCounter }
        #expect(counters == [0, 1])
        let summary = try TSSegmentSummary(segment: output)
        #expect(summary.timedMetadata.map(\.pts) == [0, 10_000_000])
        #expect(summary.issues.isEmpty)
    }
}

extension MPEGTSInjectorTests {
    /// PTS are 33-bit: a segment whose video runs past 2³³ still gets each
    /// tag where the stream reaches it, before the wrap and after.
    @Test func placementComparesTimesAcrossThe33BitWrap() {
        let wrap: UInt64 = 1 << 33
        let packetizer = TSMetadataPacketizer(
            metadataPID: 0x0102, followingContinuityCounter: nil, insertionOffset: 3 * 188,
            videoPESStarts: [
                .init(offset: 3 * 188, pts: wrap - 60_000), .init(offset: 10 * 188, pts: wrap - 30_000),
                .init(offset: 20 * 188, pts: 0), .init(offset: 30 * 188, pts: 30_000),
            ],
            segmentLength: 40 * 188)
        #expect(packetizer.offset(forPTS: wrap - 90_000) == 3 * 188)
        #expect(packetizer.offset(forPTS: wrap - 45_000) == 10 * 188)
        #expect(packetizer.offset(forPTS: wrap - 1) == 20 * 188)
        #expect(packetizer.offset(forPTS: 15_000) == 30 * 188)
        #expect(packetizer.offset(forPTS: 60_000) == 40 * 188)
        #expect(TSMetadataPacketizer.ticks(5, after: wrap - 5) == 10)
        #expect(TSMetadataPacketizer.ticks(wrap - 5, after: 5) == -10)
    }

    /// A truncated last packet stays last: a late tag goes after the last
    /// whole packet, on the 188-byte grid where demuxers find it.
    @Test func aLateTagGoesBeforeATruncatedLastPacket() throws {
        let truncated = MPEGTSFixture.segment + Array(repeating: 0xFF, count: 100)
        let injector = try TSMetadataInjector(segment: truncated)
        let output = try injector.injecting([(pts: 10_000_000, tag: Self.midpoint)])
        let end = truncated.count - 100
        #expect(Array(output[..<end]) == Array(injector.segment[..<end]))
        #expect(output[end] == 0x47)
        #expect(UInt16(output[end + 1] & 0x1F) << 8 | UInt16(output[end + 2]) == 0x0102)
        #expect(Array(output[(end + 188)...]) == Array(repeating: 0xFF, count: 100))
    }
}
