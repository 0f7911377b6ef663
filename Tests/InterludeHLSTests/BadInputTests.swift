import Testing

@testable import InterludeHLS

@Suite struct BadInputTests {
    func error(_ text: String, options: HLSParserOptions = HLSParserOptions()) -> HLSError? {
        do {
            _ = try HLSParser(options: options).parse(Array(text.utf8))
            return nil
        } catch {
            return error
        }
    }

    @Test func negativeDurationIsATypedErrorWithItsLine() {
        let failure = error("#EXTM3U\n#EXT-X-TARGETDURATION:10\n#EXTINF:-5,\na.ts\n")
        #expect(failure?.code == .invalidNumber)
        #expect(failure?.line == 3)
    }

    @Test func sequenceNumberBeyond64BitsIsRejected() {
        let failure = error("#EXTM3U\n#EXT-X-MEDIA-SEQUENCE:1000000000000000000000000000000\n")
        #expect(failure?.code == .invalidNumber)
        #expect(failure?.line == 2)
    }

    @Test func negativeTargetDurationIsRejected() {
        #expect(error("#EXTM3U\n#EXT-X-TARGETDURATION:-1\n")?.code == .invalidNumber)
    }

    @Test func unbalancedQuoteIsRejected() {
        let failure = error(
            "#EXTM3U\n#EXT-X-TARGETDURATION:6\n#EXT-X-KEY:METHOD=AES-128,URI=\"https://k\n#EXTINF:6,\na.ts\n")
        #expect(failure?.code == .malformedAttributeList)
        #expect(failure?.line == 3)
    }

    @Test func attributeWithoutValueIsRejected() {
        #expect(error("#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH\nv.m3u8\n")?.code == .malformedAttributeList)
    }

    @Test func undefinedVariableReferenceIsRejected() {
        let failure = error("#EXTM3U\n#EXT-X-TARGETDURATION:6\n#EXTINF:6,\n{$host}/a.ts\n")
        #expect(failure?.code == .undefinedVariable)
        #expect(failure?.line == 4)
    }

    @Test func definedAndImportedVariablesAreAccepted() throws {
        let playlist = try Fixture.media("Variables/define.m3u8")
        #expect(playlist.definitions.count == 2)
        #expect(playlist.segments[0].uri == "{$base}/s1.ts?t={$token}")
    }

    @Test func binaryDataIsRejectedWithItsLine() {
        let failure = error("#EXTM3U\n#EXT-X-TARGETDURATION:6\n\u{0}\u{1}\u{2}garbage\n")
        #expect(failure?.code == .binaryData)
        #expect(failure?.line == 3)
    }

    @Test func inputOverTheSizeLimitIsRejected() {
        let failure = error(String(repeating: "#EXTM3U\n", count: 100), options: HLSParserOptions(maximumInputSize: 64))
        #expect(failure?.code == .inputTooLarge)
    }

    @Test func overlongLineIsRejected() {
        let failure = error(
            "#EXTM3U\n" + String(repeating: "a", count: 100) + "\n", options: HLSParserOptions(maximumLineLength: 50))
        #expect(failure?.code == .lineTooLong)
        #expect(failure?.line == 2)
    }

    @Test func truncatedPlaylistEndingInExtinfIsRejected() {
        let failure = error("#EXTM3U\n#EXT-X-TARGETDURATION:6\n#EXTINF:6,\na.ts\n#EXTINF:6,")
        #expect(failure?.code == .missingURI)
        #expect(failure?.line == 5)
    }

    @Test func truncatedTagValueIsRejected() {
        #expect(error("#EXTM3U\n#EXT-X-TARGETDURATION:6\n#EXTINF:\na.ts\n")?.code == .malformedTag)
    }

    @Test func streamInfWithoutURIIsRejected() {
        let failure = error("#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1\n")
        #expect(failure?.code == .missingURI)
        #expect(failure?.line == 2)
    }

    @Test func mixedPlaylistKindsAreRejected() {
        #expect(
            error("#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1\nv.m3u8\n#EXTINF:6,\na.ts\n")?.code == .mixedPlaylistKinds)
    }

    @Test func segmentURIWithoutExtinfIsRejected() throws {
        let text = try String(
            contentsOf: Fixture.corpusDirectory.appendingPathComponent("missingExtinf.m3u8"), encoding: .utf8)
        let failure = error(text)
        #expect(failure?.code == .malformedTag)
        #expect(failure?.line == 8)
    }

    @Test func badProgramDateTimeIsRejected() {
        #expect(error("#EXTM3U\n#EXT-X-PROGRAM-DATE-TIME:yesterday\n")?.code == .malformedTag)
    }

    @Test func missingHeaderStillParsesSoValidationCanReportIt() throws {
        let playlist = try HLSParser().parse("#EXT-X-TARGETDURATION:6\n#EXTINF:6,\na.ts\n")
        #expect(HLSValidator.validate(playlist).contains { $0.rule == .missingHeader })
    }

    /// Windows tools write a byte-order mark; RFC 8216bis 4.1 forbids it. The
    /// playlist reads as if it were absent, and an inspector is told once.
    @Test func aByteOrderMarkIsSteppedOverAndReportedOnce() throws {
        let text = "#EXTM3U\n#EXT-X-TARGETDURATION:4\n#EXTINF:4,\na.ts\n#EXT-X-ENDLIST\n"
        let marked = [0xEF, 0xBB, 0xBF] + Array(text.utf8)
        let playlist = try HLSParser().parse(marked)
        guard case .media(let media) = playlist else {
            Issue.record("not read as a media playlist")
            return
        }
        #expect(media.segments.map(\.uri) == ["a.ts"])
        #expect(!HLSValidator.validate(playlist).contains { $0.rule == .missingHeader })
        let recovered = try HLSParser().parseRecovering(marked)
        #expect(recovered.skippedLineErrors.map(\.code) == [.byteOrderMark])
        #expect(recovered.skippedLineErrors.first?.line == 1)
        #expect(try HLSParser().parseRecovering(Array(text.utf8)).skippedLineErrors.isEmpty)
    }
}
