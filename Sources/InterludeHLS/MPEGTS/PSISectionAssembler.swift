/// Reassembles PSI sections from the payloads of the packets of one PID
/// (ISO/IEC 13818-1 section 2.4.4.1): a packet with
/// `payload_unit_start_indicator` begins with a `pointer_field` giving how
/// many bytes still belong to the previous section; a section may span
/// packets, several may share one, and 0xFF after a section is stuffing.
struct PSISectionAssembler {
    /// The most bytes a section can have: private sections allow a
    /// `section_length` of 4093, plus the three header bytes.
    static let maximumSectionSize = 4096

    private var partial: [UInt8] = []
    private var isCollecting = false

    /// Whole sections (raw bytes, not yet checked) completed by this payload.
    mutating func append(
        payload: UnsafeBufferPointer<UInt8>, unitStart: Bool, issues: inout [MPEGTSError], offset: Int
    ) -> [[UInt8]] {
        var sections: [[UInt8]] = []
        var cursor = 0
        if unitStart {
            guard let pointer = payload.first.map(Int.init), 1 + pointer <= payload.count else {
                reset()
                issues.append(
                    MPEGTSError(.truncatedSection, "pointer_field points past the packet", byteOffset: offset))
                return sections
            }
            if isCollecting {
                continueSection(payload[1..<(1 + pointer)], into: &sections, issues: &issues, offset: offset)
                if isCollecting {
                    issues.append(
                        MPEGTSError(
                            .truncatedSection, "a section ended before its section_length (new section started)",
                            byteOffset: offset))
                    reset()
                }
            }
            cursor = 1 + pointer
            startSections(payload[cursor...], into: &sections, issues: &issues, offset: offset)
        } else if isCollecting {
            continueSection(payload[...], into: &sections, issues: &issues, offset: offset)
        }
        return sections
    }

    /// Forgets a partial section (after a continuity error).
    mutating func reset() {
        partial.removeAll(keepingCapacity: true)
        isCollecting = false
    }

    /// The total size of the section in `partial`, once its header is there.
    private var expectedSize: Int? {
        guard partial.count >= 3 else { return nil }
        return 3 + (Int(partial[1] & 0x0F) << 8 | Int(partial[2]))
    }

    private mutating func continueSection(
        _ bytes: Slice<UnsafeBufferPointer<UInt8>>, into sections: inout [[UInt8]], issues: inout [MPEGTSError],
        offset: Int
    ) {
        var rest = bytes
        // Up to three bytes complete the header, then the section itself.
        if expectedSize == nil {
            let needed = 3 - partial.count
            partial += rest.prefix(needed)
            rest = rest.dropFirst(min(needed, rest.count))
        }
        guard let size = expectedSize else { return }
        partial += rest.prefix(size - partial.count)
        if partial.count == size {
            sections.append(partial)
            reset()
        }
    }

    private mutating func startSections(
        _ bytes: Slice<UnsafeBufferPointer<UInt8>>, into sections: inout [[UInt8]], issues: inout [MPEGTSError],
        offset: Int
    ) {
        var rest = bytes
        while let tableID = rest.first, tableID != 0xFF {
            guard rest.count >= 3 else {
                partial = Array(rest)
                isCollecting = true
                return
            }
            let size = 3 + (Int(rest[rest.startIndex + 1] & 0x0F) << 8 | Int(rest[rest.startIndex + 2]))
            guard size <= Self.maximumSectionSize else {
                issues.append(
                    MPEGTSError(.invalidSection, "section_length \(size - 3) is over 4093", byteOffset: offset))
                return
            }
            if size <= rest.count {
                sections.append(Array(rest.prefix(size)))
                rest = rest.dropFirst(size)
            } else {
                partial = Array(rest)
                isCollecting = true
                return
            }
        }
    }
}
