/// One timed-metadata PES packet read from a transport stream: its PTS and
/// the frames of the ID3 tag(s) it carries.
public struct TimedID3Metadata: Sendable, Hashable {
    /// The PES packet's presentation time stamp, 90 kHz, 33 bits.
    public var pts: UInt64
    /// The frames of every ID3 tag in the PES payload, in order.
    public var frames: [ID3Frame]
    /// The PID the PES packet arrived on.
    public var pid: UInt16
    /// The offset, in the bytes fed to the demuxer, of the packet that started the PES.
    public var byteOffset: Int

    /// Creates a value (the demuxer creates these; tests compare with them).
    public init(pts: UInt64, frames: [ID3Frame], pid: UInt16, byteOffset: Int) {
        self.pts = pts
        self.frames = frames
        self.pid = pid
        self.byteOffset = byteOffset
    }
}

/// What ``TSDemuxer`` found in the bytes it was fed, in stream order.
public enum TSDemuxEvent: Sendable, Hashable {
    /// A program map table, new or changed (repeats of the same table are not reported).
    case programMap(ProgramMapTable, pid: UInt16)
    /// A timed-ID3 PES packet, complete.
    case timedMetadata(TimedID3Metadata)
    /// Something was skipped: a packet, a section, a PES or an ID3 frame.
    case issue(MPEGTSError)
}

/// Reads the parts of an MPEG-2 transport stream an HLS client or server
/// needs without decoding media: the PAT and PMT, every timed-ID3 PES (its
/// PTS and ID3 frames), and the PTS of the first video and first audio PES.
///
/// Feed it a segment whole or in chunks as they download; events come out
/// in stream order and no chunk boundary changes them. Use one demuxer per
/// segment: counters and first time stamps are the segment's. Bad input
/// never traps: lost sync is re-acquired, damaged packets, sections, PES
/// packets and ID3 frames are skipped and reported as
/// ``TSDemuxEvent/issue(_:)``, and memory stays bounded (timed-metadata PES
/// packets being reassembled hold at most ``maximumMetadataSize`` bytes).
/// The first video and audio PTS are those of PES packets that start after
/// the PMT naming their streams.
///
/// Timed ID3 is read where players find it, not only where Apple's spec
/// declares it: on `stream_type` 0x15 with no `metadata_descriptor` naming
/// another format, and on private PES (0x06) registered or described as `ID3 `.
public struct TSDemuxer: Sendable {
    /// The default ``maximumMetadataSize``, 1 MiB.
    public static let defaultMaximumMetadataSize = 1 << 20

    /// The most bytes of timed-metadata PES held at once, over all metadata
    /// PIDs: a PES that would need more is dropped and reported.
    public let maximumMetadataSize: Int
    /// The latest program association table.
    public internal(set) var programAssociation: ProgramAssociationTable?
    /// The PTS of the first video PES packet in stream order, 90 kHz.
    public internal(set) var firstVideoPTS: UInt64?
    /// The PTS of the first audio PES packet in stream order, 90 kHz.
    public internal(set) var firstAudioPTS: UInt64?
    /// Transport packets read so far.
    public internal(set) var packetCount = 0

    /// What each PID carries, indexed by PID (a table beats hashing per packet).
    var roles = [PIDRole](repeating: .unknown, count: 8192)
    /// The last continuity counter per PID, 0xFF before the first packet.
    var continuityCounters = [UInt8](repeating: 0xFF, count: 8192)
    var sectionAssemblers: [UInt16: PSISectionAssembler] = [:]
    var lastSections: [UInt16: [UInt8]] = [:]
    var programMapsByPID: [UInt16: ProgramMapTable] = [:]
    var metadataAssemblers: [UInt16: MetadataPESAssembler] = [:]
    /// First bytes of a video or audio PES whose header spans packets.
    var headerBuffers: [UInt16: [UInt8]] = [:]
    /// Bytes held by all of `metadataAssemblers` together.
    var bufferedMetadataBytes = 0

    /// Bytes of an incomplete packet (or unconfirmed resync point) kept for the next chunk.
    private var pending: [UInt8] = []
    /// Offset in the whole input of `pending`'s first byte.
    private var pendingOffset = 0
    private var synchronised = true
    /// Where sync was lost, while it has not been regained.
    private var lostSyncOffset: Int?

    /// Creates a demuxer.
    public init(maximumMetadataSize: Int = defaultMaximumMetadataSize) {
        self.maximumMetadataSize = max(0, maximumMetadataSize)
        roles[Int(ProgramAssociationTable.pid)] = .programAssociation
    }

    /// The program map tables read so far, in the PAT's program order.
    public var programMaps: [ProgramMapTable] {
        (programAssociation?.programMapPIDs ?? []).compactMap { programMapsByPID[$0] }
    }

    /// The first program's map (HLS segments carry one program).
    public var programMap: ProgramMapTable? { programMaps.first }

    /// Reads the next bytes of the stream.
    public mutating func feed<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> [TSDemuxEvent] {
        var events: [TSDemuxEvent] = []
        let handled: Void? = bytes.withContiguousStorageIfAvailable { buffer in
            feed(buffer: buffer, events: &events)
        }
        if handled == nil {
            Array(bytes).withUnsafeBufferPointer { feed(buffer: $0, events: &events) }
        }
        return events
    }

    private mutating func feed(buffer: UnsafeBufferPointer<UInt8>, events: inout [TSDemuxEvent]) {
        var rest = buffer
        // A packet the previous chunk cut is completed from the head of this one,
        // so the rest is read in place instead of copied behind it.
        if !pending.isEmpty && synchronised && pending[0] == TSPacket.syncByte && pending.count < TSPacket.size {
            let needed = TSPacket.size - pending.count
            guard buffer.count >= needed else {
                pending.append(contentsOf: buffer)
                return
            }
            var packet = pending
            pending = []
            packet.append(contentsOf: buffer.prefix(needed))
            packet.withUnsafeBufferPointer { process($0, isFinal: false, events: &events) }
            rest = UnsafeBufferPointer(rebasing: buffer[needed...])
        }
        if pending.isEmpty {
            process(rest, isFinal: false, events: &events)
        } else {
            var joined = pending
            pending = []
            joined.append(contentsOf: rest)
            joined.withUnsafeBufferPointer { process($0, isFinal: false, events: &events) }
        }
    }

    /// Ends the stream: reports trailing bytes that are not a whole packet
    /// and completes a timed-metadata PES that had no stated length.
    public mutating func finish() -> [TSDemuxEvent] {
        var events: [TSDemuxEvent] = []
        let rest = pending
        pending = []
        rest.withUnsafeBufferPointer { process($0, isFinal: true, events: &events) }
        if let lost = lostSyncOffset {
            // The input ended while sync was still lost (every byte was kept from no packet).
            events.append(
                .issue(
                    MPEGTSError(
                        .lostSync, "\(pendingOffset - lost) bytes at the end are not transport packets",
                        byteOffset: lost)))
            lostSyncOffset = nil
        }
        for pid in metadataAssemblers.keys.sorted() {
            if let pes = metadataAssemblers[pid]?.finish(issues: &events) {
                deliver(pes, pid: pid, events: &events)
            }
        }
        bufferedMetadataBytes = 0
        return events
    }

    /// Walks the packets of `buffer`, which starts at `pendingOffset` in the input.
    private mutating func process(_ buffer: UnsafeBufferPointer<UInt8>, isFinal: Bool, events: inout [TSDemuxEvent]) {
        let base = pendingOffset
        var offset = 0
        scanning: while true {
            switch TSPacketScanner.next(in: buffer, from: offset, synchronised: synchronised, isFinal: isFinal) {
            case .packet(let start):
                reportRegainedSync(at: base + start, skippedFrom: base + offset, events: &events)
                handlePacket(buffer, at: start, inputOffset: base + start, events: &events)
                offset = start + TSPacket.size
                synchronised = true
            case .resynchronised(let skippedFrom, let start):
                reportRegainedSync(at: base + start, skippedFrom: base + skippedFrom, events: &events)
                handlePacket(buffer, at: start, inputOffset: base + start, events: &events)
                offset = start + TSPacket.size
                synchronised = true
            case .needMoreData(let keepFrom):
                if keepFrom > offset {
                    lostSyncOffset = lostSyncOffset ?? base + offset
                    synchronised = false
                }
                pending = Array(buffer[keepFrom...])
                pendingOffset = base + keepFrom
                return
            case .truncated(let start):
                if let lost = lostSyncOffset ?? (buffer[start] == TSPacket.syncByte ? nil : base + start) {
                    events.append(
                        .issue(
                            MPEGTSError(
                                .lostSync, "\(base + buffer.count - lost) bytes at the end are not transport packets",
                                byteOffset: lost)))
                } else {
                    events.append(
                        .issue(
                            MPEGTSError(
                                .truncatedPacket, "the last \(buffer.count - start) bytes are not a whole packet",
                                byteOffset: base + start)))
                }
                lostSyncOffset = nil
                break scanning
            case .end:
                break scanning
            }
        }
        pendingOffset = base + buffer.count
    }

    private mutating func reportRegainedSync(at start: Int, skippedFrom: Int, events: inout [TSDemuxEvent]) {
        let lost = lostSyncOffset ?? skippedFrom
        lostSyncOffset = nil
        guard start > lost else { return }
        events.append(
            .issue(
                MPEGTSError(
                    .lostSync, "skipped \(start - lost) bytes that were not transport packets", byteOffset: lost)))
    }
}

/// What the demuxer does with a PID's packets.
enum PIDRole: UInt8, Sendable {
    case unknown
    case programAssociation
    case programMap
    case video
    case audio
    case id3Metadata
    case otherStream
}
