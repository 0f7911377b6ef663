import Foundation
import InterludeTestSupport
import Testing

@testable import Interlude

/// The seed's live flow on an in-memory API: register, initialize, the app
/// loads and plays the stream; timed metadata (delivered early, in bursts)
/// drives the break; metadata is polled while the stream plays.
@Suite("Stream manager (live)")
@MainActor
struct StreamManagerLiveTests {
    static let adEvents: [AdEvent.EventType] = [.started, .firstQuartile, .midpoint, .thirdQuartile, .complete]

    func start(_ harness: StreamHarness) {
        harness.display.loadStream(URL(string: "http://127.0.0.1:9/vtp/live.m3u8")!, subtitles: [])
        harness.display.play()
    }

    @Test func theSeedsLiveFlowFiresTheBreakFromTimedMetadataAndVerifiesEachEventOnce() async throws {
        let harness = StreamHarness.live()
        let cues = StreamFixtures.liveCues(start: 20, lead: 6)
        harness.display.cues = cues
        let manager = try await harness.manager(live: true)
        defer { withExtendedLifetime(manager) {} }
        start(harness)
        await harness.clock.simulate(for: 60)
        #expect(
            harness.recorder.types == [.streamLoaded, .streamStarted, .adPeriodStarted, .adBreakStarted] + Self.adEvents
                + Self.adEvents + Self.adEvents + [.adBreakEnded, .adPeriodEnded])
        await harness.deliverBeacons()
        #expect(harness.verificationRequests == cues.map { StreamFixtures.verificationBase + $0.values["TXXX"]! })
    }

    @Test func eventsDeliveredEarlyFireOnTime() async throws {
        let harness = StreamHarness.live()
        harness.display.cues = StreamFixtures.liveCues(start: 20, lead: 15)
        let manager = try await harness.manager(live: true)
        defer { withExtendedLifetime(manager) {} }
        start(harness)
        await harness.clock.simulate(for: 19.5)
        #expect(!harness.recorder.types.contains(.started))
        await harness.clock.simulate(for: 1)
        #expect(harness.recorder.types.filter { $0 == .started }.count == 1)
        #expect(!harness.recorder.types.contains(.firstQuartile))
    }

    @Test func aDisplayWithoutPresentationTimesFiresAtDelivery() async throws {
        let harness = StreamHarness.live()
        harness.display.cues = StreamFixtures.liveCues(start: 20)
        harness.display.reportsPresentationTime = false
        let manager = try await harness.manager(live: true)
        defer { withExtendedLifetime(manager) {} }
        start(harness)
        await harness.clock.simulate(for: 55)
        #expect(harness.recorder.types.filter { $0 == .complete }.count == 3)
        #expect(harness.recorder.types.last == .adPeriodEnded)
    }

    @Test func metadataIsPolledEveryPollingFrequencyWhileTheStreamPlaysOnly() async throws {
        let harness = StreamHarness.live(pollingFrequency: 5)
        let manager = try await harness.manager(live: true)
        defer { withExtendedLifetime(manager) {} }
        // Fetched once at initialize, before playback.
        await harness.clock.simulate(for: 12)
        #expect(harness.metadataRequests.count == 1)
        start(harness)
        await harness.clock.simulate(for: 30.1)
        #expect(harness.metadataRequests.count == 7)
        harness.display.pause()
        await harness.clock.simulate(for: 30)
        #expect(harness.metadataRequests.count == 7)
    }

    @Test func newAdTagParametersGoWithTheNextPollUntilOneSucceeds() async throws {
        let harness = StreamHarness.live(pollingFrequency: 5)
        let manager = try await harness.manager(live: true)
        defer { withExtendedLifetime(manager) {} }
        start(harness)
        await harness.clock.simulate(for: 1)
        manager.replaceAdTagParameters(["cust_params": "section=news"])
        await harness.clock.simulate(for: 10)
        let polls = harness.metadataRequests
        #expect(polls.count == 3)
        #expect(polls[1] == StreamFixtures.metadataURL + "?cust_params=section%3Dnews")
        #expect(polls[2] == StreamFixtures.metadataURL)
    }

    @Test func anIDTheMetadataDoesNotNameYetFetchesItAndFiresOnceKnown() async throws {
        let harness = StreamHarness.live(
            metadata: .sequence([.body("{}"), .body(StreamFixtures.liveMetadata())]), pollingFrequency: 600)
        harness.display.cues = StreamFixtures.liveCues(start: 20)
        let manager = try await harness.manager(live: true)
        defer { withExtendedLifetime(manager) {} }
        start(harness)
        await harness.clock.simulate(for: 21)
        #expect(harness.metadataRequests.count == 2)
        #expect(harness.recorder.types.suffix(3) == [.adPeriodStarted, .adBreakStarted, .started])
        #expect(!harness.recorder.logs.contains { $0.contains("not in the stream's metadata") })
    }

    @Test func anEventHeldForItsMetadataPastTheLateToleranceIsStillVerifiedOnce() async throws {
        // Delivered 5 s after its time with an ID the metadata does not name;
        // the fetch it starts never answers, so the playhead passes it by more
        // than the 10 s tolerance while it waits: the ad played, so its
        // verification must still go (once), though no app event can.
        let harness = StreamHarness.live(metadata: .sequence([.body("{}"), .hang]), pollingFrequency: 600)
        let start = StreamFixtures.liveEventID(position: 1, type: "start")
        let manager = try await harness.manager(live: true)
        defer { withExtendedLifetime(manager) {} }
        self.start(harness)
        await harness.clock.simulate(for: 25)
        let display = harness.display
        display.delegate?.videoDisplay(display, didReceiveTimedMetadata: ["TXXX": start], presentationTime: 20)
        await harness.clock.simulate(for: 20)
        await harness.deliverBeacons()
        #expect(harness.metadataRequests.count == 2)
        #expect(harness.verificationRequests == [StreamFixtures.verificationBase + start])
        #expect(!harness.recorder.types.contains(.started))
        #expect(harness.recorder.logs.contains { $0.contains("verified late, without events") })
    }

    @Test func malformedMetadataKeepsThePreviousAndIsLogged() async throws {
        let harness = StreamHarness.live(
            metadata: .sequence([.body(StreamFixtures.liveMetadata()), .body("{{not json")]), pollingFrequency: 5)
        harness.display.cues = StreamFixtures.liveCues(start: 20)
        let manager = try await harness.manager(live: true)
        defer { withExtendedLifetime(manager) {} }
        start(harness)
        await harness.clock.simulate(for: 55)
        let failure = try #require(harness.recorder.events.first { $0.type == .adBreakFetchError })
        #expect(failure.adData["errorCode"] == "1010")
        #expect(failure.adData["message"]?.contains("metadata ignored") == true)
        #expect(harness.recorder.types.filter { $0 == .complete }.count == 3)
    }

    @Test func aFailingMetadataServerIsLoggedAndPlaybackGoesOn() async throws {
        let harness = StreamHarness.live(metadata: .status(500, "down"), pollingFrequency: 5)
        let manager = try await harness.manager(live: true)
        defer { withExtendedLifetime(manager) {} }
        start(harness)
        await harness.clock.simulate(for: 11)
        let failures = harness.recorder.events.filter { $0.type == .adBreakFetchError }
        #expect(failures.count >= 2)
        #expect(
            failures.allSatisfy {
                $0.adData["errorCode"] == "1005" && $0.adData["message"]?.contains("HTTP 500") == true
            })
        #expect(harness.recorder.errors.isEmpty)
    }

    @Test func duplicateAndBadTimedMetadataNeverVerifiesTwice() async throws {
        let harness = StreamHarness.live()
        let start = StreamFixtures.liveEventID(position: 1, type: "start")
        harness.display.cues = [
            .id3(start, at: 20, lead: 5), .id3(start, at: 20, lead: 4), .id3(start, at: 20),
            .init(values: ["TXXX": "not an id"], time: 21), .init(values: [:], time: 21),
        ]
        let manager = try await harness.manager(live: true)
        defer { withExtendedLifetime(manager) {} }
        self.start(harness)
        await harness.clock.simulate(for: 1)
        let display = harness.display
        for bad in [Double.nan, .infinity, -5, 1e300] {
            display.delegate?.videoDisplay(display, didReceiveTimedMetadata: ["TXXX": start], presentationTime: bad)
        }
        #expect(harness.recorder.logs.filter { $0.contains("ignored") }.count == 4)
        await harness.clock.simulate(for: 24)
        await harness.deliverBeacons()
        #expect(harness.verificationRequests == [StreamFixtures.verificationBase + start])
        #expect(harness.recorder.types.filter { $0 == .started }.count == 1)
    }

    @Test func aFrameReportedAgainWithoutItsTimeIsVerifiedOnceAndDoesNotReopenTheBreak() async throws {
        // IMA's `didReceiveTimedMetadata:` has no time: a display re-reporting
        // frames (a variant switch, a player's metadata observer firing again)
        // hands the same IDs over later, each taken at the playhead then.
        let harness = StreamHarness.live(metadata: .body(StreamFixtures.liveMetadata(adCount: 1)))
        let start = StreamFixtures.liveEventID(position: 1, type: "start")
        let complete = StreamFixtures.liveEventID(position: 1, type: "complete")
        harness.display.cues = [
            .id3(start, at: 20), .id3(start, at: 20.5), .id3(complete, at: 29.95), .id3(complete, at: 31),
        ]
        harness.display.reportsPresentationTime = false
        let manager = try await harness.manager(live: true)
        defer { withExtendedLifetime(manager) {} }
        self.start(harness)
        await harness.clock.simulate(for: 40)
        #expect(
            harness.recorder.types == [
                .streamLoaded, .streamStarted, .adPeriodStarted, .adBreakStarted, .started, .complete, .adBreakEnded,
                .adPeriodEnded,
            ])
        #expect(harness.recorder.uiStates.last == .hidden)
        await harness.deliverBeacons()
        #expect(harness.verificationRequests == [start, complete].map { StreamFixtures.verificationBase + $0 })
    }

    @Test func aRenditionsCopyOfAFrameAFrameApartFiresNothingMoreAndIsVerifiedOnce() async throws {
        // The same ID3 in two renditions whose PTS differ by a frame (1/30 s),
        // both handed over around a variant switch.
        let harness = StreamHarness.live(metadata: .body(StreamFixtures.liveMetadata(adCount: 1)))
        let start = StreamFixtures.liveEventID(position: 1, type: "start")
        let complete = StreamFixtures.liveEventID(position: 1, type: "complete")
        harness.display.cues = [
            .id3(start, at: 20, lead: 4), .id3(start, at: 20.0334, lead: 2), .id3(complete, at: 29.95, lead: 4),
            .id3(complete, at: 29.9834, lead: 2),
        ]
        let manager = try await harness.manager(live: true)
        defer { withExtendedLifetime(manager) {} }
        self.start(harness)
        await harness.clock.simulate(for: 40)
        #expect(harness.recorder.types.filter { $0 == .adPeriodStarted }.count == 1)
        #expect(harness.recorder.types.filter { $0 == .complete }.count == 1)
        await harness.deliverBeacons()
        #expect(harness.verificationRequests == [start, complete].map { StreamFixtures.verificationBase + $0 })
    }

    @Test func anIDTheMetadataNeverNamesIsVerifiedOnceHoweverOftenItComes() async throws {
        let harness = StreamHarness.live(pollingFrequency: 600)
        let unknown = "google_notinthemetadata1234"
        harness.display.cues = [.id3(unknown, at: 20), .id3(unknown, at: 24)]
        let manager = try await harness.manager(live: true)
        defer { withExtendedLifetime(manager) {} }
        start(harness)
        await harness.clock.simulate(for: 30)
        await harness.deliverBeacons()
        #expect(harness.verificationRequests == [StreamFixtures.verificationBase + unknown])
    }

    @Test func otherAppsMetadataEveryTickIsIgnoredSilently() async throws {
        let harness = StreamHarness.live(pollingFrequency: 600)
        var cues: [ScriptedStreamDisplay.Cue] = []
        for tick in 0..<80 {
            let time = Double(tick) * 0.25
            cues.append(.init(values: ["TXXX": "YMID=\(tick)", "description": "yospace"], time: time))
            cues.append(
                .init(values: ["PRIV": "com.apple.streaming.transportStreamTimestamp", "data": "00"], time: time))
            cues.append(.init(values: ["X-COM-EXAMPLE-CUE": "cue-\(tick)", "TIT2": "Title"], time: time))
        }
        harness.display.cues = cues
        let manager = try await harness.manager(live: true)
        defer { withExtendedLifetime(manager) {} }
        start(harness)
        await harness.clock.simulate(for: 25)
        #expect(harness.recorder.logs.isEmpty)
        #expect(harness.recorder.errors.isEmpty)
        #expect(harness.metadataRequests.count == 1)
        #expect(harness.recorder.types == [.streamLoaded, .streamStarted])
    }

    @Test func replaceAdTagParametersOnVODAndSeeksOnLiveAreHarmless() async throws {
        let harness = StreamHarness.vod()
        let manager = try await harness.manager(live: false)
        defer { withExtendedLifetime(manager) {} }
        manager.replaceAdTagParameters(["a": "b"])
        #expect(harness.recorder.logs.last?.contains("only livestreams") == true)
        let live = StreamHarness.live()
        let liveManager = try await live.manager(live: true, snapback: true)
        defer { withExtendedLifetime(liveManager) {} }
        #expect(liveManager.contentTime(forStreamTime: 42) == 42)
        #expect(liveManager.previousCuepoint(forStreamTime: 42) == nil)
        #expect(liveManager.seekStream(to: 10))
        #expect(live.display.commands.last == "seekStream 10.0")
    }

    @Test func pictureInPictureHidesTheCustomUIAndBringsItBack() async throws {
        let harness = StreamHarness.live()
        harness.display.cues = StreamFixtures.liveCues(start: 2)
        let proxy = PictureInPictureProxy()
        let request = harness.request(live: true)
        let pip = PodStreamRequest(
            networkCode: "21775744923", customAssetKey: "interlude-live",
            adDisplayContainer: request.adDisplayContainer, videoDisplay: harness.display, pictureInPictureProxy: proxy)
        pip.serverURL = request.serverURL
        let manager = try #require(try await harness.loader.loadStream(with: pip).streamManager)
        defer { withExtendedLifetime(manager) {} }
        manager.delegate = harness.recorder
        var rendering = AdsRenderingSettings()
        rendering.disableUi = true
        manager.initialize(with: rendering)
        start(harness)
        await harness.clock.simulate(for: 4)
        #expect(manager.uiState.isCustomUIVisible)
        proxy.pictureInPictureDidStart()
        #expect(manager.uiState == .hidden)
        await harness.clock.simulate(for: 1)
        #expect(manager.uiState == .hidden)
        proxy.pictureInPictureDidStop()
        #expect(manager.uiState.isCustomUIVisible)
    }

    @Test func theEventsStreamCarriesWhatTheDelegateHears() async throws {
        let harness = StreamHarness.live()
        harness.display.cues = StreamFixtures.liveCues(start: 5)
        let manager = try #require(try await harness.loader.loadStream(with: harness.request(live: true)).streamManager)
        let events = manager.events
        manager.delegate = harness.recorder
        manager.initialize(with: nil)
        start(harness)
        await harness.clock.simulate(for: 40)
        manager.destroy()
        var streamed: [AdEvent.EventType] = []
        for await event in events where event.type != .log && event.type != .cuepointsChanged {
            streamed.append(event.type)
        }
        #expect(streamed == harness.recorder.types)
        #expect(streamed.contains(.complete))
        // Read after destroy: finished, empty.
        var late = 0
        for await _ in StreamManagerTestsSupport.freshEvents(of: manager) { late += 1 }
        #expect(late == 0)
    }
}

@MainActor
enum StreamManagerTestsSupport {
    /// The events stream of a manager that never handed one out.
    static func freshEvents(of manager: StreamManager) -> AsyncStream<AdEvent> {
        manager.eventStream = nil
        return manager.events
    }
}
