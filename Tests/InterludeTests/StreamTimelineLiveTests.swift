import Foundation
import InterludeTestSupport
import Testing

@testable import Interlude

/// The timed-metadata queue feeding a live timeline, as the stream manager
/// wires them, on a clock that moves with the stream.
struct LiveDriver {
    var timeline = StreamTimeline()
    var queue = TimedMetadataQueue()
    var metadata: PodMetadata
    var now: TimeInterval = 0
    var position: TimeInterval
    var step: TimeInterval = 0.25

    init(metadata: String = StreamFixtures.liveMetadata(), at start: TimeInterval = 90) {
        self.metadata = try! PodMetadata(parsing: Data(metadata.utf8))
        position = start
        timeline.disableUi = true
    }

    mutating func deliver(_ cues: [ScriptedStreamDisplay.Cue]) {
        for cue in cues {
            for id in StreamEventID.ids(in: cue.values) {
                _ = queue.insert(id, at: cue.time, playhead: timeline.playhead)
            }
        }
    }

    mutating func play(to end: TimeInterval) -> [StreamTimeline.Effect] {
        var effects: [StreamTimeline.Effect] = []
        while position < end - 1e-9 {
            position = min(end, position + step)
            now += step
            report(position, into: &effects)
        }
        return effects
    }

    mutating func report(_ time: TimeInterval, into effects: inout [StreamTimeline.Effect]) {
        timeline.playheadMoved(to: time, at: now, into: &effects)
        for entry in queue.popDue(upTo: time).entries {
            timeline.liveEvent(
                entry.eventID, tag: metadata.tag(forEventID: entry.eventID), metadata: metadata, at: entry.time,
                into: &effects)
        }
    }
}

@Suite("Stream timeline (live)")
struct StreamTimelineLiveTests {
    static let adEvents: [AdEvent.EventType] = [.started, .firstQuartile, .midpoint, .thirdQuartile, .complete]

    @Test func aBreakFromTimedMetadataFiresInOrderAndVerifiesEachEvent() {
        var driver = LiveDriver()
        let cues = StreamFixtures.liveCues(start: 100)
        driver.deliver(cues)
        let effects = driver.play(to: 135)
        #expect(
            eventTypes(effects)
                == [.adPeriodStarted, .adBreakStarted] + Self.adEvents + Self.adEvents + Self.adEvents + [
                    .adBreakEnded, .adPeriodEnded,
                ])
        #expect(verifications(effects) == cues.map { $0.values["TXXX"]! })
        let started = effects.compactMap { effect -> Ad? in
            if case .emit(let event) = effect, event.type == .started { return event.ad }
            return nil
        }
        #expect(started.map(\.adPodInfo.adPosition) == [1, 2, 3])
        #expect(started.allSatisfy { $0.adPodInfo.totalAds == 3 })
        // DAI.md §1: live mid-rolls take the break ID's number.
        #expect(started.allSatisfy { $0.adPodInfo.podIndex == 7 })
        #expect(started.map(\.adTitle) == ["Live 1", "Live 2", "Live 3"])
    }

    @Test func aBurstDeliveredEarlyFiresWhenThePlayheadGetsThere() {
        var driver = LiveDriver()
        driver.deliver(StreamFixtures.liveCues(start: 100, lead: 20))
        #expect(eventTypes(driver.play(to: 99.75)).isEmpty)
        let atStart = driver.play(to: 100)
        #expect(eventTypes(atStart) == [.adPeriodStarted, .adBreakStarted, .started])
        #expect(eventTypes(driver.play(to: 102.25)).isEmpty)
        #expect(eventTypes(driver.play(to: 102.5)) == [.firstQuartile])
    }

    @Test func progressEventsAreNeverVerified() {
        var driver = LiveDriver()
        let progress = StreamFixtures.liveEventID(position: 1, type: "progress")
        driver.deliver([
            .id3(StreamFixtures.liveEventID(position: 1, type: "start"), at: 100), .id3(progress, at: 101),
        ])
        let effects = driver.play(to: 102)
        #expect(!verifications(effects).contains(progress))
        #expect(verifications(effects).count == 1)
    }

    @Test func aMissingCompleteEndsTheBreakOnceThePlayheadIsPastIt() {
        var driver = LiveDriver()
        driver.deliver(StreamFixtures.liveCues(start: 100).dropLast())
        let during = driver.play(to: 131)
        #expect(!eventTypes(during).contains(.adBreakEnded))
        let after = driver.play(to: 133)
        #expect(eventTypes(after) == [.adBreakEnded, .adPeriodEnded])
        #expect(uiStates(during + after).last == .hidden)
    }

    @Test func joiningMidBreakShowsTheAdWithTheRightCountdown() {
        var driver = LiveDriver(at: 114)
        driver.deliver(StreamFixtures.liveCues(start: 100).filter { $0.time >= 115 })
        let effects = driver.play(to: 115.25)
        // The first event seen is ad 2's midpoint (115): period and break open, no `started` is claimed.
        #expect(eventTypes(effects) == [.adPeriodStarted, .adBreakStarted, .midpoint])
        #expect(uiStates(effects).last?.countdownText == "Ad 2 of 3 (5s)")
    }

    @Test func anIDTheMetadataDoesNotNameIsLoggedAndVerifiedAsItIs() {
        var driver = LiveDriver()
        driver.deliver([.id3("google_unknown123", at: 100)])
        let effects = driver.play(to: 101)
        #expect(eventTypes(effects).isEmpty)
        #expect(verifications(effects) == ["google_unknown123"])
        #expect(effects.contains { if case .log = $0 { true } else { false } })
    }

    @Test func slateFillsTheBreakWithoutAdEvents() {
        var driver = LiveDriver(metadata: StreamFixtures.liveMetadata(adCount: 1, withSlate: true))
        driver.deliver(
            StreamFixtures.liveCues(start: 100, adCount: 1) + [.id3("google_slateb7-viewer", at: 110)])
        let effects = driver.play(to: 114)
        #expect(
            eventTypes(effects) == [.adPeriodStarted, .adBreakStarted] + Self.adEvents + [
                .adBreakEnded, .adPeriodEnded,
            ])
        #expect(verifications(effects).last == "google_slateb7-viewer")
    }

    @Test func theCountdownAndLearnMoreWhileALiveAdPlays() {
        var driver = LiveDriver()
        driver.deliver(StreamFixtures.liveCues(start: 100))
        let effects = driver.play(to: 103)
        let state = uiStates(effects).last
        #expect(state?.countdownText == "Ad 1 of 3 (7s)")
        #expect(state?.learnMoreVisible == true)
        var click: [StreamTimeline.Effect] = []
        driver.timeline.clicked(into: &click)
        #expect(click.contains(.openClickThrough(URL(string: "https://advertiser.example/1")!)))
    }

    @Test func livePodIndexComesFromTheBreakID() {
        #expect(StreamTimeline.number(in: "b7") == 7)
        #expect(StreamTimeline.number(in: "break-12") == 12)
        #expect(StreamTimeline.number(in: "preroll") == nil)
        #expect(StreamTimeline.number(in: "x99999999999") == nil)
        // Read by characters, as a reader of the ID sees them: non-ASCII before the digits,
        // and U+0600 (a prepended mark) joined to the digit after it.
        #expect(StreamTimeline.number(in: "pausé-42") == 42)
        #expect(StreamTimeline.number(in: "x\u{0600}5") == nil)
        #expect(StreamTimeline.number(in: "x\u{0600}1234567890") == 234_567_890)
        #expect(StreamTimeline.number(in: "1\u{0301}2") == 2)
        #expect(StreamTimeline.number(in: "12") == 12)
        #expect(StreamTimeline.number(in: "") == nil)
    }

    @Test func aLateEventOfAnEndedBreakDoesNotAnnounceItAgain() {
        var driver = LiveDriver()
        driver.deliver(StreamFixtures.liveCues(start: 100))
        _ = driver.play(to: 135)
        driver.deliver([.id3(StreamFixtures.liveEventID(position: 3, type: "progress") + "late", at: 135.5)])
        let effects = driver.play(to: 140)
        #expect(!eventTypes(effects).contains(.adBreakStarted))
    }

    /// A metadata answer stating an ad of 1e300 s trapped the countdown's
    /// `Int` conversion on the first progress tick inside the ad; such a
    /// number is now read as no duration (a count of seconds no stream has).
    @Test func anAbsurdAdDurationInTheMetadataDoesNotTrapTheCountdown() throws {
        let huge = StreamFixtures.liveMetadata()
            .replacingOccurrences(of: "\"duration\":10", with: "\"duration\":1e300")
            .replacingOccurrences(of: "\"duration\":30", with: "\"duration\":\"1e300s\"")
        #expect(huge.contains("1e300"))
        var driver = LiveDriver(metadata: huge)
        #expect(driver.metadata.ads.values.allSatisfy { $0.duration == nil })
        #expect(driver.metadata.breaks.values.allSatisfy { $0.duration == nil })
        driver.timeline.disableUi = false
        driver.deliver(StreamFixtures.liveCues(start: 100))
        let effects = driver.play(to: 135)
        #expect(eventTypes(effects).contains(.started))
        let long = StreamFixtures.liveMetadata()
            .replacingOccurrences(of: "\"duration\":10", with: "\"duration\":999999999")
        let bounded = try PodMetadata(parsing: Data(long.utf8))
        #expect(bounded.ads.values.allSatisfy { $0.duration == 999_999_999 })
    }

    @Test func seekingBackBeforeTheBreakClosesIt() {
        var driver = LiveDriver()
        driver.deliver(StreamFixtures.liveCues(start: 100))
        _ = driver.play(to: 105)
        var effects: [StreamTimeline.Effect] = []
        driver.now += 0.25
        driver.timeline.playheadMoved(to: 60, at: driver.now, into: &effects)
        #expect(eventTypes(effects) == [.adBreakEnded, .adPeriodEnded])
    }

    @Test func aRepeatedMilestoneFiresOnceAndAnAdCutShortIsLoggedAsEndedWithoutAComplete() {
        var driver = LiveDriver()
        let midpoint = StreamFixtures.liveEventID(position: 1, type: "midpoint")
        driver.deliver([
            .id3(StreamFixtures.liveEventID(position: 1, type: "start"), at: 100), .id3(midpoint, at: 105),
            .id3(midpoint + "again", at: 105.5), .id3(StreamFixtures.liveEventID(position: 2, type: "start"), at: 106),
        ])
        let effects = driver.play(to: 107)
        // The second midpoint of ad 1 is verified (its own ID) but fires no second event.
        #expect(eventTypes(effects) == [.adPeriodStarted, .adBreakStarted, .started, .midpoint, .started])
        #expect(verifications(effects).count == 4)
        #expect(endedWithoutComplete(effects).count == 1)
        var seekBack: [StreamTimeline.Effect] = []
        driver.now += 0.25
        driver.timeline.playheadMoved(to: 60, at: driver.now, into: &seekBack)
        #expect(eventTypes(seekBack) == [.adBreakEnded, .adPeriodEnded])
        #expect(endedWithoutComplete(seekBack).count == 1)
        #expect(endedWithoutComplete(seekBack).first?.hasSuffix("(the playhead moved back before the break)") == true)
    }

    @Test func aMilestoneReportedAgainAfterItsAdOrBreakEndedChangesNothing() {
        var driver = LiveDriver()
        driver.deliver(StreamFixtures.liveCues(start: 100))
        _ = driver.play(to: 135)
        // The same frames again, at other times (a display that reports them
        // again without their times): ad 1's start during nothing, the last complete.
        let again = [
            .id3(StreamFixtures.liveEventID(position: 1, type: "start"), at: 135.5),
            ScriptedStreamDisplay.Cue.id3(StreamFixtures.liveEventID(position: 3, type: "complete"), at: 136),
        ]
        driver.deliver(again)
        let effects = driver.play(to: 140)
        #expect(eventTypes(effects).isEmpty)
        #expect(uiStates(effects).isEmpty)
        // Verification is asked for each time; the stream manager sends each ID once.
        #expect(verifications(effects) == again.map { $0.values["TXXX"]! })
    }

    @Test func aStartReportedAgainDuringTheNextAdDoesNotBringItsAdBack() {
        var driver = LiveDriver()
        driver.deliver(Array(StreamFixtures.liveCues(start: 100).prefix(6)))
        _ = driver.play(to: 111)
        driver.deliver([.id3(StreamFixtures.liveEventID(position: 1, type: "start"), at: 111.5)])
        let effects = driver.play(to: 112)
        #expect(eventTypes(effects).isEmpty)
        #expect(driver.timeline.currentSlot?.ad.adPodInfo.adPosition == 2)
    }

    @Test func aCompletedAdIsNotLoggedAsEndedWithoutAComplete() {
        var driver = LiveDriver()
        driver.deliver(StreamFixtures.liveCues(start: 100))
        let effects = driver.play(to: 135)
        #expect(eventTypes(effects).filter { $0 == .complete }.count == 3)
        #expect(endedWithoutComplete(effects).isEmpty)
    }

    private func endedWithoutComplete(_ effects: [StreamTimeline.Effect]) -> [String] {
        effects.compactMap { effect in
            if case .log(let text) = effect, text.contains("ended without a complete event") { return text }
            return nil
        }
    }

    @Test func tagsNamingAnAdTheMetadataDoesNotDescribeStillFireAndAreLoggedOnce() {
        let document = StreamFixtures.json([
            "tags": [
                "google_ghost1": ["ad": "ghost", "ad_break_id": "b9", "type": "start"],
                "google_ghost2": ["ad": "ghost", "ad_break_id": "b9", "type": "midpoint"],
            ]
        ])
        var driver = LiveDriver(metadata: document)
        driver.deliver([.id3("google_ghost1-x", at: 100), .id3("google_ghost2-x", at: 105)])
        let effects = driver.play(to: 106)
        #expect(eventTypes(effects) == [.adPeriodStarted, .adBreakStarted, .started, .midpoint])
        #expect(verifications(effects) == ["google_ghost1-x", "google_ghost2-x"])
        let logs = effects.filter { if case .log(let text) = $0 { text.contains("does not describe") } else { false } }
        #expect(logs.count == 1)
        let ad = effects.compactMap { effect -> Ad? in
            if case .emit(let event) = effect, event.type == .started { return event.ad }
            return nil
        }.first
        #expect(ad?.adID == "ghost")
        // Break b9's number is its pod index; its duration is unknown.
        #expect(ad?.adPodInfo.podIndex == 9)
        #expect(ad?.adPodInfo.maxDuration == -1)
        // With no duration to go by and no complete, the break ends once its events have stopped for a while.
        #expect(!eventTypes(driver.play(to: 114)).contains(.adPeriodEnded))
        #expect(eventTypes(driver.play(to: 120)) == [.adBreakEnded, .adPeriodEnded])
    }
}
