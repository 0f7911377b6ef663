/// The program association table (ISO/IEC 13818-1 section 2.4.4.3), carried
/// on PID 0: which PID carries each program's map.
public struct ProgramAssociationTable: Sendable, Hashable {
    /// The PAT's PID, 0x0000.
    public static let pid: UInt16 = 0
    /// The PAT's `table_id`, 0x00.
    public static let tableID: UInt8 = 0

    /// One entry of the table.
    public struct Program: Sendable, Hashable {
        /// `program_number`; 0 names the network information PID instead of a program.
        public var number: UInt16
        /// `program_map_PID` (or `network_PID` for program 0).
        public var pid: UInt16

        /// Creates an entry.
        public init(number: UInt16, pid: UInt16) {
            self.number = number
            self.pid = pid
        }
    }

    /// `transport_stream_id`.
    public var transportStreamID: UInt16
    /// `version_number`, 0…31.
    public var version: UInt8
    /// `current_next_indicator`: the table applies now (not next).
    public var isCurrent: Bool
    /// `section_number`.
    public var sectionNumber: UInt8
    /// `last_section_number`.
    public var lastSectionNumber: UInt8
    /// The entries in table order.
    public var programs: [Program]

    /// Creates a one-section table; the defaults are those ffmpeg writes.
    public init(transportStreamID: UInt16 = 1, version: UInt8 = 0, programs: [Program]) {
        self.transportStreamID = transportStreamID
        self.version = version
        self.isCurrent = true
        self.sectionNumber = 0
        self.lastSectionNumber = 0
        self.programs = programs
    }

    /// The program map PIDs of the real programs (program number not 0), in order.
    public var programMapPIDs: [UInt16] { programs.filter { $0.number != 0 }.map(\.pid) }

    /// Reads a section (from `table_id` to the CRC), checking its length and CRC-32.
    public init(section: some Collection<UInt8>) throws(MPEGTSError) {
        let bytes = Array(section)
        let parsed = try PSISection(bytes: bytes[...], tableID: Self.tableID, name: "PAT")
        guard parsed.body.count % 4 == 0 else {
            throw MPEGTSError(.invalidSection, "PAT program loop is \(parsed.body.count) bytes, not a multiple of 4")
        }
        transportStreamID = parsed.tableIDExtension
        version = parsed.version
        isCurrent = parsed.isCurrent
        sectionNumber = parsed.sectionNumber
        lastSectionNumber = parsed.lastSectionNumber
        var programs: [Program] = []
        for index in stride(from: parsed.body.startIndex, to: parsed.body.endIndex, by: 4) {
            programs.append(
                Program(number: bigEndian16(bytes, at: index), pid: bigEndian16(bytes, at: index + 2) & 0x1FFF))
        }
        self.programs = programs
    }

    /// The table as one section, with `section_length` and CRC-32 computed.
    public func encodedSection() throws(MPEGTSError) -> [UInt8] {
        var body: [UInt8] = []
        body.reserveCapacity(programs.count * 4)
        for program in programs {
            let reservedAndPID: UInt16 = 0xE000 | program.pid & 0x1FFF
            body.append(UInt8(program.number >> 8))
            body.append(UInt8(program.number & 0xFF))
            body.append(UInt8(reservedAndPID >> 8))
            body.append(UInt8(reservedAndPID & 0xFF))
        }
        return try PSISection(
            tableID: Self.tableID, tableIDExtension: transportStreamID, version: version, isCurrent: isCurrent,
            sectionNumber: sectionNumber, lastSectionNumber: lastSectionNumber, body: body[...]
        ).encoded(name: "PAT")
    }

    /// The table as transport packets on PID 0, continuity counters from
    /// `continuityCounter` (advanced past the last packet written).
    public func encodedPackets(continuityCounter: inout UInt8) throws(MPEGTSError) -> [UInt8] {
        PSISection.packets(carrying: try encodedSection(), pid: Self.pid, continuityCounter: &continuityCounter)
    }
}
