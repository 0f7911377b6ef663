/// Reads playlists from bytes. A value: create one with options and call it
/// from any thread.
public struct HLSParser: Sendable {
    /// Limits and imported variables; defaults as in ``HLSParserOptions``.
    public var options: HLSParserOptions

    /// Creates a parser; `options` defaults to ``HLSParserOptions/init(maximumInputSize:maximumLineLength:importedVariables:)``.
    public init(options: HLSParserOptions = HLSParserOptions()) {
        self.options = options
    }

    /// Reads a playlist of either kind, told apart by its tags (a playlist
    /// with neither segments nor variants is read as a media playlist).
    public func parse(_ bytes: [UInt8]) throws(HLSError) -> HLSPlaylist {
        guard bytes.count <= options.maximumInputSize else {
            throw HLSError(
                .inputTooLarge, "playlist of \(bytes.count) bytes exceeds the limit of \(options.maximumInputSize)")
        }
        return try bytes.withUnsafeBufferPointer { (buffer) throws(HLSError) -> HLSPlaylist in
            var builder = HLSPlaylistBuilder(bytes: buffer, options: options)
            return try builder.build()
        }
    }

    /// Reads a playlist as far as it can: a line that does not parse (a bad
    /// tag, a URI without EXTINF, an undefined variable) is skipped and its
    /// error returned with the playlist, as an inspector wants every problem
    /// at once. Errors that leave nothing to trust still throw: the input is
    /// too large, holds binary data, or has a line that is too long.
    public func parseRecovering(_ bytes: [UInt8]) throws(HLSError) -> HLSRecoveredParse {
        guard bytes.count <= options.maximumInputSize else {
            throw HLSError(
                .inputTooLarge, "playlist of \(bytes.count) bytes exceeds the limit of \(options.maximumInputSize)")
        }
        return try bytes.withUnsafeBufferPointer { (buffer) throws(HLSError) -> HLSRecoveredParse in
            var builder = HLSPlaylistBuilder(bytes: buffer, options: options, recovering: true)
            let playlist = try builder.build()
            // A line is known to lack its URI only later: order the errors by line (stably).
            let errors = builder.skippedLineErrors.enumerated().sorted {
                ($0.element.line, $0.offset) < ($1.element.line, $1.offset)
            }.map(\.element)
            return HLSRecoveredParse(playlist: playlist, skippedLineErrors: errors)
        }
    }

    /// Reads a playlist from text.
    public func parse(_ text: String) throws(HLSError) -> HLSPlaylist {
        try parse(Array(text.utf8))
    }

    /// Reads a media playlist; throws ``HLSError/Code/wrongPlaylistKind`` for a multivariant one.
    public func parseMedia(_ bytes: [UInt8]) throws(HLSError) -> MediaPlaylist {
        guard case .media(let playlist) = try parse(bytes) else {
            throw HLSError(.wrongPlaylistKind, "expected a media playlist, found a multivariant playlist")
        }
        return playlist
    }

    /// Reads a multivariant playlist; throws ``HLSError/Code/wrongPlaylistKind`` for a media one.
    public func parseMultivariant(_ bytes: [UInt8]) throws(HLSError) -> MultivariantPlaylist {
        guard case .multivariant(let playlist) = try parse(bytes) else {
            throw HLSError(.wrongPlaylistKind, "expected a multivariant playlist, found a media playlist")
        }
        return playlist
    }
}

extension MediaPlaylist {
    /// Reads a media playlist from text with default options.
    public init(parsing text: String) throws(HLSError) {
        self = try HLSParser().parseMedia(Array(text.utf8))
    }

    /// Reads a media playlist from bytes; `options` default to ``HLSParserOptions``' defaults.
    public init(parsing bytes: [UInt8], options: HLSParserOptions = HLSParserOptions()) throws(HLSError) {
        self = try HLSParser(options: options).parseMedia(bytes)
    }
}

extension MultivariantPlaylist {
    /// Reads a multivariant playlist from text with default options.
    public init(parsing text: String) throws(HLSError) {
        self = try HLSParser().parseMultivariant(Array(text.utf8))
    }

    /// Reads a multivariant playlist from bytes; `options` default to ``HLSParserOptions``' defaults.
    public init(parsing bytes: [UInt8], options: HLSParserOptions = HLSParserOptions()) throws(HLSError) {
        self = try HLSParser(options: options).parseMultivariant(bytes)
    }
}

/// What ``HLSParser/parseRecovering(_:)`` read: the playlist without the lines
/// that did not parse, and the error of each of those lines in order.
public struct HLSRecoveredParse: Sendable, Hashable {
    /// The playlist, without the skipped lines.
    public var playlist: HLSPlaylist
    /// One error per skipped line, in line order; empty when every line parsed.
    public var skippedLineErrors: [HLSError]
}
