/// A problem a validator found, with the line it is on.
public struct HLSFinding: Sendable, Hashable, CustomStringConvertible {
    /// How bad it is.
    public enum Severity: String, Sendable, Hashable, Codable {
        /// The RFC says MUST / MUST NOT: players may reject the playlist.
        case error
        /// The RFC says SHOULD, or players are known to stumble on it.
        case warning
    }

    /// What rule was broken. A struct of static values so new rules never
    /// break a caller's `switch`.
    public struct Rule: Sendable, Hashable, CustomStringConvertible {
        /// The stable identifier, e.g. `"missingTargetDuration"`.
        public let name: String

        /// Creates a rule from its identifier; prefer the static values.
        public init(_ name: String) { self.name = name }

        /// EXTM3U is not the first line (RFC 8216bis 4.4.1.1).
        public static let missingHeader = Rule("missingHeader")
        /// A media playlist without EXT-X-TARGETDURATION (4.4.3.1).
        public static let missingTargetDuration = Rule("missingTargetDuration")
        /// An EXTINF rounded to the nearest integer exceeds the target duration (4.4.3.1).
        public static let segmentLongerThanTarget = Rule("segmentLongerThanTarget")
        /// A DATERANGE in a playlist with no PROGRAM-DATE-TIME (4.4.5.1).
        public static let dateRangeWithoutProgramDateTime = Rule("dateRangeWithoutProgramDateTime")
        /// Two DATERANGEs with one ID give different values to one attribute (4.4.5.1).
        public static let conflictingDateRange = Rule("conflictingDateRange")
        /// A tag lacks an attribute the RFC requires.
        public static let missingAttribute = Rule("missingAttribute")
        /// A playlist-wide tag appears twice.
        public static let duplicateTag = Rule("duplicateTag")
        /// A playlist-wide tag appears after the first segment.
        public static let misplacedTag = Rule("misplacedTag")
        /// Segments follow EXT-X-ENDLIST.
        public static let segmentAfterEndList = Rule("segmentAfterEndList")
        /// An enumerated value is not one the RFC allows.
        public static let invalidValue = Rule("invalidValue")
        /// A variant names a rendition group that no EXT-X-MEDIA defines (4.4.6.2).
        public static let undefinedGroup = Rule("undefinedGroup")
        /// EXT-X-MEDIA-SEQUENCE went backwards between two reloads (6.2.2).
        public static let mediaSequenceWentBackwards = Rule("mediaSequenceWentBackwards")
        /// EXT-X-DISCONTINUITY-SEQUENCE went backwards between two reloads (6.2.2).
        public static let discontinuitySequenceWentBackwards = Rule("discontinuitySequenceWentBackwards")
        /// A discontinuity left the window but DISCONTINUITY-SEQUENCE did not count it (6.2.2).
        public static let discontinuitySequenceNotIncremented = Rule("discontinuitySequenceNotIncremented")
        /// One media sequence number names different URIs in two reloads (6.2.2).
        public static let segmentChangedBetweenReloads = Rule("segmentChangedBetweenReloads")
        /// A segment kept from the previous reload changed its duration, tags,
        /// discontinuity number or date, or the kept segments are not the
        /// previous window's tail (6.2.2: only removal from the front, addition at the end).
        public static let windowRewrittenBetweenReloads = Rule("windowRewrittenBetweenReloads")
        /// EXT-X-TARGETDURATION changed between reloads (6.2.1).
        public static let targetDurationChanged = Rule("targetDurationChanged")
        /// A segment's PROGRAM-DATE-TIME is not the previous segment's plus its duration.
        public static let programDateTimeDiscontinuous = Rule("programDateTimeDiscontinuous")

        /// The identifier.
        public var description: String { name }
    }

    /// Error or warning.
    public var severity: Severity
    /// The rule broken.
    public var rule: Rule
    /// A sentence for people.
    public var message: String
    /// The 1-based line; 0 when not tied to a line.
    public var line: Int

    /// Creates a finding.
    public init(_ severity: Severity, _ rule: Rule, _ message: String, line: Int) {
        self.severity = severity
        self.rule = rule
        self.message = message
        self.line = line
    }

    /// A one-line description with the line number.
    public var description: String { "line \(line): \(severity.rawValue): \(message) [\(rule)]" }
}
