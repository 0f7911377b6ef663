import Foundation
import InterludeTestSupport
import Testing

@testable import Interlude

/// The seed's VOD flow on an in-memory API: register, initialize,
/// `loadThirdPartyStream` (timeline fetched, stream loaded and played by
/// the manager), every break's events, one verification per event.
@Suite("Stream manager (VOD)")
@MainActor
struct StreamManagerVODTests {
    static let adEvents: [AdEvent.EventType] = [.started, .firstQuartile, .midpoint, .thirdQuartile, .complete]

    @Test func theSeedsVODFlowPlaysEveryBreakAndVerifiesEachEventOnce() async throws {
        let harness = StreamHarness.vod()
        let manager = try await harness.manager(live: false)
        defer { withExtendedLifetime(manager) {} }
        await harness.startVOD(manager)
        await harness.clock.simulate(for: 0.5)
        #expect(harness.display.commands.prefix(2) == ["loadStream \(StreamHarness.vtpURL.absoluteString)", "play"])
        #expect(manager.cuepoints.count == 3)
        await harness.clock.simulate(for: 182)
        let pre =
            [.adPeriodStarted, .adBreakStarted] + Self.adEvents + Self.adEvents + [.adBreakEnded, .adPeriodEnded]
        let mid =
            [.adPeriodStarted, .adBreakStarted] + Self.adEvents + Self.adEvents + Self.adEvents + [
                .adBreakEnded, .adPeriodEnded,
            ]
        let post = [.adPeriodStarted, .adBreakStarted] + Self.adEvents + [.adBreakEnded, .adPeriodEnded]
        #expect(harness.recorder.types == [.streamLoaded, .streamStarted] + pre + mid + post)
        await harness.deliverBeacons()
        let expected = StreamFixtures.vodBreaks.flatMap(\.ads).flatMap { ad in
            ["start", "firstquartile", "midpoint", "thirdquartile", "complete"].map {
                StreamFixtures.verificationBase + StreamFixtures.vodEventID(ad, $0)
            }
        }
        #expect(harness.verificationRequests == expected)
        #expect(manager.cuepoints.allSatisfy { $0.isPlayed })
    }

    @Test func progressAndTheCustomUIFollowTheAd() async throws {
        let harness = StreamHarness.vod()
        let manager = try await harness.manager(live: false)
        defer { withExtendedLifetime(manager) {} }
        await harness.startVOD(manager)
        await harness.clock.simulate(for: 5)
        let last = try #require(harness.recorder.progress.last)
        #expect(last.adPosition == 1 && last.totalAds == 2 && last.adDuration == 10 && last.adBreakDuration == 20)
        #expect(abs(last.time - 5) <= 0.5)
        #expect(manager.uiState.countdownText == "Ad 1 of 2 (5s)")
        #expect(harness.recorder.uiStates.map(\.countdownText).contains("Ad 1 of 2 (10s)"))
        var opened: [URL] = []
        manager.linkOpener = { opened.append($0) }
        manager.clicked()
        #expect(opened == [URL(string: "https://advertiser.example/landing")!])
        #expect(harness.recorder.types.last == .clicked)
        await harness.clock.simulate(for: 20)
        #expect(manager.uiState == .hidden)
    }

    @Test func aBookmarkSeekAtStreamLoadedStartsThereWithoutThePreRoll() async throws {
        let harness = StreamHarness.vod()
        let manager = try await harness.manager(live: false, snapback: true)
        defer { withExtendedLifetime(manager) {} }
        let display = harness.display
        harness.recorder.onEvent = { manager, event in
            if event.type == .streamLoaded { display.seekStream(to: manager.streamTime(forContentTime: 70)) }
        }
        await harness.startVOD(manager)
        await harness.clock.simulate(for: 10)
        #expect(display.commands.contains("seekStream 120.0"))
        #expect(harness.recorder.types == [.streamLoaded, .streamStarted])
        #expect(abs(manager.contentTime(forStreamTime: display.currentMediaTime) - 80) < 0.5)
    }

    @Test func snapbackThroughTheManagerPlaysTheSkippedBreakThenResumes() async throws {
        let harness = StreamHarness.vod()
        let manager = try await harness.manager(live: false, snapback: true)
        defer { withExtendedLifetime(manager) {} }
        await harness.startVOD(manager)
        await harness.clock.simulate(for: 30)
        #expect(manager.seekStream(to: 150))
        #expect(harness.display.commands.last == "seekStream 80.0")
        await harness.clock.simulate(for: 15)
        // Seeks are refused while the snapped-to break plays for the first time.
        #expect(!manager.seekStream(to: 160))
        await harness.clock.simulate(for: 16)
        #expect(harness.display.commands.last == "seekStream 150.0")
        #expect(harness.recorder.types.filter { $0 == .adBreakEnded }.count == 2)
        #expect(harness.display.currentMediaTime > 150)
    }

    @Test func aSeekOnThePlayerItselfGetsTheSameSnapback() async throws {
        let harness = StreamHarness.vod()
        let manager = try await harness.manager(live: false, snapback: true)
        defer { withExtendedLifetime(manager) {} }
        await harness.startVOD(manager)
        await harness.clock.simulate(for: 30)
        harness.display.seekStream(to: 150)
        await harness.clock.simulate(for: 1)
        #expect(harness.display.commands.last == "seekStream 80.0")
        #expect(harness.recorder.types.suffix(3) == [.adPeriodStarted, .adBreakStarted, .started])
    }

    @Test func verificationThatAnswers404IsNotRetried() async throws {
        let notFound = StreamFixtures.verificationBase + StreamFixtures.vodEventID("p1", "start")
        let harness = StreamHarness.vod(extra: [notFound: .status(404, "")])
        let manager = try await harness.manager(live: false)
        defer { withExtendedLifetime(manager) {} }
        await harness.startVOD(manager)
        await harness.clock.simulate(for: 3)
        await harness.deliverBeacons()
        await harness.clock.simulate(for: 120)
        await harness.deliverBeacons()
        #expect(harness.http.requestedURLs.filter { $0 == notFound }.count == 1)
    }

    @Test func aTimelineThatCannotLoadIs1020AndTheBackupPlaysWhenAsked() async throws {
        let harness = StreamHarness.vod(metadata: .status(503, ""))
        let manager = try await harness.manager(live: false) { request in
            request.backupStreamURL = URL(string: "http://127.0.0.1:9/backup.m3u8")
            request.playsBackupStreamOnFailure = true
        }
        defer { withExtendedLifetime(manager) {} }
        manager.loadThirdPartyStream(StreamHarness.vtpURL, streamSubtitles: nil)
        await harness.clock.simulate(for: 3)
        #expect(harness.recorder.errors.map(\.code) == [.streamInitializationFailed])
        #expect(harness.metadataRequests.count == StreamManager.timelineAttempts)
        #expect(harness.display.commands == ["loadStream http://127.0.0.1:9/backup.m3u8", "play"])
        await harness.clock.simulate(for: 30)
        // The backup is content: no stream or ad events come from it.
        #expect(harness.recorder.types.isEmpty)
    }

    @Test(arguments: ["not json", "[]", #"{"breaks":[{"id":"b","start":"soon"}]}"#])
    func aMalformedTimelineIsReportedAndNothingPlays(body: String) async throws {
        let harness = StreamHarness.vod(metadata: .body(body))
        let manager = try await harness.manager(live: false)
        defer { withExtendedLifetime(manager) {} }
        await harness.startVOD(manager)
        await harness.clock.simulate(for: 3)
        if body.hasPrefix("{") {
            // A readable document with unusable breaks: the stream plays with no ads known.
            #expect(harness.recorder.errors.isEmpty)
            #expect(harness.recorder.logs.contains { $0.contains("1 malformed entries left out") })
            #expect(harness.recorder.types == [.streamLoaded, .streamStarted])
        } else {
            #expect(harness.recorder.errors.map(\.code) == [.streamInitializationFailed])
            #expect(harness.display.commands.isEmpty)
        }
    }

    @Test func loadThirdPartyStreamBeforeInitializeOrTwiceIsLoggedAndIgnored() async throws {
        let harness = StreamHarness.vod()
        let manager = try #require(
            try await harness.loader.loadStream(with: harness.request(live: false)).streamManager)
        defer { withExtendedLifetime(manager) {} }
        manager.delegate = harness.recorder
        await harness.startVOD(manager)
        #expect(harness.recorder.logs.last?.contains("initialize") == true)
        #expect(harness.metadataRequests.isEmpty)
        manager.initialize(with: nil)
        manager.initialize(with: nil)
        #expect(harness.recorder.logs.last?.contains("already initialized") == true)
        await harness.startVOD(manager)
        await harness.startVOD(manager)
        #expect(harness.recorder.logs.last?.contains("already called") == true)
        manager.loadThirdPartyStream(URL(string: "javascript:alert(1)")!, streamSubtitles: nil)
        await harness.clock.simulate(for: 2)
        #expect(harness.metadataRequests.count == 1)
        #expect(harness.display.commands.filter { $0.hasPrefix("loadStream") }.count == 1)
    }

    @Test func theManifestSuffixIsAddedToTheStreamURL() async throws {
        let harness = StreamHarness.vod()
        let manager = try await harness.manager(live: false) { $0.manifestURLSuffix = "?dai-ot=x" }
        defer { withExtendedLifetime(manager) {} }
        manager.loadThirdPartyStream(URL(string: "http://127.0.0.1:9/vtp/s.m3u8?a=1")!, streamSubtitles: nil)
        await harness.clock.simulate(for: 0.5)
        #expect(harness.display.commands.first == "loadStream http://127.0.0.1:9/vtp/s.m3u8?a=1&dai-ot=x")
        #expect(
            StreamManager.appending(suffix: "b=2", to: URL(string: "http://h/p")!).absoluteString == "http://h/p?b=2")
        #expect(StreamManager.appending(suffix: "  ", to: URL(string: "http://h/p")!).absoluteString == "http://h/p")
    }

    @Test func timedMetadataInAVODStreamIsIgnoredWithOneLog() async throws {
        let harness = StreamHarness.vod()
        let start = StreamFixtures.vodEventID("p1", "start")
        harness.display.cues = [.id3(start, at: 1), .id3(StreamFixtures.vodEventID("p1", "midpoint"), at: 2)]
        let manager = try await harness.manager(live: false)
        defer { withExtendedLifetime(manager) {} }
        await harness.startVOD(manager)
        await harness.clock.simulate(for: 21)
        #expect(harness.recorder.logs.filter { $0.contains("timed metadata ignored") }.count == 1)
        await harness.deliverBeacons()
        #expect(harness.verificationRequests.filter { $0.hasSuffix(start) }.count == 1)
    }

    @Test func aStreamThatFailsToPlayIsReportedAndTheBackupPlaysWhenAsked() async throws {
        let harness = StreamHarness.vod()
        harness.display.loadFailure = .cannotDisplay("decoder error")
        let manager = try await harness.manager(live: false) { request in
            request.backupStreamURL = URL(string: "http://127.0.0.1:9/backup.m3u8")
            request.playsBackupStreamOnFailure = true
        }
        defer { withExtendedLifetime(manager) {} }
        await harness.startVOD(manager)
        await harness.clock.simulate(for: 1)
        #expect(harness.recorder.errors.map(\.code) == [.videoPlayError])
        #expect(harness.recorder.errors.first?.type == .playingFailed)
        #expect(harness.display.commands.suffix(2) == ["loadStream http://127.0.0.1:9/backup.m3u8", "play"])
    }

    @Test func aVODTimelineStillPendingLoadsTheStreamSoTheVTPAsksForPodsThenPlays() async throws {
        let harness = StreamHarness.vod(
            metadata: .sequence([
                .status(202, #"{"status":"pending"}"#), .status(202, #"{"status":"pending"}"#),
                .body(StreamFixtures.vodMetadata()),
            ]))
        let manager = try await harness.manager(live: false)
        defer { withExtendedLifetime(manager) {} }
        manager.loadThirdPartyStream(StreamHarness.vtpURL, streamSubtitles: nil)
        await harness.clock.simulate(for: 0.5)
        // Loaded (the VTP sees the manifest request), not played: the timeline is not in.
        #expect(harness.display.commands == ["loadStream \(StreamHarness.vtpURL.absoluteString)"])
        #expect(harness.recorder.types.isEmpty)
        await harness.clock.simulate(for: 2.5)
        #expect(harness.metadataRequests.count == 3)
        #expect(harness.display.commands.suffix(1) == ["play"])
        #expect(harness.recorder.types.prefix(2) == [.streamLoaded, .streamStarted])
        #expect(manager.cuepoints.count == 3)
    }

    @Test func aTimelinePendingForeverIs1020() async throws {
        let harness = StreamHarness.vod(metadata: .status(202, ""))
        let manager = try await harness.manager(live: false)
        defer { withExtendedLifetime(manager) {} }
        manager.loadThirdPartyStream(StreamHarness.vtpURL, streamSubtitles: nil)
        await harness.clock.simulate(for: StreamManager.timelineWait + 2)
        #expect(harness.recorder.errors.map(\.code) == [.streamInitializationFailed])
        #expect(harness.recorder.errors.first?.message?.contains("pending") == true)
        #expect(harness.clock.sleeperCount == 0)
    }

    @Test func googleStyleVODMetadataWithoutATimelineIsToldByTimedMetadata() async throws {
        let harness = StreamHarness.vod(metadata: .body(StreamFixtures.liveMetadata(adCount: 1)))
        harness.display.cues = StreamFixtures.liveCues(start: 30, adCount: 1)
        let manager = try await harness.manager(live: false)
        defer { withExtendedLifetime(manager) {} }
        await harness.startVOD(manager)
        await harness.clock.simulate(for: 45)
        #expect(
            harness.recorder.types == [.streamLoaded, .streamStarted, .adPeriodStarted, .adBreakStarted] + Self.adEvents
                + [
                    .adBreakEnded, .adPeriodEnded,
                ])
        #expect(manager.cuepoints.isEmpty)
        await harness.deliverBeacons()
        #expect(harness.verificationRequests.count == 5)
    }

    @Test func clickThroughPingsClickTrackingThroughTheBeaconQueue() async throws {
        let harness = StreamHarness.vod()
        let manager = try await harness.manager(live: false)
        defer { withExtendedLifetime(manager) {} }
        await harness.startVOD(manager)
        await harness.clock.simulate(for: 3)
        manager.clicked()
        await harness.deliverBeacons()
        #expect(
            harness.http.requestedURLs.filter { $0 == "\(StreamFixtures.server)/track/stream-1/p1/click" }.count == 1)
    }

    /// The manager holds its delegate for a batch of effects (one report's
    /// events, progress and UI); a delegate set from inside the batch gets
    /// the rest of it, and the one replaced hears nothing more.
    @Test func aDelegateSetDuringABatchOfEffectsGetsTheRestOfIt() async throws {
        let harness = StreamHarness.vod()
        let manager = try await harness.manager(live: false)
        defer { withExtendedLifetime(manager) {} }
        let second = StreamRecorder()
        harness.recorder.onEvent = { manager, event in
            if event.type == .adBreakStarted { manager.delegate = second }
        }
        await harness.startVOD(manager)
        await harness.clock.simulate(for: 3)
        // The pre-roll's first report: its period and break, then its first ad's start, progress and UI.
        #expect(harness.recorder.types == [.streamLoaded, .streamStarted, .adPeriodStarted, .adBreakStarted])
        #expect(harness.recorder.progress.isEmpty && harness.recorder.uiStates.isEmpty)
        #expect(second.types.first == .started)
        #expect(!second.progress.isEmpty && !second.uiStates.isEmpty)
    }
}
