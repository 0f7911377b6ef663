import Foundation
import InterludeVAST
import Testing

@testable import Interlude

func uiAd(
    duration: String = "00:00:15", skipOffset: String? = "00:00:05", uiHideable: Bool = true, position: Int = 1,
    total: Int = 1, disableUi: Bool = true, clickThrough: Bool = true,
    uiElements: [UIElement] = [.adAttribution, .countdown]
)
    throws -> Interlude.Ad
{
    let skip = skipOffset.map { " skipoffset=\"\($0)\"" } ?? ""
    let xml = """
        <VAST version="4.2"><Ad id="a"><InLine><AdSystem>s</AdSystem><AdTitle>t</AdTitle><Impression>http://127.0.0.1:9/i</Impression>
        <Creatives><Creative><Linear\(skip)><Duration>\(duration)</Duration><MediaFiles><MediaFile delivery="progressive" type="video/mp4" width="640" height="360">http://127.0.0.1:9/m.mp4</MediaFile></MediaFiles>
        \(clickThrough ? "<VideoClicks><ClickThrough>http://127.0.0.1:9/landing</ClickThrough></VideoClicks>" : "")</Linear></Creative></Creatives>
        <Extensions><Extension type="uiSettings"><UiHideable>\(uiHideable ? 1 : 0)</UiHideable></Extension></Extensions></InLine></Ad></VAST>
        """
    let vast = try VASTParser().parseVAST(Data(xml.utf8)).document
    let resolved = ResolvedAd(ad: vast.ads[0], inLine: try #require(vast.ads[0].inLine))
    return Ad(
        resolved: resolved, podInfo: AdPodInfo(adPosition: position, totalAds: total), uiElements: uiElements,
        disableUi: disableUi)
}

@Suite("Custom ad UI state")
struct AdUIStateTests {
    let english = AdUIStrings.english

    @Test func countdownForAStandaloneAd() throws {
        let state = AdUIState.playing(try uiAd(), mediaTime: 0, totalTime: 15, strings: english)
        #expect(state.isCustomUIVisible && state.countdownVisible && state.learnMoreVisible)
        #expect(state.countdownText == "Ad (15s)")
        #expect(state.learnMoreTitle == "Learn More")
    }

    @Test func countdownInAPod() throws {
        let ad = try uiAd(position: 2, total: 3)
        #expect(
            AdUIState.playing(ad, mediaTime: 3.2, totalTime: 15, strings: english).countdownText
                == "Ad 2 of 3 (12s)")
    }

    @Test(arguments: [(12.5, "Ad (2s)"), (11.5, "Ad (4s)"), (12.4, "Ad (3s)"), (14.6, "Ad (0s)"), (15.3, "Ad (0s)")])
    func remainingTimeRoundsAsPrintfDoes(mediaTime: Double, expected: String) throws {
        // %.f rounds half to even: 2.5 → 2, 3.5 → 4.
        #expect(
            AdUIState.playing(try uiAd(), mediaTime: mediaTime, totalTime: 15, strings: english)
                .countdownText == expected)
    }

    @Test func skipButtonCountsDownThenEnables() throws {
        let ad = try uiAd()
        func state(_ time: Double) -> AdUIState {
            AdUIState.playing(ad, mediaTime: time, totalTime: 15, strings: english)
        }
        #expect(state(0).skipButtonVisible)
        #expect(state(0).skipButtonTitle == "Skip this ad in 5...")
        #expect(state(1.2).skipButtonTitle == "Skip this ad in 4...")
        #expect(state(4.4).skipButtonTitle == "Skip this ad in 1...")
        #expect(state(4.8).skipButtonTitle == "Skip this ad in 0...")
        #expect(!state(4.8).skipButtonEnabled)
        #expect(state(5).skipButtonTitle == "Skip ad")
        #expect(state(5).skipButtonEnabled)
        #expect(state(9).skipButtonTitle == "Skip ad")
    }

    @Test func nonSkippableAdHasNoSkipButton() throws {
        let state = AdUIState.playing(
            try uiAd(skipOffset: nil), mediaTime: 3, totalTime: 15, strings: english)
        #expect(!state.skipButtonVisible)
        #expect(state.skipButtonTitle.isEmpty)
    }

    @Test func beforeTheFirstTickTextsAreEmpty() throws {
        let state = AdUIState.playing(try uiAd(), mediaTime: nil, totalTime: 15, strings: english)
        #expect(state.isCustomUIVisible && state.countdownText.isEmpty && state.skipButtonTitle.isEmpty)
    }

    @Test func disableUiTakesEffectOnlyForAdsThatAllowIt() throws {
        let locked = AdUIState.playing(
            try uiAd(uiHideable: false), mediaTime: 3, totalTime: 15, strings: english)
        #expect(!locked.isCustomUIVisible && locked.isBuiltInUIVisible)
        let notAsked = AdUIState.playing(try uiAd(disableUi: false), mediaTime: 3, totalTime: 15, strings: english)
        #expect(!notAsked.isCustomUIVisible && notAsked.isBuiltInUIVisible)
    }

    @Test func theBuiltInUIShowsTheAdLabelWithPositionAndCountdown() throws {
        let ad = try uiAd(uiHideable: false, position: 1, total: 2)
        let state = AdUIState.playing(ad, mediaTime: 3.2, totalTime: 15, strings: english)
        #expect(state.isBuiltInUIVisible && !state.isCustomUIVisible)
        #expect(state.countdownVisible && state.countdownText == "Ad 1 of 2 · 0:12")
        #expect(state.learnMoreVisible && state.learnMoreTitle == "Learn more")
        let single = AdUIState.playing(try uiAd(disableUi: false), mediaTime: 0, totalTime: 15, strings: english)
        #expect(single.countdownText == "Ad · 0:15")
        let long = AdUIState.playing(try uiAd(uiHideable: false), mediaTime: 1, totalTime: 3725, strings: english)
        #expect(long.countdownText == "Ad · 1:02:04")
    }

    @Test func theBuiltInSkipButtonCountsDownInWholeSecondsThenEnables() throws {
        let ad = try uiAd(uiHideable: false)
        func state(_ time: Double) -> AdUIState {
            AdUIState.playing(ad, mediaTime: time, totalTime: 15, strings: english)
        }
        #expect(state(0).skipButtonVisible && state(0).skipButtonTitle == "Skip in 5" && !state(0).skipButtonEnabled)
        #expect(state(0.2).skipButtonTitle == "Skip in 5")
        #expect(state(4.2).skipButtonTitle == "Skip in 1")
        #expect(state(5).skipButtonTitle == "Skip Ad" && state(5).skipButtonEnabled)
        #expect(
            !AdUIState.playing(
                try uiAd(skipOffset: nil, uiHideable: false), mediaTime: 6, totalTime: 15, strings: english
            ).skipButtonVisible)
    }

    @Test func theBuiltInUIShowsOnlyTheElementsAsked() throws {
        let attribution = try uiAd(uiHideable: false, position: 2, total: 3, uiElements: [.adAttribution])
        #expect(
            AdUIState.playing(attribution, mediaTime: 1, totalTime: 15, strings: english).countdownText == "Ad 2 of 3")
        let countdown = try uiAd(uiHideable: false, uiElements: [.countdown])
        #expect(AdUIState.playing(countdown, mediaTime: 1, totalTime: 15, strings: english).countdownText == "0:14")
        let none = try uiAd(uiHideable: false, uiElements: [])
        #expect(!AdUIState.playing(none, mediaTime: 1, totalTime: 15, strings: english).countdownVisible)
        let noClick = try uiAd(uiHideable: false, clickThrough: false)
        #expect(!AdUIState.playing(noClick, mediaTime: 1, totalTime: 15, strings: english).learnMoreVisible)
    }

    @Test func theBuiltInUIInBrazilianPortuguese() throws {
        let strings = AdUIStrings.forLanguage("pt-BR")
        let ad = try uiAd(uiHideable: false, position: 2, total: 3)
        let early = AdUIState.playing(ad, mediaTime: 1, totalTime: 15, strings: strings)
        #expect(early.countdownText == "Anúncio 2 de 3 · 0:14")
        #expect(early.skipButtonTitle == "Pular em 4" && early.learnMoreTitle == "Saiba mais")
        #expect(AdUIState.playing(ad, mediaTime: 6, totalTime: 15, strings: strings).skipButtonTitle == "Pular anúncio")
    }

    @Test func anUnknownDurationLeavesTheCountdownOut() throws {
        let custom = AdUIState.playing(try uiAd(), mediaTime: 3, totalTime: nil, strings: english)
        #expect(custom.countdownText.isEmpty)
        let builtIn = AdUIState.playing(try uiAd(uiHideable: false), mediaTime: 3, totalTime: nil, strings: english)
        #expect(builtIn.countdownText == "Ad")
    }

    @Test func brazilianPortuguese() throws {
        let strings = AdUIStrings.forLanguage("pt-BR")
        let single = AdUIState.playing(try uiAd(), mediaTime: 1, totalTime: 15, strings: strings)
        #expect(single.countdownText == "Anúncio (14s)")
        #expect(single.skipButtonTitle == "Pular este anúncio em 4...")
        #expect(single.learnMoreTitle == "Saiba mais")
        let pod = AdUIState.playing(
            try uiAd(position: 1, total: 2), mediaTime: 6, totalTime: 15, strings: strings)
        #expect(pod.countdownText == "Anúncio 1 de 2 (9s)")
        #expect(pod.skipButtonTitle == "Pular anúncio")
    }

    @Test func languagesFallBackAndCanBeAdded() {
        #expect(AdUIStrings.forLanguage("pt_BR") == .brazilianPortuguese)
        #expect(AdUIStrings.forLanguage("pt-PT") == .brazilianPortuguese)
        #expect(AdUIStrings.forLanguage("ja") == .english)
        let german = AdUIStrings(
            countdownSingle: "Werbung (%@s)", countdownInPod: "Werbung %1$@ von %2$@ (%3$@s)",
            skipCountdown: "Überspringen in %@...", skipNow: "Werbung überspringen", learnMore: "Mehr erfahren")
        AdUIStrings.register(german, for: "de")
        #expect(AdUIStrings.forLanguage("de-AT") == german)
    }
}
