import Foundation
import Interlude
import InterludePlayer
import InterludeTestSupport

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `interlude-bench manager`: CPU time of an ads manager playing ads at
/// 4 Hz progress (per second of ad), and resident memory across 1,000
/// consecutive ads. Time runs on a manual clock, so nothing waits. The
/// simulated display's run also pays for the harness's scheduling (a clock
/// wake-up and yields per tick); the scripted display's run is the SDK's
/// own work.
@MainActor
enum ManagerBenchmark {
    static func cpuSeconds() -> Double {
        var usage = rusage()
        #if os(Linux)
            getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
        #else
            getrusage(RUSAGE_SELF, &usage)
        #endif
        return Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) / 1e6 + Double(usage.ru_stime.tv_sec)
            + Double(usage.ru_stime.tv_usec) / 1e6
    }

    static func residentMiB() -> Double {
        Double(VASTMemoryBenchmark.procStatus("VmRSS") ?? 0) / 1_048_576
    }

    static func vast(duration: Int) -> String {
        """
        <VAST version="4.2"><Ad id="bench"><InLine><AdSystem>bench</AdSystem><AdTitle>bench</AdTitle>
        <Impression>http://127.0.0.1:9/imp?cb=[CACHEBUSTING]</Impression><Error>http://127.0.0.1:9/err?c=[ERRORCODE]</Error>
        <Creatives><Creative><Linear skipoffset="00:00:05"><Duration>00:00:\(duration)</Duration><MediaFiles><MediaFile delivery="progressive" type="video/mp4" width="640" height="360">http://127.0.0.1:9/m.mp4</MediaFile></MediaFiles>
        <TrackingEvents>\(["start", "firstQuartile", "midpoint", "thirdQuartile", "complete"].map { "<Tracking event=\"\($0)\">http://127.0.0.1:9/\($0)?ph=[ADPLAYHEAD]</Tracking>" }.joined())</TrackingEvents>
        </Linear></Creative></Creatives><Extensions><Extension type="uiSettings"><UiHideable>1</UiHideable></Extension></Extensions></InLine></Ad></VAST>
        """
    }

    /// Answers 204 to every beacon and keeps nothing (a recording double would
    /// itself grow with every request).
    struct NullCollector: HTTPClient {
        func send(_ request: HTTPRequest) async throws -> HTTPResponse {
            HTTPResponse(statusCode: 204, url: request.url)
        }
    }

    final class Delegate: AdsManagerDelegate {
        var completed = 0
        var uiUpdates = 0
        func adsManager(_ adsManager: AdsManager, didReceive event: AdEvent) {
            if event.type == .loaded { adsManager.start() }
            if event.type == .complete { completed += 1 }
        }
        func adsManager(_ adsManager: AdsManager, didReceive error: AdError) {}
        func adsManagerDidRequestContentPause(_ adsManager: AdsManager) {}
        func adsManagerDidRequestContentResume(_ adsManager: AdsManager) {}
        func adsManager(_ adsManager: AdsManager, didUpdate uiState: AdUIState) { uiUpdates += 1 }
    }

    /// Loads one ad of `duration` seconds into `display` and initializes its
    /// manager (UI off); the delegate starts it on `loaded`.
    static func prepare(loader: AdsLoader, display: any VideoDisplay, duration: Int, delegate: Delegate) async
        -> AdsManager?
    {
        let request = AdsRequest(
            adsResponse: vast(duration: duration), adDisplayContainer: AdDisplayContainer(videoDisplay: display))
        guard let manager = try? await loader.loadAds(with: request).adsManager else { return nil }
        manager.delegate = delegate
        var rendering = AdsRenderingSettings()
        rendering.disableUi = true
        manager.initialize(with: rendering)
        return manager
    }

    /// Plays one ad of `duration` seconds to its end on the manual clock.
    static func playOne(loader: AdsLoader, clock: ManualClock, duration: Int, delegate: Delegate) async {
        let display = SimulatedVideoDisplay(clock: clock)
        display.durationForURL = { _ in TimeInterval(duration) }
        guard let manager = await prepare(loader: loader, display: display, duration: duration, delegate: delegate)
        else { return }
        let target = clock.now + TimeInterval(duration) + 1
        while clock.now < target {
            for _ in 0..<8 { await Task.yield() }
            guard let next = clock.nextDeadline, next <= target else { break }
            clock.advance(to: next)
        }
        manager.destroy()
    }

    /// One ad of `duration` seconds with progress reported directly (see
    /// ``ScriptedVideoDisplay``).
    static func playScripted(loader: AdsLoader, duration: Int, delegate: Delegate) async {
        let display = ScriptedVideoDisplay()
        display.totalMediaTime = TimeInterval(duration)
        guard let manager = await prepare(loader: loader, display: display, duration: duration, delegate: delegate)
        else { return }
        // `start()` runs from the delegate on `loaded`; let that and the display's load happen.
        for _ in 0..<100 where display.loadedURL == nil { await Task.yield() }
        display.playToEnd(interval: 0.25)
        manager.destroy()
    }

    static func run() async -> Int32 {
        let clock = ManualClock()
        let http = NullCollector()
        var settings = Settings()
        settings.beaconJournalDirectory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "interlude-bench-\(getpid())")
        defer { try? FileManager.default.removeItem(at: settings.beaconJournalDirectory!) }
        let loader = AdsLoader(settings: settings, httpClient: http, clock: clock)
        let delegate = Delegate()
        print("interlude-bench manager — \(ProcessInfo.processInfo.processorCount) cores, \(Date())")

        // Warm up, then 20 ads of 30 s at 4 Hz.
        await playOne(loader: loader, clock: clock, duration: 30, delegate: delegate)
        let cpuStart = cpuSeconds()
        for _ in 0..<20 { await playOne(loader: loader, clock: clock, duration: 30, delegate: delegate) }
        await loader.beaconQueue.waitUntilIdle()
        let cpu = cpuSeconds() - cpuStart
        let perSecond = cpu / (20 * 30) * 1000
        print(
            String(
                format:
                    "  30 s ads at 4 Hz, SimulatedVideoDisplay on the manual clock: %.3f ms CPU per second of ad (%d ads, %d UI updates; the harness's clock wake-ups and yields included)",
                perSecond, delegate.completed, delegate.uiUpdates))

        // The same ads with progress reported straight from the display, as
        // AVPlayer's periodic observer does: no clock or yields in between.
        // Loading and beacon delivery are inside the measurement, as above.
        await playScripted(loader: loader, duration: 30, delegate: delegate)
        await loader.beaconQueue.waitUntilIdle()
        let (completedBefore, updatesBefore) = (delegate.completed, delegate.uiUpdates)
        let scriptedStart = cpuSeconds()
        for _ in 0..<20 { await playScripted(loader: loader, duration: 30, delegate: delegate) }
        await loader.beaconQueue.waitUntilIdle()
        let scripted = cpuSeconds() - scriptedStart
        print(
            String(
                format:
                    "  the same, progress reported directly (as AVPlayer does): %.3f ms CPU per second of ad (target < 1 ms/s; %d ads, %d UI updates)",
                scripted / (20 * 30) * 1000, delegate.completed - completedBefore, delegate.uiUpdates - updatesBefore))

        // Memory across 1,000 consecutive 6-second ads.
        var samples: [Double] = []
        for index in 1...1000 {
            await playOne(loader: loader, clock: clock, duration: 6, delegate: delegate)
            if index % 100 == 0 {
                await loader.beaconQueue.waitUntilIdle()
                samples.append(residentMiB())
            }
        }
        print(
            "  resident MiB after each 100 of 1,000 ads: "
                + samples.map { String(format: "%.1f", $0) }.joined(separator: " "))
        print(
            String(
                format: "  growth from ad 100 to ad 1,000: %.2f MiB (target: flat)",
                (samples.last ?? 0) - (samples.first ?? 0)))
        return 0
    }
}
