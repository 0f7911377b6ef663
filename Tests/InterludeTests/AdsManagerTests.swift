import Foundation
import InterludePlayer
import InterludeTestSupport
import InterludeVAST
import Testing

@testable import Interlude

@MainActor
final class ManagerRecorder: AdsManagerDelegate {
    var events: [AdEvent] = []
    var errors: [AdError] = []
    var log: [String] = []
    var uiStates: [AdUIState] = []
    var startOnLoaded = true

    var types: [AdEvent.EventType] { events.map(\.type).filter { $0 != .log && $0 != .cuepointsChanged } }

    func adsManager(_ adsManager: AdsManager, didReceive event: AdEvent) {
        events.append(event)
        if event.type == .loaded, startOnLoaded { adsManager.start() }
    }
    func adsManager(_ adsManager: AdsManager, didReceive error: AdError) {
        errors.append(error)
        log.append("error \(error.code.rawValue)")
    }
    func adsManagerDidRequestContentPause(_ adsManager: AdsManager) { log.append("contentPause") }
    func adsManagerDidRequestContentResume(_ adsManager: AdsManager) { log.append("contentResume") }
    func adsManager(_ adsManager: AdsManager, didUpdate uiState: AdUIState) { uiStates.append(uiState) }
    /// Readiness and buffering calls, apart from `log` so older expectations stay exact.
    var media: [String] = []
    func adsManagerAdPlaybackReady(_ adsManager: AdsManager) { media.append("ready") }
    func adsManagerAdDidStartBuffering(_ adsManager: AdsManager) { media.append("buffering") }
    func adsManagerAdDidBufferToMediaTime(_ adsManager: AdsManager, mediaTime: TimeInterval) {
        media.append("buffered \(Int(mediaTime))")
    }
}

@MainActor
final class FakePlayhead: ContentPlayhead {
    var currentTime: TimeInterval = 0
}

/// Advances the manual clock (see `ManualClock.simulate(for:)`).
@MainActor
func simulate(_ clock: ManualClock, for seconds: TimeInterval) async {
    await clock.simulate(for: seconds)
}

@MainActor
struct ManagerHarness {
    let clock = ManualClock()
    let http: InMemoryHTTPClient
    let display: SimulatedVideoDisplay
    let loader: AdsLoader
    let recorder = ManagerRecorder()
    let playhead = FakePlayhead()

    init(routes: [String: InMemoryHTTPClient.Reply] = [:], configure: (inout Settings) -> Void = { _ in }) {
        http = InMemoryHTTPClient(routes: routes, clock: clock)
        http.fallback = .status(204, "")
        display = SimulatedVideoDisplay(clock: clock)
        loader = makeLoader(http, clock: clock, configure: configure)
    }

    func load(_ tag: String, contentDuration: TimeInterval? = nil, rendering: AdsRenderingSettings? = nil) async throws
        -> AdsManager
    {
        let request = AdsRequest(
            adTagURL: URL(string: tag)!, adDisplayContainer: AdDisplayContainer(videoDisplay: display),
            contentPlayhead: playhead)
        request.contentDuration = contentDuration
        let manager = try await loader.loadAds(with: request).adsManager!
        manager.delegate = recorder
        // A break loading through the pool's threads holds the simulation;
        // one whose answer waits on the clock (delayed, hanging) does not.
        clock.holdWhile { [weak manager, http] in manager?.loadingSlot != nil && http.parkedCount == 0 }
        var settings = rendering ?? AdsRenderingSettings()
        if rendering == nil { settings.disableUi = true }
        manager.initialize(with: settings)
        return manager
    }
}

func podDocument(_ count: Int, skipOffset: String? = nil, media: (Int) -> String = { "http://127.0.0.1:9/m\($0).mp4" })
    -> String
{
    let ads = (1...count).map { index -> String in
        let skip = skipOffset.map { " skipoffset=\"\($0)\"" } ?? ""
        return """
            <Ad id="ad\(index)"\(count > 1 ? " sequence=\"\(index)\"" : "")><InLine><AdSystem>s</AdSystem><AdTitle>t\(index)</AdTitle>
            <Impression>http://127.0.0.1:9/imp/\(index)</Impression><Error>http://127.0.0.1:9/err/\(index)?c=[ERRORCODE]</Error>
            <Creatives><Creative><Linear\(skip)><Duration>00:00:10</Duration><MediaFiles><MediaFile delivery="progressive" type="video/mp4" width="640" height="360">\(media(index))</MediaFile></MediaFiles>
            <TrackingEvents><Tracking event="complete">http://127.0.0.1:9/complete/\(index)</Tracking></TrackingEvents>
            <VideoClicks><ClickThrough>http://127.0.0.1:9/landing</ClickThrough></VideoClicks></Linear></Creative></Creatives>
            <Extensions><Extension type="uiSettings"><UiHideable>1</UiHideable></Extension></Extensions></InLine></Ad>
            """
    }.joined()
    return "<VAST version=\"4.2\">\(ads)</VAST>"
}

@Suite("Ads manager")
@MainActor
struct AdsManagerTests {
    @Test func seedFlowSingleSkippableAd() async throws {
        let harness = ManagerHarness(routes: ["\(testBase)/tag": .body(podDocument(1, skipOffset: "00:00:05"))])
        let manager = try await harness.load("\(testBase)/tag")
        defer { withExtendedLifetime(manager) {} }
        await simulate(harness.clock, for: 12)
        #expect(
            harness.recorder.types == [
                .loaded, .adBreakStarted, .started, .firstQuartile, .midpoint, .thirdQuartile, .complete, .adBreakEnded,
                .allAdsCompleted,
            ])
        #expect(harness.recorder.log == ["contentPause", "contentResume"])
        let texts = harness.recorder.uiStates.map(\.countdownText)
        #expect(texts.contains("Ad (10s)") && texts.contains("Ad (5s)") && texts.contains("Ad (1s)"))
        let skipTitles = harness.recorder.uiStates.map(\.skipButtonTitle)
        #expect(skipTitles.contains("Skip this ad in 5...") && skipTitles.contains("Skip ad"))
        #expect(harness.recorder.uiStates.last == .hidden)
        #expect(manager.uiState == .hidden)
        #expect(harness.display.commands.first == "load http://127.0.0.1:9/m1.mp4")
        await harness.loader.beaconQueue.waitUntilIdle()
        #expect(harness.http.requestedURLs.contains("http://127.0.0.1:9/imp/1"))
        #expect(harness.http.requestedURLs.contains("http://127.0.0.1:9/complete/1"))
    }

    @Test func theBeaconsOfAnAdArriveInTheOrderTheyFellDue() async throws {
        let events = ["creativeView", "start", "firstQuartile", "midpoint", "thirdQuartile", "complete"]
        let harness = ManagerHarness(routes: ["\(testBase)/tag": .body(vastXML(adXML(tracking: events)))])
        let manager = try await harness.load("\(testBase)/tag")
        defer { withExtendedLifetime(manager) {} }
        await simulate(harness.clock, for: 12)
        await harness.loader.beaconQueue.waitUntilIdle()
        let names = trackingRequests(harness.http.requestedURLs, ad: "ad1").map { String($0.prefix { $0 != "?" }) }
        #expect(names == ["impression"] + events)
    }

    @Test func skipThroughTheManagerOnlyAfterTheOffset() async throws {
        let harness = ManagerHarness(routes: ["\(testBase)/tag": .body(podDocument(1, skipOffset: "00:00:05"))])
        let manager = try await harness.load("\(testBase)/tag")
        defer { withExtendedLifetime(manager) {} }
        await simulate(harness.clock, for: 2)
        manager.skip()
        #expect(harness.recorder.events.last?.type == .log)
        await simulate(harness.clock, for: 3.5)
        manager.skip()
        await simulate(harness.clock, for: 1)
        #expect(harness.recorder.types.suffix(3) == [.skipped, .adBreakEnded, .allAdsCompleted])
        #expect(!harness.recorder.types.contains(.complete))
    }

    @Test func podOfThreeWithPositions() async throws {
        let harness = ManagerHarness(routes: ["\(testBase)/tag": .body(podDocument(3))])
        let manager = try await harness.load("\(testBase)/tag")
        defer { withExtendedLifetime(manager) {} }
        await simulate(harness.clock, for: 35)
        let started = harness.recorder.events.filter { $0.type == .started }.compactMap(\.ad)
        #expect(started.map(\.adPodInfo.adPosition) == [1, 2, 3])
        #expect(started.allSatisfy { $0.adPodInfo.totalAds == 3 })
        #expect(harness.recorder.types.filter { $0 == .complete }.count == 3)
        #expect(harness.recorder.types.last == .allAdsCompleted)
        let texts = harness.recorder.uiStates.map(\.countdownText)
        #expect(texts.contains("Ad 2 of 3 (5s)"))
    }

    @Test func secondAdMissingMediaPlaysOneAndThree() async throws {
        let harness = ManagerHarness(routes: ["\(testBase)/tag": .body(podDocument(3))])
        harness.display.behaviorForURL = {
            $0.absoluteString.hasSuffix("m2.mp4") ? .failsToLoad(.mediaNotFound) : .plays
        }
        let manager = try await harness.load("\(testBase)/tag")
        defer { withExtendedLifetime(manager) {} }
        await simulate(harness.clock, for: 30)
        #expect(harness.recorder.errors.map(\.code.rawValue) == [401])
        let completed = harness.recorder.events.filter { $0.type == .complete }.compactMap(\.ad?.adID)
        #expect(completed == ["ad1", "ad3"])
        await harness.loader.beaconQueue.waitUntilIdle()
        #expect(harness.http.requestedURLs.contains("http://127.0.0.1:9/err/2?c=401"))
    }

    @Test func stalledMediaTimesOutWith402() async throws {
        let harness = ManagerHarness(routes: ["\(testBase)/tag": .body(podDocument(2))])
        harness.display.behaviorForURL = { $0.absoluteString.hasSuffix("m1.mp4") ? .stalls : .plays }
        let manager = try await harness.load("\(testBase)/tag")
        defer { withExtendedLifetime(manager) {} }
        await simulate(harness.clock, for: 7.9)
        #expect(harness.recorder.errors.isEmpty)
        await simulate(harness.clock, for: 0.2)
        #expect(harness.recorder.errors.map(\.code.rawValue) == [402])
        await simulate(harness.clock, for: 11)
        #expect(harness.recorder.events.filter { $0.type == .complete }.compactMap(\.ad?.adID) == ["ad2"])
    }

    @Test func bufferingMidAdIsReportedAndTheAdStillCompletesOnTime() async throws {
        let harness = ManagerHarness(routes: ["\(testBase)/tag": .body(podDocument(1))])
        harness.display.behaviorForURL = { _ in .buffers(at: 4, for: 3) }
        let manager = try await harness.load("\(testBase)/tag")
        defer { withExtendedLifetime(manager) {} }
        await simulate(harness.clock, for: 5)
        #expect(harness.display.isBuffering)
        #expect(manager.adPlaybackInfo.bufferedMediaTime == manager.adPlaybackInfo.currentMediaTime)
        #expect(harness.recorder.media == ["ready", "buffering"])
        // 10 s of media plus 3 s of waiting: not complete at 12 s, complete by 13.5 s.
        await simulate(harness.clock, for: 7)
        #expect(!harness.recorder.types.contains(.complete))
        await simulate(harness.clock, for: 1.5)
        #expect(harness.recorder.media == ["ready", "buffering", "buffered 10", "ready"])
        #expect(harness.recorder.log == ["contentPause", "contentResume"])
        #expect(
            harness.recorder.types == [
                .loaded, .adBreakStarted, .started, .firstQuartile, .midpoint, .thirdQuartile, .complete, .adBreakEnded,
                .allAdsCompleted,
            ])
    }

    @Test func bufferingReportedOutsideABreakIsIgnored() async throws {
        let harness = ManagerHarness(routes: ["\(testBase)/tag": .body(podDocument(1))])
        let manager = try await harness.load("\(testBase)/tag")
        defer { withExtendedLifetime(manager) {} }
        await simulate(harness.clock, for: 12)
        #expect(harness.recorder.media == ["ready"])
        harness.display.delegate?.videoDisplayDidStartBuffering(harness.display)
        harness.display.delegate?.videoDisplay(harness.display, didBufferToMediaTime: 3)
        harness.display.delegate?.videoDisplayIsPlaybackReady(harness.display)
        #expect(harness.recorder.media == ["ready"])
    }

    @Test func vmapPreMidAndPostRolls() async throws {
        let vmapXML = """
            <vmap:VMAP xmlns:vmap="http://www.iab.net/videosuite/vmap" version="1.0">
            <vmap:AdBreak timeOffset="start" breakType="linear" breakId="pre"><vmap:AdSource><vmap:AdTagURI>\(testBase)/pre</vmap:AdTagURI></vmap:AdSource>
            <vmap:TrackingEvents><vmap:Tracking event="breakStart">\(testBase)/bs/pre</vmap:Tracking><vmap:Tracking event="breakEnd">\(testBase)/be/pre</vmap:Tracking></vmap:TrackingEvents></vmap:AdBreak>
            <vmap:AdBreak timeOffset="00:00:30" breakType="linear" breakId="mid"><vmap:AdSource><vmap:AdTagURI>\(testBase)/mid</vmap:AdTagURI></vmap:AdSource></vmap:AdBreak>
            <vmap:AdBreak timeOffset="end" breakType="linear" breakId="post"><vmap:AdSource><vmap:AdTagURI>\(testBase)/post</vmap:AdTagURI></vmap:AdSource></vmap:AdBreak>
            </vmap:VMAP>
            """
        let harness = ManagerHarness(routes: [
            "\(testBase)/vmap": .body(vmapXML), "\(testBase)/pre": .body(podDocument(1)),
            "\(testBase)/mid": .body(podDocument(2)),
            "\(testBase)/post": .body(podDocument(1)),
        ])
        let manager = try await harness.load("\(testBase)/vmap", contentDuration: 60)
        defer { withExtendedLifetime(manager) {} }
        #expect(manager.adCuePoints == [0, 30, -1])
        await simulate(harness.clock, for: 11)
        #expect(harness.recorder.types.last == .adBreakEnded)
        // Content plays to the mid-roll.
        for second in stride(from: 1.0, through: 31, by: 1) {
            harness.playhead.currentTime = second
            await simulate(harness.clock, for: 1)
        }
        await simulate(harness.clock, for: 21)
        harness.loader.contentComplete()
        await simulate(harness.clock, for: 11)
        let starts = harness.recorder.events.filter { $0.type == .started }.compactMap(\.ad?.adPodInfo)
        #expect(starts.map(\.podIndex) == [0, 1, 1, -1])
        #expect(starts.map(\.timeOffset) == [0, 30, 30, -1])
        #expect(starts.map(\.adPosition) == [1, 1, 2, 1])
        #expect(harness.recorder.types.filter { $0 == .adBreakStarted }.count == 3)
        let breakIDs = harness.recorder.events.filter { $0.type == .adBreakStarted }.map { $0.adData["breakId"] }
        #expect(breakIDs == ["pre", "mid", "post"])
        #expect(harness.recorder.types.last == .allAdsCompleted)
        #expect(
            harness.recorder.log == [
                "contentPause", "contentResume", "contentPause", "contentResume", "contentPause", "contentResume",
            ])
        await harness.loader.beaconQueue.waitUntilIdle()
        #expect(harness.http.requestedURLs.contains("\(testBase)/bs/pre"))
        #expect(harness.http.requestedURLs.contains("\(testBase)/be/pre"))
    }

    @Test func relativeBreakTagsResolveAgainstWhereTheVMAPWasRedirected() async throws {
        let vmapXML = """
            <vmap:VMAP xmlns:vmap="http://www.iab.net/videosuite/vmap" version="1.0">
            <vmap:AdBreak timeOffset="start" breakType="linear" breakId="pre"><vmap:AdSource><vmap:AdTagURI>pre.xml</vmap:AdTagURI></vmap:AdSource></vmap:AdBreak>
            </vmap:VMAP>
            """
        let harness = ManagerHarness(routes: [
            "\(testBase)/vmap": .redirected(to: "\(testBase)/decision/vmap.xml", .body(vmapXML)),
            "\(testBase)/decision/pre.xml": .body(podDocument(1)),
        ])
        let manager = try await harness.load("\(testBase)/vmap", contentDuration: 60)
        defer { withExtendedLifetime(manager) {} }
        await simulate(harness.clock, for: 11)
        #expect(harness.http.requestedURLs.contains("\(testBase)/decision/pre.xml"))
        #expect(harness.recorder.types.contains(.complete))
    }

    @Test func aBreakDueWhileAnotherLoadsWaitsItsTurn() async throws {
        // The 30 s break's tag answers after 3 s; the content (not yet paused)
        // passes the 31 s break meanwhile. Both must play, one after the other.
        let vmapXML = """
            <vmap:VMAP xmlns:vmap="http://www.iab.net/videosuite/vmap" version="1.0">
            <vmap:AdBreak timeOffset="00:00:30" breakType="linear" breakId="first"><vmap:AdSource><vmap:AdTagURI>\(testBase)/first</vmap:AdTagURI></vmap:AdSource>
            <vmap:TrackingEvents><vmap:Tracking event="breakEnd">\(testBase)/be/first</vmap:Tracking></vmap:TrackingEvents></vmap:AdBreak>
            <vmap:AdBreak timeOffset="00:00:31" breakType="linear" breakId="second"><vmap:AdSource><vmap:AdTagURI>\(testBase)/second</vmap:AdTagURI></vmap:AdSource></vmap:AdBreak>
            </vmap:VMAP>
            """
        let harness = ManagerHarness(routes: [
            "\(testBase)/vmap": .body(vmapXML), "\(testBase)/first": .delayed(3, .body(podDocument(1))),
            "\(testBase)/second": .body(podDocument(1)),
        ])
        let manager = try await harness.load("\(testBase)/vmap", contentDuration: 60)
        defer { withExtendedLifetime(manager) {} }
        for second in stride(from: 29.0, through: 34, by: 0.5) {
            harness.playhead.currentTime = second
            await simulate(harness.clock, for: 0.5)
        }
        await simulate(harness.clock, for: 11)
        harness.playhead.currentTime = 35
        await simulate(harness.clock, for: 12)
        let breakIDs = harness.recorder.events.filter { $0.type == .adBreakStarted }.map { $0.adData["breakId"] }
        #expect(breakIDs == ["first", "second"])
        #expect(harness.recorder.types.filter { $0 == .complete }.count == 2)
        #expect(harness.recorder.log == ["contentPause", "contentResume", "contentPause", "contentResume"])
        await harness.loader.beaconQueue.waitUntilIdle()
        #expect(harness.http.requestedURLs.filter { $0 == "\(testBase)/be/first" }.count == 1)
    }

    @Test func breakWhoseTagTimesOutKeepsContentPlayingWith301() async throws {
        let vmapXML = """
            <vmap:VMAP xmlns:vmap="http://www.iab.net/videosuite/vmap" version="1.0">
            <vmap:AdBreak timeOffset="00:00:05" breakType="linear"><vmap:AdSource><vmap:AdTagURI>\(testBase)/slow</vmap:AdTagURI></vmap:AdSource></vmap:AdBreak></vmap:VMAP>
            """
        let harness = ManagerHarness(routes: ["\(testBase)/vmap": .body(vmapXML), "\(testBase)/slow": .hang])
        let manager = try await harness.load("\(testBase)/vmap", contentDuration: 60)
        defer { withExtendedLifetime(manager) {} }
        for second in stride(from: 1.0, through: 6, by: 1) {
            harness.playhead.currentTime = second
            await simulate(harness.clock, for: 1)
        }
        await simulate(harness.clock, for: 9)
        #expect(harness.recorder.errors.map(\.code.rawValue) == [301])
        #expect(harness.recorder.types.contains(.adBreakFetchError))
        #expect(!harness.recorder.log.contains("contentPause"))
    }

    @Test func pauseResumeAndTapWithCustomUI() async throws {
        let harness = ManagerHarness(routes: ["\(testBase)/tag": .body(podDocument(1))])
        let manager = try await harness.load("\(testBase)/tag")
        defer { withExtendedLifetime(manager) {} }
        await simulate(harness.clock, for: 2)
        manager.pause()
        await simulate(harness.clock, for: 5)
        let pausedAt = harness.display.currentMediaTime
        harness.display.tap()
        #expect(harness.recorder.types.last == .tapped)
        manager.resume()  // the guide's tapped → resume
        await simulate(harness.clock, for: 1)
        #expect(harness.display.currentMediaTime > pausedAt)
        #expect(harness.recorder.types.contains(.pause) && harness.recorder.types.contains(.resume))
    }

    @Test func clickedOpensTheLinkAndPauses() async throws {
        let harness = ManagerHarness(routes: ["\(testBase)/tag": .body(podDocument(1))])
        let manager = try await harness.load("\(testBase)/tag")
        defer { withExtendedLifetime(manager) {} }
        var opened: [URL] = []
        manager.linkOpener = { opened.append($0) }
        await simulate(harness.clock, for: 2)
        manager.clicked()
        #expect(opened == [URL(string: "http://127.0.0.1:9/landing")!])
        #expect(harness.recorder.types.suffix(2) == [.clicked, .pause])
        #expect(!harness.display.isPlaying)
    }

    @Test(arguments: [0.0, 0.1, 2.0, 10.5])
    func destroyStopsEverything(at seconds: TimeInterval) async throws {
        let harness = ManagerHarness(routes: ["\(testBase)/tag": .body(podDocument(2))])
        let manager = try await harness.load("\(testBase)/tag")
        defer { withExtendedLifetime(manager) {} }
        await simulate(harness.clock, for: seconds)
        manager.destroy()
        let events = harness.recorder.events.count
        let commands = harness.display.commands.count
        await harness.loader.beaconQueue.waitUntilIdle()
        let requests = harness.http.requests.count
        await simulate(harness.clock, for: 30)
        manager.start()
        manager.skip()
        manager.pause()
        await harness.loader.beaconQueue.waitUntilIdle()
        #expect(harness.recorder.events.count == events)
        #expect(harness.display.commands.count == commands)
        #expect(harness.http.requests.count == requests)
        #expect(harness.clock.sleeperCount == 0)
    }

    @Test func destroyWhilePausedStopsEverything() async throws {
        let harness = ManagerHarness(routes: ["\(testBase)/tag": .body(podDocument(1))])
        let manager = try await harness.load("\(testBase)/tag")
        defer { withExtendedLifetime(manager) {} }
        await simulate(harness.clock, for: 3)
        manager.pause()
        manager.destroy()
        let count = harness.recorder.events.count
        await simulate(harness.clock, for: 20)
        #expect(harness.recorder.events.count == count)
    }

    @Test func destroyReleasesManagerLoaderAndDisplay() async throws {
        weak var weakManager: AdsManager?
        weak var weakLoader: AdsLoader?
        weak var weakDisplay: SimulatedVideoDisplay?
        let clock = ManualClock()
        do {
            let harness = ManagerHarness(routes: ["\(testBase)/tag": .body(podDocument(1))])
            let manager = try await harness.load("\(testBase)/tag")
            defer { withExtendedLifetime(manager) {} }
            await simulate(harness.clock, for: 3)
            manager.destroy()
            weakManager = manager
            weakLoader = harness.loader
            weakDisplay = harness.display
            await harness.loader.beaconQueue.waitUntilIdle()
        }
        await simulate(clock, for: 1)
        #expect(weakManager == nil)
        #expect(weakLoader == nil)
        #expect(weakDisplay == nil)
    }

    @Test func backgroundPausesAndForegroundResumes() async throws {
        let harness = ManagerHarness(routes: ["\(testBase)/tag": .body(podDocument(1))])
        let manager = try await harness.load("\(testBase)/tag")
        defer { withExtendedLifetime(manager) {} }
        await simulate(harness.clock, for: 2)
        manager.appDidEnterBackground()
        #expect(!harness.display.isPlaying)
        manager.appWillEnterForeground()
        #expect(harness.display.isPlaying)
    }

    @Test func eventsAreAlsoAnAsyncStream() async throws {
        let harness = ManagerHarness(routes: ["\(testBase)/tag": .body(podDocument(1))])
        let manager = try await harness.load("\(testBase)/tag")
        defer { withExtendedLifetime(manager) {} }
        await simulate(harness.clock, for: 12)
        manager.destroy()
        var streamed: [AdEvent.EventType] = []
        for await event in manager.events where event.type != .log && event.type != .cuepointsChanged {
            streamed.append(event.type)
        }
        #expect(streamed == harness.recorder.types)
    }

    @Test func companionSlotOfTheRightSizeIsFilledWhenTheAdStarts() async throws {
        let companion = """
            <VAST version="4.2"><Ad id="c"><InLine><AdSystem>s</AdSystem><AdTitle>t</AdTitle><Impression>http://127.0.0.1:9/i</Impression>
            <Creatives><Creative><Linear><Duration>00:00:05</Duration><MediaFiles><MediaFile delivery="progressive" type="video/mp4" width="640" height="360">http://127.0.0.1:9/m.mp4</MediaFile></MediaFiles></Linear></Creative>
            <Creative><CompanionAds><Companion width="300" height="250"><StaticResource creativeType="image/png">http://127.0.0.1:9/banner.png</StaticResource></Companion></CompanionAds></Creative></Creatives></InLine></Ad></VAST>
            """
        let clock = ManualClock()
        let http = InMemoryHTTPClient(routes: ["\(testBase)/c": .body(companion)], clock: clock)
        http.fallback = .status(204, "")
        let loader = makeLoader(http, clock: clock)
        let display = SimulatedVideoDisplay(clock: clock)
        let fitting = CompanionAdSlot(width: 300, height: 250)
        let other = CompanionAdSlot(width: 728, height: 90)
        var filled: [String] = []
        fitting.onFilled = { filled.append("300x250 \($0.resourceValue)") }
        other.onFilled = { filled.append("728x90 \($0.resourceValue)") }
        let request = AdsRequest(
            adTagURL: URL(string: "\(testBase)/c")!,
            adDisplayContainer: AdDisplayContainer(videoDisplay: display, companionSlots: [fitting, other]))
        let manager = try await loader.loadAds(with: request).adsManager!
        let recorder = ManagerRecorder()
        manager.delegate = recorder
        manager.initialize(with: nil)
        await clock.simulate(for: 1)
        #expect(filled == ["300x250 http://127.0.0.1:9/banner.png"])
        withExtendedLifetime(manager) {}
    }

    @Test func volumeSetBeforeStartIsTheMuteBaseline() async throws {
        let document = podDocument(1).replacingOccurrences(
            of: "<Tracking event=\"complete\">",
            with:
                "<Tracking event=\"mute\">http://127.0.0.1:9/mute</Tracking><Tracking event=\"unmute\">http://127.0.0.1:9/unmute</Tracking><Tracking event=\"complete\">"
        )
        let harness = ManagerHarness(routes: ["\(testBase)/tag": .body(document)])
        harness.recorder.startOnLoaded = false
        let manager = try await harness.load("\(testBase)/tag")
        manager.volume = 0  // the app starts the ad muted
        manager.start()
        await simulate(harness.clock, for: 2)
        manager.volume = 1
        await simulate(harness.clock, for: 1)
        await harness.loader.beaconQueue.waitUntilIdle()
        #expect(harness.http.requestedURLs.filter { $0 == "http://127.0.0.1:9/unmute" }.count == 1)
        #expect(!harness.http.requestedURLs.contains("http://127.0.0.1:9/mute"))
        withExtendedLifetime(manager) {}
    }
}
