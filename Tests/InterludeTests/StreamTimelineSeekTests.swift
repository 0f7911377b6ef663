import Foundation
import Testing

@testable import Interlude

/// Seeks, replays, snapback and bookmarks on the VOD timeline of
/// `StreamFixtures.vodMetadata()` (pre 0–20, mid 80–110, post 170–180).
@Suite("Stream timeline seeks")
struct StreamTimelineSeekTests {
    @Test func seekIntoABreakStartsTheAdItLandsInWithoutEarlierQuartiles() {
        var driver = TimelineDriver.vod()
        _ = driver.play(to: 50)
        let landing = driver.report(at: 95)
        #expect(eventTypes(landing) == [.adPeriodStarted, .adBreakStarted, .cuepointsChanged, .started])
        #expect(verifications(landing) == [StreamFixtures.vodEventID("m2", "start")])
        let rest = driver.play(to: 111)
        #expect(
            eventTypes(rest) == [
                .thirdQuartile, .complete, .started, .firstQuartile, .midpoint, .thirdQuartile, .complete,
                .adBreakEnded, .adPeriodEnded,
            ])
        #expect(!verifications(landing + rest).contains { $0.hasPrefix("google_m1") })
    }

    @Test func seekOverABreakLeavesItUnplayedWithoutSnapback() {
        var driver = TimelineDriver.vod()
        _ = driver.play(to: 50)
        let effects = driver.report(at: 130)
        #expect(eventTypes(effects).isEmpty)
        #expect(seeks(effects).isEmpty)
        #expect(driver.timeline.cuepoints.map(\.isPlayed) == [true, false, false])
    }

    @Test func seekOutOfABreakEndsItWithoutCompletingTheAd() {
        var driver = TimelineDriver.vod()
        _ = driver.play(to: 50)
        _ = driver.play(to: 85)
        let effects = driver.report(at: 130)
        #expect(eventTypes(effects) == [.adBreakEnded, .adPeriodEnded])
        #expect(uiStates(effects).last == .hidden)
    }

    @Test func replayFiresThePeriodButNotTheBreakAndVerifiesNothingAgain() {
        var driver = TimelineDriver.vod()
        _ = driver.play(to: 25)
        let back = driver.report(at: 5)
        #expect(eventTypes(back) == [.adPeriodStarted])
        let replay = driver.play(to: 25)
        #expect(eventTypes(replay) == [.adPeriodEnded])
        #expect(verifications(back + replay).isEmpty)
        // The UI still counts down during a replay.
        #expect(uiStates(back + replay).contains { $0.countdownText == "Ad 1 of 2 (5s)" })
    }

    @Test func snapbackPlaysTheSkippedBreakThenResumesWhereTheUserSeeked() {
        var driver = TimelineDriver.vod(snapback: true)
        _ = driver.play(to: 40)
        let seek = driver.report(at: 150)
        #expect(seeks(seek) == [80])
        #expect(eventTypes(seek).isEmpty)
        let effects = driver.play(to: 155)
        #expect(
            Array(eventTypes(effects).prefix(4)) == [.adPeriodStarted, .adBreakStarted, .cuepointsChanged, .started])
        #expect(Array(eventTypes(effects).suffix(3)) == [.complete, .adBreakEnded, .adPeriodEnded])
        #expect(eventTypes(effects).filter { $0 == .complete }.count == 3)
        #expect(seeks(effects) == [150])
        // The resume seek comes after adBreakEnded, as the samples do it.
        let endIndex = effects.firstIndex {
            if case .emit(let event) = $0 { event.type == .adBreakEnded } else { false }
        }
        let seekIndex = effects.firstIndex { if case .seekStream = $0 { true } else { false } }
        #expect(endIndex! < seekIndex!)
        #expect(driver.position == 155)
        #expect(driver.timeline.cuepoints.map(\.isPlayed) == [true, true, false])
    }

    @Test func snapbackLeavesPlayedBreaksAndBackwardSeeksAlone() {
        var driver = TimelineDriver.vod(snapback: true)
        _ = driver.play(to: 115)
        #expect(seeks(driver.report(at: 60)).isEmpty)
        #expect(seeks(driver.report(at: 150)).isEmpty)
        #expect(seeks(driver.report(at: 10)).isEmpty)
    }

    @Test func seekIntoTheMiddleOfAnUnplayedBreakSnapsToItsStart() {
        var driver = TimelineDriver.vod(snapback: true)
        _ = driver.play(to: 50)
        // The break plays whole, then playback goes on at 100 (or after the break if that is later).
        let effects = driver.report(at: 100)
        #expect(seeks(effects) == [80])
    }

    @Test func withSnapbackSeeksDuringAFirstPlayBreakAreRefused() {
        var driver = TimelineDriver.vod(snapback: true)
        _ = driver.play(to: 85)
        let effects = driver.report(at: 140)
        #expect(seeks(effects) == [85])
        #expect(eventTypes(effects).isEmpty)
        var request: [StreamTimeline.Effect] = []
        #expect(!driver.timeline.seekRequested(to: 140, into: &request))
        #expect(seeks(request).isEmpty)
        // Once the break has ended, seeks go through.
        _ = driver.play(to: 111)
        request.removeAll()
        #expect(driver.timeline.seekRequested(to: 140, into: &request))
        #expect(seeks(request) == [140])
    }

    @Test func requestedSeekOverAnUnplayedBreakSnapsBack() {
        var driver = TimelineDriver.vod(snapback: true)
        _ = driver.play(to: 30)
        var effects: [StreamTimeline.Effect] = []
        #expect(driver.timeline.seekRequested(to: 175, into: &effects))
        // The last break starting before 175 is the post-roll (170), unplayed and after 30.
        #expect(seeks(effects) == [170])
    }

    @Test func bookmarkResumesAtTheMappedStreamTimeWithoutSnappingBack() {
        var driver = TimelineDriver.vod(snapback: true)
        let start = driver.timeline.streamTime(forContentTime: 70)
        #expect(start == 120)
        driver.position = start
        let effects = driver.report(at: start) + driver.play(to: 125)
        #expect(seeks(effects).isEmpty)
        #expect(eventTypes(effects).isEmpty)
        #expect(driver.timeline.contentTime(forStreamTime: 125) == 75)
    }

    @Test func timeGoingBackwardsALittleIsIgnored() {
        var driver = TimelineDriver.vod()
        _ = driver.play(to: 12)
        let jitter = driver.report(at: 11.8)
        #expect(jitter.isEmpty)
        #expect(driver.timeline.playhead == 12)
        let onward = driver.play(to: 21)
        #expect(
            eventTypes(onward) == [.firstQuartile, .midpoint, .thirdQuartile, .complete, .adBreakEnded, .adPeriodEnded])
    }

    @Test func nonFiniteAndNegativeTimesAreIgnoredAndLoggedOnce() {
        var driver = TimelineDriver.vod()
        _ = driver.play(to: 5)
        var effects: [StreamTimeline.Effect] = []
        for bad in [Double.nan, .infinity, -.infinity, -3] {
            driver.timeline.playheadMoved(to: bad, at: 200, into: &effects)
        }
        #expect(effects.count == 1)
        #expect(driver.timeline.playhead == 5)
        var seek: [StreamTimeline.Effect] = []
        #expect(!driver.timeline.seekRequested(to: .nan, into: &seek))
    }

    @Test func displayThatNeverReachesARequestedSeekIsTakenAtItsWord() {
        var driver = TimelineDriver.vod(snapback: true)
        _ = driver.play(to: 40)
        var effects: [StreamTimeline.Effect] = []
        #expect(driver.timeline.seekRequested(to: 60, into: &effects))
        // The display stays near 40 (it ignored the seek): after the patience runs out, playback goes on from there.
        var time = 40.0
        for _ in 0..<(StreamTimeline.landingPatience + 2) {
            time += 0.25
            driver.now += 0.25
            driver.timeline.playheadMoved(to: time, at: driver.now, into: &effects)
        }
        #expect(driver.timeline.playhead == time)
    }

    @Test func seekBeforeTheFirstBreakReportIsNotASnapback() {
        var driver = TimelineDriver.vod(snapback: true)
        // A stream that starts at a bookmark past the pre-roll: the pre-roll stays unplayed.
        let effects = driver.report(at: 30)
        #expect(seeks(effects).isEmpty)
        #expect(driver.timeline.cuepoints.map(\.isPlayed) == [false, false, false])
    }
}
