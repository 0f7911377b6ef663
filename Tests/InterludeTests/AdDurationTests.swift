import Foundation
import InterludePlayer
import InterludeTestSupport
import InterludeVAST
import Testing

@testable import Interlude

/// Notes the display's media time at each quartile event.
@MainActor
final class QuartileClock: AdsManagerDelegate {
    let display: SimulatedVideoDisplay
    var times: [String: TimeInterval] = [:]
    init(display: SimulatedVideoDisplay) { self.display = display }

    func adsManager(_ adsManager: AdsManager, didReceive event: AdEvent) {
        if event.type == .loaded { adsManager.start() }
        if [.firstQuartile, .midpoint, .thirdQuartile, .complete].contains(event.type) {
            times[event.typeString] = display.currentMediaTime
        }
    }
    func adsManager(_ adsManager: AdsManager, didReceive error: AdError) {}
    func adsManagerDidRequestContentPause(_ adsManager: AdsManager) {}
    func adsManagerDidRequestContentResume(_ adsManager: AdsManager) {}
}

/// Quartile events, quartile beacons and `progress` offsets all use one
/// duration: the media's once the display reports it, else `<Duration>`.
@Suite("One ad duration")
@MainActor
struct AdDurationTests {
    let quartiles = ["firstQuartile", "midpoint", "thirdQuartile", "complete", "progress@50%", "progress@00:00:03"]

    /// Plays one ad whose media lasts `mediaSeconds`; returns the quartile
    /// event times and the tracking requests of the ad.
    func play(_ document: String, mediaSeconds: TimeInterval) async throws -> ([String: TimeInterval], [String]) {
        let harness = ManagerHarness(routes: ["\(testBase)/tag": .body(document)])
        harness.display.durationForURL = { _ in mediaSeconds }
        let clock = QuartileClock(display: harness.display)
        let request = AdsRequest(
            adTagURL: URL(string: "\(testBase)/tag")!,
            adDisplayContainer: AdDisplayContainer(videoDisplay: harness.display))
        let manager = try await harness.loader.loadAds(with: request).adsManager!
        manager.delegate = clock
        manager.initialize(with: nil)
        await simulate(harness.clock, for: mediaSeconds + 2)
        await harness.loader.beaconQueue.waitUntilIdle()
        withExtendedLifetime(manager) {}
        return (clock.times, trackingRequests(harness.http.requestedURLs, ad: "ad1"))
    }

    @Test func quartilesFireAtTheirTimes() async throws {
        let (times, beacons) = try await play(vastXML(adXML(tracking: quartiles)), mediaSeconds: 10)
        #expect(times == ["FIRST_QUARTILE": 2.5, "MIDPOINT": 5, "THIRD_QUARTILE": 7.5, "COMPLETE": 10])
        // In the order they fall due; at one instant quartiles before progress offsets.
        #expect(
            beacons == [
                "impression", "firstQuartile?ph=00%3A00%3A02.500", "progress-00:00:03?ph=00%3A00%3A03.000",
                "midpoint?ph=00%3A00%3A05.000", "progress-50pct?ph=00%3A00%3A05.000",
                "thirdQuartile?ph=00%3A00%3A07.500", "complete?ph=00%3A00%3A10.000",
            ])
    }

    @Test func theMediaDurationWinsOverADifferentVASTDuration() async throws {
        // <Duration> says 20 s; the file lasts 8 s: events and beacons both use 8 s.
        let (times, beacons) = try await play(
            vastXML(adXML(duration: "00:00:20", tracking: quartiles)), mediaSeconds: 8)
        #expect(times == ["FIRST_QUARTILE": 2, "MIDPOINT": 4, "THIRD_QUARTILE": 6, "COMPLETE": 8])
        #expect(beacons.contains("firstQuartile?ph=00%3A00%3A02.000"))
        #expect(beacons.contains("midpoint?ph=00%3A00%3A04.000"))
        #expect(beacons.contains("progress-50pct?ph=00%3A00%3A04.000"))
        #expect(beacons.contains("thirdQuartile?ph=00%3A00%3A06.000"))
    }

    @Test(arguments: [nil, "ten seconds"])
    func withoutAReadableDurationQuartileBeaconsFireAtTheMediaQuartiles(duration: String?) async throws {
        let (times, beacons) = try await play(vastXML(adXML(duration: duration, tracking: quartiles)), mediaSeconds: 8)
        #expect(times == ["FIRST_QUARTILE": 2, "MIDPOINT": 4, "THIRD_QUARTILE": 6, "COMPLETE": 8])
        #expect(
            beacons == [
                "impression", "firstQuartile?ph=00%3A00%3A02.000", "progress-00:00:03?ph=00%3A00%3A03.000",
                "midpoint?ph=00%3A00%3A04.000", "progress-50pct?ph=00%3A00%3A04.000",
                "thirdQuartile?ph=00%3A00%3A06.000", "complete?ph=00%3A00%3A08.000",
            ])
    }
}
