import Foundation
import InterludePlayer
import InterludeTestSupport
import InterludeVAST
import Testing

@testable import Interlude

/// Which UI shows (IMA's rule: the custom one only when the app asked and
/// the ad allows it) and what the built-in UI carries.
@Suite("Ads manager UI")
@MainActor
struct ManagerUITests {
    func startedAd(hideable: Bool?, disableUi: Bool) async throws -> Interlude.Ad {
        let harness = ManagerHarness(routes: ["\(testBase)/tag": .body(vastXML(adXML(hideable: hideable)))])
        var rendering = AdsRenderingSettings()
        rendering.disableUi = disableUi
        let manager = try await harness.load("\(testBase)/tag", rendering: rendering)
        defer { withExtendedLifetime(manager) {} }
        await simulate(harness.clock, for: 1)
        return try #require(harness.recorder.events.first { $0.type == .started }?.ad)
    }

    @Test(arguments: [
        (Bool?.some(true), true, true), (true, false, false), (false, true, false), (nil, true, false),
    ])
    func isUiDisabledMeansTheAppAskedAndTheAdAllows(hideable: Bool?, disableUi: Bool, expected: Bool) async throws {
        let ad = try await startedAd(hideable: hideable, disableUi: disableUi)
        #expect(ad.isUiDisabled == expected)
    }

    @Test func aSkippableAdWithTheBuiltInUIShowsACountdownAndASkipButton() async throws {
        // UiHideable 0: the ad keeps IMA's own UI even though the app asked for its custom one.
        let document = vastXML(
            adXML(id: "a", sequence: 1, skipOffset: "00:00:05", hideable: false), adXML(id: "b", sequence: 2))
        let harness = ManagerHarness(routes: ["\(testBase)/tag": .body(document)])
        let manager = try await harness.load("\(testBase)/tag")
        defer { withExtendedLifetime(manager) {} }
        await simulate(harness.clock, for: 2)
        let state = manager.uiState
        #expect(state.isBuiltInUIVisible && !state.isCustomUIVisible)
        #expect(state.countdownVisible && state.countdownText == "Ad 1 of 2 · 0:08")
        #expect(state.skipButtonVisible && !state.skipButtonEnabled && state.skipButtonTitle == "Skip in 3")
        #expect(state.learnMoreVisible && state.learnMoreTitle == "Learn more")
        await simulate(harness.clock, for: 3)
        #expect(manager.uiState.skipButtonEnabled && manager.uiState.skipButtonTitle == "Skip Ad")
        manager.skip()
        #expect(harness.recorder.types.contains(.skipped))
        await simulate(harness.clock, for: 1)
        // The second ad allows the custom UI the app asked for: the UI switches per ad.
        #expect(manager.uiState.isCustomUIVisible && manager.uiState.countdownText.hasPrefix("Ad 2 of 2 ("))
        #expect(!manager.uiState.skipButtonVisible)
    }

    @Test func theBuiltInUIIsLocalized() async throws {
        let document = vastXML(adXML(skipOffset: "00:00:05", hideable: false))
        let harness = ManagerHarness(routes: ["\(testBase)/tag": .body(document)]) { $0.language = "pt-BR" }
        let manager = try await harness.load("\(testBase)/tag")
        defer { withExtendedLifetime(manager) {} }
        await simulate(harness.clock, for: 2)
        #expect(manager.uiState.countdownText == "Anúncio · 0:08")
        #expect(manager.uiState.skipButtonTitle == "Pular em 3")
        #expect(manager.uiState.learnMoreTitle == "Saiba mais")
        await simulate(harness.clock, for: 3)
        #expect(manager.uiState.skipButtonTitle == "Pular anúncio")
    }
}
