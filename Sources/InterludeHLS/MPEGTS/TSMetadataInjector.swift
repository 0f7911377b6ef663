/// Adds timed-ID3 metadata to an MPEG-TS segment: the segment's PMT declares
/// the ID3 stream (rewritten once if it does not already) and each tag
/// becomes a `private_stream_1` PES with its PTS on the metadata PID,
/// inserted right after the first PAT/PMT pair, so a player knows the
/// stream before its first packet. Every other byte is copied unchanged.
///
/// Preparing is the costly part (one pass over the packets); do it once per
/// shared segment and call ``injecting(_:)`` per request, or write
/// `segment[..<insertionOffset]`, ``metadataPackets(_:)`` and
/// `segment[insertionOffset...]` out without joining them.
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
    /// run into the metadata packets already in the segment, if any.
    /// - Throws: `payloadTooLarge` for a tag over 65,527 bytes, or an error
    ///   from ``ID3Tag/encoded()``.
    public func metadataPackets(_ tags: [(pts: UInt64, tag: ID3Tag)]) throws(MPEGTSError) -> [UInt8] {
        try packetizer.packets(tags)
    }

    /// What ``metadataPackets(_:)`` needs of the prepared segment, without
    /// its bytes: a server keeping the segment's bytes its own way (shared
    /// by every answer) keeps this beside them instead of the injector.
    public var packetizer: TSMetadataPacketizer {
        TSMetadataPacketizer(metadataPID: metadataPID, followingContinuityCounter: followingContinuityCounter)
    }

    /// ``segment`` with the packets of ``metadataPackets(_:)`` inserted at
    /// ``insertionOffset``.
    public func injecting(_ tags: [(pts: UInt64, tag: ID3Tag)]) throws(MPEGTSError) -> [UInt8] {
        let metadata = try metadataPackets(tags)
        var output: [UInt8] = []
        output.reserveCapacity(segment.count + metadata.count)
        output.append(contentsOf: segment[..<insertionOffset])
        output.append(contentsOf: metadata)
        output.append(contentsOf: segment[insertionOffset...])
        return output
    }
}

/// Writes the timed-ID3 packets of one prepared segment (from
/// ``TSMetadataInjector/packetizer``): they go at the injector's
/// ``TSMetadataInjector/insertionOffset``, between the segment's unchanged head and tail.
public struct TSMetadataPacketizer: Sendable, Hashable {
    /// The PID the packets use.
    public let metadataPID: UInt16
    /// The continuity counter of the segment's first metadata-PID packet
    /// after the insertion point; the packets end just before it.
    let followingContinuityCounter: UInt8?

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
