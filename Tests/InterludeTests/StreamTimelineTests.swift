import Foundation
import Testing

@testable import Interlude

/// The VOD timeline of `StreamFixtures.vodMetadata()`: pre-roll 0–20 (p1,
/// p2), mid-roll 80–110 (m1–m3) at content 60, post-roll 170–180 (z1).
@Suite("Stream timeline (VOD)")
struct StreamTimelineTests {
    static let fullBreak: [AdEvent.EventType] = [.started, .firstQuartile, .midpoint, .thirdQuartile, .complete]

    @Test func preRollEventsComeInOrderAndEachAdIsVerifiedOnce() {
        var driver = TimelineDriver.vod()
        let effects = driver.play(to: 20.5)
        #expect(
            eventTypes(effects)
                == [.adPeriodStarted, .adBreakStarted, .cuepointsChanged] + Self.fullBreak + Self.fullBreak
                + [.adBreakEnded, .adPeriodEnded])
        let types = ["start", "firstquartile", "midpoint", "thirdquartile", "complete"]
        #expect(
            verifications(effects)
                == types.map { StreamFixtures.vodEventID("p1", $0) } + types.map { StreamFixtures.vodEventID("p2", $0) }
        )
    }

    @Test func midRollFiresAtItsStreamTimeAndCompletesBeforeTheBreakEnds() {
        var driver = TimelineDriver.vod()
        _ = driver.play(to: 79.75)
        let before = driver.play(to: 79.9)
        #expect(eventTypes(before).isEmpty)
        let effects = driver.play(to: 111)
        #expect(
            eventTypes(effects)
                == [.adPeriodStarted, .adBreakStarted, .cuepointsChanged] + Self.fullBreak + Self.fullBreak
                + Self.fullBreak + [.adBreakEnded, .adPeriodEnded])
        let started = effects.compactMap { effect -> Ad? in
            if case .emit(let event) = effect, event.type == .started { return event.ad }
            return nil
        }
        #expect(started.map(\.adTitle) == ["Ad m1", "Ad m2", "Ad m3"])
        #expect(started.map(\.adPodInfo.adPosition) == [1, 2, 3])
        #expect(started.allSatisfy { $0.adPodInfo.totalAds == 3 && $0.adPodInfo.podIndex == 1 })
        #expect(started.allSatisfy { $0.adPodInfo.timeOffset == 60 && $0.adPodInfo.maxDuration == 30 })
        #expect(started.allSatisfy { $0.duration == 10 && !$0.isSkippable })
    }

    @Test func postRollPlaysToTheEndOfTheStream() {
        var driver = TimelineDriver.vod()
        _ = driver.play(to: 169)
        let effects = driver.play(to: StreamFixtures.vodStreamDuration)
        #expect(
            eventTypes(effects) == [.adPeriodStarted, .adBreakStarted, .cuepointsChanged] + Self.fullBreak + [
                .adBreakEnded, .adPeriodEnded,
            ])
        let post = effects.compactMap { effect -> AdPodInfo? in
            if case .emit(let event) = effect, event.type == .started { return event.ad?.adPodInfo }
            return nil
        }
        // DAI.md §1: 0 pre-roll, 1…N mid-rolls, then the post-roll (N + 1); its offset −1.
        #expect(post.map(\.podIndex) == [2])
        #expect(post.map(\.timeOffset) == [-1])
    }

    @Test func preRollPodInfo() {
        var driver = TimelineDriver.vod()
        let effects = driver.play(to: 1)
        let ad = effects.compactMap { effect -> Ad? in
            if case .emit(let event) = effect, event.type == .started { return event.ad }
            return nil
        }.first
        #expect(ad?.adPodInfo.podIndex == 0)
        #expect(ad?.adPodInfo.timeOffset == 0)
        #expect(ad?.creativeID == "c-p1")
        #expect(ad?.isUiDisabled == true)
    }

    @Test func cuepointsMarkPlayedWhenThePlayheadEntersABreak() {
        var driver = TimelineDriver.vod()
        #expect(
            driver.timeline.cuepoints == [
                Cuepoint(startTime: 0, endTime: 20, isPlayed: false),
                Cuepoint(startTime: 80, endTime: 110, isPlayed: false),
                Cuepoint(startTime: 170, endTime: 180, isPlayed: false),
            ])
        _ = driver.play(to: 0.25)
        #expect(driver.timeline.cuepoints.map(\.isPlayed) == [true, false, false])
        let effects = driver.play(to: 80.25)
        #expect(driver.timeline.cuepoints.map(\.isPlayed) == [true, true, false])
        let changed = effects.compactMap { effect -> String? in
            if case .emit(let event) = effect, event.type == .cuepointsChanged { return event.adData["cuepoints"] }
            return nil
        }
        #expect(
            changed == [
                #"[{"start":0,"end":20,"played":true},{"start":80,"end":110,"played":true},{"start":170,"end":180,"played":false}]"#
            ])
    }

    @Test func timeMappingFollowsTheBreakDurations() {
        let timeline = TimelineDriver.vod().timeline
        // content = stream − breaks ended at or before it − the part of the break it is in (DAI.md §1).
        #expect(timeline.contentTime(forStreamTime: 0) == 0)
        #expect(timeline.contentTime(forStreamTime: 10) == 0)
        #expect(timeline.contentTime(forStreamTime: 20) == 0)
        #expect(timeline.contentTime(forStreamTime: 50) == 30)
        #expect(timeline.contentTime(forStreamTime: 95) == 60)
        #expect(timeline.contentTime(forStreamTime: 115) == 65)
        #expect(timeline.contentTime(forStreamTime: 180) == 120)
        // stream = content + breaks starting at or before it in content time.
        #expect(timeline.streamTime(forContentTime: 0) == 20)
        #expect(timeline.streamTime(forContentTime: 30) == 50)
        #expect(timeline.streamTime(forContentTime: 59) == 79)
        #expect(timeline.streamTime(forContentTime: 60) == 110)
        #expect(timeline.streamTime(forContentTime: 120) == 180)
        for content in stride(from: 1.0, to: 120, by: 7) where content != 60 {
            #expect(timeline.contentTime(forStreamTime: timeline.streamTime(forContentTime: content)) == content)
        }
    }

    @Test func previousCuepointIsTheLastThatStartsStrictlyBefore() {
        let timeline = TimelineDriver.vod().timeline
        #expect(timeline.previousCuepoint(forStreamTime: 0) == nil)
        #expect(timeline.previousCuepoint(forStreamTime: 50)?.startTime == 0)
        #expect(timeline.previousCuepoint(forStreamTime: 80)?.startTime == 0)
        #expect(timeline.previousCuepoint(forStreamTime: 80.5)?.startTime == 80)
        #expect(timeline.previousCuepoint(forStreamTime: 500)?.startTime == 170)
        #expect(timeline.previousCuepoint(forStreamTime: .nan) == nil)
    }

    @Test func liveTimeMappingIsIdentity() {
        let timeline = StreamTimeline()
        #expect(timeline.contentTime(forStreamTime: 1234.5) == 1234.5)
        #expect(timeline.streamTime(forContentTime: 1234.5) == 1234.5)
        #expect(timeline.cuepoints.isEmpty)
        #expect(timeline.previousCuepoint(forStreamTime: 100) == nil)
    }

    @Test func progressAndTheSeedsCountdownDuringAnAd() {
        var driver = TimelineDriver.vod()
        let earlier = driver.play(to: 81.75)
        let effects = driver.play(to: 82)
        let progress = effects.compactMap { effect -> StreamAdProgress? in
            if case .progress(let value) = effect { return value }
            return nil
        }
        #expect(
            progress == [
                StreamAdProgress(
                    time: 2, adDuration: 10, adPosition: 1, totalAds: 3, adBreakDuration: 30, adPeriodDuration: 30)
            ])
        // 8.25 s left at 81.75 shows as 8 s (printf's rounding), and so does 82.
        #expect(uiStates(effects).allSatisfy { $0.countdownText == "Ad 1 of 3 (8s)" })
        let state = uiStates(earlier).last
        #expect(state?.countdownText == "Ad 1 of 3 (8s)")
        #expect(state?.learnMoreVisible == true)
        #expect(state?.learnMoreTitle == "Learn More")
        #expect(state?.skipButtonVisible == false)
        let after = uiStates(driver.play(to: 111))
        #expect(after.last == .hidden)
    }

    @Test func countdownInEveryBuiltInLanguage() {
        var driver = TimelineDriver.vod()
        driver.timeline.strings = .brazilianPortuguese
        let states = uiStates(driver.play(to: 2))
        #expect(states.last?.countdownText == "Anúncio 1 de 2 (8s)")
        #expect(states.last?.learnMoreTitle == "Saiba mais")
    }

    @Test func learnMoreHiddenWithoutAClickThroughAndBuiltInUIWithoutDisableUi() throws {
        var noClick = TimelineDriver(
            StreamTimeline(vod: try PodMetadata(parsing: Data(StreamFixtures.vodMetadata(clickThrough: nil).utf8))))
        noClick.timeline.disableUi = true
        #expect(uiStates(noClick.play(to: 2)).last?.learnMoreVisible == false)
        var builtIn = TimelineDriver(
            StreamTimeline(vod: try PodMetadata(parsing: Data(StreamFixtures.vodMetadata().utf8))))
        let state = uiStates(builtIn.play(to: 2)).last
        #expect(state?.isBuiltInUIVisible == true)
        #expect(state?.isCustomUIVisible == false)
        // The built-in UI's label and Learn more, as for a client-side ad; never a skip button.
        #expect(state?.countdownText == "Ad 1 of 2 · 0:08")
        #expect(state?.learnMoreVisible == true)
        #expect(state?.skipButtonVisible == false)
    }

    @Test func clickedOpensThePlayingAdsClickThrough() {
        var driver = TimelineDriver.vod()
        _ = driver.play(to: 3)
        var effects: [StreamTimeline.Effect] = []
        driver.timeline.clicked(into: &effects)
        #expect(eventTypes(effects) == [.clicked])
        #expect(effects.contains(.openClickThrough(URL(string: "https://advertiser.example/landing")!)))
        _ = driver.play(to: 30)
        effects.removeAll()
        driver.timeline.clicked(into: &effects)
        #expect(eventTypes(effects).isEmpty)
        #expect(effects.contains { if case .log = $0 { return true } else { return false } })
    }

    @Test func displayEndingDuringThePostRollCompletesIt() {
        var driver = TimelineDriver.vod()
        _ = driver.play(to: 179.8)
        var effects: [StreamTimeline.Effect] = []
        driver.timeline.streamEnded(into: &effects)
        #expect(eventTypes(effects) == [.complete, .adBreakEnded, .adPeriodEnded])
    }

    @Test func malformedBreaksAreLeftOutAndReported() throws {
        let document = StreamFixtures.json([
            "breaks": [
                ["id": "nostart", "duration": 10],
                ["id": "ok", "start": 10, "duration": 10, "ads": [["id": "a", "duration": 30]]],
                ["id": "overlap", "start": 15, "duration": 10], ["id": "empty", "start": 50], "not an object",
                [
                    "id": "x", "start": 60, "duration": 10,
                    "ads": [["id": "b", "start": 55, "duration": 5], ["position": 2]],
                ],
            ]
        ])
        let metadata = try PodMetadata(parsing: Data(document.utf8))
        // "nostart" and the string are malformed entries; so is the ad without an id.
        #expect(metadata.skippedEntries == 3)
        let timeline = StreamTimeline(vod: metadata)
        #expect(
            timeline.cuepoints == [
                Cuepoint(startTime: 10, endTime: 20, isPlayed: false),
                Cuepoint(startTime: 60, endTime: 70, isPlayed: false),
            ])
        // Ad "a" runs past its break, "overlap" overlaps "ok", "empty" has no duration, ad "b" starts before its break.
        #expect(timeline.skippedOnLoad.count == 4)
        #expect(timeline.breaks.map { $0.ads.count } == [0, 0])
    }

    @Test func eventsFireAtTheTimelinesTimesAndVerifyWithTheFullIDs() {
        var driver = TimelineDriver.vod()
        let beforeComplete = driver.play(to: 9.75)
        #expect(!eventTypes(beforeComplete).contains(.complete))
        // Complete is at 9.967, a frame before the ad's end.
        let complete = driver.play(to: 10)
        #expect(eventTypes(complete) == [.complete, .started])
        #expect(
            verifications(complete) == [
                StreamFixtures.vodEventID("p1", "complete"), StreamFixtures.vodEventID("p2", "start"),
            ])
    }

    @Test func clickingPingsTheAdsClickTracking() {
        var driver = TimelineDriver.vod()
        _ = driver.play(to: 3)
        var effects: [StreamTimeline.Effect] = []
        driver.timeline.clicked(into: &effects)
        #expect(effects.contains(.clickTracking(["\(StreamFixtures.server)/track/stream-1/p1/click"])))
    }
}
