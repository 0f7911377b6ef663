import Foundation
import Testing

@testable import InterludeHLS

/// The demuxer on the ffmpeg fixture (facts in ``MPEGTSFixture``) and on
/// streams built packet by packet, whole and in chunks, clean and damaged.
@Suite struct MPEGTSDemuxerTests {
    static let tagA = ID3Tag(frames: [.userText(description: "", value: "google_start")])
    static let tagB = ID3Tag(frames: [
        .userText(description: "", value: "google_midpoint"), .privateData(owner: "x", data: [1, 2]),
    ])

    /// PAT, a PMT with H.264 on 0x100 and ID3 on 0x102, then `body`.
    static func stream(_ body: [UInt8]) throws -> [UInt8] {
        var patCounter: UInt8 = 0
        var pmtCounter: UInt8 = 0
        let pat = try ProgramAssociationTable(programs: [.init(number: 1, pid: 0x1000)])
            .encodedPackets(continuityCounter: &patCounter)
        let pmt = try ProgramMapTable(pcrPID: 0x100, streams: [.init(streamType: .h264, pid: 0x100)])
            .declaringID3Stream().encodedPackets(pid: 0x1000, continuityCounter: &pmtCounter)
        return pat + pmt + body
    }

    static func metadataPackets(_ tags: [(UInt64, ID3Tag)], counter: UInt8 = 0) throws -> [UInt8] {
        var counter = counter
        var bytes: [UInt8] = []
        for (pts, tag) in tags {
            bytes += try PESPacket(streamID: 0xBD, pts: pts, payload: tag.encoded())
                .encodedPackets(pid: 0x102, continuityCounter: &counter)
        }
        return bytes
    }

    static func events(_ bytes: [UInt8], chunk: Int? = nil) -> (demuxer: TSDemuxer, events: [TSDemuxEvent]) {
        var demuxer = TSDemuxer()
        var events: [TSDemuxEvent] = []
        if let chunk {
            var start = 0
            while start < bytes.count {
                events += demuxer.feed(bytes[start..<min(bytes.count, start + chunk)])
                start += chunk
            }
        } else {
            events += demuxer.feed(bytes)
        }
        events += demuxer.finish()
        return (demuxer, events)
    }

    static func metadata(_ events: [TSDemuxEvent]) -> [TimedID3Metadata] {
        events.compactMap { if case .timedMetadata(let item) = $0 { return item } else { return nil } }
    }

    static func issues(_ events: [TSDemuxEvent]) -> [MPEGTSError.Code] {
        events.compactMap { if case .issue(let issue) = $0 { return issue.code } else { return nil } }
    }

    @Test func fixtureYieldsItsStreamsAndFirstTimestamps() throws {
        let summary = try TSSegmentSummary(segment: MPEGTSFixture.segment)
        #expect(summary.streams.map(\.streamType) == [.h264, .aacADTS])
        #expect(summary.streams.map(\.pid) == [MPEGTSFixture.videoPID, MPEGTSFixture.audioPID])
        #expect(summary.programMap.pcrPID == MPEGTSFixture.videoPID)
        #expect(summary.programAssociation.programMapPIDs == [MPEGTSFixture.programMapPID])
        #expect(summary.firstVideoPTS == MPEGTSFixture.firstVideoPTS)
        #expect(summary.firstAudioPTS == MPEGTSFixture.firstAudioPTS)
        #expect(summary.packetCount == MPEGTSFixture.packetCount)
        #expect(summary.timedMetadata.isEmpty)
        #expect(summary.issues.isEmpty)
    }

    @Test func repeatedTablesAreReportedOnce() {
        let events = Self.events(MPEGTSFixture.segment).events
        let maps = events.filter { if case .programMap = $0 { return true } else { return false } }
        #expect(maps.count == 1)
    }

    @Test func timedMetadataComesOutWithItsPTSInStreamOrder() throws {
        let body = try Self.metadataPackets([(900_000, Self.tagA), (450_000, Self.tagB)])
        let stream = try Self.stream(body)
        let found = Self.metadata(Self.events(stream).events)
        #expect(found.map(\.pts) == [900_000, 450_000])
        #expect(found.map(\.frames) == [Self.tagA.frames, Self.tagB.frames])
        #expect(found.map(\.pid) == [0x102, 0x102])
        #expect(found.map(\.byteOffset) == [376, 564])
    }

    @Test func chunkBoundariesDoNotChangeTheEvents() throws {
        let big = ID3Tag(frames: [.privateData(owner: "big", data: (0..<1000).map { UInt8($0 & 0xFF) })])
        let stream =
            try Self.stream(Self.metadataPackets([(1, Self.tagA), (2, big), (3, Self.tagB)])) + MPEGTSFixture.segment
        let whole = Self.events(stream)
        #expect(Self.metadata(whole.events).count == 3)
        for chunk in [1, 7, 187, 188, 189, 1000] {
            let chunked = Self.events(stream, chunk: chunk)
            #expect(chunked.events == whole.events, "chunk \(chunk)")
            #expect(chunked.demuxer.firstVideoPTS == whole.demuxer.firstVideoPTS)
        }
    }

    @Test func dataAndNonContiguousCollectionsReadLikeArrays() throws {
        let stream = try Self.stream(Self.metadataPackets([(1, Self.tagA)])) + MPEGTSFixture.segment
        let expected = Self.events(stream).events
        var fromData = TSDemuxer()
        #expect(fromData.feed(Data(stream)) + fromData.finish() == expected)
        var fromSequence = TSDemuxer()
        #expect(fromSequence.feed(stream.lazy.map { $0 }) + fromSequence.finish() == expected)
    }

    @Test func aPESSpanningPacketsIsReassembled() throws {
        let tag = ID3Tag(frames: [.userText(description: "", value: String(repeating: "v", count: 600))])
        let found = Self.metadata(Self.events(try Self.stream(Self.metadataPackets([(77, tag)]))).events)
        #expect(found.map(\.frames) == [tag.frames])
    }

    @Test func twoTagsInOnePESAreBothRead() throws {
        var counter: UInt8 = 0
        let payload = try Self.tagA.encoded() + Self.tagB.encoded()
        let body = try PESPacket(streamID: 0xBD, pts: 5, payload: payload)
            .encodedPackets(pid: 0x102, continuityCounter: &counter)
        let found = Self.metadata(Self.events(try Self.stream(body)).events)
        #expect(found.map(\.frames) == [Self.tagA.frames + Self.tagB.frames])
    }

    @Test func unboundedMetadataPESEndsAtTheNextOrAtTheEnd() throws {
        // PES_packet_length 0, which a reader must accept for any stream.
        func unbounded(_ tag: ID3Tag, counter: inout UInt8) throws -> [UInt8] {
            var pes = try PESPacket(streamID: 0xBD, pts: 9, payload: tag.encoded()).encoded()
            pes[4] = 0
            pes[5] = 0
            var bytes: [UInt8] = []
            PESPacket.packetize(pes, pid: 0x102, continuityCounter: &counter, into: &bytes)
            return bytes
        }
        var counter: UInt8 = 0
        let body = try unbounded(Self.tagA, counter: &counter) + unbounded(Self.tagB, counter: &counter)
        let found = Self.metadata(Self.events(try Self.stream(body)).events)
        #expect(found.map(\.frames) == [Self.tagA.frames, Self.tagB.frames])
    }

    // MARK: bad input

    @Test func garbageBetweenPacketsIsSkippedOnce() throws {
        let segment = MPEGTSFixture.segment
        var damaged = Array(segment[..<(188 * 5)])
        damaged += [0x00, 0x47, 0x13] + [UInt8](repeating: 0xAA, count: 50)
        damaged += segment[(188 * 5)...]
        for chunk in [nil, 1, 100] as [Int?] {
            let result = Self.events(damaged, chunk: chunk)
            #expect(Self.issues(result.events) == [.lostSync], "chunk \(String(describing: chunk))")
            #expect(result.demuxer.packetCount == MPEGTSFixture.packetCount)
            #expect(result.demuxer.firstAudioPTS == MPEGTSFixture.firstAudioPTS)
        }
        let lost = Self.events(damaged).events.compactMap {
            if case .issue(let issue) = $0 { return issue } else { return nil }
        }
        #expect(lost.first?.byteOffset == 188 * 5)
    }

    @Test func truncatedLastPacketIsReported() throws {
        let segment = MPEGTSFixture.segment.dropLast(100)
        let result = Self.events(Array(segment))
        #expect(Self.issues(result.events) == [.truncatedPacket])
        #expect(result.demuxer.packetCount == MPEGTSFixture.packetCount - 1)
        #expect(try TSSegmentSummary(segment: segment).issues.map(\.code) == [.truncatedPacket])
    }

    @Test func garbageIsNotASegment() {
        #expect(code { try TSSegmentSummary(segment: [UInt8](repeating: 0x47, count: 10)) } == .missingProgramMap)
        #expect(code { try TSSegmentSummary(segment: (0..<5000).map { UInt8($0 * 7 & 0xFF) }) } == .missingProgramMap)
        #expect(code { try TSSegmentSummary(segment: []) } == .missingProgramMap)
        let trailing = Self.events((0..<500).map { _ in 0x11 }).events
        #expect(Self.issues(trailing) == [.lostSync])
    }

    @Test func lostMetadataPacketDropsThatPESOnly() throws {
        let big = ID3Tag(frames: [.userText(description: "", value: String(repeating: "v", count: 600))])
        var body = try Self.metadataPackets([(1, Self.tagA), (2, big), (3, Self.tagB)])
        // Packet 2 of the second PES (the third metadata packet) goes missing.
        body.removeSubrange((2 * 188)..<(3 * 188))
        let events = Self.events(try Self.stream(body)).events
        #expect(Self.metadata(events).map(\.pts) == [1, 3])
        #expect(Self.issues(events) == [.continuityError, .continuityError])
    }

    @Test func duplicatePacketIsReadOnce() throws {
        let body = try Self.metadataPackets([(1, Self.tagA)])
        let events = Self.events(try Self.stream(body + body)).events
        #expect(Self.metadata(events).count == 1)
        #expect(Self.issues(events).isEmpty)
    }

    @Test func pesLengthLongerThanItsPacketsIsTruncated() throws {
        var body = try Self.metadataPackets([(1, Self.tagA), (2, Self.tagB)])
        // The first PES fills the end of its packet; its PES_packet_length low byte is its sixth.
        let pesStart = 188 - (try PESPacket(streamID: 0xBD, pts: 1, payload: Self.tagA.encoded()).encoded().count)
        body[pesStart + 5] = 0xF0
        let events = Self.events(try Self.stream(body)).events
        #expect(Self.metadata(events).map(\.pts) == [2])
        #expect(Self.issues(events) == [.truncatedPES])
    }

    @Test func pesLengthShorterThanItsTagIsAnID3Error() throws {
        var body = try Self.metadataPackets([(1, Self.tagA)])
        let lengthIndex =
            188 - (try PESPacket(streamID: 0xBD, pts: 1, payload: Self.tagA.encoded()).encoded().count) + 5
        body[lengthIndex] -= 4
        let events = Self.events(try Self.stream(body)).events
        #expect(Self.metadata(events).isEmpty)
        #expect(Self.issues(events) == [.truncatedID3])
    }

    @Test func metadataWithoutPTSOrWithBadID3IsReported() throws {
        var counter: UInt8 = 0
        let noPTS = try PESPacket(streamID: 0xBD, pts: nil, payload: Self.tagA.encoded())
            .encodedPackets(pid: 0x102, continuityCounter: &counter)
        let notID3 = try PESPacket(streamID: 0xBD, pts: 1, payload: Array("hello".utf8))
            .encodedPackets(pid: 0x102, continuityCounter: &counter)
        var badFrame = try Self.tagA.encoded()
        badFrame[10] = 0x2A  // frame identifier "*XXX"
        let withBadFrame = try PESPacket(streamID: 0xBD, pts: 2, payload: badFrame)
            .encodedPackets(pid: 0x102, continuityCounter: &counter)
        let events = Self.events(try Self.stream(noPTS + notID3 + withBadFrame)).events
        #expect(Self.issues(events) == [.invalidPES, .invalidID3, .invalidID3Frame])
        #expect(Self.metadata(events).map(\.pts) == [2])
        #expect(Self.metadata(events).first?.frames == [])
    }

    @Test func oversizedMetadataPESIsDropped() throws {
        let big = ID3Tag(frames: [.privateData(owner: "big", data: [UInt8](repeating: 1, count: 3000))])
        let stream = try Self.stream(Self.metadataPackets([(1, big), (2, Self.tagA)]))
        var demuxer = TSDemuxer(maximumMetadataSize: 1000)
        let events = demuxer.feed(stream) + demuxer.finish()
        #expect(Self.metadata(events).map(\.pts) == [2])
        #expect(Self.issues(events) == [.payloadTooLarge])
    }

    @Test func theMetadataBudgetIsSharedByEveryMetadataPID() throws {
        // Two ID3 PIDs whose PES packets of ~700 bytes are interleaved: together over 1000.
        var pmtCounter: UInt8 = 0
        var patCounter: UInt8 = 0
        let streams: [ProgramMapTable.ElementaryStream] = [
            .init(streamType: .metadataPES, pid: 0x102, descriptors: [.id3Metadata]),
            .init(streamType: .metadataPES, pid: 0x103, descriptors: [.id3Metadata]),
        ]
        let tables =
            try ProgramAssociationTable(programs: [.init(number: 1, pid: 0x1000)]).encodedPackets(
                continuityCounter: &patCounter)
            + ProgramMapTable(pcrPID: 0x102, streams: streams).encodedPackets(
                pid: 0x1000, continuityCounter: &pmtCounter)
        let tag = ID3Tag(frames: [.privateData(owner: "o", data: [UInt8](repeating: 1, count: 680))])
        var counters: [UInt16: UInt8] = [:]
        func packets(_ pid: UInt16) throws -> [[UInt8]] {
            let bytes = try PESPacket(streamID: 0xBD, pts: UInt64(pid), payload: tag.encoded())
                .encodedPackets(pid: pid, continuityCounter: &counters[pid, default: 0])
            return (0..<(bytes.count / 188)).map { MPEGTSFixture.packet(bytes, $0) }
        }
        let first = try packets(0x102)
        let second = try packets(0x103)
        let interleaved = zip(first, second).flatMap { $0 + $1 }
        var demuxer = TSDemuxer(maximumMetadataSize: 1000)
        let events = demuxer.feed(tables + interleaved) + demuxer.finish()
        #expect(Self.metadata(events).map(\.pid) == [0x102])
        #expect(Self.issues(events) == [.payloadTooLarge])
    }

    @Test func aChangedProgramMapIsReportedAgain() throws {
        var counter: UInt8 = 1  // after the helper's PMT packet
        let first = ProgramMapTable(pcrPID: 0x100, streams: [.init(streamType: .h264, pid: 0x100)])
        let second = try first.declaringID3Stream()
        let stream =
            try Self.stream([])
            + first.encodedPackets(pid: 0x1000, continuityCounter: &counter)
            + second.encodedPackets(pid: 0x1000, continuityCounter: &counter)
        let maps = Self.events(stream).events.compactMap { event -> ProgramMapTable? in
            if case .programMap(let table, _) = event { return table } else { return nil }
        }
        // The helper's PMT (already declaring ID3, version 1), then version 0 and version 1 again.
        #expect(maps.map(\.version) == [1, 0, 1])
    }

    @Test func damagedTableIsReportedAndItsRepeatRead() {
        var segment = MPEGTSFixture.segment
        segment[188 * 2 + 20] ^= 0x01  // inside the first PMT section
        let result = Self.events(segment)
        #expect(Self.issues(result.events) == [.checksumMismatch])
        // The PMT repeats at packet 15, so the streams are found; the first video PES came before it.
        #expect(result.demuxer.programMap?.streams.count == 2)
        #expect(result.demuxer.firstVideoPTS != nil)
        #expect(result.demuxer.firstVideoPTS != MPEGTSFixture.firstVideoPTS)
        #expect(result.demuxer.firstAudioPTS == MPEGTSFixture.firstAudioPTS)
    }

    @Test func damagedPacketsAreSkipped() {
        var flagged = MPEGTSFixture.segment
        flagged[188 * 3 + 1] |= 0x80  // transport_error_indicator on the first video packet
        let flaggedResult = Self.events(flagged)
        #expect(Self.issues(flaggedResult.events) == [.transportError])
        #expect(flaggedResult.demuxer.firstVideoPTS != MPEGTSFixture.firstVideoPTS)
        var badField = MPEGTSFixture.segment
        badField[188 * 3 + 4] = 200  // its adaptation_field_length
        let badFieldResult = Self.events(badField)
        #expect(Self.issues(badFieldResult.events) == [.invalidAdaptationField])
        #expect(badFieldResult.demuxer.packetCount == MPEGTSFixture.packetCount)
    }
}
