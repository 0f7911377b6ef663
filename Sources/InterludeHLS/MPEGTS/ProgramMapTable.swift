/// The program map table of one program (ISO/IEC 13818-1 section 2.4.4.8):
/// its PCR PID, program descriptors and elementary streams.
public struct ProgramMapTable: Sendable, Hashable {
    /// The PMT's `table_id`, 0x02.
    public static let tableID: UInt8 = 2

    /// One elementary stream of the program.
    public struct ElementaryStream: Sendable, Hashable {
        /// `stream_type`.
        public var streamType: TSStreamType
        /// `elementary_PID`.
        public var pid: UInt16
        /// The ES info loop's descriptors, in order.
        public var descriptors: [TSDescriptor]

        /// Creates a stream entry.
        public init(streamType: TSStreamType, pid: UInt16, descriptors: [TSDescriptor] = []) {
            self.streamType = streamType
            self.pid = pid
            self.descriptors = descriptors
        }

        /// True when this is a timed-ID3 stream: `stream_type` 0x15 with a
        /// `metadata_descriptor` naming `ID3 ` (Apple's Timed Metadata for
        /// HTTP Live Streaming), or private PES (0x06) registered as `ID3 `.
        public var isID3Metadata: Bool {
            switch streamType {
            case .metadataPES:
                return descriptors.contains { $0.tag == TSDescriptor.metadataTag && $0.describesID3 }
            case .privatePES:
                return descriptors.contains { $0.tag == TSDescriptor.registrationTag && $0.describesID3 }
            default:
                return false
            }
        }

        /// True when a reader takes the stream for timed ID3 (``TSDemuxer``
        /// does): what ``isID3Metadata`` declares, `stream_type` 0x15 without
        /// a `metadata_descriptor` naming another format (some muxers write
        /// none; hls.js and ExoPlayer read any 0x15 stream as ID3), or private
        /// PES (0x06) whose `metadata_descriptor` names `ID3 `. Writers keep
        /// to ``isID3Metadata``, what Apple's spec declares.
        var isReadAsID3Metadata: Bool {
            if isID3Metadata { return true }
            let metadataDescriptors = descriptors.filter { $0.tag == TSDescriptor.metadataTag }
            switch streamType {
            case .metadataPES: return metadataDescriptors.isEmpty
            case .privatePES: return metadataDescriptors.contains(where: \.describesID3)
            default: return false
            }
        }

        /// True for a video stream: a video `stream_type`.
        public var isVideo: Bool { streamType.isVideo }

        /// True for an audio stream: an audio `stream_type`, or private PES
        /// with an AC-3 (0x6A), E-AC-3 (0x7A) or AAC (0x7C) descriptor (ETSI EN 300 468).
        public var isAudio: Bool {
            streamType.isAudio
                || (streamType == .privatePES && descriptors.contains { [0x6A, 0x7A, 0x7C].contains($0.tag) })
        }
    }

    /// `program_number`.
    public var programNumber: UInt16
    /// `version_number`, 0…31.
    public var version: UInt8
    /// `current_next_indicator`: the table applies now (not next).
    public var isCurrent: Bool
    /// `PCR_PID`: the PID whose adaptation fields carry the program clock.
    public var pcrPID: UInt16
    /// The program info loop's descriptors, in order.
    public var programDescriptors: [TSDescriptor]
    /// The elementary streams, in table order.
    public var streams: [ElementaryStream]

    /// Creates a table.
    public init(
        programNumber: UInt16 = 1, version: UInt8 = 0, pcrPID: UInt16, programDescriptors: [TSDescriptor] = [],
        streams: [ElementaryStream]
    ) {
        self.programNumber = programNumber
        self.version = version
        self.isCurrent = true
        self.pcrPID = pcrPID
        self.programDescriptors = programDescriptors
        self.streams = streams
    }

    /// Reads a section (from `table_id` to the CRC), checking its length,
    /// CRC-32 and that every loop fits.
    public init(section: some Collection<UInt8>) throws(MPEGTSError) {
        let bytes = Array(section)
        let parsed = try PSISection(bytes: bytes[...], tableID: Self.tableID, name: "PMT")
        let body = parsed.body
        guard body.count >= 4 else {
            throw MPEGTSError(.invalidSection, "PMT is too short for PCR_PID and program_info_length")
        }
        let start = body.startIndex
        programNumber = parsed.tableIDExtension
        version = parsed.version
        isCurrent = parsed.isCurrent
        pcrPID = bigEndian16(bytes, at: start) & 0x1FFF
        let infoLength = Int(bigEndian16(bytes, at: start + 2) & 0x0FFF)
        let infoEnd = start + 4 + infoLength
        guard infoEnd <= body.endIndex else {
            throw MPEGTSError(.invalidSection, "PMT program_info_length \(infoLength) runs past the section")
        }
        programDescriptors = try readDescriptors(bytes[(start + 4)..<infoEnd], in: "PMT program info")
        var streams: [ElementaryStream] = []
        var cursor = infoEnd
        while cursor < body.endIndex {
            guard cursor + 5 <= body.endIndex else {
                throw MPEGTSError(.invalidSection, "PMT stream entry at byte \(cursor - start) is cut short")
            }
            let infoLength = Int(bigEndian16(bytes, at: cursor + 3) & 0x0FFF)
            let end = cursor + 5 + infoLength
            guard end <= body.endIndex else {
                throw MPEGTSError(.invalidSection, "PMT ES_info_length \(infoLength) runs past the section")
            }
            streams.append(
                ElementaryStream(
                    streamType: TSStreamType(rawValue: bytes[cursor]),
                    pid: bigEndian16(bytes, at: cursor + 1) & 0x1FFF,
                    descriptors: try readDescriptors(bytes[(cursor + 5)..<end], in: "PMT ES info")))
            cursor = end
        }
        self.streams = streams
    }

    /// The table as one section, with `section_length` and CRC-32 computed;
    /// reserved bits are ones.
    public func encodedSection() throws(MPEGTSError) -> [UInt8] {
        var body: [UInt8] = [0xE0 | UInt8(pcrPID >> 8 & 0x1F), UInt8(pcrPID & 0xFF), 0, 0]
        try writeDescriptors(programDescriptors, into: &body)
        let infoLength = body.count - 4
        guard infoLength <= 0x3FF else {
            throw MPEGTSError(.sectionTooLarge, "PMT program info is \(infoLength) bytes, over 1023")
        }
        body[2] = 0xF0 | UInt8(infoLength >> 8)
        body[3] = UInt8(infoLength & 0xFF)
        for stream in streams {
            let entryStart = body.count
            body += [stream.streamType.rawValue, 0xE0 | UInt8(stream.pid >> 8 & 0x1F), UInt8(stream.pid & 0xFF), 0, 0]
            try writeDescriptors(stream.descriptors, into: &body)
            let length = body.count - entryStart - 5
            body[entryStart + 3] = 0xF0 | UInt8(length >> 8 & 0x03)
            body[entryStart + 4] = UInt8(length & 0xFF)
        }
        return try PSISection(
            tableID: Self.tableID, tableIDExtension: programNumber, version: version, isCurrent: isCurrent,
            body: body[...]
        ).encoded(name: "PMT")
    }

    /// The table as transport packets on `pid`, continuity counters from
    /// `continuityCounter` (advanced past the last packet written).
    public func encodedPackets(pid: UInt16, continuityCounter: inout UInt8) throws(MPEGTSError) -> [UInt8] {
        PSISection.packets(carrying: try encodedSection(), pid: pid, continuityCounter: &continuityCounter)
    }

    /// The first timed-ID3 stream (see ``ElementaryStream/isID3Metadata``), if any.
    public var id3Stream: ElementaryStream? { streams.first(where: \.isID3Metadata) }
}
