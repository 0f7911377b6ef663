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
        ad: ad, duration: 20, context: .init(breakPosition: breakPosition, adPosition: 2),
        assetURI: "http://127.0.0.1:9/m.mp4",
        macros: VASTMacroFiller(
            now: { Date(timeIntervalSince1970: 1_700_000_000) }, timeZone: TimeZone(secondsFromGMT: 0)!,
            cacheBuster: { "12345678" }))
}

@Suite("Ad tracker")
struct AdTrackerTests {
    @Test func startFiresEveryImpressionOnceWithCreativeViewAndStart() async throws {
        var tracker = makeTracker(try await trackedAd())
        let beacons = tracker.start()
        // Wrapper impression, inline impression (about:blank never fires), creativeView, both starts.
        #expect(beacons.map(\.event) == ["impression", "impression", "creativeView", "start", "start"])
        #expect(beacons[0].url == "http://127.0.0.1:9/imp/w")
        #expect(beacons[1].url == "http://127.0.0.1:9/imp/inline")
        #expect(beacons[4].url == "http://127.0.0.1:9/start?ph=00%3A00%3A00.000&bp=2&ps=2")
        #expect(tracker.start().isEmpty)
        #expect(Set(beacons.map(\.idempotencyKey)).count == beacons.count)
    }

    @Test func quartilesAndProgressFireExactlyWhenCrossed() async throws {
        var tracker = makeTracker(try await trackedAd())
        _ = tracker.start()
        #expect(tracker.progress(to: 4.9).isEmpty)
        #expect(
            tracker.progress(to: 5).map(\.url) == [
                "http://127.0.0.1:9/q1?ph=00%3A00%3A05.000", "http://127.0.0.1:9/p5s",
            ])
        #expect(tracker.progress(to: 5.5).isEmpty)
        #expect(tracker.progress(to: 9.99).isEmpty)
        #expect(tracker.progress(to: 10).map(\.event) == ["midpoint"])
        #expect(tracker.progress(to: 15).map(\.event) == ["thirdQuartile"])
        #expect(tracker.progress(to: 18).map(\.url) == ["http://127.0.0.1:9/p90"])
        #expect(tracker.complete().map(\.event) == ["complete"])
        #expect(tracker.complete().isEmpty)
        #expect(tracker.progress(to: 19).isEmpty)
    }

    @Test func aJumpFiresEveryCrossedQuartileInOrder() async throws {
        var tracker = makeTracker(try await trackedAd())
        _ = tracker.start()
        #expect(tracker.progress(to: 16).map(\.event) == ["firstQuartile", "midpoint", "thirdQuartile", "progress"])
    }

    @Test func completeReportsQuartilesThatWereMissed() async throws {
        var tracker = makeTracker(try await trackedAd())
        _ = tracker.start()
        #expect(
            tracker.complete().map(\.event) == [
                "firstQuartile", "midpoint", "thirdQuartile", "progress", "progress", "complete",
            ])
    }

    @Test func nothingFiresBeforeStart() async throws {
        var tracker = makeTracker(try await trackedAd())
        #expect(tracker.progress(to: 10).isEmpty)
        #expect(tracker.pause(at: 1).isEmpty)
        #expect(tracker.complete().isEmpty)
        #expect(tracker.skip(at: 1).isEmpty)
    }

    @Test func pauseAndResumeFireOnChangeOnly() async throws {
        var tracker = makeTracker(try await trackedAd())
        _ = tracker.start()
        #expect(tracker.resume(at: 1).isEmpty)
        #expect(tracker.pause(at: 2).map(\.event) == ["pause"])
        #expect(tracker.pause(at: 2).isEmpty)
        #expect(tracker.resume(at: 2).map(\.event) == ["resume"])
        #expect(tracker.resume(at: 3).isEmpty)
    }

    @Test func muteAndUnmuteFireWhenVolumeCrossesZero() async throws {
        var tracker = makeTracker(try await trackedAd())
        _ = tracker.start()
        #expect(tracker.volumeChanged(to: 1, at: 0).isEmpty)  // baseline
        #expect(tracker.volumeChanged(to: 0.5, at: 1).isEmpty)
        #expect(tracker.volumeChanged(to: 0, at: 2).map(\.event) == ["mute"])
        #expect(tracker.volumeChanged(to: 0, at: 3).isEmpty)
        #expect(tracker.volumeChanged(to: 0.2, at: 4).map(\.event) == ["unmute"])
    }

    @Test func skipEndsTracking() async throws {
        var tracker = makeTracker(try await trackedAd())
        _ = tracker.start()
        #expect(tracker.skip(at: 6).map(\.event) == ["skip"])
        #expect(tracker.progress(to: 15).isEmpty)
        #expect(tracker.complete().isEmpty)
    }

    @Test func clickFiresClickTrackingWithMacros() async throws {
        var tracker = makeTracker(try await trackedAd())
        _ = tracker.start()
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
        let beacon = try #require(tracker.start().first)
        #expect(beacon.adID == "ad1")
        #expect(beacon.createdAt == Date(timeIntervalSince1970: 1_700_000_000))
    }
}
