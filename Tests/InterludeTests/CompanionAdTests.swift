import Foundation
import InterludeTestSupport
import Testing

@testable import Interlude

/// Companions: merged over the wrapper chain, shown in the app's slots, and
/// the beacons that showing and clicking them owe.
@MainActor
@Suite struct CompanionAdTests {
    /// A wrapper whose tracking-only companion (0×0, as ad servers write
    /// it) adds a `creativeView`, click tracking and a click-through, and
    /// which brings a 728×90 banner of its own; the inline ad has a
    /// 300×250 companion with its own `creativeView` and no click-through.
    private static let wrapper = """
        <VAST version="4.2"><Ad id="w"><Wrapper><AdSystem>w</AdSystem>
        <VASTAdTagURI>\(testBase)/inline</VASTAdTagURI><Impression>http://127.0.0.1:9/w-imp</Impression>
        <Creatives><Creative><CompanionAds>
        <Companion width="0" height="0"><TrackingEvents><Tracking event="creativeView">http://127.0.0.1:9/w-view?t=[TIMESTAMP]</Tracking></TrackingEvents>
        <CompanionClickThrough>http://127.0.0.1:9/landing?c=[CACHEBUSTING]</CompanionClickThrough>
        <CompanionClickTracking>http://127.0.0.1:9/w-click</CompanionClickTracking></Companion>
        <Companion width="728" height="90"><StaticResource creativeType="image/jpeg">http://127.0.0.1:9/leader.jpg</StaticResource>
        <TrackingEvents><Tracking event="creativeView">http://127.0.0.1:9/leader-view</Tracking></TrackingEvents></Companion>
        </CompanionAds></Creative></Creatives></Wrapper></Ad></VAST>
        """
    private static let inline = """
        <VAST version="4.2"><Ad id="in" adType="hybrid"><InLine><AdSystem>s</AdSystem><AdTitle>t</AdTitle><Impression>http://127.0.0.1:9/imp</Impression>
        <Creatives><Creative><Linear><Duration>00:00:04</Duration><MediaFiles><MediaFile delivery="progressive" type="video/mp4" width="640" height="360">http://127.0.0.1:9/m.mp4</MediaFile></MediaFiles></Linear></Creative>
        <Creative><CompanionAds><Companion width="300" height="250" adSlotId="rect">
        <HTMLResource><![CDATA[<b>Buy</b>]]></HTMLResource>
        <TrackingEvents><Tracking event="creativeView">http://127.0.0.1:9/view?type=[ADTYPE]</Tracking></TrackingEvents>
        <CompanionClickTracking>http://127.0.0.1:9/click</CompanionClickTracking></Companion>
        </CompanionAds></Creative></Creatives></InLine></Ad></VAST>
        """

    /// Two companions of two sizes, each with its own `creativeView` and
    /// every placement macro a companion beacon may carry.
    static let twoCompanionInline = """
        <VAST version="4.2"><Ad id="in"><InLine><AdSystem>s</AdSystem><AdTitle>t</AdTitle><Impression>http://127.0.0.1:9/imp</Impression>
        <Category authority="https://iabtechlab.com">IAB1</Category>
        <Creatives><Creative><UniversalAdId idRegistry="ad-id.org">CNPA0484000H</UniversalAdId><Linear><Duration>00:00:04</Duration><MediaFiles><MediaFile delivery="progressive" type="video/mp4" width="640" height="360">http://127.0.0.1:9/m.mp4</MediaFile></MediaFiles>
        <Icons><Icon program="AdChoices" width="20" height="20"><StaticResource creativeType="image/png">http://127.0.0.1:9/i.png</StaticResource>
        <IconViewTracking>http://127.0.0.1:9/icon-view</IconViewTracking></Icon></Icons></Linear></Creative>
        <Creative><CompanionAds><Companion width="300" height="250">
        <StaticResource creativeType="image/png">http://127.0.0.1:9/rect.png</StaticResource>
        <TrackingEvents><Tracking event="creativeView">http://127.0.0.1:9/rect-view?pos=[BREAKPOSITION]&amp;seq=[PODSEQUENCE]&amp;asset=[ASSETURI]&amp;uid=[UNIVERSALADID]&amp;cat=[ADCATEGORIES]&amp;ph=[ADPLAYHEAD]</Tracking></TrackingEvents>
        <CompanionClickTracking>http://127.0.0.1:9/rect-click?ph=[ADPLAYHEAD]&amp;seq=[PODSEQUENCE]</CompanionClickTracking></Companion>
        <Companion width="160" height="600"><StaticResource creativeType="image/png">http://127.0.0.1:9/sky.png</StaticResource>
        <TrackingEvents><Tracking event="creativeView">http://127.0.0.1:9/sky-view</Tracking></TrackingEvents></Companion>
        </CompanionAds></Creative></Creatives></InLine></Ad></VAST>
        """

    private func harness(
        wrapper: String = CompanionAdTests.wrapper, inline: String = CompanionAdTests.inline,
        configure: (inout Settings) -> Void = { _ in }
    ) -> ManagerHarness {
        let harness = ManagerHarness(
            routes: ["\(testBase)/wrapper": .body(wrapper), "\(testBase)/inline": .body(inline)],
            configure: configure)
        harness.display.durationForURL = { _ in 4 }
        return harness
    }

    private func load(
        _ harness: ManagerHarness, slots: [CompanionAdSlot]
    ) async throws -> AdsManager {
        let request = AdsRequest(
            adTagURL: URL(string: "\(testBase)/wrapper")!,
            adDisplayContainer: AdDisplayContainer(videoDisplay: harness.display, companionSlots: slots))
        let manager = try await harness.loader.loadAds(with: request).adsManager!
        manager.delegate = harness.recorder
        harness.clock.holdWhile { [weak manager, http = harness.http] in
            manager?.loadingSlot != nil && http.parkedCount == 0
        }
        manager.initialize(with: nil)
        return manager
    }

    private func requests(_ harness: ManagerHarness, _ path: String) -> Int {
        harness.http.requestedURLs.filter { $0.hasPrefix("http://127.0.0.1:9/\(path)") }.count
    }

    @Test func companionsMergeTheWrapperChain() async throws {
        let harness = harness()
        let manager = try await load(harness, slots: [])
        await harness.clock.simulate(for: 1)
        let ad = try #require(harness.recorder.events.first { $0.type == .started }?.ad)
        #expect(ad.companionAds.map { "\($0.width)x\($0.height)" } == ["300x250", "728x90"])
        let rectangle = ad.companionAds[0]
        #expect(rectangle.resourceType == .html)
        #expect(rectangle.resourceValue == "<b>Buy</b>")
        #expect(rectangle.adSlotID == "rect")
        #expect(rectangle.clickThroughURL == "http://127.0.0.1:9/landing?c=[CACHEBUSTING]")
        #expect(rectangle.viewTracking == ["http://127.0.0.1:9/view?type=[ADTYPE]"])
        // The wrapper's 0×0 companion tracks the ad's companions as one.
        #expect(ad.sharedCompanionViewTracking == ["http://127.0.0.1:9/w-view?t=[TIMESTAMP]"])
        #expect(rectangle.clickTracking == ["http://127.0.0.1:9/click", "http://127.0.0.1:9/w-click"])
        let leaderboard = ad.companionAds[1]
        #expect(leaderboard.resourceType == .staticResource)
        #expect(leaderboard.creativeType == "image/jpeg")
        #expect(leaderboard.resourceValue == "http://127.0.0.1:9/leader.jpg")
        withExtendedLifetime(manager) {}
    }

    @Test func aShownCompanionSendsItsCreativeViewOnceAndOnlyForFilledSlots() async throws {
        let harness = harness()
        let rectangle = CompanionAdSlot(width: 300, height: 250)
        var filled: [String] = []
        rectangle.onFilled = { filled.append($0.resourceValue) }
        let manager = try await load(harness, slots: [rectangle])
        await harness.clock.simulate(for: 6)
        await harness.loader.beaconQueue.waitUntilIdle()
        #expect(filled == ["<b>Buy</b>"])
        #expect(harness.recorder.events.contains { $0.type == .complete }, "\(harness.recorder.events.map(\.type))")
        #expect(rectangle.companion?.width == 300)
        #expect(requests(harness, "view?type=hybrid") == 1)
        #expect(requests(harness, "w-view?t=") == 1)
        #expect(!harness.http.requestedURLs.contains { $0.contains("[TIMESTAMP]") })
        // No 728×90 slot: the leaderboard was not shown, so it owes nothing.
        #expect(requests(harness, "leader-view") == 0)
        #expect(requests(harness, "click") == 0)
        withExtendedLifetime(manager) {}
    }

    @Test func aClickedCompanionSendsItsClickTrackingAndOpensItsClickThrough() async throws {
        let harness = harness()
        let rectangle = CompanionAdSlot(width: 300, height: 250)
        var clicked: [Int] = []
        rectangle.onClicked = { clicked.append($0.width) }
        rectangle.clicked()  // empty slot: nothing happens
        let manager = try await load(harness, slots: [rectangle])
        var opened: [URL] = []
        manager.linkOpener = { opened.append($0) }
        await harness.clock.simulate(for: 2)
        rectangle.clicked()
        await harness.clock.simulate(for: 5)
        // The companion stays after its ad: a click then still counts.
        rectangle.clicked()
        await harness.loader.beaconQueue.waitUntilIdle()
        #expect(clicked == [300, 300])
        #expect(requests(harness, "click") == 2)
        #expect(requests(harness, "w-click") == 2)
        #expect(opened.count == 2)
        #expect(opened.allSatisfy { $0.absoluteString.hasPrefix("http://127.0.0.1:9/landing?c=") })
        #expect(!opened.contains { $0.absoluteString.contains("CACHEBUSTING") })
        #expect(harness.recorder.events.contains { $0.type == .complete }, "\(harness.recorder.events.map(\.type))")
        // A companion click is not the video's click.
        #expect(!harness.recorder.events.contains { $0.type == .clicked })
        withExtendedLifetime(manager) {}
    }

    @Test func theClickThroughSaysWhenAdTrackingIsLimited() async throws {
        let wrapper = Self.wrapper.replacingOccurrences(
            of: "landing?c=[CACHEBUSTING]", with: "landing?lat=[LIMITADTRACKING]")
        let harness = harness(wrapper: wrapper) { $0.limitAdTracking = true }
        let rectangle = CompanionAdSlot(width: 300, height: 250)
        let manager = try await load(harness, slots: [rectangle])
        var opened: [URL] = []
        manager.linkOpener = { opened.append($0) }
        await harness.clock.simulate(for: 2)
        rectangle.clicked()
        #expect(opened.map(\.absoluteString) == ["http://127.0.0.1:9/landing?lat=1"])
        withExtendedLifetime(manager) {}
    }

    @Test func aClickAfterDestroyOwesNothing() async throws {
        let harness = harness()
        let rectangle = CompanionAdSlot(width: 300, height: 250)
        var manager: AdsManager? = try await load(harness, slots: [rectangle])
        var opened: [URL] = []
        manager?.linkOpener = { opened.append($0) }
        await harness.clock.simulate(for: 2)
        weak var weakManager = manager
        manager?.destroy()
        manager = nil
        rectangle.clicked()
        await harness.clock.simulate(for: 1)
        await harness.loader.beaconQueue.waitUntilIdle()
        #expect(opened.isEmpty)
        #expect(requests(harness, "click") == 0)
        #expect(weakManager == nil)  // the slot's click handler does not keep the manager
    }

    @Test func companionBeaconsCarryThePlacementMacrosOfTheirAd() async throws {
        let harness = harness(inline: Self.twoCompanionInline)
        let rectangle = CompanionAdSlot(width: 300, height: 250)
        let manager = try await load(harness, slots: [rectangle])
        await harness.clock.simulate(for: 2)
        rectangle.clicked()
        await harness.clock.simulate(for: 5)
        rectangle.clicked()  // after the ad: its playhead is no longer known
        await harness.loader.beaconQueue.waitUntilIdle()
        let view = try #require(harness.http.requestedURLs.first { $0.contains("/rect-view?") })
        // A standalone tag plays as a pre-roll: [BREAKPOSITION] 1.
        #expect(view.contains("pos=1&seq=1&asset=http%3A%2F%2F127.0.0.1%3A9%2Fm.mp4"), "\(view)")
        #expect(view.contains("uid=ad-id.org%20CNPA0484000H"), "\(view)")
        #expect(view.contains("cat=IAB1"), "\(view)")
        #expect(view.contains("ph=00:00:00.000") || view.contains("ph=00%3A00%3A00.000"), "\(view)")
        let clicks = harness.http.requestedURLs.filter { $0.contains("/rect-click?") }
        #expect(clicks.count == 2)
        #expect(!clicks.contains { $0.contains("[") || $0.contains("%5B") }, "\(clicks)")
        #expect(clicks.allSatisfy { $0.hasSuffix("seq=1") }, "\(clicks)")
        #expect(clicks.first?.contains("ph=00%3A00%3A0") == true || clicks.first?.contains("ph=00:00:0") == true)
        #expect(clicks.last?.contains("ph=-1") == true, "\(clicks)")
        withExtendedLifetime(manager) {}
    }

    @Test func aSizelessWrapperCompanionCountsOneViewWhenTwoSlotsShowTheAd() async throws {
        let harness = harness(inline: Self.twoCompanionInline)
        let slots = [CompanionAdSlot(width: 300, height: 250), CompanionAdSlot(width: 160, height: 600)]
        let manager = try await load(harness, slots: slots)
        await harness.clock.simulate(for: 6)
        await harness.loader.beaconQueue.waitUntilIdle()
        #expect(slots.allSatisfy { $0.companion != nil })
        #expect(requests(harness, "rect-view") == 1)
        #expect(requests(harness, "sky-view") == 1)
        // The wrapper's 0×0 companion tracks the ad's companions as one: one view, not one per slot.
        #expect(requests(harness, "w-view") == 1)
        withExtendedLifetime(manager) {}
    }

    @Test func destroyFromOnFilledStopsTheRemainingSlots() async throws {
        let harness = harness(inline: Self.twoCompanionInline)
        let first = CompanionAdSlot(width: 300, height: 250)
        let second = CompanionAdSlot(width: 160, height: 600)
        var manager: AdsManager? = try await load(harness, slots: [first, second])
        first.onFilled = { [weak manager] _ in manager?.destroy() }
        var secondFilled = false
        second.onFilled = { _ in secondFilled = true }
        await harness.clock.simulate(for: 2)
        manager = nil
        await harness.clock.simulate(for: 1)
        await harness.loader.beaconQueue.waitUntilIdle()
        #expect(first.companion != nil)
        #expect(!secondFilled)
        #expect(second.companion == nil)
        #expect(requests(harness, "sky-view") == 0)
        // The icon the UI would have shown with the ad's first frame was never shown: no view.
        #expect(requests(harness, "icon-view") == 0)
    }

    @Test func aWrappersOwnCompanionDoesNotCountTheSizelessView() async throws {
        let harness = harness()
        // Only the wrapper's own 728×90 banner has a slot; the inline 300×250 is not shown.
        let leaderboard = CompanionAdSlot(width: 728, height: 90)
        let manager = try await load(harness, slots: [leaderboard])
        await harness.clock.simulate(for: 6)
        await harness.loader.beaconQueue.waitUntilIdle()
        #expect(leaderboard.companion?.resourceValue == "http://127.0.0.1:9/leader.jpg")
        #expect(requests(harness, "leader-view") == 1)
        // The 0×0 wrapper companion tracks the inline ad's companions, none of which showed.
        #expect(requests(harness, "w-view") == 0)
        withExtendedLifetime(manager) {}
    }
}
