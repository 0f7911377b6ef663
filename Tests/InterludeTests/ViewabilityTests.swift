import Foundation
import InterludeTestSupport
import Testing

@testable import Interlude

/// `<ViewableImpression>`: the MRC rule on the display's on-screen fraction,
/// and the one set of URLs each ad owes.
@Suite struct ViewabilityMeterTests {
    /// Samples every quarter second from `from` to `to` at `fraction`.
    private func play(
        _ meter: inout ViewabilityMeter, from: Double, to: Double, fraction: Double?, duration: Double? = 30
    ) -> [ViewabilityMeter.Verdict] {
        var verdicts: [ViewabilityMeter.Verdict] = []
        var time = from
        while time <= to + 1e-9 {
            if let verdict = meter.sample(at: time, fraction: fraction, duration: duration) { verdicts.append(verdict) }
            time += 0.25
        }
        return verdicts
    }

    @Test func twoContinuousSecondsHalfInViewAreViewableOnce() {
        var meter = ViewabilityMeter()
        #expect(play(&meter, from: 0, to: 1.75, fraction: 0.5).isEmpty)
        #expect(meter.sample(at: 2, fraction: 0.5, duration: 30) == .viewable)
        #expect(play(&meter, from: 2.25, to: 10, fraction: 1).isEmpty)
        #expect(meter.end(at: 30, duration: 30) == nil)
        #expect(meter.verdict == .viewable)
    }

    @Test func aDipOrAnUnknownSampleRestartsTheRun() {
        var meter = ViewabilityMeter()
        #expect(play(&meter, from: 0, to: 1.75, fraction: 0.9).isEmpty)
        #expect(meter.sample(at: 1.9, fraction: 0.49, duration: 30) == nil)
        #expect(play(&meter, from: 2, to: 3.75, fraction: 0.9).isEmpty)
        #expect(meter.sample(at: 3.8, fraction: nil, duration: 30) == nil)
        #expect(play(&meter, from: 4, to: 5.75, fraction: 0.9).isEmpty)
        #expect(meter.sample(at: 6, fraction: 0.9, duration: 30) == .viewable)
    }

    @Test func anAdShorterThanTwoSecondsIsViewableWhenInViewThroughout() {
        var meter = ViewabilityMeter()
        #expect(play(&meter, from: 0, to: 1.25, fraction: 1, duration: 1.5).isEmpty)
        #expect(meter.end(at: 1.5, duration: 1.5) == .viewable)
    }

    @Test func measuredButNeverInViewIsNotViewable() {
        var meter = ViewabilityMeter()
        #expect(play(&meter, from: 0, to: 10, fraction: 0.2).isEmpty)
        #expect(meter.end(at: 10, duration: 10) == .notViewable)
        #expect(meter.end(at: 10, duration: 10) == nil)
    }

    @Test func neverMeasuredIsUndetermined() {
        var meter = ViewabilityMeter()
        #expect(play(&meter, from: 0, to: 10, fraction: nil).isEmpty)
        #expect(meter.sample(at: .nan, fraction: 1, duration: 10) == nil)
        #expect(meter.sample(at: 5, fraction: .infinity, duration: 10) == nil)
        #expect(meter.end(at: 10, duration: 10) == .undetermined)
    }
}

@MainActor
@Suite struct ViewableImpressionTests {
    private static let wrapper = """
        <VAST version="4.2"><Ad id="w"><Wrapper><AdSystem>w</AdSystem>
        <VASTAdTagURI>\(testBase)/inline</VASTAdTagURI><Impression>http://127.0.0.1:9/w-imp</Impression>
        <ViewableImpression><Viewable>http://127.0.0.1:9/w-viewable?p=[ADPLAYHEAD]</Viewable>
        <NotViewable>http://127.0.0.1:9/w-notviewable</NotViewable><ViewUndetermined>http://127.0.0.1:9/w-undetermined</ViewUndetermined></ViewableImpression>
        </Wrapper></Ad></VAST>
        """
    private static let inline = """
        <VAST version="4.2"><Ad id="in"><InLine><AdSystem>s</AdSystem><AdTitle>t</AdTitle><Impression>http://127.0.0.1:9/imp</Impression>
        <ViewableImpression id="v1"><Viewable>http://127.0.0.1:9/viewable</Viewable>
        <NotViewable>http://127.0.0.1:9/notviewable</NotViewable><ViewUndetermined>http://127.0.0.1:9/undetermined</ViewUndetermined></ViewableImpression>
        <Creatives><Creative><Linear><Duration>00:00:06</Duration><MediaFiles><MediaFile delivery="progressive" type="video/mp4" width="640" height="360">http://127.0.0.1:9/m.mp4</MediaFile></MediaFiles></Linear></Creative></Creatives>
        </InLine></Ad></VAST>
        """

    /// Plays the wrapped ad to its end with the display saying `fraction`;
    /// returns how often each ViewableImpression URL was requested.
    private func play(visibleFraction fraction: Double?) async throws -> [String: Int] {
        let harness = harness(visibleFraction: fraction)
        let manager = try await harness.load("\(testBase)/wrapper")
        await harness.clock.simulate(for: 8)
        await harness.loader.beaconQueue.waitUntilIdle()
        #expect(harness.recorder.events.contains { $0.type == .complete })
        withExtendedLifetime(manager) {}
        return counts(harness)
    }

    /// The wrapped 6 s ad, with the display saying `fraction`.
    private func harness(visibleFraction fraction: Double?, configure: (inout Settings) -> Void = { _ in })
        -> ManagerHarness
    {
        let harness = ManagerHarness(
            routes: ["\(testBase)/wrapper": .body(Self.wrapper), "\(testBase)/inline": .body(Self.inline)],
            configure: configure)
        harness.display.durationForURL = { _ in 6 }
        harness.display.visibleFraction = fraction
        return harness
    }

    @Test func aVideoInViewFiresViewableOfTheWholeChainOnce() async throws {
        #expect(try await play(visibleFraction: 1) == ["w-viewable": 1, "viewable": 1])
    }

    @Test func aVideoOutOfViewFiresNotViewableAtItsEnd() async throws {
        #expect(try await play(visibleFraction: 0.25) == ["w-notviewable": 1, "notviewable": 1])
    }

    @Test func aDisplayThatCannotTellFiresViewUndetermined() async throws {
        #expect(try await play(visibleFraction: nil) == ["w-undetermined": 1, "undetermined": 1])
    }

    private func counts(_ harness: ManagerHarness) -> [String: Int] {
        var counts: [String: Int] = [:]
        for url in harness.http.requestedURLs {
            for name in ["w-viewable", "w-notviewable", "w-undetermined", "viewable", "notviewable", "undetermined"]
            where url.hasPrefix("http://127.0.0.1:9/\(name)") && !url.hasPrefix("http://127.0.0.1:9/\(name)-") {
                counts[name, default: 0] += 1
            }
        }
        return counts
    }

    @Test func aBreakDiscardedMidAdStillOwesItsVerdict() async throws {
        let harness = harness(visibleFraction: 1)
        let manager = try await harness.load("\(testBase)/wrapper")
        await harness.clock.simulate(for: 1)
        manager.discardAdBreak()
        await harness.clock.simulate(for: 8)
        await harness.loader.beaconQueue.waitUntilIdle()
        #expect(!harness.recorder.events.contains { $0.type == .complete })
        // One second in view is short of the two the rule needs: measured, not viewable.
        #expect(counts(harness) == ["w-notviewable": 1, "notviewable": 1])
    }

    @Test func anAdPlayingInTheBackgroundIsNotInView() async throws {
        // The display's last word was "fully in view"; then the app went to the background.
        let harness = harness(visibleFraction: 1) { $0.enableBackgroundPlayback = true }
        let manager = try await harness.load("\(testBase)/wrapper")
        await harness.clock.simulate(for: 0.5)
        manager.appDidEnterBackground()
        await harness.clock.simulate(for: 8)
        await harness.loader.beaconQueue.waitUntilIdle()
        #expect(harness.recorder.events.contains { $0.type == .complete })
        #expect(counts(harness) == ["w-notviewable": 1, "notviewable": 1])
    }

    @Test func anAdEndingBeforeItsVASTDurationIsJudgedOnWhatPlayed() async throws {
        let http = InMemoryHTTPClient(routes: ["\(testBase)/inline": .body(Self.inline)])
        let ad = try #require(
            await makeResolver(http).resolve(tagURL: URL(string: "\(testBase)/inline")!, timeout: 8).ads.first)
        var tracker = AdTracker(ad: ad)
        _ = tracker.start(duration: 6, visibleFraction: 0)
        for step in 1...15 {
            _ = tracker.progress(to: Double(step) * 0.25, duration: 6, visibleFraction: step == 15 ? 1 : 0)
        }
        // The file ended at 3.75 s, short of the VAST <Duration> of 6 s, just as it came into view.
        let events = tracker.complete(duration: 6).beacons.map(\.event)
        #expect(events.contains("notViewable"), "\(events)")
        #expect(!events.contains("viewable"))
    }
}
