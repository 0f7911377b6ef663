/// Reassembles the PES packets of one timed-metadata PID from transport
/// packet payloads: a packet with `payload_unit_start_indicator` begins a
/// PES; it is complete when `PES_packet_length` bytes have arrived, or (for
/// a PES with no stated length) when the next one begins or the stream ends.
struct MetadataPESAssembler {
    struct Completed {
        var bytes: [UInt8]
        /// Offset in the input of the transport packet that started it.
        var inputOffset: Int
    }

    private var bytes: [UInt8] = []
    private var isCollecting = false
    private var inputOffset = 0
    /// `6 + PES_packet_length`, once known; nil while unknown or unbounded.
    private var expectedSize: Int?

    /// The bytes held for the PES being collected.
    var bufferedByteCount: Int { bytes.count }

    /// Adds one packet's payload; returns the PES packets it completes: an
    /// unbounded one that ends because the next begins, and the next when it
    /// ends in this same packet.
    mutating func append(
        _ payload: UnsafeBufferPointer<UInt8>, unitStart: Bool, inputOffset: Int, maximumSize: Int,
        issues: inout [TSDemuxEvent]
    ) -> [Completed] {
        var completed: [Completed] = []
        if unitStart {
            if isCollecting, let previous = finish(issues: &issues) { completed.append(previous) }
            bytes.removeAll(keepingCapacity: true)
            isCollecting = true
            expectedSize = nil
            self.inputOffset = inputOffset
        } else if !isCollecting {
            return []  // joined mid-PES, or after a dropped one
        }
        guard bytes.count + payload.count <= maximumSize else {
            issues.append(
                .issue(
                    MPEGTSError(
                        .payloadTooLarge,
                        "timed-metadata PES needs more than the \(maximumSize) bytes left to buffer and was dropped",
                        byteOffset: self.inputOffset)))
            reset()
            return completed
        }
        bytes.append(contentsOf: payload)
        if expectedSize == nil, bytes.count >= 6 {
            let length = Int(bytes[4]) << 8 | Int(bytes[5])
            if length > 0 { expectedSize = 6 + length }
        }
        if let expectedSize, bytes.count >= expectedSize {
            // A PES ends with its stated length; later bytes in the packet are not part of it.
            completed.append(Completed(bytes: Array(bytes.prefix(expectedSize)), inputOffset: self.inputOffset))
            reset()
        }
        return completed
    }

    /// Ends the PES being collected: complete when it had no stated length,
    /// an issue when it is shorter than stated.
    mutating func finish(issues: inout [TSDemuxEvent]) -> Completed? {
        defer { reset() }
        guard isCollecting else { return nil }
        if let expectedSize, bytes.count < expectedSize {
            issues.append(
                .issue(
                    MPEGTSError(
                        .truncatedPES,
                        "timed-metadata PES ended after \(bytes.count) of the \(expectedSize) bytes PES_packet_length states",
                        byteOffset: inputOffset)))
            return nil
        }
        return Completed(bytes: bytes, inputOffset: inputOffset)
    }

    /// Drops the PES being collected after lost packets, reporting it.
    mutating func abandon(issues: inout [TSDemuxEvent]) {
        if isCollecting {
            issues.append(
                .issue(
                    MPEGTSError(
                        .continuityError, "timed-metadata PES lost packets and was dropped", byteOffset: inputOffset)))
        }
        reset()
    }

    private mutating func reset() {
        bytes.removeAll(keepingCapacity: true)
        isCollecting = false
        expectedSize = nil
    }
}
