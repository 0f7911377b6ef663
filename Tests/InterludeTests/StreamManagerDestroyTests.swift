import Foundation
import InterludeTestSupport
import Testing

@testable import Interlude

/// `destroy()` as the AdsManager's is tested: in every state, nothing
/// fires after it (no event, error, display command, request or timer),
/// and nothing of the app's is retained.
@Suite("Stream manager destroy")
@MainActor
struct StreamManagerDestroyTests {
    enum State: String, CaseIterable, Sendable {
        case beforeInitialize, initialized, loadingTimeline, inPreRoll, inContent, afterEnd, livePolling, liveInBreak
    }

    /// Brings a manager to `state` on `harness`.
    func prepare(_ state: State, _ harness: StreamHarness) async throws -> StreamManager {
        let live = state == .livePolling || state == .liveInBreak
        let request = harness.request(live: live)
        let manager = try #require(try await harness.loader.loadStream(with: request).streamManager)
        manager.delegate = harness.recorder
        guard state != .beforeInitialize else { return manager }
        manager.initialize(with: nil)
        if live {
            harness.display.cues = StreamFixtures.liveCues(start: 5)
            harness.display.loadStream(URL(string: "http://127.0.0.1:9/live.m3u8")!, subtitles: nil)
            harness.display.play()
            await harness.clock.simulate(for: state == .liveInBreak ? 8 : 2)
            return manager
        }
        guard state != .initialized else { return manager }
        if state == .loadingTimeline {
            manager.loadThirdPartyStream(StreamHarness.vtpURL, streamSubtitles: nil)
        } else {
            await harness.startVOD(manager)
        }
        let seconds: [State: TimeInterval] = [.loadingTimeline: 2, .inPreRoll: 5, .inContent: 40, .afterEnd: 185]
        await harness.clock.simulate(for: seconds[state] ?? 0)
        return manager
    }

    func harness(for state: State) -> StreamHarness {
        switch state {
        case .loadingTimeline: return .vod(metadata: .hang)
        case .livePolling, .liveInBreak: return .live(pollingFrequency: 3)
        default: return .vod()
        }
    }

    @Test(arguments: State.allCases)
    func nothingHappensAfterDestroy(in state: State) async throws {
        let harness = harness(for: state)
        let manager = try await prepare(state, harness)
        defer { withExtendedLifetime(manager) {} }
        manager.destroy()
        let events = harness.recorder.events.count
        let errors = harness.recorder.errors.count
        let commands = harness.display.commands.count
        await harness.deliverBeacons()
        let requests = harness.http.requests.count
        await harness.clock.simulate(for: 60)
        manager.initialize(with: nil)
        manager.loadThirdPartyStream(StreamHarness.vtpURL, streamSubtitles: nil)
        #expect(!manager.seekStream(to: 90))
        manager.clicked()
        manager.replaceAdTagParameters(["a": "b"])
        manager.destroy()
        await harness.clock.simulate(for: 30)
        await harness.deliverBeacons()
        #expect(harness.recorder.events.count == events)
        #expect(harness.recorder.errors.count == errors)
        #expect(harness.display.commands.count == commands)
        #expect(harness.http.requests.count == requests)
        #expect(harness.clock.sleeperCount == 0)
        #expect(harness.display.delegate == nil)
    }

    @Test func destroyStopsTheStream() async throws {
        let harness = StreamHarness.vod()
        let manager = try await prepare(.inContent, harness)
        manager.destroy()
        #expect(harness.display.commands.last == "reset")
        #expect(!harness.display.isPlaying)
    }

    @Test func destroyFromADelegateCallbackStillVerifiesWhatFired() async throws {
        let harness = StreamHarness.vod()
        harness.recorder.onEvent = { manager, event in
            if event.type == .started { manager.destroy() }
        }
        _ = try await prepare(.inPreRoll, harness)
        await harness.deliverBeacons()
        #expect(harness.recorder.types.last == .started)
        #expect(
            harness.verificationRequests == [StreamFixtures.verificationBase + StreamFixtures.vodEventID("p1", "start")]
        )
    }

    @Test(arguments: [State.loadingTimeline, .inPreRoll, .liveInBreak])
    func destroyReleasesTheManagerLoaderDisplayAndDelegate(in state: State) async throws {
        weak var weakManager: StreamManager?
        weak var weakLoader: AdsLoader?
        weak var weakDisplay: ScriptedStreamDisplay?
        weak var weakRecorder: StreamRecorder?
        let clock: ManualClock
        do {
            let harness = harness(for: state)
            clock = harness.clock
            let manager = try await prepare(state, harness)
            manager.destroy()
            weakManager = manager
            weakLoader = harness.loader
            weakDisplay = harness.display
            weakRecorder = harness.recorder
            await harness.deliverBeacons()
        }
        await clock.simulate(for: 10)
        #expect(weakManager == nil)
        #expect(weakLoader == nil)
        #expect(weakDisplay == nil)
        #expect(weakRecorder == nil)
    }
}
