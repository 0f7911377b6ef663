extension ProgramMapTable {
    /// The PID the timed-ID3 stream gets by default, 0x0102 (after ffmpeg's
    /// video 0x0100 and audio 0x0101).
    public static let defaultID3PID: UInt16 = 0x0102

    /// Declares a timed-ID3 elementary stream the way Apple's "Timed Metadata
    /// for HTTP Live Streaming" specifies: a `stream_type` 0x15 stream on
    /// `pid` carrying ``TSDescriptor/id3Metadata``, and
    /// ``TSDescriptor/id3MetadataPointer(programNumber:)`` in the program info
    /// loop; `version_number` goes up by one (mod 32) so a demuxer that kept
    /// the old table reads the new one.
    ///
    /// When `pid` is a `stream_type` 0x15 stream without a
    /// `metadata_descriptor` (``undeclaredID3Stream``, which some muxers
    /// write), that stream gets the descriptor instead of a second one
    /// being added. A new stream goes before any other 0x15 stream in the
    /// loop: hls.js reads only the first 0x15 stream it finds as ID3.
    ///
    /// Idempotent: a table that already has a timed-ID3 stream (see
    /// ``ElementaryStream/isID3Metadata``), on any PID, is left alone and the
    /// call returns false.
    /// - Throws: `invalidArgument` for a PID outside 0x0010…0x1FFE,
    ///   `pidConflict` when another stream (or the PCR) uses `pid`,
    ///   `sectionTooLarge` when the table would no longer fit one section.
    @discardableResult
    public mutating func declareID3Stream(pid: UInt16 = defaultID3PID) throws(MPEGTSError) -> Bool {
        guard id3Stream == nil else { return false }
        // PIDs 0x0000–0x000F are reserved for tables (table 2-3), 0x1FFF is the null packet.
        guard (0x0010...TSPacket.maximumPID).contains(pid) else {
            throw MPEGTSError(.invalidArgument, "PID 0x\(String(pid, radix: 16)) is outside 0x0010…0x1FFE")
        }
        var updated = self
        if undeclaredID3Stream?.pid == pid, let existing = streams.firstIndex(where: { $0.pid == pid }) {
            updated.streams[existing].descriptors.append(.id3Metadata)
        } else {
            guard !streams.contains(where: { $0.pid == pid }), pid != pcrPID else {
                throw MPEGTSError(.pidConflict, "PID 0x\(String(pid, radix: 16)) is already used by the program")
            }
            let stream = ElementaryStream(streamType: .metadataPES, pid: pid, descriptors: [.id3Metadata])
            let firstMetadata = streams.firstIndex { $0.streamType == .metadataPES } ?? streams.endIndex
            updated.streams.insert(stream, at: firstMetadata)
        }
        if !programDescriptors.contains(where: { $0.tag == TSDescriptor.metadataPointerTag && $0.describesID3 }) {
            updated.programDescriptors.append(.id3MetadataPointer(programNumber: programNumber))
        }
        updated.version = (version + 1) & 0x1F
        _ = try updated.encodedSection()
        self = updated
        return true
    }

    /// The first `stream_type` 0x15 stream with no `metadata_descriptor` at
    /// all, when no stream is declared timed ID3 (see
    /// ``ElementaryStream/isID3Metadata``): what readers such as hls.js and
    /// ExoPlayer take for ID3, and ``TSDemuxer`` reads as ID3, so timed ID3
    /// added to the segment belongs on its PID.
    public var undeclaredID3Stream: ElementaryStream? {
        guard id3Stream == nil else { return nil }
        return streams.first { $0.streamType == .metadataPES && !$0.isID3Metadata && $0.isReadAsID3Metadata }
    }

    /// This table with a timed-ID3 stream declared; see ``declareID3Stream(pid:)``.
    public func declaringID3Stream(pid: UInt16 = defaultID3PID) throws(MPEGTSError) -> ProgramMapTable {
        var copy = self
        try copy.declareID3Stream(pid: pid)
        return copy
    }
}
