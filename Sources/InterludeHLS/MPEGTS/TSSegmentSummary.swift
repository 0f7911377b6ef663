/// What a whole MPEG-TS segment holds for ad insertion and timed metadata:
/// its program map, the timed-ID3 PES packets with their PTS and frames,
/// and the PTS the video and audio start at. One ``TSDemuxer`` pass.
public struct TSSegmentSummary: Sendable, Hashable {
    /// The segment's program association table.
    public var programAssociation: ProgramAssociationTable
    /// The first program's map (the one HLS players play).
    public var programMap: ProgramMapTable
    /// Every timed-ID3 PES packet, in stream order.
    public var timedMetadata: [TimedID3Metadata]
    /// The PTS of the first video PES in stream order, 90 kHz; nil without video.
    public var firstVideoPTS: UInt64?
    /// The PTS of the first audio PES in stream order, 90 kHz; nil without audio.
    public var firstAudioPTS: UInt64?
    /// Transport packets in the segment.
    public var packetCount: Int
    /// What was skipped on the way (damaged packets, sections, PES packets, ID3 frames).
    public var issues: [MPEGTSError]

    /// The first program's elementary streams.
    public var streams: [ProgramMapTable.ElementaryStream] { programMap.streams }

    /// Reads a segment.
    /// - Throws: `missingProgramMap` when no PAT and PMT could be read (the
    ///   error's message names the first issue found, if any).
    public init(segment: some Collection<UInt8>) throws(MPEGTSError) {
        var demuxer = TSDemuxer()
        var events = demuxer.feed(segment)
        events += demuxer.finish()
        var metadata: [TimedID3Metadata] = []
        var issues: [MPEGTSError] = []
        for event in events {
            switch event {
            case .timedMetadata(let item): metadata.append(item)
            case .issue(let issue): issues.append(issue)
            case .programMap: break
            }
        }
        guard let programAssociation = demuxer.programAssociation, let programMap = demuxer.programMap else {
            let cause = issues.first.map { " (first issue: \($0))" } ?? ""
            throw MPEGTSError(
                .missingProgramMap, "no PAT and PMT in \(demuxer.packetCount) transport packets\(cause)")
        }
        self.programAssociation = programAssociation
        self.programMap = programMap
        self.timedMetadata = metadata
        self.firstVideoPTS = demuxer.firstVideoPTS
        self.firstAudioPTS = demuxer.firstAudioPTS
        self.packetCount = demuxer.packetCount
        self.issues = issues
    }
}
