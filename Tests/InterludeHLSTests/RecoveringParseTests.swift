import Testing

@testable import InterludeHLS

/// `HLSParser.parseRecovering`: every bad line skipped and reported, the
/// rest read; the strict parse is unchanged.
@Suite struct RecoveringParseTests {
    func recover(_ text: String, options: HLSParserOptions = HLSParserOptions()) throws -> HLSRecoveredParse {
        try HLSParser(options: options).parseRecovering(Array(text.utf8))
    }

    @Test func badLinesAreSkippedAndReportedInOrder() throws {
        let text = """
            #EXTM3U
            #EXT-X-TARGETDURATION:6
            #EXTINF:-5,
            a.ts
            #EXTINF:6,
            b.ts
            #EXT-X-PROGRAM-DATE-TIME:yesterday
            #EXTINF:6,
            c.ts
            #EXT-X-ENDLIST
            """
        let parse = try recover(text)
        #expect(parse.skippedLineErrors.map(\.line) == [3, 4, 7])
        #expect(parse.skippedLineErrors.map(\.code) == [.invalidNumber, .malformedTag, .malformedTag])
        guard case .media(let playlist) = parse.playlist else {
            Issue.record("not a media playlist")
            return
        }
        #expect(playlist.segments.map(\.uri) == ["b.ts", "c.ts"])
        #expect(playlist.segments.map(\.startTime) == [0, 6])
        #expect(playlist.hasEndList)
        // The strict parse stops at the first of them.
        #expect(throws: HLSError.self) { try HLSParser().parse(Array(text.utf8)) }
    }

    @Test func aCleanPlaylistReadsTheSameBothWays() throws {
        let text = Fixture.text("LinearAdInsertion/cue-out-in.m3u8")
        let parse = try recover(text)
        #expect(parse.skippedLineErrors.isEmpty)
        #expect(parse.playlist == (try HLSParser().parse(Array(text.utf8))))
    }

    @Test func danglingEXTINFAndSTREAMINFAtTheEndAreReported() throws {
        let media = try recover("#EXTM3U\n#EXT-X-TARGETDURATION:6\n#EXTINF:6,\na.ts\n#EXTINF:6,\n#EXT-X-ENDLIST\n")
        #expect(media.skippedLineErrors.map(\.code) == [.missingURI])
        #expect(media.skippedLineErrors.first?.line == 5)
        guard case .media(let playlist) = media.playlist else {
            Issue.record("not a media playlist")
            return
        }
        #expect(playlist.segments.count == 1)
        #expect(playlist.hasEndList)
        let multivariant = try recover(
            "#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1\nv.m3u8\n#EXT-X-STREAM-INF:BANDWIDTH=2\n")
        #expect(multivariant.skippedLineErrors.map(\.line) == [4])
    }

    @Test func aMediaTagInAMultivariantPlaylistIsSkipped() throws {
        let parse = try recover("#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1\nv.m3u8\n#EXT-X-TARGETDURATION:6\n")
        #expect(parse.skippedLineErrors.map(\.code) == [.mixedPlaylistKinds])
        guard case .multivariant(let playlist) = parse.playlist else {
            Issue.record("not a multivariant playlist")
            return
        }
        #expect(playlist.variants.count == 1)
    }

    @Test func aURILineThatFailsEndsItsSegmentSoTheNextOneIsRight() throws {
        let parse = try recover("#EXTM3U\n#EXT-X-TARGETDURATION:6\n#EXTINF:6,\n{$missing}.ts\n#EXTINF:4,\nb.ts\n")
        #expect(parse.skippedLineErrors.map(\.code) == [.undefinedVariable])
        #expect(parse.skippedLineErrors.map(\.line) == [4])
        guard case .media(let playlist) = parse.playlist else {
            Issue.record("not a media playlist")
            return
        }
        #expect(playlist.segments.map(\.uri) == ["b.ts"])
        #expect(playlist.segments.first?.duration.value == 4)
    }

    @Test func anEXTINFWithoutURIIsReportedAndTheNextOneTakesTheURI() throws {
        let parse = try recover("#EXTM3U\n#EXT-X-TARGETDURATION:6\n#EXTINF:6,\n#EXTINF:4,\nb.ts\n")
        #expect(parse.skippedLineErrors.map(\.code) == [.missingURI])
        #expect(parse.skippedLineErrors.map(\.line) == [3])
        guard case .media(let playlist) = parse.playlist else {
            Issue.record("not a media playlist")
            return
        }
        #expect(playlist.segments.map(\.duration.value) == [4])
    }

    @Test func aSTREAMINFWithoutURIIsReportedAndTheNextOneTakesTheURI() throws {
        let parse = try recover(
            "#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1\n#EXT-X-STREAM-INF:BANDWIDTH=2\nb.m3u8\n")
        #expect(parse.skippedLineErrors.map(\.line) == [2])
        guard case .multivariant(let playlist) = parse.playlist else {
            Issue.record("not a multivariant playlist")
            return
        }
        #expect(playlist.variants.map(\.uri) == ["b.m3u8"])
        #expect(playlist.variants.first?.attributes.integer("BANDWIDTH") == 2)
    }

    @Test func aBadEXTINFDoesNotDecideThePlaylistKind() throws {
        let parse = try recover("#EXTM3U\n#EXTINF:-1,\n#EXT-X-STREAM-INF:BANDWIDTH=1\nv.m3u8\n")
        #expect(parse.skippedLineErrors.map(\.line) == [2])
        guard case .multivariant(let playlist) = parse.playlist else {
            Issue.record("not a multivariant playlist")
            return
        }
        #expect(playlist.variants.count == 1)
    }

    @Test func errorsComeInLineOrder() throws {
        // The STREAM-INF at line 2 is known to lack its URI only at the end.
        let parse = try recover("#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1\n#EXT-X-TARGETDURATION:6\n#EXTINF:6,\n")
        #expect(parse.skippedLineErrors.map(\.line) == parse.skippedLineErrors.map(\.line).sorted())
        #expect(parse.skippedLineErrors.first?.line == 2)
    }

    @Test func unreadableInputStillThrows() {
        #expect(throws: HLSError.self) { try recover("#EXTM3U\n\u{0}\u{1}garbage\n") }
        #expect(throws: HLSError.self) {
            try recover(
                "#EXTM3U\n" + String(repeating: "a", count: 100), options: HLSParserOptions(maximumLineLength: 50))
        }
        #expect(throws: HLSError.self) {
            try recover(String(repeating: "#EXTM3U\n", count: 100), options: HLSParserOptions(maximumInputSize: 64))
        }
    }
}
