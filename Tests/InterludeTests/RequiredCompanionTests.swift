import Foundation
import InterludeTestSupport
import Testing

@testable import Interlude

/// `<CompanionAds required="all|any|none">` (VAST 4.3 §3.14): an ad whose
/// required companions the app's slots cannot show is refused as it
/// resolves, like an ad of the wrong linearity: its Error URLs hear 602,
/// the rest of the pod plays, and a tag with nothing else fails with 602.
@MainActor
@Suite struct RequiredCompanionTests {
    /// A pod: the first ad requires its companions (`rule`), the second has none.
    private static func pod(rule: String) -> String {
        """
        <VAST version="4.2">
        <Ad id="with" sequence="1"><InLine><AdSystem>s</AdSystem><AdTitle>t</AdTitle><Impression>http://127.0.0.1:9/imp/with</Impression>
        <Error>http://127.0.0.1:9/err/with?c=[ERRORCODE]</Error>
        <Creatives><Creative><Linear><Duration>00:00:04</Duration><MediaFiles><MediaFile delivery="progressive" type="video/mp4" width="640" height="360">http://127.0.0.1:9/m1.mp4</MediaFile></MediaFiles></Linear></Creative>
        <Creative><CompanionAds required="\(rule)">
        <Companion width="300" height="250"><StaticResource creativeType="image/png">http://127.0.0.1:9/rect.png</StaticResource></Companion>
        <Companion width="160" height="600"><StaticResource creativeType="image/png">http://127.0.0.1:9/sky.png</StaticResource></Companion>
        </CompanionAds></Creative></Creatives></InLine></Ad>
        <Ad id="plain" sequence="2"><InLine><AdSystem>s</AdSystem><AdTitle>t</AdTitle><Impression>http://127.0.0.1:9/imp/plain</Impression>
        <Creatives><Creative><Linear><Duration>00:00:04</Duration><MediaFiles><MediaFile delivery="progressive" type="video/mp4" width="640" height="360">http://127.0.0.1:9/m2.mp4</MediaFile></MediaFiles></Linear></Creative></Creatives></InLine></Ad>
        </VAST>
        """
    }

    /// Plays the pod with slots of `sizes`; returns the harness afterwards.
    private func play(rule: String, slots sizes: [(Int, Int)]) async throws -> ManagerHarness {
        let harness = ManagerHarness(routes: ["\(testBase)/tag": .body(Self.pod(rule: rule))])
        harness.display.durationForURL = { _ in 4 }
        let slots = sizes.map { CompanionAdSlot(width: $0.0, height: $0.1) }
        let request = AdsRequest(
            adTagURL: URL(string: "\(testBase)/tag")!,
            adDisplayContainer: AdDisplayContainer(videoDisplay: harness.display, companionSlots: slots))
        let manager = try await harness.loader.loadAds(with: request).adsManager!
        manager.delegate = harness.recorder
        manager.initialize(with: nil)
        await harness.clock.simulate(for: 12)
        await harness.loader.beaconQueue.waitUntilIdle()
        withExtendedLifetime(manager) {}
        return harness
    }

    private func startedAds(_ harness: ManagerHarness) -> [String] {
        harness.recorder.events.filter { $0.type == .started }.compactMap { $0.ad?.adID }
    }

    private func requested(_ harness: ManagerHarness, _ prefix: String) -> [String] {
        harness.http.requestedURLs.filter { $0.hasPrefix("http://127.0.0.1:9/\(prefix)") }
    }

    @Test func allRequiredButOneSlotMissingSkipsTheAdWith602() async throws {
        let harness = try await play(rule: "all", slots: [(300, 250)])
        #expect(startedAds(harness) == ["plain"])
        #expect(requested(harness, "err/with") == ["http://127.0.0.1:9/err/with?c=602"])
        #expect(requested(harness, "imp/with").isEmpty)
        // It never loaded: its media was not fetched.
        #expect(!harness.display.commands.contains { $0.contains("m1.mp4") })
        #expect(harness.recorder.types.contains(.allAdsCompleted))
    }

    @Test func allRequiredWithEverySlotPlays() async throws {
        let harness = try await play(rule: "all", slots: [(300, 250), (160, 600)])
        #expect(startedAds(harness) == ["with", "plain"])
        #expect(harness.recorder.errors.isEmpty)
    }

    @Test func anyRequiredNeedsOneSlotThatFits() async throws {
        let fits = try await play(rule: "any", slots: [(160, 600)])
        #expect(startedAds(fits) == ["with", "plain"])
        let none = try await play(rule: "any", slots: [(728, 90)])
        #expect(startedAds(none) == ["plain"])
        #expect(requested(none, "err/with") == ["http://127.0.0.1:9/err/with?c=602"])
    }

    @Test func noSlotsAtAllCannotShowRequiredCompanions() async throws {
        let harness = try await play(rule: "ALL", slots: [])
        #expect(startedAds(harness) == ["plain"])
        #expect(requested(harness, "err/with") == ["http://127.0.0.1:9/err/with?c=602"])
    }

    @Test func noneOrAnUnknownRuleRequiresNothing() async throws {
        #expect(startedAds(try await play(rule: "none", slots: [])) == ["with", "plain"])
        #expect(startedAds(try await play(rule: "sometimes", slots: [])) == ["with", "plain"])
    }

    @Test func aTagWhoseOnlyAdCannotShowItsCompanionsFailsWith602() async throws {
        // The pod's first ad alone.
        let single = Self.pod(rule: "all").components(separatedBy: #"<Ad id="plain""#)[0] + "</VAST>"
        let harness = ManagerHarness(routes: ["\(testBase)/tag": .body(single)])
        let request = AdsRequest(
            adTagURL: URL(string: "\(testBase)/tag")!,
            adDisplayContainer: AdDisplayContainer(
                videoDisplay: harness.display, companionSlots: [CompanionAdSlot(width: 300, height: 250)]))
        await #expect {
            _ = try await harness.loader.loadAds(with: request)
        } throws: { error in
            let error = error as? AdError
            return error?.code == .vastRequiredCompanionNotDisplayed && error?.message?.contains("160×600") == true
        }
        await harness.loader.beaconQueue.waitUntilIdle()
        #expect(requested(harness, "err/with") == ["http://127.0.0.1:9/err/with?c=602"])
    }
}
