import Foundation
import InterludeHLS
import Testing

@testable import InterludePlayer

/// Timed metadata: ID3 frames at their PTS (mapped through the segment's
/// first media PTS and its place on the timeline) and DATERANGE client
/// attributes at START-DATE (mapped through PROGRAM-DATE-TIME), each
/// reported once, in order, when the playhead gets there.
@Suite struct HLSPlaybackStateMetadataTests {
    static let url = "http://origin.test/vod/index.m3u8"
    static let second: UInt64 = 90_000

    static func txxx(_ value: String) -> ID3Frame { .userText(description: "", value: value) }

    /// A 3 × 4 s VOD whose segments answer with `contents(segmentIndex)`, all downloaded at once.
    static func playedVOD(
        _ body: String = Playlists.vod(count: 3), contents: (Int) -> HLSSegmentContents
    ) -> PlaybackHarness {
        var harness = PlaybackHarness()
        harness.load(url)
        harness.answerPlaylist(body)
        harness.answerAllSegments { url in
            contents(Int(url.deletingPathExtension().lastPathComponent.dropFirst(3)) ?? 0)
        }
        harness.play()
        return harness
    }

    @Test func id3FramesAreReportedWhenThePlayheadReachesTheirPTSOnceAndInOrder() {
        // Segment 1 (4–8 s) starts at PTS 10 s; frames at PTS 11 s and 12 s are at 5 s and 6 s.
        var harness = Self.playedVOD { index in
            guard index == 1 else { return .media(pts: 900_000 + UInt64(index) * 4 * Self.second) }
            return .media(
                pts: 10 * Self.second,
                metadata: [
                    (11 * Self.second, [Self.txxx("google_start")]),
                    (12 * Self.second, [Self.txxx("google_firstquartile"), .privateData(owner: "x", data: [0xAB])]),
                ])
        }
        // All three segments were downloaded at 0 s, long before the playhead gets there.
        #expect(harness.metadata.isEmpty)
        harness.advance(by: 4.99)
        #expect(harness.metadata.isEmpty)
        harness.advance(by: 20)
        let reported = harness.metadata
        #expect(
            reported.map(\.values) == [
                ["TXXX": "google_start"], ["TXXX": "google_firstquartile"], ["PRIV": "x", "data": "ab"],
            ])
        #expect(reported.map(\.presentationTime) == [5, 6, 6])
        // Reported when the playhead reached them, not before, not at the next progress tick.
        for item in reported { #expect(abs(item.reportedAt - item.presentationTime) < 1e-6) }
        #expect(harness.state.status.timedMetadataReported == 3)
    }

    @Test func aDiscontinuityResetsThePTSTheMappingStartsFrom() {
        let body = """
            #EXTM3U
            #EXT-X-TARGETDURATION:4
            #EXTINF:4,
            seg0.ts
            #EXT-X-DISCONTINUITY
            #EXTINF:4,
            seg1.ts
            #EXT-X-ENDLIST

            """
        // After the discontinuity the timestamps restart near 0: PTS 1.5 s of
        // a segment starting at PTS 1 s is 0.5 s into it, 4.5 s of stream.
        var harness = Self.playedVOD(body) { index in
            index == 0
                ? .media(pts: 500 * Self.second)
                : .media(pts: Self.second, metadata: [(Self.second * 3 / 2, [Self.txxx("google_ad")])])
        }
        harness.advance(by: 10)
        #expect(harness.metadata.map(\.presentationTime) == [4.5])
    }

    @Test func thePTSWrapAroundIsCrossedTheShortWay() {
        let wrap: UInt64 = 1 << 33
        var harness = Self.playedVOD { index in
            index == 0
                ? .media(pts: wrap - Self.second, metadata: [(Self.second, [Self.txxx("after-wrap")])])
                : .media(pts: 0)
        }
        harness.advance(by: 10)
        // From 2^33 − 1 s to 1 s (past the wrap) is 2 s.
        #expect(harness.metadata.map(\.presentationTime) == [2])
    }

    @Test func aSegmentWithoutMediaUsesTheAnchorOfItsDiscontinuity() {
        var harness = Self.playedVOD { index in
            switch index {
            case 0: return .media(pts: 100 * Self.second)
            // No audio or video PES: PTS 109 s is 9 s after segment 0's 100 s.
            case 1: return .media(pts: nil, metadata: [(109 * Self.second, [Self.txxx("metadata-only")])])
            default: return .media(pts: 108 * Self.second)
            }
        }
        harness.advance(by: 12)
        // 9 s is past segment 1's end (8 s): the frame stays in its segment.
        #expect(harness.metadata.map(\.presentationTime) == [8])
    }

    @Test func aFrameWhosePTSIsBeforeItsSegmentIsReportedAtTheSegmentStart() {
        var harness = Self.playedVOD { index in
            index == 2
                ? .media(pts: 50 * Self.second, metadata: [(49 * Self.second, [Self.txxx("early")])])
                : .media(pts: 0)
        }
        harness.advance(by: 12)
        #expect(harness.metadata.map(\.presentationTime) == [8])
    }

    @Test func framesBeforeASeekTargetAreSkippedAndASeekBackReportsThemAgain() {
        // One frame a second into each segment: at 1, 5 and 9 s.
        func contents(_ index: Int) -> HLSSegmentContents {
            .media(
                pts: UInt64(index) * 4 * Self.second,
                metadata: [(UInt64(index * 4 + 1) * Self.second, [Self.txxx("f\(index)")])])
        }
        var harness = Self.playedVOD(contents: contents)
        harness.seek(6)  // past f1 at 5 s
        harness.advance(by: 6.5)
        #expect(harness.metadata.map(\.values) == [["TXXX": "f2"]])
        #expect(harness.state.phase == .ended)
        harness.seek(0)
        harness.answerAllSegments { contents(Int($0.deletingPathExtension().lastPathComponent.dropFirst(3)) ?? 0) }
        harness.play()
        harness.advance(by: 1.5)
        #expect(harness.metadata.map(\.values) == [["TXXX": "f2"], ["TXXX": "f0"]])
    }

    @Test func dateRangeClientAttributesAreReportedAtTheirStartDate() {
        let body = Playlists.live(
            first: 0, count: 3,
            tags: [
                0: "#EXT-X-PROGRAM-DATE-TIME:2024-05-01T12:00:00.000Z",
                1: """
                #EXT-X-DATERANGE:ID="break-1",CLASS="com.example",START-DATE="2024-05-01T12:00:06.500Z",DURATION=10,X-AD-ID="google_123",X-COUNT=5
                """,
            ], ended: true)
        var harness = PlaybackHarness()
        harness.load(Self.url)
        harness.answerPlaylist(body)
        harness.answerAllSegments()
        harness.play()
        harness.advance(by: 6.4)
        #expect(harness.metadata.isEmpty)
        harness.advance(by: 10)
        // 12:00:06.5 is 6.5 s after the first segment's date; CLASS and DURATION are not client attributes.
        #expect(harness.metadata.map(\.values) == [["X-AD-ID": "google_123", "X-COUNT": "5"]])
        #expect(harness.metadata.map(\.presentationTime) == [6.5])
    }

    @Test func aDateRangeRepeatedByEveryReloadIsReportedOnce() {
        let range = #"#EXT-X-DATERANGE:ID="b",START-DATE="2024-05-01T12:00:20.000Z",X-EVENT="google_b""#
        func window(_ first: Int) -> String {
            Playlists.live(
                first: first, count: 6,
                tags: [first: "#EXT-X-PROGRAM-DATE-TIME:2024-05-01T12:00:\(String(format: "%02d", first * 4)).000Z"],
                ended: false
            ).replacingOccurrences(
                of: "#EXTINF:4.0,\nseg\(first + 1).ts", with: "#EXTINF:4.0,\nseg\(first + 1).ts\n\(range)")
        }
        var harness = PlaybackHarness()
        harness.load(Self.url)
        harness.answerPlaylist(window(0))
        harness.answerAllSegments()
        harness.play()
        for first in 1...6 {
            harness.answerPlaylist(window(first))
            harness.answerAllSegments()
        }
        harness.advance(by: 4)
        #expect(harness.metadata.map(\.values) == [["X-EVENT": "google_b"]])
        #expect(harness.metadata.map(\.presentationTime) == [20])
    }

    @Test func joiningALiveStreamInsideAnOpenDateRangeReportsItAtOnce() {
        // Playback starts at 12 s; the range began at 4 s and lasts 30 s.
        let body = Playlists.live(
            first: 0, count: 6,
            tags: [
                0: "#EXT-X-PROGRAM-DATE-TIME:2024-05-01T12:00:00.000Z",
                1: #"#EXT-X-DATERANGE:ID="open",START-DATE="2024-05-01T12:00:04.000Z",DURATION=30,X-A="1""#,
                2: #"#EXT-X-DATERANGE:ID="over",START-DATE="2024-05-01T12:00:04.000Z",DURATION=2,X-B="2""#,
            ])
        var harness = PlaybackHarness()
        harness.load(Self.url)
        harness.answerPlaylist(body)
        #expect(harness.state.playhead == 12)
        harness.answerAllSegments()
        harness.play()
        harness.advance(by: 0.1)
        #expect(harness.metadata.map(\.values) == [["X-A": "1"]])
        #expect(harness.metadata.map(\.presentationTime) == [4])
    }

    @Test func aDateRangeWithoutDatesStartsWithTheSegmentItPrecedes() {
        var harness = PlaybackHarness()
        harness.load(Self.url)
        harness.answerPlaylist(
            Playlists.live(first: 0, count: 3, tags: [2: #"#EXT-X-DATERANGE:ID="n",X-N="1""#], ended: true))
        harness.answerAllSegments()
        harness.play()
        harness.advance(by: 12)
        #expect(harness.metadata.map(\.presentationTime) == [8])
    }

    @Test func frameValuesAreKeyedByFrameIDAsTheSDKReadsThem() {
        #expect(
            HLSTimedMetadataValues.values(of: .userText(description: "", value: "google_1")) == ["TXXX": "google_1"])
        #expect(
            HLSTimedMetadataValues.values(of: .userText(description: "id", value: "v"))
                == ["TXXX": "v", "description": "id"])
        #expect(HLSTimedMetadataValues.values(of: .text(id: "TIT2", value: "Title")) == ["TIT2": "Title"])
        #expect(HLSTimedMetadataValues.values(of: .other(id: "GEOB", data: [0, 15, 255])) == ["GEOB": "000fff"])
    }
}
