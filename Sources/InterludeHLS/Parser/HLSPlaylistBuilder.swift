import Foundation

/// Builds a media or multivariant playlist from lines in one pass, deciding
/// the kind from the first tag that belongs to only one of them.
struct HLSPlaylistBuilder {
    private enum Kind { case undecided, media, multivariant }

    private let bytes: UnsafeBufferPointer<UInt8>
    private var reader: HLSLineReader
    private var variables: HLSVariableScope
    private var kind = Kind.undecided

    private var header: [HLSTag] = []
    private var segments: [MediaSegment] = []
    private var segmentStarted = false
    private var pendingTags: [HLSTag] = []
    private var pendingTagsAfterInfo: [HLSTag] = []
    private var pendingInfo: (duration: HLSDecimal, title: String, line: Int)?

    // The timeline is derived while reading, through the cursor
    // ``MediaPlaylist/updateTimeline()`` uses, so a short live window is
    // walked once and both derivations agree.
    private var baseSequence: UInt64?
    private var baseDiscontinuity: UInt64?
    private var timeline = TimelineCursor(sequence: 0, discontinuity: 0)
    private var pendingMarks = SegmentTimelineMarks()

    private var entries: [MultivariantPlaylist.Entry] = []
    private var pendingVariant: VariantStream?

    /// When set, a line that does not parse is skipped and its error kept in
    /// ``skippedLineErrors`` instead of ending the parse.
    private let recovering: Bool
    private(set) var skippedLineErrors: [HLSError] = []

    init(bytes: UnsafeBufferPointer<UInt8>, options: HLSParserOptions, recovering: Bool = false) {
        self.bytes = bytes
        self.recovering = recovering
        self.reader = HLSLineReader(bytes: bytes, maximumLineLength: options.maximumLineLength)
        self.variables = HLSVariableScope()
        header.reserveCapacity(8)
        segments.reserveCapacity(max(4, bytes.count / 48))
    }

    mutating func build() throws(HLSError) -> HLSPlaylist {
        if reader.startsWithByteOrderMark {
            // Read as if absent (otherwise `#EXTM3U` is a URI line and every
            // later finding is off); an inspector is still told.
            reader.skipByteOrderMark()
            if recovering {
                skippedLineErrors.append(
                    HLSError(
                        .byteOrderMark,
                        "the playlist starts with a UTF-8 byte-order mark, which RFC 8216bis 4.1 forbids; read without it",
                        line: 1))
            }
        }
        // Errors of the reader itself (binary data, an overlong line) end the
        // parse in both modes: what follows them cannot be trusted.
        while let line = try reader.next() {
            do {
                try addLine(line)
            } catch {
                guard recovering else { throw error }
                skippedLineErrors.append(error)
                // A URI line that failed ends the segment or variant it was
                // to close, so the next EXTINF or STREAM-INF starts afresh.
                if bytes[line.start] != UInt8(ascii: "#") { abandonPendingURI() }
            }
        }
        return try finish()
    }

    /// Recovering mode: forgets a pending EXTINF or STREAM-INF whose URI
    /// never came. The tags read with it stay for the next segment.
    private mutating func abandonPendingURI() {
        pendingVariant = nil
        pendingInfo = nil
        pendingTags += pendingTagsAfterInfo
        pendingTagsAfterInfo = []
    }

    private mutating func addLine(_ line: HLSLineReader.Line) throws(HLSError) {
        if line.mayReferenceVariable {
            try variables.checkReferences(bytes, line)
        }
        if bytes[line.start] == UInt8(ascii: "#") {
            try addTagLine(line)
        } else {
            try addURI(line)
        }
    }

    private mutating func addTagLine(_ line: HLSLineReader.Line) throws(HLSError) {
        // EXTINF is most lines of a VOD playlist: read it without building a tag.
        if line.end - line.start > 8, isInfoPrefix(line.start) {
            // Read before deciding the kind: a bad EXTINF does not make a playlist a media one.
            let (duration, title) = try HLSTagReader.readInfo(
                bytes, start: line.start + 8, end: line.end, line: line.number)
            try decide(.media, line: line.number)
            if let pending = pendingInfo {
                guard recovering else {
                    throw HLSError(.malformedTag, "two EXTINF tags before one URI", line: line.number)
                }
                // The earlier EXTINF is the one without a URI; this one starts the segment.
                skippedLineErrors.append(HLSError(.missingURI, "EXTINF not followed by a URI", line: pending.line))
                abandonPendingURI()
            }
            pendingInfo = (duration, title, line.number)
            segmentStarted = true
            return
        }
        var read = try HLSTagReader.read(bytes, line)
        let traits = read.traits
        if read.tag.isComment {
            append(read.tag)
            return
        }
        if traits.contains(.define) {
            variables.define(read.tag.attributes)
        }
        if traits.contains(.multivariant) {
            try decide(.multivariant, line: line.number)
        } else if traits.contains(.media) {
            try decide(.media, line: line.number)
            if traits.contains(.segment) {
                segmentStarted = true
                if traits.contains(.discontinuity) { pendingMarks.isDiscontinuity = true }
                if let date = read.date { pendingMarks.date = date }
                if traits.contains(.skip) {
                    pendingMarks.skippedSegments &+= read.tag.attributes.integer("SKIPPED-SEGMENTS") ?? 0
                }
            } else if !segmentStarted || (segments.isEmpty && Self.isPlaylistWide(read.tag.name)) {
                // Only the header's first value counts, as the playlist's getters read it.
                if traits.contains(.mediaSequence), baseSequence == nil { baseSequence = read.integer }
                if traits.contains(.discontinuitySequence), baseDiscontinuity == nil {
                    baseDiscontinuity = read.integer
                }
            }
        }
        if read.tag.hasName(HLSTagName.info) {
            throw HLSError(.malformedTag, "EXTINF without a duration", line: line.number)
        }
        if traits.contains(.streamInf) {
            if let pending = pendingVariant {
                let error = HLSError(.missingURI, "EXT-X-STREAM-INF not followed by a URI", line: pending.line)
                guard recovering else { throw error }
                // The earlier STREAM-INF is the one without a URI; this one takes the next URI.
                skippedLineErrors.append(error)
            }
            pendingVariant = VariantStream(attributes: read.tag.attributes, uri: "", line: line.number)
            return
        }
        // Moved, not copied: a copy costs a retain and release per string.
        append(read.take())
    }

    /// Tags that describe the whole playlist (RFC 8216bis 4.4.3).
    private static let playlistWideNames: Set<String> = [
        HLSTagName.version, HLSTagName.targetDuration, HLSTagName.mediaSequence, HLSTagName.discontinuitySequence,
        HLSTagName.playlistType, HLSTagName.iFramesOnly, HLSTagName.partInf, HLSTagName.serverControl,
        HLSTagName.start, HLSTagName.independentSegments,
    ]

    private static func isPlaylistWide(_ name: String) -> Bool { playlistWideNames.contains(name) }

    private mutating func append(_ tag: consuming HLSTag) {
        switch kind {
        case .undecided:
            header.append(tag)
        case .media:
            if segments.isEmpty, segmentStarted, Self.isPlaylistWide(tag.name) {
                // A playlist-wide tag after the first segment's first tag (a
                // PROGRAM-DATE-TIME written above TARGETDURATION): still the
                // playlist's, as players read it, not the first segment's.
                header.append(tag)
            } else if pendingInfo != nil {
                pendingTagsAfterInfo.append(tag)
            } else if segmentStarted {
                pendingTags.append(tag)
            } else {
                header.append(tag)
            }
        case .multivariant:
            if pendingVariant != nil {
                pendingVariant?.tagsBeforeURI.append(tag)
            } else {
                entries.append(.tag(tag))
            }
        }
    }

    private mutating func addURI(_ line: HLSLineReader.Line) throws(HLSError) {
        let uri = String(decoding: UnsafeBufferPointer(rebasing: bytes[line.start..<line.end]), as: UTF8.self)
        if var variant = pendingVariant {
            variant.uri = uri
            entries.append(.variant(variant))
            pendingVariant = nil
            return
        }
        guard kind != .multivariant else {
            throw HLSError(.malformedTag, "URI line without EXT-X-STREAM-INF", line: line.number)
        }
        guard let info = pendingInfo else {
            throw HLSError(.malformedTag, "segment URI without EXTINF", line: line.number)
        }
        var segment = MediaSegment(
            uri: uri, duration: info.duration, title: info.title, tags: pendingTags,
            tagsAfterInfo: pendingTagsAfterInfo, line: line.number)
        if segments.isEmpty {
            timeline = TimelineCursor(sequence: baseSequence ?? 0, discontinuity: baseDiscontinuity ?? 0)
        }
        timeline.place(&segment, at: segments.count, marks: pendingMarks)
        pendingMarks = SegmentTimelineMarks()
        segments.append(consume segment)
        pendingTags = []
        pendingTagsAfterInfo = []
        pendingInfo = nil
    }

    private mutating func decide(_ newKind: Kind, line: Int) throws(HLSError) {
        if kind == newKind { return }
        guard kind == .undecided else {
            throw HLSError(.mixedPlaylistKinds, "media and multivariant tags in one playlist", line: line)
        }
        kind = newKind
        if newKind == .multivariant {
            entries = header.map { .tag($0) }
            header = []
        }
    }

    private mutating func finish() throws(HLSError) -> HLSPlaylist {
        if let variant = pendingVariant {
            let error = HLSError(.missingURI, "EXT-X-STREAM-INF not followed by a URI", line: variant.line)
            guard recovering else { throw error }
            skippedLineErrors.append(error)
            pendingVariant = nil
        }
        if let info = pendingInfo {
            let error = HLSError(.missingURI, "EXTINF not followed by a URI", line: info.line)
            guard recovering else { throw error }
            skippedLineErrors.append(error)
            pendingInfo = nil
            // The tags read after it have no segment to belong to; they stay at the end.
            pendingTags += pendingTagsAfterInfo
            pendingTagsAfterInfo = []
        }
        if kind == .multivariant {
            return .multivariant(MultivariantPlaylist(entries: entries))
        }
        timeline.backfillDates(&segments)
        return .media(
            MediaPlaylist(tags: header, segments: segments, trailingTags: pendingTags, timelineIsDerived: true))
    }

    private func isInfoPrefix(_ start: Int) -> Bool {
        bytes[start + 1] == UInt8(ascii: "E") && bytes[start + 2] == UInt8(ascii: "X")
            && bytes[start + 3] == UInt8(ascii: "T")
            && bytes[start + 4] == UInt8(ascii: "I") && bytes[start + 5] == UInt8(ascii: "N")
            && bytes[start + 6] == UInt8(ascii: "F")
            && bytes[start + 7] == UInt8(ascii: ":")
    }
}
