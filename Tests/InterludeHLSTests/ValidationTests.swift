import Testing

@testable import InterludeHLS

@Suite struct ValidationTests {
    func findings(_ text: String) throws -> [HLSFinding] {
        HLSValidator.validate(try HLSParser().parse(text))
    }

    @Test func canonicalFixturesHaveNoErrors() throws {
        // AdMarkers/ holds vendors' output as they write it (Elemental's
        // SCTE35-IN DATERANGE has no START-DATE), not canonical playlists.
        for path in Fixture.allPaths where !path.hasPrefix("Variables") && !path.hasPrefix("AdMarkers") {
            let errors = try findings(Fixture.text(path)).filter { $0.severity == .error }
            #expect(errors.isEmpty, "\(path): \(errors)")
        }
    }

    @Test func missingHeaderIsAnErrorOnLineOne() throws {
        let result = try findings("#EXT-X-TARGETDURATION:10\n#EXTINF:10,\na.ts\n")
        #expect(result.contains(HLSFinding(.error, .missingHeader, "the first line must be #EXTM3U", line: 1)))
    }

    @Test func missingTargetDurationIsAnError() throws {
        let result = try findings("#EXTM3U\n#EXTINF:10,\na.ts\n")
        #expect(result.map(\.rule) == [.missingTargetDuration])
    }

    @Test func extinfRoundingAboveTheTargetIsAnErrorOnItsSegment() throws {
        // 10.5 rounds to 11 > 10; 10.4 rounds to 10 and is fine.
        let result = try findings("#EXTM3U\n#EXT-X-TARGETDURATION:10\n#EXTINF:10.4,\na.ts\n#EXTINF:10.5,\nb.ts\n")
        #expect(result.map(\.rule) == [.segmentLongerThanTarget])
        #expect(result.first?.line == 6)
    }

    @Test func dateRangeWithoutProgramDateTimeIsAnError() throws {
        let text =
            "#EXTM3U\n#EXT-X-TARGETDURATION:6\n#EXT-X-DATERANGE:ID=\"a\",START-DATE=\"2024-05-01T12:00:00Z\"\n#EXTINF:6,\na.ts\n"
        let result = try findings(text)
        #expect(result.map(\.rule) == [.dateRangeWithoutProgramDateTime])
        #expect(result.first?.line == 3)
    }

    @Test func dateRangesSharingAnIDMustAgree() throws {
        let text = """
            #EXTM3U
            #EXT-X-TARGETDURATION:6
            #EXT-X-PROGRAM-DATE-TIME:2024-05-01T12:00:00Z
            #EXT-X-DATERANGE:ID="a",START-DATE="2024-05-01T12:00:00Z",PLANNED-DURATION=30
            #EXTINF:6,
            a.ts
            #EXT-X-DATERANGE:ID="a",START-DATE="2024-05-01T12:00:02Z",DURATION=6
            #EXTINF:6,
            b.ts
            """
        let result = try findings(text)
        #expect(result.map(\.rule) == [.conflictingDateRange])
        #expect(result.first?.line == 7)
    }

    @Test func missingRequiredAttributeIsReportedOnItsLine() throws {
        let result = try findings("#EXTM3U\n#EXT-X-STREAM-INF:RESOLUTION=640x360\nv.m3u8\n")
        #expect(result.map(\.rule) == [.missingAttribute])
        #expect(result.first?.line == 2)
    }

    @Test func variantNamingAnUndefinedAudioGroupIsAnError() throws {
        let result = try findings("#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1,AUDIO=\"aac\"\nv.m3u8\n")
        #expect(result.map(\.rule) == [.undefinedGroup])
    }

    @Test func segmentsAfterEndListAreAWarning() throws {
        let result = try findings(
            "#EXTM3U\n#EXT-X-TARGETDURATION:6\n#EXTINF:6,\na.ts\n#EXT-X-ENDLIST\n#EXTINF:6,\nb.ts\n")
        #expect(result.map(\.severity) == [.warning])
        #expect(result.first?.rule == .segmentAfterEndList)
    }

    @Test func secondMediaSequenceTagIsReported() throws {
        let result = try findings(
            "#EXTM3U\n#EXT-X-TARGETDURATION:6\n#EXT-X-MEDIA-SEQUENCE:1\n#EXT-X-MEDIA-SEQUENCE:2\n#EXTINF:6,\na.ts\n")
        #expect(result.map(\.rule) == [.duplicateTag])
        #expect(result.first?.line == 4)
    }

    static func live(sequence: Int, discontinuitySequence: Int, segments: [String]) throws -> MediaPlaylist {
        try MediaPlaylist(
            parsing:
                "#EXTM3U\n#EXT-X-TARGETDURATION:6\n#EXT-X-MEDIA-SEQUENCE:\(sequence)\n#EXT-X-DISCONTINUITY-SEQUENCE:\(discontinuitySequence)\n"
                + segments.joined(separator: "\n") + "\n")
    }

    @Test func mediaSequenceGoingBackwardsBetweenReloadsIsAnError() throws {
        let previous = try Self.live(sequence: 10, discontinuitySequence: 0, segments: ["#EXTINF:6,\na.ts"])
        let current = try Self.live(sequence: 9, discontinuitySequence: 0, segments: ["#EXTINF:6,\na.ts"])
        let result = HLSValidator.compareReloads(previous: previous, current: current)
        #expect(result.map(\.rule) == [.mediaSequenceWentBackwards])
        #expect(result.first?.line == 3)
    }

    @Test func discontinuitySequenceGoingBackwardsIsAnError() throws {
        let previous = try Self.live(sequence: 10, discontinuitySequence: 3, segments: ["#EXTINF:6,\na.ts"])
        let current = try Self.live(sequence: 11, discontinuitySequence: 2, segments: ["#EXTINF:6,\nb.ts"])
        #expect(
            HLSValidator.compareReloads(previous: previous, current: current).map(\.rule) == [
                .discontinuitySequenceWentBackwards
            ])
    }

    @Test func discontinuityLeavingTheWindowMustBeCounted() throws {
        let previous = try Self.live(
            sequence: 10, discontinuitySequence: 3,
            segments: ["#EXTINF:6,\na.ts", "#EXT-X-DISCONTINUITY\n#EXTINF:6,\nb.ts", "#EXTINF:6,\nc.ts"])
        let uncounted = try Self.live(sequence: 12, discontinuitySequence: 3, segments: ["#EXTINF:6,\nc.ts"])
        let counted = try Self.live(sequence: 12, discontinuitySequence: 4, segments: ["#EXTINF:6,\nc.ts"])
        #expect(
            HLSValidator.compareReloads(previous: previous, current: uncounted).map(\.rule) == [
                .discontinuitySequenceNotIncremented
            ])
        #expect(HLSValidator.compareReloads(previous: previous, current: counted).isEmpty)
    }
}
