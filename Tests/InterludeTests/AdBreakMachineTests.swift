import Foundation
import InterludeVAST
import Testing

@testable import Interlude

/// A pod of `count` ads from one document; `brokenMedia` ads have no playable file.
func podMachine(
    count: Int = 1, skipOffset: String? = nil, brokenMedia: Set<Int> = [], disableUi: Bool = true,
    clickThrough: Bool = true, announcesBreak: Bool = true, extraTracking: String = "",
    duration: String? = "00:00:10"
) throws -> AdBreakMachine {
    let ads = (1...count).map { index -> String in
        let skip = skipOffset.map { " skipoffset=\"\($0)\"" } ?? ""
        let type = brokenMedia.contains(index) ? "application/x-shockwave-flash" : "video/mp4"
        let click =
            clickThrough
            ? "<VideoClicks><ClickThrough>http://127.0.0.1:9/landing/\(index)</ClickThrough><ClickTracking>http://127.0.0.1:9/ct/\(index)</ClickTracking></VideoClicks>"
            : ""
        return """
            <Ad id="ad\(index)" sequence="\(index)"><InLine><AdSystem>s</AdSystem><AdTitle>t\(index)</AdTitle>
            <Impression>http://127.0.0.1:9/imp/\(index)</Impression><Error>http://127.0.0.1:9/err/\(index)?c=[ERRORCODE]</Error>
            <Creatives><Creative><Linear\(skip)>\(duration.map { "<Duration>\($0)</Duration>" } ?? "")<MediaFiles><MediaFile delivery="progressive" type="\(type)" width="640" height="360">http://127.0.0.1:9/m\(index).mp4</MediaFile></MediaFiles>
            <TrackingEvents><Tracking event="complete">http://127.0.0.1:9/complete/\(index)</Tracking><Tracking event="skip">http://127.0.0.1:9/skip/\(index)</Tracking>\(extraTracking)</TrackingEvents>\(click)</Linear></Creative></Creatives>
            <Extensions><Extension type="uiSettings"><UiHideable>1</UiHideable></Extension></Extensions></InLine></Ad>
            """
    }.joined()
    let vast = try VASTParser().parseVAST(Data("<VAST version=\"4.2\">\(ads)</VAST>".utf8)).document
    let resolved = vast.pod.map { ResolvedAd(ad: $0, inLine: $0.inLine!) }
    let adValues = resolved.enumerated().map { index, ad in
        Interlude.Ad(resolved: ad, podInfo: AdPodInfo(adPosition: index + 1, totalAds: count), disableUi: disableUi)
    }
    var rendering = AdsRenderingSettings()
    rendering.disableUi = disableUi
    return AdBreakMachine(
        ads: adValues, resolvedAds: resolved, rendering: rendering, strings: .english, breakPosition: .preroll,
        macros: VASTMacroFiller(now: { Date(timeIntervalSince1970: 0) }, cacheBuster: { "1" }),
        announcesBreak: announcesBreak)
}

extension AdBreakMachine {
    /// Handles `input` and every `proceed` it asks for, in order, as the manager does.
    mutating func run(_ input: Input, contentPlayhead: TimeInterval? = nil) -> [Effect] {
        var all: [Effect] = []
        var pending = [input]
        while !pending.isEmpty {
            let effects = handle(pending.removeFirst(), contentPlayhead: contentPlayhead)
            all += effects
            pending += effects.filter { $0 == .proceed }.map { _ in .proceed }
        }
        return all
    }
}

extension Array where Element == AdBreakMachine.Effect {
    var events: [AdEvent.EventType] {
        compactMap { if case .emit(let event) = $0 { return event.type } else { return nil } }
    }
    var beaconURLs: [String] {
        flatMap { effect -> [String] in
            if case .send(let beacons) = effect { return beacons.map(\.url) } else { return [] }
        }
    }
    var errors: [AdError] { compactMap { if case .error(let error) = $0 { return error } else { return nil } } }
    var uiStates: [AdUIState] { compactMap { if case .ui(let state) = $0 { return state } else { return nil } } }
    var logMessages: [String] {
        compactMap {
            if case .emit(let event) = $0, event.type == .log { return event.adData["message"] } else { return nil }
        }
    }
}

/// Plays the current ad from load to the end at 4 Hz.
func playToEnd(_ machine: inout AdBreakMachine, duration: Double = 10) -> [AdBreakMachine.Effect] {
    var effects = machine.run(.displayLoaded) + machine.run(.displayStarted)
    var time = 0.25
    while time < duration {
        effects += machine.run(.displayProgressed(mediaTime: time, totalTime: duration))
        time += 0.25
    }
    return effects + machine.run(.displayCompleted)
}

@Suite("Ad break machine")
struct AdBreakMachineTests {
    @Test func singleAdEventsComeInIMAOrder() throws {
        var machine = try podMachine()
        var effects = machine.run(.start)
        #expect(effects.first == .requestContentPause)
        #expect(effects.contains(.loadMedia(URL(string: "http://127.0.0.1:9/m1.mp4")!)))
        #expect(effects.contains(.startLoadTimer(8)))
        effects += playToEnd(&machine)
        #expect(
            effects.events == [
                .adBreakStarted, .loaded, .started, .firstQuartile, .midpoint, .thirdQuartile, .complete, .adBreakEnded,
            ])
        #expect(effects.suffix(2) == [.requestContentResume, .breakFinished])
        #expect(machine.isFinished)
    }

    @Test func firstLoadedIsNotRepeatedWhenAnnouncedAtInitialize() throws {
        let machine = try podMachine()
        var announced = AdBreakMachine(
            ads: machine.ads, resolvedAds: machine.resolvedAds, rendering: AdsRenderingSettings(), strings: .english,
            breakPosition: .preroll, firstAdAnnounced: true)
        #expect(announced.run(.start).events == [.adBreakStarted])
    }

    @Test func podPlaysEveryAdInOrder() throws {
        var machine = try podMachine(count: 3)
        var effects = machine.run(.start)
        for _ in 0..<3 { effects += playToEnd(&machine) }
        #expect(effects.events.filter { $0 == .started }.count == 3)
        #expect(effects.events.filter { $0 == .loaded }.count == 3)
        #expect(effects.events.last == .adBreakEnded)
        let started = effects.compactMap { effect -> Int? in
            if case .emit(let event) = effect, event.type == .started { return event.ad?.adPodInfo.adPosition }
            return nil
        }
        #expect(started == [1, 2, 3])
        #expect(
            effects.beaconURLs.filter { $0.contains("/complete/") }
                == (1...3).map { "http://127.0.0.1:9/complete/\($0)" })
    }

    @Test func missingMediaOfTheSecondAdPlaysOneAndThree() throws {
        var machine = try podMachine(count: 3, brokenMedia: [2])
        var effects = machine.run(.start)
        effects += playToEnd(&machine)
        // Ad 2 fails at load (no supported file: 403) and ad 3 starts loading right away.
        #expect(effects.errors.map(\.code.rawValue) == [403])
        #expect(effects.beaconURLs.contains("http://127.0.0.1:9/err/2?c=403"))
        effects += playToEnd(&machine)
        #expect(machine.isFinished)
        #expect(effects.events.filter { $0 == .complete }.count == 2)
    }

    @Test func mediaErrorsFireErrorURLsAndMoveOn() throws {
        var machine = try podMachine(count: 2)
        var effects = machine.run(.start) + machine.run(.displayLoaded) + machine.run(.displayStarted)
        effects += machine.run(.displayFailed(.mediaDisplayError))
        #expect(effects.errors.map(\.code.rawValue) == [405])
        #expect(effects.errors.first?.type == .playingFailed)
        #expect(effects.beaconURLs.contains("http://127.0.0.1:9/err/1?c=405"))
        #expect(machine.currentAd?.adID == "ad2")
    }

    @Test func loadTimeoutIs402AndTheNextAdPlays() throws {
        var machine = try podMachine(count: 2)
        var effects = machine.run(.start)
        effects += machine.run(.loadTimedOut)
        #expect(effects.errors.map(\.code.rawValue) == [402])
        #expect(effects.beaconURLs.contains("http://127.0.0.1:9/err/1?c=402"))
        #expect(machine.currentAd?.adID == "ad2")
        #expect(effects.contains(.loadMedia(URL(string: "http://127.0.0.1:9/m2.mp4")!)))
    }

    @Test func skipBeforeTheOffsetIsIgnoredWithALog() throws {
        var machine = try podMachine(skipOffset: "00:00:05")
        _ = machine.run(.start) + machine.run(.displayLoaded) + machine.run(.displayStarted)
        _ = machine.run(.displayProgressed(mediaTime: 4.9, totalTime: 10))
        let early = machine.run(.skip)
        #expect(early.events == [.log])
        #expect(early.logMessages.first?.contains("after 5.0 s") == true)
        _ = machine.run(.displayProgressed(mediaTime: 5, totalTime: 10))
        let skipped = machine.run(.skip)
        #expect(skipped.events == [.skipped, .adBreakEnded])
        #expect(skipped.beaconURLs == ["http://127.0.0.1:9/skip/1"])
        #expect(skipped.contains(.resetDisplay))
    }

    @Test func nonSkippableAdIgnoresSkip() throws {
        var machine = try podMachine()
        _ = machine.run(.start) + machine.run(.displayLoaded) + machine.run(.displayStarted)
        #expect(machine.run(.skip).logMessages == ["skip() ignored: the ad is not skippable"])
    }

    @Test func pauseResumeOnChangeOnly() throws {
        var machine = try podMachine()
        _ = machine.run(.start) + machine.run(.displayLoaded) + machine.run(.displayStarted)
        let paused = machine.run(.pause)
        #expect(paused.events == [.pause] && paused.contains(.pause))
        #expect(machine.run(.pause).events == [.log])
        let resumed = machine.run(.resume)
        #expect(resumed.events == [.resume] && resumed.contains(.play))
        #expect(machine.run(.resume).events == [.log])
    }

    @Test func tapWhilePausedResumesWithTheBuiltInUI() throws {
        var machine = try podMachine(disableUi: false)
        _ = machine.run(.start) + machine.run(.displayLoaded) + machine.run(.displayStarted)
        _ = machine.run(.pause)
        #expect(machine.run(.displayTapped).events == [.tapped, .resume])
    }

    @Test func tapWithTheCustomUILeavesResumeToTheApp() throws {
        var machine = try podMachine(disableUi: true)
        _ = machine.run(.start) + machine.run(.displayLoaded) + machine.run(.displayStarted)
        _ = machine.run(.pause)
        #expect(machine.run(.displayTapped).events == [.tapped])
        #expect(machine.run(.resume).events == [.resume])
    }

    @Test func clickOpensTheClickThroughPingsAndPauses() throws {
        var machine = try podMachine()
        _ = machine.run(.start) + machine.run(.displayLoaded) + machine.run(.displayStarted)
        let effects = machine.run(.clicked)
        #expect(effects.contains(.openClickThrough(URL(string: "http://127.0.0.1:9/landing/1")!)))
        #expect(effects.beaconURLs == ["http://127.0.0.1:9/ct/1"])
        #expect(effects.events == [.clicked, .pause])
        #expect(machine.isPaused)
    }

    @Test func clickWithoutClickThroughIsIgnoredWithALog() throws {
        var machine = try podMachine(clickThrough: false)
        _ = machine.run(.start) + machine.run(.displayLoaded) + machine.run(.displayStarted)
        #expect(machine.run(.clicked).logMessages == ["clicked() ignored: the ad has no click-through"])
    }

    @Test func startTwiceIsIgnoredWithALog() throws {
        var machine = try podMachine()
        _ = machine.run(.start)
        #expect(machine.run(.start).events == [.log])
    }

    @Test func discardEndsTheBreakAndResumesContent() throws {
        var machine = try podMachine(count: 3)
        _ = machine.run(.start) + machine.run(.displayLoaded) + machine.run(.displayStarted)
        let effects = machine.run(.discard)
        #expect(effects.events == [.adBreakEnded])
        #expect(effects.contains(.requestContentResume) && effects.contains(.resetDisplay))
        #expect(machine.isFinished)
    }

    @Test func uiStateFollowsProgressAndHidesAfterEachAd() throws {
        var machine = try podMachine(count: 2, skipOffset: "00:00:05")
        _ = machine.run(.start) + machine.run(.displayLoaded)
        let started = machine.run(.displayStarted)
        #expect(started.uiStates.last?.isCustomUIVisible == true)
        #expect(started.uiStates.last?.countdownText == "")
        let tick = machine.run(.displayProgressed(mediaTime: 2, totalTime: 10))
        #expect(tick.uiStates.last?.countdownText == "Ad 1 of 2 (8s)")
        #expect(tick.uiStates.last?.skipButtonTitle == "Skip this ad in 3...")
        #expect(tick.contains(.progress(mediaTime: 2, totalTime: 10)))
        let done = machine.run(.displayCompleted)
        #expect(done.uiStates.first == .hidden)
    }

    @Test func muteFiresAfterTheBaselineVolume() throws {
        let mute = """
            <Tracking event="mute">http://127.0.0.1:9/mute/1</Tracking><Tracking event="unmute">http://127.0.0.1:9/unmute/1</Tracking>
            """
        var machine = try podMachine(extraTracking: mute)
        _ = machine.run(.volumeChanged(1))  // the baseline, before the ad starts
        let started = machine.run(.start) + machine.run(.displayLoaded) + machine.run(.displayStarted)
        #expect(!started.beaconURLs.contains { $0.contains("mute") })
        #expect(machine.run(.volumeChanged(0.5)).beaconURLs.isEmpty)
        #expect(machine.run(.volumeChanged(0)).beaconURLs == ["http://127.0.0.1:9/mute/1"])
        #expect(machine.run(.volumeChanged(0)).beaconURLs.isEmpty)
        #expect(machine.run(.volumeChanged(1)).beaconURLs == ["http://127.0.0.1:9/unmute/1"])
    }

    @Test func movingToTheNextAdIsAStepOfItsOwn() throws {
        var machine = try podMachine(count: 2)
        _ = machine.run(.start) + machine.run(.displayLoaded) + machine.run(.displayStarted)
        let completed = machine.handle(.displayCompleted)
        #expect(completed.last == .proceed)
        #expect(!completed.contains { if case .loadMedia = $0 { return true } else { return false } })
        #expect(machine.currentAd == nil)
        #expect(machine.handle(.proceed).contains(.loadMedia(URL(string: "http://127.0.0.1:9/m2.mp4")!)))
    }

    @Test func aProceedAfterADiscardDoesNothing() throws {
        var machine = try podMachine(count: 2)
        _ = machine.run(.start) + machine.run(.displayLoaded) + machine.run(.displayStarted)
        _ = machine.handle(.displayCompleted)  // its proceed is still to come
        #expect(machine.handle(.discard).events == [.adBreakEnded])
        #expect(machine.handle(.proceed).isEmpty)
        #expect(machine.isFinished)
    }

    @Test func mediaLoadedInTheBackgroundIsHeldUntilTheForeground() throws {
        var machine = try podMachine()
        _ = machine.run(.start)
        _ = machine.run(.enteredBackground)
        let loaded = machine.run(.displayLoaded)
        #expect(loaded == [.cancelLoadTimer])  // neither play nor the start watchdog
        #expect(machine.run(.enteredForeground) == [.play, .startLoadTimer(8)])
        #expect(machine.run(.displayStarted).events.contains(.started))
    }

    @Test func aDisplayToldToPlayInTheBackgroundIsPausedAgain() throws {
        var machine = try podMachine()
        _ = machine.run(.start) + machine.run(.displayLoaded)  // play requested, not started
        #expect(machine.run(.enteredBackground) == [.cancelLoadTimer, .pause])
        #expect(machine.run(.enteredForeground) == [.play, .startLoadTimer(8)])
    }

    @Test func aDisplayThatNeverStartsFailsWith402AfterTheTimeout() throws {
        var machine = try podMachine(count: 2)
        _ = machine.run(.start)
        #expect(machine.run(.displayLoaded).contains(.startLoadTimer(8)))
        let timedOut = machine.run(.loadTimedOut)
        #expect(timedOut.errors.map(\.code) == [.vastMediaLoadTimeout])
        #expect(timedOut.errors.first?.message?.contains("did not start playing") == true)
        #expect(timedOut.beaconURLs == ["http://127.0.0.1:9/err/1?c=402"])
        #expect(machine.currentAd?.adID == "ad2")
    }

    @Test func aPercentSkipOffsetResolvesAgainstTheMediaDuration() throws {
        var machine = try podMachine(skipOffset: "50%", duration: nil)
        _ = machine.run(.start) + machine.run(.displayLoaded) + machine.run(.displayStarted)
        #expect(
            machine.run(.skip).logMessages == ["skip() ignored: the ad's skip offset waits for its media's duration"])
        _ = machine.run(.displayProgressed(mediaTime: 1, totalTime: 8))
        #expect(machine.currentAd?.skipTimeOffset == 4)
        #expect(machine.run(.skip).events == [.log])
        _ = machine.run(.displayProgressed(mediaTime: 4, totalTime: 8))
        #expect(machine.run(.skip).events.contains(.skipped))
    }

    @Test(arguments: [Double.nan, .infinity, -1])
    func aTickWithAnUnusableMediaTimeIsDropped(time: Double) throws {
        var machine = try podMachine()
        _ = machine.run(.start) + machine.run(.displayLoaded) + machine.run(.displayStarted)
        #expect(machine.run(.displayProgressed(mediaTime: time, totalTime: 10)).isEmpty)
        // An unusable total falls back on <Duration>: 2.5 s is the first quartile of 10 s.
        let tick = machine.run(.displayProgressed(mediaTime: 2.5, totalTime: time))
        #expect(tick.events == [.firstQuartile])
        #expect(tick.contains(.progress(mediaTime: 2.5, totalTime: 10)))
    }
}
