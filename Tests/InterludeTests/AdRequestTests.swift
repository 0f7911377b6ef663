import Foundation
import InterludePlayer
import InterludeTestSupport
import InterludeVAST
import Testing

@testable import Interlude

/// What ad requests carry (macros in wrapper and VMAP break tags) and how
/// VMAP `AdSource` attributes and schedule edge cases are honoured.
@Suite("Ad requests and schedules")
@MainActor
struct AdRequestTests {
    static let macroQuery =
        "bp=[BREAKPOSITION]&lat=[LIMITADTRACKING]&cp=[CONTENTPLAYHEAD]&ac=[ADCOUNT]&ts=[TIMESTAMP]&cb=[CACHEBUSTING]"

    /// The query of `url` without `ts` (its zone is the machine's), decoded.
    static func query(_ url: String) -> [String: String] {
        let items = URLComponents(string: url)?.queryItems ?? []
        return Dictionary(items.filter { $0.name != "ts" }.map { ($0.name, $0.value ?? "") }) { first, _ in first }
    }

    @Test func aWrapperTagGetsEveryMacroTheSDKKnows() async throws {
        let wrapper = wrapperVAST(id: "w", target: "\(testBase)/inline?\(Self.macroQuery)")
        let harness = ManagerHarness(routes: [
            "\(testBase)/tag": .body(wrapper), "\(testBase)/inline": .body(podDocument(1)),
        ]) { $0.limitAdTracking = true }
        let manager = try await harness.load("\(testBase)/tag")
        defer { withExtendedLifetime(manager) {} }
        let inline = try #require(harness.http.requestedURLs.first { $0.hasPrefix("\(testBase)/inline") })
        // A plain VAST response plays as a pre-roll (1), before any content (00:00:00.000), one ad (1).
        #expect(
            Self.query(inline) == ["bp": "1", "lat": "1", "cp": "00:00:00.000", "ac": "1", "cb": "12345678"])
        #expect(!inline.contains("["))
    }

    @Test func aVMAPBreakTagGetsEveryMacroTheSDKKnows() async throws {
        let vmap = vmapXML([("00:00:05", "\(testBase)/mid?\(Self.macroQuery)")])
        let harness = ManagerHarness(routes: [
            "\(testBase)/vmap": .body(vmap), "\(testBase)/mid": .body(podDocument(1)),
        ])
        var rendering = AdsRenderingSettings()
        rendering.enablePreloading = false  // requested when due, at 5 s of content
        let manager = try await harness.load("\(testBase)/vmap", contentDuration: 60, rendering: rendering)
        defer { withExtendedLifetime(manager) {} }
        for second in stride(from: 1.0, through: 5, by: 1) {
            harness.playhead.currentTime = second
            await simulate(harness.clock, for: 1)
        }
        let mid = try #require(harness.http.requestedURLs.first { $0.hasPrefix("\(testBase)/mid") })
        #expect(Self.query(mid) == ["bp": "2", "lat": "0", "cp": "00:00:05.000", "ac": "1", "cb": "12345678"])
        #expect(!mid.contains("["))
    }

    @Test func anAdSourceThatAllowsOneAdPlaysOnlyTheFirstOfAPod() async throws {
        let vmap = vmapXML([("start", "\(testBase)/pre")], sourceAttributes: " allowMultipleAds=\"false\"")
        let harness = ManagerHarness(routes: [
            "\(testBase)/vmap": .body(vmap), "\(testBase)/pre": .body(podDocument(3)),
        ])
        let manager = try await harness.load("\(testBase)/vmap", contentDuration: 60)
        defer { withExtendedLifetime(manager) {} }
        await simulate(harness.clock, for: 35)
        let started = harness.recorder.events.filter { $0.type == .started }.compactMap(\.ad)
        #expect(started.map(\.adID) == ["ad1"])
        #expect(started.first?.adPodInfo.totalAds == 1)
    }

    @Test func anAdSourceThatAllowsOneAdCapsAWrapperThatAllowsMore() async throws {
        let vmap = vmapXML([("start", "\(testBase)/pre")], sourceAttributes: " allowMultipleAds=\"false\"")
        let harness = ManagerHarness(routes: [
            "\(testBase)/vmap": .body(vmap),
            "\(testBase)/pre": .body(
                wrapperVAST(id: "w", target: "\(testBase)/pod", attributes: "allowMultipleAds=\"true\"")),
            "\(testBase)/pod": .body(podDocument(3)),
        ])
        let manager = try await harness.load("\(testBase)/vmap", contentDuration: 60)
        defer { withExtendedLifetime(manager) {} }
        await simulate(harness.clock, for: 35)
        #expect(harness.recorder.events.filter { $0.type == .started }.compactMap(\.ad?.adID) == ["ad1"])
    }

    @Test func anAdSourceThatForbidsRedirectsDoesNotFollowWrappers() async throws {
        let vmap = vmapXML([("start", "\(testBase)/pre")], sourceAttributes: " followRedirects=\"false\"")
        let harness = ManagerHarness(routes: [
            "\(testBase)/vmap": .body(vmap),
            "\(testBase)/pre": .body(wrapperVAST(id: "w", target: "\(testBase)/inline")),
            "\(testBase)/inline": .body(podDocument(1)),
        ])
        let manager = try await harness.load("\(testBase)/vmap", contentDuration: 60)
        defer { withExtendedLifetime(manager) {} }
        await simulate(harness.clock, for: 12)
        #expect(!harness.http.requestedURLs.contains("\(testBase)/inline"))
        #expect(harness.recorder.types.contains(.adBreakFetchError))
        #expect(!harness.recorder.types.contains(.started))
    }

    @Test func twoPreRollsBothPlayInDocumentOrder() async throws {
        let vmap = vmapXML([("start", "\(testBase)/first"), ("start", "\(testBase)/second")])
        let harness = ManagerHarness(routes: [
            "\(testBase)/vmap": .body(vmap),
            "\(testBase)/first": .body(vastXML(adXML(id: "first"))),
            "\(testBase)/second": .body(vastXML(adXML(id: "second"))),
        ])
        let manager = try await harness.load("\(testBase)/vmap", contentDuration: 60)
        defer { withExtendedLifetime(manager) {} }
        await simulate(harness.clock, for: 25)
        let started = harness.recorder.events.filter { $0.type == .started }.compactMap(\.ad?.adID)
        #expect(started == ["first", "second"])
        #expect(harness.recorder.log == ["contentPause", "contentResume", "contentPause", "contentResume"])
    }

    @Test func twoMidRollsAtOneOffsetBothPlay() async throws {
        let vmap = vmapXML([("00:00:05", "\(testBase)/first"), ("00:00:05", "\(testBase)/second")])
        let harness = ManagerHarness(routes: [
            "\(testBase)/vmap": .body(vmap),
            "\(testBase)/first": .body(vastXML(adXML(id: "first"))),
            "\(testBase)/second": .body(vastXML(adXML(id: "second"))),
        ])
        let manager = try await harness.load("\(testBase)/vmap", contentDuration: 60)
        defer { withExtendedLifetime(manager) {} }
        for second in stride(from: 1.0, through: 6, by: 1) {
            harness.playhead.currentTime = second
            await simulate(harness.clock, for: 1)
        }
        await simulate(harness.clock, for: 25)
        let started = harness.recorder.events.filter { $0.type == .started }.compactMap(\.ad?.adID)
        #expect(started == ["first", "second"])
    }
}
