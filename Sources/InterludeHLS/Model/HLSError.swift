/// An error raised while reading, writing or splicing an HLS playlist or a
/// SCTE-35 section, with the 1-based line it was found on (0 when it concerns
/// the whole input).
public struct HLSError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong. A struct of static values rather than a closed enum so
    /// that adding a case never breaks a caller's `switch`.
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        /// The stable identifier of the code, e.g. `"missingHeader"`.
        public let name: String

        /// Creates a code from its identifier; prefer the static values.
        public init(_ name: String) { self.name = name }

        /// The input is larger than ``HLSParserOptions/maximumInputSize``.
        public static let inputTooLarge = Code("inputTooLarge")
        /// The input holds bytes that cannot appear in a playlist (NUL, control characters).
        public static let binaryData = Code("binaryData")
        /// A line is longer than ``HLSParserOptions/maximumLineLength``.
        public static let lineTooLong = Code("lineTooLong")
        /// The first line is not `#EXTM3U`.
        public static let missingHeader = Code("missingHeader")
        /// The input starts with a byte-order mark (RFC 8216bis 4.1 forbids
        /// one). Reported by ``HLSParser/parseRecovering(_:)``; both parses
        /// read the playlist without it.
        public static let byteOrderMark = Code("byteOrderMark")
        /// A tag value is not what the tag's grammar requires.
        public static let malformedTag = Code("malformedTag")
        /// An attribute list is malformed (unbalanced quote, missing `=`).
        public static let malformedAttributeList = Code("malformedAttributeList")
        /// A required attribute is absent.
        public static let missingAttribute = Code("missingAttribute")
        /// A number is negative, not a number, or too large for its type.
        public static let invalidNumber = Code("invalidNumber")
        /// A `{$name}` reference names no `EXT-X-DEFINE`d variable (RFC 8216bis 4.3).
        public static let undefinedVariable = Code("undefinedVariable")
        /// The playlist mixes media and multivariant tags.
        public static let mixedPlaylistKinds = Code("mixedPlaylistKinds")
        /// The playlist is not of the kind the caller asked for.
        public static let wrongPlaylistKind = Code("wrongPlaylistKind")
        /// An `EXT-X-STREAM-INF` or `EXTINF` is not followed by a URI line.
        public static let missingURI = Code("missingURI")
        /// The SCTE-35 text is not valid hex or base64.
        public static let invalidEncoding = Code("invalidEncoding")
        /// The SCTE-35 section is shorter than its fields require.
        public static let truncatedSection = Code("truncatedSection")
        /// The SCTE-35 `table_id` is not 0xFC.
        public static let invalidTableID = Code("invalidTableID")
        /// The SCTE-35 CRC-32 does not match the section.
        public static let checksumMismatch = Code("checksumMismatch")
        /// The input uses a feature this module does not read (encrypted SCTE-35).
        public static let unsupportedFeature = Code("unsupportedFeature")
        /// A splice asks for a boundary or break that the playlist does not have.
        public static let invalidSplicePoint = Code("invalidSplicePoint")
        /// An ad pod with no segments, or a segment with a bad duration.
        public static let invalidAdPod = Code("invalidAdPod")

        /// The identifier.
        public var description: String { name }
    }

    /// What went wrong.
    public var code: Code
    /// A sentence for people, naming the offending tag or value.
    public var message: String
    /// The 1-based line number in the input, 0 when not tied to a line.
    public var line: Int

    /// Creates an error; `line` defaults to 0 (the whole input).
    public init(_ code: Code, _ message: String, line: Int = 0) {
        self.code = code
        self.message = message
        self.line = line
    }

    /// A one-line description with the line number.
    public var description: String {
        line > 0 ? "line \(line): \(message) [\(code)]" : "\(message) [\(code)]"
    }
}
