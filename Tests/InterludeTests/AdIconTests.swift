import Foundation
import InterludeTestSupport
import Testing

@testable import Interlude

/// Industry icons: merged over the chain, shown by the UI state at their
/// offset for their duration, their view tracking once, and a tap.
@MainActor
@Suite struct AdIconTests {
    /// The wrapper adds tracking to the inline AdChoices icon (no resource,
    /// same program) and brings an icon of another program.
    private static let wrapper = """
        <VAST version="4.2"><Ad id="w"><Wrapper><AdSystem>w</AdSystem>
        <VASTAdTagURI>\(testBase)/inline</VASTAdTagURI><Impression>http://127.0.0.1:9/w-imp</Impression>
        <Creatives><Creative><Linear><Icons>
        <Icon program="adchoices"><IconViewTracking>http://127.0.0.1:9/w-icon-view</IconViewTracking>
        <IconClicks><IconClickTracking>http://127.0.0.1:9/w-icon-click</IconClickTracking></IconClicks></Icon>
        <Icon program="Other" width="20" height="20" xPosition="left" yPosition="bottom">
        <StaticResource creativeType="image/png">http://127.0.0.1:9/other.png</StaticResource></Icon>
        </Icons></Linear></Creative></Creatives></Wrapper></Ad></VAST>
        """
    private static let inline = """
        <VAST version="4.2"><Ad id="in"><InLine><AdSystem>s</AdSystem><AdTitle>t</AdTitle><Impression>http://127.0.0.1:9/imp</Impression>
        <Creatives><Creative><Linear><Duration>00:00:06</Duration>
        <MediaFiles><MediaFile delivery="progressive" type="video/mp4" width="640" height="360">http://127.0.0.1:9/m.mp4</MediaFile></MediaFiles>
        <Icons><Icon program="AdChoices" width="77" height="15" offset="00:00:01" duration="00:00:03">
        <StaticResource creativeType="image/png">http://127.0.0.1:9/adchoices.png</StaticResource>
        <IconClicks><IconClickThrough>http://127.0.0.1:9/why-this-ad?c=[CACHEBUSTING]</IconClickThrough>
        <IconClickTracking>http://127.0.0.1:9/icon-click</IconClickTracking></IconClicks>
        <IconViewTracking>http://127.0.0.1:9/icon-view?t=[ADPLAYHEAD]</IconViewTracking></Icon></Icons>
        </Linear></Creative></Creatives></InLine></Ad></VAST>
        """

    private func harness(wrapper: String = AdIconTests.wrapper) -> ManagerHarness {
        let harness = ManagerHarness(routes: [
            "\(testBase)/wrapper": .body(wrapper), "\(testBase)/inline": .body(Self.inline),
        ])
        harness.display.durationForURL = { _ in 6 }
        return harness
    }

    private func requests(_ harness: ManagerHarness, _ path: String) -> Int {
        harness.http.requestedURLs.filter { $0.hasPrefix("http://127.0.0.1:9/\(path)") }.count
    }

    @Test func iconsMergeTheChainOnePerProgram() async throws {
        let harness = harness()
        let manager = try await harness.load("\(testBase)/wrapper")
        await harness.clock.simulate(for: 1)
        let ad = try #require(harness.recorder.events.first { $0.type == .started }?.ad)
        #expect(ad.icons.map(\.program) == ["AdChoices", "Other"])
        let adChoices = ad.icons[0]
        #expect(adChoices.resourceValue == "http://127.0.0.1:9/adchoices.png")
        #expect((adChoices.offset, adChoices.duration, adChoices.width, adChoices.height) == (1, 3, 77, 15))
        #expect((adChoices.xPosition, adChoices.yPosition) == ("right", "top"))
        #expect(adChoices.viewTracking.count == 2)
        #expect(adChoices.clickTracking == ["http://127.0.0.1:9/icon-click", "http://127.0.0.1:9/w-icon-click"])
        let other = ad.icons[1]
        #expect((other.xPosition, other.yPosition, other.offset, other.duration) == ("left", "bottom", 0, nil))
        withExtendedLifetime(manager) {}
    }

    @Test func theUIShowsEachIconInItsWindowAndItsViewTrackingGoesOnce() async throws {
        let harness = harness()
        let manager = try await harness.load("\(testBase)/wrapper")
        await harness.clock.simulate(for: 8)
        await harness.loader.beaconQueue.waitUntilIdle()
        let shown = harness.recorder.uiStates.map { $0.icons.map(\.program) }
        #expect(shown.first == ["Other"])
        #expect(shown.contains(["AdChoices", "Other"]))
        // AdChoices goes after its 3 s; the UI hides at the end.
        let lastWithAdChoices = try #require(shown.lastIndex { $0.contains("AdChoices") })
        #expect(shown[lastWithAdChoices + 1] == ["Other"])
        #expect(shown.last == [])
        #expect(
            requests(harness, "icon-view?t=00%3A00%3A01.000") == 1,
            "\(harness.http.requestedURLs.filter { $0.contains("icon-view") })")
        #expect(requests(harness, "w-icon-view") == 1)
        #expect(requests(harness, "icon-click") == 0)
        withExtendedLifetime(manager) {}
    }

    @Test func aTapOnAShowingIconTracksOpensAndPauses() async throws {
        let harness = harness()
        let manager = try await harness.load("\(testBase)/wrapper")
        var opened: [URL] = []
        manager.linkOpener = { opened.append($0) }
        await harness.clock.simulate(for: 2.1)
        let state = try #require(harness.recorder.uiStates.last)
        let adChoices = try #require(state.icons.first { $0.program == "AdChoices" })
        manager.iconClicked(adChoices)
        await harness.clock.simulate(for: 0.5)
        await harness.loader.beaconQueue.waitUntilIdle()
        #expect(requests(harness, "icon-click") == 1)
        #expect(requests(harness, "w-icon-click") == 1)
        #expect(opened.map { $0.absoluteString.hasPrefix("http://127.0.0.1:9/why-this-ad?c=") } == [true])
        #expect(!opened.contains { $0.absoluteString.contains("CACHEBUSTING") })
        let types = harness.recorder.types
        #expect(types.suffix(2) == [.iconTapped, .pause])
        // A tap on an icon with no click-through: tracked and announced, no pause.
        manager.resume()
        let other = try #require(state.icons.first { $0.program == "Other" })
        manager.iconClicked(other)
        #expect(harness.recorder.types.last == .iconTapped)
        #expect(opened.count == 1)
        withExtendedLifetime(manager) {}
    }

    @Test func aTapOnAnIconNoLongerShowingIsIgnored() async throws {
        let harness = harness()
        let manager = try await harness.load("\(testBase)/wrapper")
        await harness.clock.simulate(for: 2)
        let adChoices = try #require(harness.recorder.uiStates.last?.icons.first { $0.program == "AdChoices" })
        await harness.clock.simulate(for: 2.5)
        manager.iconClicked(adChoices)
        await harness.loader.beaconQueue.waitUntilIdle()
        #expect(requests(harness, "icon-click") == 0)
        #expect(!harness.recorder.types.contains(.iconTapped))
        #expect(harness.recorder.events.contains { $0.type == .log && "\($0.adData)".contains("not showing") })
        withExtendedLifetime(manager) {}
    }

    @Test func aFallbackImageClosedAfterItsAdEndedIsStillAnnounced() async throws {
        let wrapper = Self.wrapper.replacingOccurrences(
            of: "http://127.0.0.1:9/other.png</StaticResource></Icon>",
            with: """
                http://127.0.0.1:9/other.png</StaticResource><IconClicks><IconClickFallbackImages>
                <IconClickFallbackImage width="300" height="250"><AltText>Why this ad</AltText>
                <StaticResource creativeType="image/png">http://127.0.0.1:9/why.png</StaticResource>
                </IconClickFallbackImage></IconClickFallbackImages></IconClicks></Icon>
                """)
        let harness = harness(wrapper: wrapper)
        let manager = try await harness.load("\(testBase)/wrapper")
        await harness.clock.simulate(for: 2)
        let other = try #require(harness.recorder.uiStates.last?.icons.first { $0.program == "Other" })
        #expect(other.fallbackImages.map(\.url) == ["http://127.0.0.1:9/why.png"])
        manager.iconClicked(other)
        #expect(harness.recorder.types.last == .iconTapped)
        // The app shows the image; the ad plays on to its end, and its break ends.
        await harness.clock.simulate(for: 6)
        #expect(harness.recorder.types.contains(.allAdsCompleted))
        manager.iconFallbackImageClosed()
        let closed = harness.recorder.events.filter { $0.type == .iconFallbackImageClosed }
        #expect(closed.count == 1)
        #expect(closed.first?.ad?.adID == "in")
        manager.iconFallbackImageClosed()  // nothing is open any more
        #expect(harness.recorder.events.filter { $0.type == .iconFallbackImageClosed }.count == 1)
        withExtendedLifetime(manager) {}
    }

    @Test func anIconWithAClickThroughAndFallbackImagesStillAnnouncesTheClose() async throws {
        // A TV app cannot open links: it shows the fallback image of an icon that also has a click-through.
        let inline = Self.inline.replacingOccurrences(
            of: "<IconClickTracking>http://127.0.0.1:9/icon-click</IconClickTracking>",
            with: """
                <IconClickTracking>http://127.0.0.1:9/icon-click</IconClickTracking><IconClickFallbackImages>
                <IconClickFallbackImage width="300" height="250"><StaticResource creativeType="image/png">http://127.0.0.1:9/why.png</StaticResource>
                </IconClickFallbackImage></IconClickFallbackImages>
                """)
        let harness = ManagerHarness(routes: [
            "\(testBase)/wrapper": .body(Self.wrapper), "\(testBase)/inline": .body(inline),
        ])
        harness.display.durationForURL = { _ in 6 }
        let manager = try await harness.load("\(testBase)/wrapper")
        await harness.clock.simulate(for: 2)
        let adChoices = try #require(harness.recorder.uiStates.last?.icons.first { $0.program == "AdChoices" })
        #expect(!adChoices.fallbackImages.isEmpty)
        manager.iconClicked(adChoices)
        manager.resume()
        await harness.clock.simulate(for: 6)
        manager.iconFallbackImageClosed()
        #expect(harness.recorder.events.filter { $0.type == .iconFallbackImageClosed }.count == 1)
        withExtendedLifetime(manager) {}
    }
}
