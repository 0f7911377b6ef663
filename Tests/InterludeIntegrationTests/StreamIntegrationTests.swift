import Foundation
import InterludeServer
import InterludeServerTestSupport
import InterludeTestSupport
import Testing

@testable import Interlude

/// The DAI client against `interlude serve`'s pod-serving API, in-process
/// on loopback over real HTTP (URLSession): live and VOD registrations, a
/// break played through with every verification reaching the server once,
/// `destroy()` mid-break, and a failing registration going to the backup.
@Suite("DAI client against the reference server", .serialized)
@MainActor
struct StreamIntegrationTests {
    static let adEvents: Set<String> = ["start", "firstquartile", "midpoint", "thirdquartile", "complete"]
    static let vtpURL = URL(string: "http://127.0.0.1:9/vtp/stream.m3u8")!
    /// Where the live break starts in the scripted stream, and its `pd`.
    static let liveBreakStart: TimeInterval = 20
    static let liveBreakMilliseconds = 30_000

    /// Registers a livestream with `loadStream(with:)`, has its 30 s break
    /// decided (as the VTP would), and returns the manager and the break.
    func startLive(_ stack: DAIStack) async throws -> (StreamManager, StreamReportView.Break) {
        let data = try await stack.loader.loadStream(with: stack.request(live: true))
        #expect(data.userContext as? String == "it")
        let manager = try #require(data.streamManager)
        let id = try #require(manager.streamId)
        // The break is decided after the first metadata fetch: its IDs are unknown when they come.
        await stack.start(manager)
        try await stack.decideLivePod(id, pod: 1, durationMilliseconds: Self.liveBreakMilliseconds)
        let decided = try #require(try await stack.report(id).breaks.first)
        #expect(decided.ads.count >= 1)
        stack.display.cues = DAIStack.cues(for: decided, at: Self.liveBreakStart, lead: 4)
        stack.display.loadStream(Self.vtpURL, subtitles: [])
        stack.display.play()
        return (manager, decided)
    }

    @Test func aLivestreamPlaysItsBreakFromTimedMetadataAndEachEventIsVerifiedOnce() async throws {
        let stack = try DAIStack()
        defer { stack.stop() }
        let (manager, decided) = try await startLive(stack)
        let id = try #require(manager.streamId)
        let end = Self.liveBreakStart + Double(Self.liveBreakMilliseconds) / 1000 + 10
        try await stack.play(manager, to: end)
        await stack.deliverBeacons()

        let ads = decided.ads.count
        #expect(stack.recorder.count(.adBreakStarted) == 1)
        #expect(stack.recorder.count(.started) == ads)
        #expect(stack.recorder.count(.firstQuartile) == ads)
        #expect(stack.recorder.count(.midpoint) == ads)
        #expect(stack.recorder.count(.thirdQuartile) == ads)
        #expect(stack.recorder.count(.complete) == ads)
        #expect(stack.recorder.count(.adBreakEnded) == 1)
        #expect(stack.recorder.events.last { $0.type != .log }?.type == .adPeriodEnded)
        #expect(stack.recorder.errors.isEmpty, "\(stack.recorder.errors)")
        // The unknown IDs made the manager fetch the metadata again.
        #expect(stack.metadataRequests(id).count >= 2)

        // Every event reached the server once: each ping answered 204 (a
        // second one would be 404), and the server lists every event verified.
        let events = decided.ads.flatMap(\.events)
        let pings = stack.verifications(id)
        #expect(pings.count == events.count)
        #expect(pings.allSatisfy { $0.status == 204 }, "\(pings)")
        #expect(Set(pings.map(\.url)).count == pings.count)
        let report = try await stack.report(id)
        #expect(report.events.allSatisfy { $0.verifiedAt != nil })
        #expect(report.eventsVerified == events.count)
        #expect(Set(report.events.map(\.type)) == Self.adEvents)
        manager.destroy()
    }

    @Test func destroyMidBreakStopsEventsPingsAndPolling() async throws {
        let stack = try DAIStack()
        defer { stack.stop() }
        let (manager, decided) = try await startLive(stack)
        let id = try #require(manager.streamId)
        let firstAd = try #require(decided.ads.first)
        // Into the first ad, past its midpoint.
        let midpoint = Self.liveBreakStart + Double(firstAd.offset + firstAd.duration / 2) / 1000
        try await stack.play(manager, to: midpoint + 0.5)
        #expect(stack.recorder.count(.midpoint) == 1)
        await stack.deliverBeacons()
        let pingsBefore = stack.verifications(id).count
        #expect(pingsBefore == 3)
        let eventsBefore = stack.recorder.events.count
        let metadataBefore = stack.metadataRequests(id).count

        manager.destroy()
        #expect(stack.display.loadedURL == nil)
        #expect(stack.display.delegate == nil)
        // The stream would go on (the app reloads its player) and the clock
        // passes many polling periods: the destroyed manager hears none of it.
        stack.display.loadStream(Self.vtpURL, subtitles: [])
        stack.display.play()
        for _ in 0..<240 {
            stack.display.step()
            stack.clock.advance(by: DAIStack.tick)
            await Task.yield()
        }
        await stack.deliverBeacons()
        #expect(stack.recorder.events.count == eventsBefore)
        #expect(stack.verifications(id).count == pingsBefore)
        #expect(stack.metadataRequests(id).count == metadataBefore)
        #expect(stack.clock.sleeperCount == 0)
        let report = try await stack.report(id)
        #expect(report.eventsVerified == pingsBefore)
    }

    enum DestroyPoint: String, CaseIterable, Sendable {
        case beforeInitialize, duringTheFirstMetadataFetch, duringTheVODTimelineFetch
    }

    /// `destroy()` before anything plays, with a request to the server in
    /// flight or not: what was under way lands on a dead manager, and
    /// nothing is loaded, played, fired, verified or polled afterwards.
    @Test(arguments: DestroyPoint.allCases)
    func destroyBeforePlaybackLeavesNothingRunning(at point: DestroyPoint) async throws {
        let stack = try DAIStack()
        defer { stack.stop() }
        let live = point != .duringTheVODTimelineFetch
        let manager = try #require(try await stack.loader.loadStream(with: stack.request(live: live)).streamManager)
        let id = try #require(manager.streamId)
        manager.delegate = stack.recorder
        switch point {
        case .beforeInitialize:
            manager.destroy()
            manager.initialize(with: nil)
        case .duringTheFirstMetadataFetch:
            manager.initialize(with: nil)
            #expect(manager.fetchTask != nil)
            manager.destroy()
        case .duringTheVODTimelineFetch:
            _ = try await stack.planVODPods(id)
            manager.initialize(with: nil)
            manager.loadThirdPartyStream(Self.vtpURL, streamSubtitles: [])
            #expect(manager.fetchTask != nil)
            manager.destroy()
        }
        if point == .duringTheFirstMetadataFetch {
            // The request in flight ends (answered or cancelled) after the manager is gone.
            // (The VOD timeline's task is cancelled before it first runs: it asks nothing.)
            try await stack.waitUntil("the fetch in flight to end") { !stack.metadataRequests(id).isEmpty }
        }
        manager.loadThirdPartyStream(Self.vtpURL, streamSubtitles: [])
        for _ in 0..<120 {
            stack.clock.advance(by: 1)
            await Task.yield()
        }
        await stack.deliverBeacons()
        #expect(stack.recorder.events.isEmpty, "\(stack.recorder.events.map(\.type))")
        #expect(stack.recorder.errors.isEmpty)
        #expect(stack.verifications(id).isEmpty)
        #expect(stack.metadataRequests(id).count <= 1)
        #expect(!stack.display.commands.contains { $0.hasPrefix("loadStream") || $0 == "play" })
        #expect(stack.display.loadedURL == nil)
        #expect(stack.clock.sleeperCount == 0)
    }

    @Test func aVODStreamRegistersThroughTheDelegatePlaysItsPodsAndEachEventIsVerifiedOnce() async throws {
        let stack = try DAIStack()
        defer { stack.stop() }
        stack.loader.requestStream(with: stack.request(live: false))
        await stack.recorder.waitForLoadOutcome()
        #expect(stack.recorder.failed.isEmpty, "\(stack.recorder.failed.map(\.adError))")
        let manager = try #require(stack.recorder.loaded.first?.streamManager)
        let id = try #require(manager.streamId)
        // The app hands the ID to its VTP, which asks for the pods; then loadThirdPartyStream.
        let duration = try await stack.planVODPods(id)
        stack.display.totalMediaTime = duration
        await stack.start(manager)
        manager.loadThirdPartyStream(Self.vtpURL, streamSubtitles: [])
        await stack.fetched(manager)
        try await stack.waitUntil("the VOD timeline and playback") { stack.display.isPlaying }
        #expect(stack.display.loadedURL == Self.vtpURL)
        #expect(manager.cuepoints.count == 3)
        try await stack.play(manager, to: duration)
        await stack.deliverBeacons()

        let report = try await stack.report(id)
        let ads = report.breaks.flatMap(\.ads).count
        #expect(report.breaks.count == 3)
        #expect(stack.recorder.count(.streamLoaded) == 1)
        #expect(stack.recorder.count(.adBreakStarted) == 3)
        #expect(stack.recorder.count(.adBreakEnded) == 3)
        #expect(stack.recorder.count(.started) == ads)
        #expect(stack.recorder.count(.complete) == ads)
        #expect(manager.cuepoints.allSatisfy { $0.isPlayed })
        #expect(stack.recorder.errors.isEmpty, "\(stack.recorder.errors)")
        let pings = stack.verifications(id)
        #expect(pings.count == report.events.count)
        #expect(pings.allSatisfy { $0.status == 204 }, "\(pings)")
        #expect(Set(pings.map(\.url)).count == pings.count)
        #expect(report.events.allSatisfy { $0.verifiedAt != nil })
        #expect(report.eventsVerified == report.events.count)
        manager.destroy()
    }

    @Test(arguments: [true, false])
    func aFailingRegistrationGives1020WithTheServersMessageAndTheBackupPlays(live: Bool) async throws {
        let stack = try DAIStack()
        defer { stack.stop() }
        let request = stack.request(live: live)
        request.serverURL = URL(string: "\(stack.server.baseURL)/faults/status/500")
        let backup = URL(string: "\(stack.server.baseURL)/origin/vod/interlude-film.m3u8")!
        request.backupStreamURL = backup
        request.playsBackupStreamOnFailure = true
        stack.loader.requestStream(with: request)
        await stack.recorder.waitForLoadOutcome()
        #expect(stack.recorder.loaded.isEmpty)
        let failure = try #require(stack.recorder.failed.first)
        #expect(failure.adError.code.rawValue == 1020)
        #expect(failure.adError.type == .loadingFailed)
        #expect(failure.adError.message?.contains("fault route: status 500 as asked") == true, "\(failure.adError)")
        #expect(failure.userContext as? String == "it")
        let registrations = stack.http.exchanges.filter { $0.url.contains("/faults/status/500/") }
        #expect(registrations.map(\.status) == [500])
        #expect(registrations.map(\.method) == ["POST"])
        #expect(stack.display.loadedURL == backup)
        #expect(stack.display.isPlaying)
    }
}
