import Foundation
import Testing

@testable import InterludeHLS

/// The parser and `updateTimeline()` derive the timeline through one cursor.
@Suite struct TimelineDerivationTests {
    static let discontinuityAfterInfo = """
        #EXTM3U
        #EXT-X-TARGETDURATION:6
        #EXT-X-MEDIA-SEQUENCE:5
        #EXT-X-DISCONTINUITY-SEQUENCE:2
        #EXTINF:6,
        a.ts
        #EXTINF:6,
        #EXT-X-DISCONTINUITY
        #EXT-X-PROGRAM-DATE-TIME:2024-05-01T12:00:00.000Z
        b.ts
        #EXTINF:6,
        c.ts
        """

    @Test func aDiscontinuityWrittenAfterEXTINFCountsTheSameBothWays() throws {
        let parsed = try MediaPlaylist(parsing: Self.discontinuityAfterInfo)
        var derived = parsed
        derived.updateTimeline()
        #expect(parsed.segments.map(\.discontinuitySequence) == [2, 3, 3])
        #expect(derived.segments.map(\.discontinuitySequence) == parsed.segments.map(\.discontinuitySequence))
        #expect(derived.segments.map(\.programDateTime) == parsed.segments.map(\.programDateTime))
        #expect(parsed.segments[0].programDateTime == Fixture.date("2024-05-01T11:59:54.000Z"))
    }

    @Test func aFirstSegmentsOwnDiscontinuityCountsSoNumbersSurviveItsRemoval() throws {
        // RFC 8216bis 6.2.2: removing a DISCONTINUITY raises the sequence and
        // leaves the numbers of the remaining segments unchanged.
        let before = try MediaPlaylist(
            parsing:
                "#EXTM3U\n#EXT-X-TARGETDURATION:6\n#EXT-X-MEDIA-SEQUENCE:10\n#EXT-X-DISCONTINUITY-SEQUENCE:3\n#EXT-X-DISCONTINUITY\n#EXTINF:6,\nb.ts\n#EXTINF:6,\nc.ts\n"
        )
        let after = try MediaPlaylist(
            parsing:
                "#EXTM3U\n#EXT-X-TARGETDURATION:6\n#EXT-X-MEDIA-SEQUENCE:11\n#EXT-X-DISCONTINUITY-SEQUENCE:4\n#EXTINF:6,\nc.ts\n#EXTINF:6,\nd.ts\n"
        )
        #expect(before.segments.map(\.discontinuitySequence) == [4, 4])
        #expect(after.segments.first?.discontinuitySequence == 4)
        #expect(HLSValidator.compareReloads(previous: before, current: after).isEmpty)
    }

    @Test func everyFixtureDerivesTheSameTimelineWhenRederived() throws {
        for path in Fixture.allPaths {
            guard let parsed = try? Fixture.media(path) else { continue }
            var derived = parsed
            derived.updateTimeline()
            #expect(derived == parsed, "\(path)")
        }
    }
}
