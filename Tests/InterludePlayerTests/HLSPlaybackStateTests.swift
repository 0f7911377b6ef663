import Foundation
import Interlude
import Testing

@testable import InterludePlayer

/// The playback core on VOD: loading, buffering, the playhead, progress,
/// seeking, completion. Times are chosen so the expected values follow
/// from the playlist by hand.
@Suite struct HLSPlaybackStateTests {
    static let url = "http://origin.test/vod/index.m3u8"

    /// A harness with a 3 × 4 s VOD loaded (not played).
    static func loadedVOD(_ configuration: HLSStreamDisplay.Configuration = .init()) -> PlaybackHarness {
        var harness = PlaybackHarness(configuration)
        harness.load(url)
        harness.answerPlaylist(Playlists.vod(count: 3))
        return harness
    }

    @Test func loadingAMediaPlaylistReportsLoadedAndAsksForTheFirstSegment() {
        var harness = PlaybackHarness()
        harness.load(Self.url)
        #expect(harness.playlistFetch?.url.absoluteString == Self.url)
        #expect(harness.state.phase == .loading)
        harness.answerPlaylist(Playlists.vod(count: 3))
        #expect(harness.reports.map(\.report) == [.loaded])
        #expect(harness.state.phase == .ready)
        #expect(harness.state.totalTime == 12)
        #expect(harness.segmentFetch?.url.absoluteString == "http://origin.test/vod/seg0.ts")
        #expect(harness.state.status.variant?.url.absoluteString == Self.url)
        #expect(harness.state.status.isLive == false)
    }

    @Test func playBeforeAnySegmentWaitsForMediaThenPlaysInRealTime() {
        var harness = Self.loadedVOD()
        harness.play()
        #expect(harness.reports.map(\.report) == [.loaded, .started, .startedBuffering])
        harness.advance(by: 3)
        #expect(harness.state.playhead == 0)
        harness.answerSegment()
        #expect(harness.reports.suffix(2).map(\.report) == [.bufferedTo(4), .playbackReady])
        harness.advance(by: 1)
        #expect(abs(harness.position - 1) < 1e-9)
        // The startup wait is not a stall.
        #expect(harness.state.status.stallCount == 0)
    }

    @Test func progressIsReportedEveryFifthOfAStreamSecondAtAnySpeed() {
        var harness = Self.loadedVOD(.init(speed: 20))
        harness.answerAllSegments()
        harness.play()
        harness.advance(by: 0.05)  // one stream second at 20×
        let expected = [0.2, 0.4, 0.6, 0.8, 1.0]
        #expect(harness.progressTimes.count == expected.count)
        for (time, wanted) in zip(harness.progressTimes, expected) { #expect(abs(time - wanted) < 1e-6) }
    }

    @Test func thePlayheadStopsAtTheEndOfWhatIsDownloadedAndReportsAStall() {
        var harness = Self.loadedVOD()
        harness.answerSegment()  // seg0 only; seg1 is asked for and left waiting
        #expect(harness.segmentFetch?.url.lastPathComponent == "seg1.ts")
        harness.play()
        harness.advance(by: 6)
        #expect(harness.state.playhead == 4)
        #expect(harness.state.isBuffering)
        #expect(harness.state.status.stallCount == 1)
        #expect(harness.count(.startedBuffering) == 1)
        harness.answerSegment()
        #expect(harness.reports.last?.report == .playbackReady)
        #expect(abs(harness.state.status.stalledSeconds - 2) < 1e-9)
        harness.advance(by: 1)
        #expect(abs(harness.position - 5) < 1e-9)
    }

    @Test func segmentsAreFetchedOnlyWithinTheForwardBuffer() {
        var harness = PlaybackHarness(.init(forwardBufferDuration: 10))
        harness.load(Self.url)
        harness.answerPlaylist(Playlists.vod(count: 6))
        harness.answerAllSegments()
        // Segments starting before 0 + 10 s: 0, 4 and 8.
        #expect(harness.segmentRequests.map(\.url.lastPathComponent) == ["seg0.ts", "seg1.ts", "seg2.ts"])
        harness.play()
        harness.advance(by: 2.5)
        // 12 < 2.5 + 10: seg3 is due now.
        #expect(harness.segmentFetch?.url.lastPathComponent == "seg3.ts")
    }

    @Test func aVODPlaysToItsEndAndCompletesOnce() {
        var harness = Self.loadedVOD()
        harness.answerAllSegments()
        harness.play()
        harness.advance(by: 20)
        #expect(harness.count(.completed) == 1)
        #expect(harness.state.phase == .ended)
        #expect(harness.state.playhead == 12)
        #expect(harness.progressTimes.last == 12)
        #expect(harness.reports.last?.report == .completed)
    }

    @Test func pauseHoldsThePlayheadAndPlayResumes() {
        var harness = Self.loadedVOD()
        harness.answerAllSegments()
        harness.play()
        harness.advance(by: 1)
        harness.pause()
        harness.advance(by: 5)
        #expect(abs(harness.position - 1) < 1e-9)
        harness.play()
        harness.advance(by: 1)
        #expect(abs(harness.position - 2) < 1e-9)
        #expect(harness.count(.paused) == 1)
        #expect(harness.count(.resumed) == 1)
        #expect(harness.count(.started) == 1)
    }

    @Test func aSeekOutsideTheBufferFetchesTheSegmentThereAndReportsProgressAtOnce() {
        var harness = PlaybackHarness(.init(forwardBufferDuration: 4))
        harness.load(Self.url)
        harness.answerPlaylist(Playlists.vod(count: 6))
        harness.answerAllSegments()
        harness.play()
        harness.seek(17)
        // 17 s is in the fifth segment (16–20 s).
        #expect(harness.segmentFetch?.url.lastPathComponent == "seg4.ts")
        #expect(harness.state.playhead == 17)
        harness.advance(by: 0)
        #expect(harness.progressTimes.last == 17)
        harness.answerSegment()
        harness.advance(by: 1)
        #expect(abs(harness.position - 18) < 1e-9)
    }

    @Test func aSeekInsideTheBufferKeepsWhatIsDownloaded() {
        var harness = Self.loadedVOD()
        harness.answerAllSegments()
        let fetched = harness.segmentRequests.count
        harness.seek(9)
        #expect(harness.segmentRequests.count == fetched)
        #expect(harness.state.bufferedEnd == 12)
    }

    @Test func aSeekIsClampedToTheStream() {
        var harness = Self.loadedVOD()
        harness.seek(-5)
        #expect(harness.state.playhead == 0)
        harness.seek(500)
        #expect(harness.state.playhead == 12)
    }

    @Test func aSeekBeforeThePlaylistArrivesIsWhereItStarts() {
        var harness = PlaybackHarness()
        harness.load(Self.url)
        harness.seek(6)
        harness.answerPlaylist(Playlists.vod(count: 3))
        #expect(harness.state.playhead == 6)
        #expect(harness.segmentFetch?.url.lastPathComponent == "seg1.ts")
    }

    @Test func playBeforeLoadingEndsStartsOnceLoaded() {
        var harness = PlaybackHarness()
        harness.load(Self.url)
        harness.play()
        #expect(harness.reports.isEmpty)
        harness.answerPlaylist(Playlists.vod(count: 3))
        #expect(harness.reports.map(\.report) == [.loaded, .started, .startedBuffering])
    }

    @Test func theStartTagPlacesTheFirstPlayheadSnappedToASegment() {
        var harness = PlaybackHarness()
        harness.load(Self.url)
        harness.answerPlaylist(Playlists.vod(count: 3, extra: "#EXT-X-START:TIME-OFFSET=5.5"))
        // PRECISE=NO: the start of the segment holding 5.5 s (4–8 s).
        #expect(harness.state.playhead == 4)
        var precise = PlaybackHarness()
        precise.load(Self.url)
        precise.answerPlaylist(Playlists.vod(count: 3, extra: "#EXT-X-START:TIME-OFFSET=-3,PRECISE=YES"))
        #expect(precise.state.playhead == 9)
    }

    @Test func streamTimeRunsOnAcrossADiscontinuityAndEachIsCountedOnce() {
        var harness = PlaybackHarness()
        harness.load(Self.url)
        let body = """
            #EXTM3U
            #EXT-X-TARGETDURATION:4
            #EXTINF:4,
            a.ts
            #EXT-X-DISCONTINUITY
            #EXTINF:3,
            ad.ts
            #EXT-X-DISCONTINUITY
            #EXTINF:4,
            b.ts
            #EXT-X-ENDLIST

            """
        harness.answerPlaylist(body)
        #expect(harness.state.totalTime == 11)
        #expect(harness.state.timeline.segments.map(\.start) == [0, 4, 7])
        #expect(harness.state.timeline.segments.map(\.discontinuitySequence) == [0, 1, 2])
        #expect(harness.state.status.discontinuitiesSeen == 2)
        harness.answerAllSegments()
        harness.play()
        harness.advance(by: 12)
        #expect(harness.count(.completed) == 1)
    }

    @Test func aByteRangeSegmentIsAskedForWithItsRange() {
        var harness = PlaybackHarness()
        harness.load(Self.url)
        let body = """
            #EXTM3U
            #EXT-X-TARGETDURATION:4
            #EXT-X-VERSION:4
            #EXTINF:4,
            #EXT-X-BYTERANGE:1000@0
            all.ts
            #EXTINF:4,
            #EXT-X-BYTERANGE:500
            all.ts
            #EXT-X-ENDLIST

            """
        harness.answerPlaylist(body)
        #expect(harness.segmentFetch?.request.headers["Range"] == "bytes=0-999")
        harness.answerSegment()
        // No offset: it follows the previous range of the same resource (RFC 8216bis 4.4.4.2).
        #expect(harness.segmentFetch?.request.headers["Range"] == "bytes=1000-1499")
    }

    @Test func aGapSegmentIsPlayedOverWithoutFetching() {
        var harness = PlaybackHarness()
        harness.load(Self.url)
        let body = """
            #EXTM3U
            #EXT-X-TARGETDURATION:4
            #EXTINF:4,
            a.ts
            #EXT-X-GAP
            #EXTINF:4,
            missing.ts
            #EXTINF:4,
            c.ts
            #EXT-X-ENDLIST

            """
        harness.answerPlaylist(body)
        harness.answerAllSegments()
        #expect(harness.segmentRequests.map(\.url.lastPathComponent) == ["a.ts", "c.ts"])
        harness.play()
        harness.advance(by: 13)
        #expect(harness.count(.completed) == 1)
        #expect(harness.state.status.stallCount == 0)
    }

    @Test func changingTheSpeedCountsTimeAlreadyPlayedAtTheOldSpeed() {
        var harness = Self.loadedVOD()
        harness.answerAllSegments()
        harness.play()
        harness.advance(by: 1)
        harness.apply { $0.setSpeed(4, now: $1, into: &$2) }
        harness.advance(by: 1)
        #expect(abs(harness.position - 5) < 1e-9)
    }

    @Test func resetForgetsEverything() {
        var harness = Self.loadedVOD()
        harness.answerAllSegments()
        harness.apply { state, _, effects in state.reset(into: &effects) }
        #expect(harness.state.phase == .idle)
        #expect(harness.state.status.segmentsDownloaded == 0)
        #expect(harness.state.nextWakeTime(now: harness.now) == nil)
    }
}
