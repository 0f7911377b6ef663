/// An error raised while reading or writing MPEG-2 transport stream bytes
/// (ISO/IEC 13818-1), their PSI tables, PES packets or the ID3v2 tags they
/// carry, with the byte offset in the input where it was found.
///
/// Readers throw it when nothing useful can be read, and otherwise report it
/// as an issue beside what they did read (a skipped packet or frame).
public struct MPEGTSError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong. A struct of static values rather than a closed enum so
    /// that adding a code never breaks a caller's `switch`.
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        /// The stable identifier of the code, e.g. `"lostSync"`.
        public let name: String

        /// Creates a code from its identifier; prefer the static values.
        public init(_ name: String) { self.name = name }

        /// Fewer than 188 bytes are left for a transport packet.
        public static let truncatedPacket = Code("truncatedPacket")
        /// A packet does not start with the sync byte 0x47; the reader skipped
        /// to the next position where packets line up again.
        public static let lostSync = Code("lostSync")
        /// The packet's transport_error_indicator is set, so its contents are not trusted.
        public static let transportError = Code("transportError")
        /// An adaptation field's length or flags do not fit the packet.
        public static let invalidAdaptationField = Code("invalidAdaptationField")
        /// A continuity_counter skipped values on a PID being reassembled; the
        /// partial section or PES was dropped.
        public static let continuityError = Code("continuityError")
        /// A PSI section's `section_length` runs past the bytes that carry it.
        public static let truncatedSection = Code("truncatedSection")
        /// A PSI section is malformed: wrong `table_id`, syntax bits, or a
        /// descriptor or stream loop that does not fit.
        public static let invalidSection = Code("invalidSection")
        /// A PSI section's CRC-32/MPEG-2 does not match its bytes.
        public static let checksumMismatch = Code("checksumMismatch")
        /// A table, descriptor or packet payload is too large for its length field.
        public static let sectionTooLarge = Code("sectionTooLarge")
        /// A PES packet's start code, marker bits or header length are wrong.
        public static let invalidPES = Code("invalidPES")
        /// A PES packet is shorter than its `PES_packet_length` says.
        public static let truncatedPES = Code("truncatedPES")
        /// A PES packet or payload exceeds the size the reader or writer allows.
        public static let payloadTooLarge = Code("payloadTooLarge")
        /// The bytes are not an ID3v2 tag (no `ID3` header, or a malformed one).
        public static let invalidID3 = Code("invalidID3")
        /// The ID3v2 major version is not 3 or 4.
        public static let unsupportedID3Version = Code("unsupportedID3Version")
        /// A synchsafe integer has a byte with its high bit set (ID3v2.4 section 6.2).
        public static let invalidSynchsafeInteger = Code("invalidSynchsafeInteger")
        /// An ID3v2 tag or frame is larger than the bytes that hold it.
        public static let truncatedID3 = Code("truncatedID3")
        /// An ID3v2 frame is malformed (bad identifier, encoding or layout) and was skipped.
        public static let invalidID3Frame = Code("invalidID3Frame")
        /// No PAT and PMT could be read from the segment.
        public static let missingProgramMap = Code("missingProgramMap")
        /// The requested PID is already used by another stream of the program.
        public static let pidConflict = Code("pidConflict")
        /// An argument is outside the range the format allows (a PID above 0x1FFE, …).
        public static let invalidArgument = Code("invalidArgument")

        /// The identifier.
        public var description: String { name }
    }

    /// What went wrong.
    public var code: Code
    /// A sentence for people, naming the offending field or value.
    public var message: String
    /// The byte offset in the input where the problem was found, when known.
    public var byteOffset: Int?

    /// Creates an error; `byteOffset` defaults to unknown.
    public init(_ code: Code, _ message: String, byteOffset: Int? = nil) {
        self.code = code
        self.message = message
        self.byteOffset = byteOffset
    }

    /// A one-line description with the byte offset.
    public var description: String {
        if let byteOffset { return "byte \(byteOffset): \(message) [\(code)]" }
        return "\(message) [\(code)]"
    }

    /// The same error with its offset moved by `base` (for errors found in a
    /// slice that starts `base` bytes into the input).
    func offset(by base: Int) -> MPEGTSError {
        var copy = self
        copy.byteOffset = (byteOffset ?? 0) + base
        return copy
    }

    /// The same error placed at `offset` in the input.
    func at(_ offset: Int) -> MPEGTSError {
        var copy = self
        copy.byteOffset = offset
        return copy
    }
}
