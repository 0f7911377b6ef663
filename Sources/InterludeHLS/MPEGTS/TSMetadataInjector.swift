/// Adds timed-ID3 metadata to an MPEG-TS segment: the segment's PMT declares
/// the ID3 stream (rewritten once if it does not already) and each tag
/// becomes a `private_stream_1` PES with its PTS on the metadata PID. A tag
/// goes where the stream reaches its time, before the first video PES whose
/// PTS is at or after it, as a muxer interleaves; never before the first
/// PAT/PMT pair, so a player knows the stream before its first packet.
/// (Placed all at the head, a tag seconds ahead of the video stalls
/// GStreamer's demuxer until the video catches up.) Every other byte is
/// copied unchanged.
///
/// Preparing is the costly part (two passes over the packets); do it once
/// per shared segment and call ``injecting(_:)`` per request, or write the
/// runs of ``TSMetadataPacketizer/placedPackets(_:)`` between the slices of
/// ``segment`` they fall between, without joining them.
///
/// ```swift
/// let injector = try TSMetadataInjector(segment: adSegmentBytes)
/// let tag = ID3Tag(frames: [.userText(description: "", value: "google_1234")])
/// let bytes = try injector.injecting([(pts: injector.firstVideoPTS ?? 0, tag: tag)])
/// ```
public struct TSMetadataInjector: Sendable {
    /// The segment with its PMT declaring the timed-ID3 stream, without
    /// metadata packets: the input itself when its PMT already did.
    public let segment: [UInt8]
    /// Where metadata packets go in ``segment``: right after the packet
    /// that completes the first PMT following a PAT.
    public let insertionOffset: Int
    /// The PID the metadata packets use: the PMT's existing timed-ID3 stream,
    /// or the one that was added.
    public let metadataPID: UInt16
    /// The first program's map as ``segment`` declares it.
    public let programMap: ProgramMapTable
    /// True when the PMT had to be rewritten to declare the stream.
    public let rewroteProgramMap: Bool
    /// The PTS of the first video PES in stream order, if the segment has video
    /// (where an ad's start event usually goes).
    public let firstVideoPTS: UInt64?
    /// The continuity counter of the first metadata-PID packet already in the
    /// segment after the insertion point; inserted packets end just before it.
    private let followingContinuityCounter: UInt8?
    /// Where each video PES after ``insertionOffset`` starts in ``segment``,
    /// with its PTS, in stream order; empty when the segment already has
    /// metadata packets after that point (tags then all go at it, so their
    /// counters run into those packets).
    private let videoPESStarts: [TSMetadataPacketizer.PESStart]
    /// The end of the last whole packet: where a tag later than every video
    /// PES goes (a truncated packet after it is left last).
    private let packetsEnd: Int

    /// Prepares `segment`.
    /// - Parameters:
    ///   - segment: the segment's bytes, whole.
    ///   - metadataPID: the PID to declare when the PMT has no timed-ID3
    ///     stream yet (default ``ProgramMapTable/defaultID3PID``, 0x0102);
    ///     ignored when it has one, or has a 0x15 stream without a
    ///     descriptor (``ProgramMapTable/undeclaredID3Stream``), which is
    ///     declared and used instead (unless the segment has that stream's
    ///     packets before its first PMT, or its first packet after it
    ///     continues a PES: inserting there would break the stream).
    /// - Throws: `missingProgramMap` when no PAT and PMT can be read;
    ///   `pidConflict`, `invalidArgument` or `sectionTooLarge` from
    ///   ``ProgramMapTable/declareID3Stream(pid:)``.
    public init(segment: [UInt8], metadataPID: UInt16 = ProgramMapTable.defaultID3PID) throws(MPEGTSError) {
        let located = try segment.withUnsafeBufferPointer { buffer throws(MPEGTSError) in
            try TSProgramMapLocator.locate(in: buffer, metadataPID: metadataPID)
        }
        if let existing = located.programMap.id3Stream {
            self.segment = segment
            self.insertionOffset = located.insertionOffset
            self.metadataPID = existing.pid
            self.programMap = located.programMap
            self.rewroteProgramMap = false
        } else {
            // A 0x15 stream the muxer left without its descriptor is where readers look for ID3.
            let metadataPID = located.metadataPID
            if !located.adoptsUndeclaredStream, located.programMap.undeclaredID3Stream?.pid == metadataPID {
                throw MPEGTSError(
                    .pidConflict,
                    "PID 0x\(String(metadataPID, radix: 16)) carries a 0x15 stream that packets cannot be added to")
            }
            guard !located.tablePIDs.contains(metadataPID) else {
                throw MPEGTSError(
                    .pidConflict, "PID 0x\(String(metadataPID, radix: 16)) carries the segment's PAT or a PMT")
            }
            let declared = try located.programMap.declaringID3Stream(pid: metadataPID)
            let rewrite = try segment.withUnsafeBufferPointer { buffer throws(MPEGTSError) in
                try TSProgramMapRewriter.rewrite(buffer, located: located, metadataPID: metadataPID)
            }
            self.segment = rewrite.segment
            self.insertionOffset = rewrite.insertionOffset
            self.metadataPID = metadataPID
            self.programMap = declared
            self.rewroteProgramMap = true
        }
        self.firstVideoPTS = located.firstVideoPTS
        // Packets after the first PMT keep their counters in a rewrite, so the original's count.
        self.followingContinuityCounter = located.followingContinuityCounter
        let index =
            located.followingContinuityCounter == nil
            ? TSMetadataPacketizer.videoIndex(
                in: self.segment, from: self.insertionOffset, videoPIDs: programMap.streams.filter(\.isVideo).map(\.pid)
            )
            : (starts: [], packetsEnd: self.segment.count)
        self.videoPESStarts = index.starts
        self.packetsEnd = index.packetsEnd
    }

    /// Prepares `segment` and injects `tags` in one call; see ``injecting(_:)``.
    public static func inject(
        _ tags: [(pts: UInt64, tag: ID3Tag)], into segment: [UInt8],
        metadataPID: UInt16 = ProgramMapTable.defaultID3PID
    ) throws(MPEGTSError) -> [UInt8] {
        try TSMetadataInjector(segment: segment, metadataPID: metadataPID).injecting(tags)
    }

    /// `segment` with its PMT declaring a timed-ID3 stream and no metadata
    /// added: what conditioning stores once, so later injections copy only.
    public static func declaringID3Stream(
        in segment: [UInt8], metadataPID: UInt16 = ProgramMapTable.defaultID3PID
    ) throws(MPEGTSError) -> [UInt8] {
        try TSMetadataInjector(segment: segment, metadataPID: metadataPID).segment
    }

    /// The transport packets carrying `tags`, one PES each in the order
    /// given: stream ID 0xBD (`private_stream_1`), `data_alignment_indicator`
    /// set, the PTS only, the ID3v2.4 tag as payload; continuity counters
    /// run into the metadata packets already in the segment, if any. They
    /// belong together at ``insertionOffset``: right for a segment that
    /// already has metadata packets or no video, but ahead of their time for
    /// tags later in a video segment (``injecting(_:)`` places each).
    /// - Throws: `payloadTooLarge` for a tag over 65,527 bytes, or an error
    ///   from ``ID3Tag/encoded()``.
    public func metadataPackets(_ tags: [(pts: UInt64, tag: ID3Tag)]) throws(MPEGTSError) -> [UInt8] {
        try packetizer.packets(tags)
    }

    /// What ``metadataPackets(_:)`` needs of the prepared segment, without
    /// its bytes: a server keeping the segment's bytes its own way (shared
    /// by every answer) keeps this beside them instead of the injector.
    public var packetizer: TSMetadataPacketizer {
        TSMetadataPacketizer(
            metadataPID: metadataPID, followingContinuityCounter: followingContinuityCounter,
            insertionOffset: insertionOffset, videoPESStarts: videoPESStarts, segmentLength: packetsEnd)
    }

    /// ``segment`` with each tag's packets inserted where
    /// ``TSMetadataPacketizer/placedPackets(_:)`` puts them.
    public func injecting(_ tags: [(pts: UInt64, tag: ID3Tag)]) throws(MPEGTSError) -> [UInt8] {
        let runs = try packetizer.placedPackets(tags)
        var output: [UInt8] = []
        output.reserveCapacity(segment.count + runs.reduce(0) { $0 + $1.packets.count })
        var copied = 0
        for run in runs {
            output.append(contentsOf: segment[copied..<run.offset])
            output.append(contentsOf: run.packets)
            copied = run.offset
        }
        output.append(contentsOf: segment[copied...])
        return output
    }
}

/// Writes the timed-ID3 packets of one prepared segment (from
/// ``TSMetadataInjector/packetizer``) and says where in it each goes
/// (``placedPackets(_:)``), so a server can send them between unchanged
/// runs of the segment's shared bytes.
public struct TSMetadataPacketizer: Sendable, Hashable {
    /// Where a video PES starts in the prepared segment, and its PTS.
    struct PESStart: Sendable, Hashable {
        var offset: Int
        var pts: UInt64
    }

    /// The PID the packets use.
    public let metadataPID: UInt16
    /// The continuity counter of the segment's first metadata-PID packet
    /// after the insertion point; the packets end just before it.
    let followingContinuityCounter: UInt8?
    /// The injector's ``TSMetadataInjector/insertionOffset``: no tag goes before it.
    let insertionOffset: Int
    /// The video PES starts after ``insertionOffset``, in stream order.
    let videoPESStarts: [PESStart]

    /// The end of the prepared segment's last whole packet: where a tag
    /// later than every video PES goes.
    let segmentLength: Int

    /// Where a tag of `pts` goes: before the first video PES at or after that
    /// time, at the end when none is. Times compare across the 33-bit wrap,
    /// as distances from the first video PES.
    func offset(forPTS pts: UInt64) -> Int {
        guard let base = videoPESStarts.first?.pts else { return insertionOffset }
        let tag = Self.ticks(pts, after: base)
        return videoPESStarts.first { Self.ticks($0.pts, after: base) >= tag }?.offset ?? segmentLength
    }

    /// `pts` − `base` in 90 kHz ticks modulo 2³³, negative for up to 2³² ticks
    /// (13 hours) before `base`.
    static func ticks(_ pts: UInt64, after base: UInt64) -> Int64 {
        let mask: UInt64 = (1 << 33) - 1
        let difference = Int64(((pts & mask) &- (base & mask)) & mask)
        return difference >= 1 << 32 ? difference - (1 << 33) : difference
    }

    /// The tags' packets, grouped by where they go in the prepared segment
    /// (offsets ascending; tags at one offset in the order given), with
    /// continuity counters running on across the groups. Without video PES
    /// starts to place by (an audio-only segment, or one whose metadata PID
    /// already has packets, which the counters must run into) every tag goes
    /// at ``TSMetadataInjector/insertionOffset``, as ``packets(_:)`` writes them.
    public func placedPackets(_ tags: [(pts: UInt64, tag: ID3Tag)]) throws(MPEGTSError)
        -> [(offset: Int, packets: [UInt8])]
    {
        guard !tags.isEmpty else { return [] }
        guard !videoPESStarts.isEmpty else { return [(insertionOffset, try packets(tags))] }
        let placed = tags.indices.map { (index: $0, offset: offset(forPTS: tags[$0].pts)) }
            .sorted { ($0.offset, $0.index) < ($1.offset, $1.index) }
        var runs: [(offset: Int, packets: [UInt8])] = []
        var counter: UInt8 = 0
        for item in placed {
            let (pts, tag) = tags[item.index]
            let pes = try PESPacket(streamID: PESPacket.privateStream1, pts: pts, payload: try tag.encoded()).encoded()
            if runs.last?.offset != item.offset { runs.append((item.offset, [])) }
            PESPacket.packetize(pes, pid: metadataPID, continuityCounter: &counter, into: &runs[runs.count - 1].packets)
        }
        return runs
    }

    /// The video PES starts at or after `offset`, and the end of the last
    /// whole packet, in one pass.
    static func videoIndex(in segment: [UInt8], from offset: Int, videoPIDs: [UInt16]) -> (
        starts: [PESStart], packetsEnd: Int
    ) {
        var starts: [PESStart] = []
        var packetsEnd = offset
        segment.withUnsafeBufferPointer { buffer in
            TSPacketScanner.forEachPacket(in: buffer, from: offset) { start in
                packetsEnd = start + TSPacket.size
                let pid = UInt16(buffer[start + 1] & 0x1F) << 8 | UInt16(buffer[start + 2])
                guard videoPIDs.contains(pid), let header = try? TSPacketHeader(buffer, at: start),
                    !header.transportError, header.hasPayload, header.payloadUnitStart,
                    header.payloadOffset < TSPacket.size
                else { return true }
                let payload = Array(buffer[(start + header.payloadOffset)..<(start + TSPacket.size)])
                if let pts = try? PESHeader(payload[...]).pts { starts.append(PESStart(offset: start, pts: pts)) }
                return true
            }
        }
        return (starts, packetsEnd)
    }

    /// The packets; see ``TSMetadataInjector/metadataPackets(_:)``.
    public func packets(_ tags: [(pts: UInt64, tag: ID3Tag)]) throws(MPEGTSError) -> [UInt8] {
        var packets: [[UInt8]] = []
        packets.reserveCapacity(tags.count)
        var packetCount = 0
        for (pts, tag) in tags {
            let pes = try PESPacket(streamID: PESPacket.privateStream1, pts: pts, payload: try tag.encoded()).encoded()
            packetCount += PESPacket.packetCount(forByteCount: pes.count)
            packets.append(pes)
        }
        var continuityCounter = followingContinuityCounter.map { ($0 &- UInt8(packetCount & 0x0F)) & 0x0F } ?? 0
        var output: [UInt8] = []
        output.reserveCapacity(packetCount * TSPacket.size)
        for pes in packets {
            PESPacket.packetize(pes, pid: metadataPID, continuityCounter: &continuityCounter, into: &output)
        }
        return output
    }
}
