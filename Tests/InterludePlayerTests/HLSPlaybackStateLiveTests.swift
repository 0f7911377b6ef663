import Foundation
import Interlude
import Testing

@testable import InterludePlayer

/// Live playlists: where playback starts, when reloads go out (RFC
/// 8216bis 6.3.3 and 6.3.4), how segments keep their place as the window
/// slides, and what happens when the playlist stops changing.
@Suite struct HLSPlaybackStateLiveTests {
    static let url = "http://origin.test/live/index.m3u8"

    static func loadedLive(
        first: Int = 10, count: Int = 6, header: String = "", _ configuration: HLSStreamDisplay.Configuration = .init()
    ) -> PlaybackHarness {
        var harness = PlaybackHarness(configuration)
        harness.load(url)
        harness.answerPlaylist(Playlists.live(first: first, count: count, header: header))
        return harness
    }

    @Test func liveStartsAtTheLastSegmentStartingThreeTargetDurationsFromTheEnd() {
        // 6 × 4 s: 0–24 s; 24 − 3 × 4 = 12, where the fourth segment starts.
        let harness = Self.loadedLive()
        #expect(harness.state.playhead == 12)
        #expect(harness.state.status.isLive)
        #expect(harness.state.totalTime == 0)
        #expect(harness.segmentFetch?.url.lastPathComponent == "seg13.ts")
    }

    @Test func holdBackReplacesThreeTargetDurations() {
        // 24 − 6 = 18 falls in the segment starting at 16.
        let harness = Self.loadedLive(header: "#EXT-X-SERVER-CONTROL:HOLD-BACK=6.0")
        #expect(harness.state.playhead == 16)
    }

    @Test func aWindowShorterThanTheHoldBackStartsAtItsFirstSegment() {
        let harness = Self.loadedLive(count: 2)
        #expect(harness.state.playhead == 0)
    }

    @Test func reloadsWaitATargetDurationAfterAChangeAndHalfAfterNone() {
        var harness = Self.loadedLive()
        // First load began at 0: the next no sooner than 0 + 4.
        #expect(harness.playlistFetch?.notBefore == 4)
        #expect(harness.playlistFetch?.url.absoluteString == Self.url)
        harness.answerPlaylist(Playlists.live(first: 11, count: 6))  // changed, began at 4
        #expect(harness.playlistFetch?.notBefore == 8)
        harness.answerPlaylist(Playlists.live(first: 11, count: 6))  // unchanged, began at 8
        #expect(harness.playlistFetch?.notBefore == 10)
        harness.answerPlaylist(Playlists.live(first: 11, count: 6))  // unchanged, began at 10
        #expect(harness.playlistFetch?.notBefore == 12)
        harness.answerPlaylist(Playlists.live(first: 12, count: 6))  // changed, began at 12
        #expect(harness.playlistFetch?.notBefore == 16)
        #expect(harness.state.status.unchangedReloads == 2)
        #expect(harness.state.status.playlistLoads == 5)
    }

    @Test func aSlowReloadIsFollowedAtOnceWhenItsWaitHasPassed() {
        var harness = Self.loadedLive()
        guard let fetch = harness.playlistFetch else { return }
        harness.playlistFetch = nil
        harness.advance(to: 4)
        // The answer comes 5 s after the request began: the next is due at 4 + 4 = 8 < 9.
        harness.advance(to: 9)
        let body = Playlists.live(first: 11, count: 6)
        let response = HLSFetchResponse(
            statusCode: 200, url: fetch.url, headers: [:], body: Array(body.utf8), byteCount: body.utf8.count,
            contents: nil)
        harness.apply { $0.playlistFetched(id: fetch.id, startedAt: 4, result: .success(response), now: $1, into: &$2) }
        #expect(harness.playlistFetch?.notBefore == 9)
    }

    @Test func segmentsKeepTheirStreamTimeAsTheWindowSlides() {
        var harness = Self.loadedLive()
        let before = harness.state.timeline.segments.first { $0.sequence == 15 }?.start
        harness.answerPlaylist(Playlists.live(first: 12, count: 6))
        #expect(harness.state.timeline.segments.first { $0.sequence == 15 }?.start == before)
        // Sequence 16 follows 15 (20–24 s), 17 follows it.
        #expect(harness.state.timeline.segments.first { $0.sequence == 16 }?.start == 24)
        #expect(harness.state.timeline.segments.first { $0.sequence == 17 }?.start == 28)
        #expect(harness.state.status.mediaSequence == 12)
        #expect(harness.state.status.windowRange == 8...32)
    }

    @Test func segmentsAfterAHoleInTheNumberingArePlacedByTheirDates() {
        var harness = PlaybackHarness()
        harness.load(Self.url)
        let dates = [10: "#EXT-X-PROGRAM-DATE-TIME:2024-05-01T12:00:00.000Z"]
        harness.answerPlaylist(Playlists.live(first: 10, count: 3, tags: dates))
        // The window slid past 13…19 unseen; 20 is dated 50 s after 10 (seven
        // target durations after 12 ends would say 40).
        harness.answerPlaylist(
            Playlists.live(first: 20, count: 3, tags: [20: "#EXT-X-PROGRAM-DATE-TIME:2024-05-01T12:00:50.000Z"]))
        #expect(harness.state.timeline.segments.first { $0.sequence == 20 }?.start == 50)
    }

    @Test func aLivePlaylistThatNeverChangesIsReportedStale() {
        var harness = Self.loadedLive()
        var answered = 0
        while harness.playlistFetch != nil, answered < 100 {
            harness.answerPlaylist(Playlists.live(first: 10, count: 6))
            answered += 1
        }
        // Reloads at 4 (a target duration after the first), then every 2 s:
        // at 14, 14 s without a new segment passes the limit of 3 × 4 s.
        #expect(harness.now == 14)
        #expect(answered == 6)
        #expect(harness.errors.map(\.code) == [.stalePlaylist])
        #expect(harness.state.phase == .failed)
        #expect(harness.errors.first?.message.contains("no new segment for 14 s") == true)
        #expect(harness.playlistFetch == nil)
        #expect(harness.segmentFetch == nil)
    }

    @Test func failingReloadsAreWaitedOutWithinTheStaleLimitThenReported() {
        var harness = Self.loadedLive()
        harness.failPlaylist(.unreachable("connection refused"))
        #expect(harness.state.phase != .failed)
        harness.answerPlaylist(Playlists.live(first: 11, count: 6))
        #expect(harness.state.phase != .failed)
        var failures = 0
        while harness.playlistFetch != nil, failures < 100 {
            harness.failPlaylist(.timedOut)
            failures += 1
        }
        #expect(harness.errors.map(\.code) == [.stalePlaylist])
        #expect(harness.errors.first?.message.contains("did not answer") == true)
    }

    @Test func aMediaSequenceGoingBackwardsIsAnError() {
        var harness = Self.loadedLive()
        harness.answerPlaylist(Playlists.live(first: 5, count: 6))
        #expect(harness.errors.map(\.code) == [.inconsistentPlaylist])
        #expect(harness.errors.first?.message.contains("from MEDIA-SEQUENCE 10 to 5") == true)
    }

    @Test func anEndListEndsALiveStreamAtItsLastSegment() {
        var harness = Self.loadedLive()
        harness.answerAllSegments()
        harness.play()
        harness.answerPlaylist(Playlists.live(first: 11, count: 6, ended: true))
        harness.answerAllSegments()
        #expect(harness.playlistFetch == nil)
        #expect(harness.state.totalTime == 28)
        harness.advance(by: 30)
        #expect(harness.count(.completed) == 1)
        #expect(harness.state.playhead == 28)
    }

    @Test func aPlayerThatFellBehindTheWindowJumpsToWhatIsStillThere() {
        var harness = Self.loadedLive(.init(forwardBufferDuration: 8))
        harness.answerAllSegments()  // 12–20 s buffered
        harness.play()
        harness.pause()
        // A minute later the window holds 25…30 (starting at 60 s); 15…24 were never fetched.
        for first in 11...25 { harness.answerPlaylist(Playlists.live(first: first, count: 6)) }
        harness.play()
        harness.advance(by: 7.9)  // plays the buffered 12–20 s
        #expect(abs(harness.position - 19.9) < 1e-9)
        harness.advance(by: 0.5)
        #expect(harness.position >= 60)
        #expect(harness.state.status.segmentsSkipped == 10)
        #expect(harness.logs.contains { $0.contains("no longer available") })
    }

    @Test func playedSegmentsThatLeftTheWindowAreForgotten() {
        var harness = Self.loadedLive()
        harness.answerAllSegments()
        harness.play()
        for first in 11...40 {
            harness.answerPlaylist(Playlists.live(first: first, count: 6))
            harness.answerAllSegments()
        }
        // Memory stays flat: the window and what lies ahead of the playhead, not two minutes of segments.
        #expect(harness.state.timeline.segments.count <= 12)
        #expect(harness.state.status.stallCount == 0)
    }
}
