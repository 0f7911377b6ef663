/// Limits and inputs for ``HLSParser``.
public struct HLSParserOptions: Sendable, Hashable {
    /// The largest input accepted, in bytes; 16 MiB by default (a 24-hour
    /// VOD playlist of 2-second segments is about 4 MiB).
    public var maximumInputSize: Int
    /// The longest line accepted, in bytes; 64 KiB by default.
    public var maximumLineLength: Int
    /// Values for `EXT-X-DEFINE:IMPORT=` names, taken from the multivariant
    /// playlist (RFC 8216bis 4.4.2.3). Parsing only checks that references
    /// are defined, and an `IMPORT` name always counts as defined, so these
    /// values are not used by the parser itself: substitution is
    /// ``MediaPlaylist/resolvingVariables(imported:queryParameters:)``'s job.
    public var importedVariables: [String: String]

    /// Creates options; every parameter has the default described above.
    public init(
        maximumInputSize: Int = 16 << 20, maximumLineLength: Int = 64 << 10, importedVariables: [String: String] = [:]
    ) {
        self.maximumInputSize = maximumInputSize
        self.maximumLineLength = maximumLineLength
        self.importedVariables = importedVariables
    }
}
