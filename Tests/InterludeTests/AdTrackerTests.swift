import Foundation
import InterludeTestSupport
import InterludeVAST
import Testing

@testable import Interlude

/// A resolved ad from a one-wrapper chain with every event the tracker knows.
func trackedAd() async throws -> ResolvedAd {
    let inline = """
        <VAST version="4.2"><Ad id="ad1" sequence="2"><InLine><AdSystem>s</AdSystem><AdTitle>t</AdTitle><AdServingId>srv-1</AdServingId>
        <Impression><![CDATA[http://127.0.0.1:9/imp/inline]]></Impression><Impression><![CDATA[about:blank]]></Impression>
        <Error><![CDATA[http://127.0.0.1:9/err/inline?c=[ERRORCODE]]]></Error>
        <Creatives><Creative id="c1"><UniversalAdId idRegistry="ad-id.org">ABCD1234</UniversalAdId><Linear><Duration>00:00:20</Duration>
        <MediaFiles><MediaFile delivery="progressive" type="video/mp4" width="640" height="360"><![CDATA[http://127.0.0.1:9/m.mp4]]></MediaFile></MediaFiles>
        <TrackingEvents>
        <Tracking event="creativeView"><![CDATA[http://127.0.0.1:9/cv]]></Tracking>
        <Tracking event="start"><![CDATA[http://127.0.0.1:9/start?ph=[ADPLAYHEAD]&bp=[BREAKPOSITION]&ps=[PODSEQUENCE]]]></Tracking>
        <Tracking event="firstQuartile"><![CDATA[http://127.0.0.1:9/q1?ph=[ADPLAYHEAD]]]></Tracking>
        <Tracking event="midpoint"><![CDATA[http://127.0.0.1:9/mid]]></Tracking>
        <Tracking event="thirdQuartile"><![CDATA[http://127.0.0.1:9/q3]]></Tracking>
        <Tracking event="complete"><![CDATA[http://127.0.0.1:9/complete]]></Tracking>
        <Tracking event="progress" offset="00:00:05"><![CDATA[http://127.0.0.1:9/p5s]]></Tracking>
        <Tracking event="progress" offset="90%"><![CDATA[http://127.0.0.1:9/p90]]></Tracking>
        <Tracking event="pause"><![CDATA[http://127.0.0.1:9/pause]]></Tracking>
        <Tracking event="resume"><![CDATA[http://127.0.0.1:9/resume]]></Tracking>
        <Tracking event="mute"><![CDATA[http://127.0.0.1:9/mute]]></Tracking>
        <Tracking event="unmute"><![CDATA[http://127.0.0.1:9/unmute]]></Tracking>
        <Tracking event="skip"><![CDATA[http://127.0.0.1:9/skip]]></Tracking>
        </TrackingEvents>
        <VideoClicks><ClickThrough><![CDATA[http://127.0.0.1:9/landing]]></ClickThrough><ClickTracking><![CDATA[http://127.0.0.1:9/click?u=[UNIVERSALADID]&a=[ASSETURI]]]></ClickTracking></VideoClicks>
        </Linear></Creative></Creatives></InLine></Ad></VAST>
        """
    let http = InMemoryHTTPClient(routes: [
        "\(testBase)/w": .body(
            wrapperVAST(id: "w", target: "\(testBase)/inline", attributes: "allowMultipleAds=\"true\"")),
        "\(testBase)/inline": .body(inline),
    ])
    return try #require(await makeResolver(http).resolve(tagURL: URL(string: "\(testBase)/w")!, timeout: 8).ads.first)
}

func makeTracker(_ ad: ResolvedAd, breakPosition: BreakPosition = .midroll) -> AdTracker {
    AdTracker(
        ad: ad, context: .init(breakPosition: breakPosition, adPosition: 2),
        assetURI: "http://127.0.0.1:9/m.mp4",
        macros: VASTMacroFiller(
            now: { Date(timeIntervalSince1970: 1_700_000_000) }, timeZone: TimeZone(secondsFromGMT: 0)!,
            cacheBuster: { "12345678" }))
}

@Suite("Ad tracker")
struct AdTrackerTests {
    @Test func startFiresEveryImpressionOnceWithCreativeViewAndStart() async throws {
        var tracker = makeTracker(try await trackedAd())
        let beacons = tracker.start(duration: 20).beacons
        // Wrapper impression, inline impression (about:blank never fires), creativeView, both starts.
        #expect(beacons.map(\.event) == ["impression", "impression", "creativeView", "start", "start"])
        #expect(beacons[0].url == "http://127.0.0.1:9/imp/w")
        #expect(beacons[1].url == "http://127.0.0.1:9/imp/inline")
        #expect(beacons[4].url == "http://127.0.0.1:9/start?ph=00%3A00%3A00.000&bp=2&ps=2")
        #expect(tracker.start(duration: 20) == AdTracker.Report())
        #expect(Set(beacons.map(\.idempotencyKey)).count == beacons.count)
    }

    @Test func quartilesAndProgressFireExactlyWhenCrossed() async throws {
        var tracker = makeTracker(try await trackedAd())
        _ = tracker.start(duration: 20)
        #expect(tracker.progress(to: 4.9, duration: 20) == AdTracker.Report())
        let first = tracker.progress(to: 5, duration: 20)
        #expect(first.quartiles == [.first])
        #expect(first.beacons.map(\.url) == ["http://127.0.0.1:9/q1?ph=00%3A00%3A05.000", "http://127.0.0.1:9/p5s"])
        #expect(tracker.progress(to: 5.5, duration: 20).beacons.isEmpty)
        #expect(tracker.progress(to: 9.99, duration: 20).beacons.isEmpty)
        let midpoint = tracker.progress(to: 10, duration: 20)
        #expect(midpoint.quartiles == [.midpoint] && midpoint.beacons.map(\.event) == ["midpoint"])
        #expect(tracker.progress(to: 15, duration: 20).beacons.map(\.event) == ["thirdQuartile"])
        #expect(tracker.progress(to: 18, duration: 20).beacons.map(\.url) == ["http://127.0.0.1:9/p90"])
        #expect(tracker.complete(duration: 20).beacons.map(\.event) == ["complete"])
        #expect(tracker.complete(duration: 20) == AdTracker.Report())
        #expect(tracker.progress(to: 19, duration: 20) == AdTracker.Report())
    }

    @Test func aJumpFiresEveryCrossedQuartileInOrder() async throws {
        var tracker = makeTracker(try await trackedAd())
        _ = tracker.start(duration: 20)
        let jump = tracker.progress(to: 16, duration: 20)
        #expect(jump.quartiles == [.first, .midpoint, .third])
        #expect(jump.beacons.map(\.event) == ["firstQuartile", "midpoint", "thirdQuartile", "progress"])
    }

    @Test func withoutADurationQuartilesAndPercentagesWaitForOne() async throws {
        var tracker = makeTracker(try await trackedAd())
        _ = tracker.start(duration: nil)
        // A time offset needs no duration; 25 % and 90 % do.
        #expect(tracker.progress(to: 6, duration: nil).beacons.map(\.url) == ["http://127.0.0.1:9/p5s"])
        let known = tracker.progress(to: 6.5, duration: 8)
        #expect(known.quartiles == [.first, .midpoint, .third])
        #expect(known.beacons.map(\.event) == ["firstQuartile", "midpoint", "thirdQuartile"])
        #expect(tracker.progress(to: 7.2, duration: 8).beacons.map(\.url) == ["http://127.0.0.1:9/p90"])
    }

    @Test func completeReportsQuartilesThatWereMissed() async throws {
        var tracker = makeTracker(try await trackedAd())
        _ = tracker.start(duration: 20)
        let complete = tracker.complete(duration: 20)
        #expect(complete.quartiles == [.first, .midpoint, .third])
        #expect(
            complete.beacons.map(\.event) == [
                "firstQuartile", "midpoint", "thirdQuartile", "progress", "progress", "complete",
            ])
    }

    @Test func completeWithNoDurationKnownStillReportsEveryQuartile() async throws {
        var tracker = makeTracker(try await trackedAd())
        _ = tracker.start(duration: nil)
        _ = tracker.progress(to: 3, duration: nil)
        let complete = tracker.complete(duration: nil)
        #expect(complete.quartiles == [.first, .midpoint, .third])
        #expect(complete.beacons.last?.event == "complete")
    }

    @Test func eachVerificationIsReportedNotExecutedOnceAtStartUnlessTheAppRunsThem() async throws {
        let verification = """
            <AdVerifications><Verification vendor="v"><JavaScriptResource apiFramework="omid"><![CDATA[https://v.example/v.js]]></JavaScriptResource>
            <TrackingEvents><Tracking event="verificationNotExecuted"><![CDATA[http://127.0.0.1:9/vne?r=[REASON]&c=[CACHEBUSTING]]]></Tracking></TrackingEvents></Verification></AdVerifications>
            """
        let http = InMemoryHTTPClient(routes: ["\(testBase)/tag": .body(inlineVAST(extra: verification))])
        let ad = try #require(
            await makeResolver(http).resolve(tagURL: URL(string: "\(testBase)/tag")!, timeout: 8).ads.first)
        var tracker = makeTracker(ad)
        let started = tracker.start(duration: 10).beacons
        #expect(
            started.filter { $0.event == "verificationNotExecuted" }.map(\.url) == [
                "http://127.0.0.1:9/vne?r=2&c=12345678"
            ])
        var quiet = AdTracker(ad: ad, reportsVerificationsNotExecuted: false)
        #expect(!quiet.start(duration: 10).beacons.contains { $0.event == "verificationNotExecuted" })
    }

    @Test func nothingFiresBeforeStart() async throws {
        var tracker = makeTracker(try await trackedAd())
        #expect(tracker.progress(to: 10, duration: 20) == AdTracker.Report())
        #expect(tracker.pause(at: 1).isEmpty)
        #expect(tracker.complete(duration: 20) == AdTracker.Report())
        #expect(tracker.skip(at: 1).isEmpty)
    }

    @Test func pauseAndResumeFireOnChangeOnly() async throws {
        var tracker = makeTracker(try await trackedAd())
        _ = tracker.start(duration: 20)
        #expect(tracker.resume(at: 1).isEmpty)
        #expect(tracker.pause(at: 2).map(\.event) == ["pause"])
        #expect(tracker.pause(at: 2).isEmpty)
        #expect(tracker.resume(at: 2).map(\.event) == ["resume"])
        #expect(tracker.resume(at: 3).isEmpty)
    }

    @Test func muteAndUnmuteFireWhenVolumeCrossesZero() async throws {
        var tracker = makeTracker(try await trackedAd())
        _ = tracker.start(duration: 20)
        #expect(tracker.volumeChanged(to: 1, at: 0).isEmpty)  // baseline
        #expect(tracker.volumeChanged(to: 0.5, at: 1).isEmpty)
        #expect(tracker.volumeChanged(to: 0, at: 2).map(\.event) == ["mute"])
        #expect(tracker.volumeChanged(to: 0, at: 3).isEmpty)
        #expect(tracker.volumeChanged(to: 0.2, at: 4).map(\.event) == ["unmute"])
    }

    @Test func skipEndsTracking() async throws {
        var tracker = makeTracker(try await trackedAd())
        _ = tracker.start(duration: 20)
        #expect(tracker.skip(at: 6).map(\.event) == ["skip"])
        #expect(tracker.progress(to: 15, duration: 20) == AdTracker.Report())
        #expect(tracker.complete(duration: 20) == AdTracker.Report())
    }

    @Test func clickFiresClickTrackingWithMacros() async throws {
        var tracker = makeTracker(try await trackedAd())
        _ = tracker.start(duration: 20)
        let clicks = tracker.click(at: 3)
        #expect(
            clicks.map(\.url) == [
                "http://127.0.0.1:9/click?u=ad-id.org%20ABCD1234&a=http%3A%2F%2F127.0.0.1%3A9%2Fm.mp4"
            ])
    }

    @Test func errorFiresEveryErrorURLOfTheChainWithTheCode() async throws {
        var tracker = makeTracker(try await trackedAd())
        let beacons = tracker.error(.mediaFileNotFound, at: 0)
        #expect(beacons.map(\.url) == ["http://127.0.0.1:9/err/w?c=401", "http://127.0.0.1:9/err/inline?c=401"])
        #expect(tracker.error(.mediaFileNotFound, at: 0).isEmpty)
    }

    @Test func beaconsCarryTheAdAndTheTime() async throws {
        var tracker = makeTracker(try await trackedAd())
        let beacon = try #require(tracker.start(duration: 20).beacons.first)
        #expect(beacon.adID == "ad1")
        #expect(beacon.createdAt == Date(timeIntervalSince1970: 1_700_000_000))
    }
}
