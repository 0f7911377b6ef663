import Foundation
import Interlude
import Testing

@testable import InterludeCLI

/// What the terminal player draws for each UI.
@Suite("Terminal player frame")
struct TerminalFrameTests {
    func frame(_ ui: AdUIState) -> [String] {
        TerminalFrame(
            contentTime: 0, contentDuration: 60, contentPlaying: false, cuePoints: [0, -1], inBreak: true,
            breakLabel: "pre-roll", ui: ui, adTime: 2, adDuration: 10, adPaused: false, lastEvent: "STARTED a"
        ).lines()
    }

    @Test func theBuiltInUIIsDrawnWithItsLabelSkipButtonAndLearnMore() {
        let counting = AdUIState(
            isCustomUIVisible: false, isBuiltInUIVisible: true, learnMoreVisible: true, learnMoreTitle: "Learn more",
            countdownVisible: true, countdownText: "Ad 1 of 2 · 0:08", skipButtonVisible: true,
            skipButtonTitle: "Skip in 3", skipButtonEnabled: false)
        let lines = frame(counting)
        #expect(lines[1] == "AD BREAK (pre-roll)  [built-in UI]  Ad 1 of 2 · 0:08")
        #expect(lines[2] == "( Skip in 3 )   [ Learn more (l) ]")
        var enabled = counting
        enabled.skipButtonTitle = "Skip Ad"
        enabled.skipButtonEnabled = true
        #expect(frame(enabled)[2] == "[ Skip Ad (s) ]   [ Learn more (l) ]")
    }

    @Test func theCustomUIIsDrawnAsTheGuideWordsIt() {
        let custom = AdUIState(
            isCustomUIVisible: true, isBuiltInUIVisible: false, learnMoreVisible: true, learnMoreTitle: "Learn More",
            countdownVisible: true, countdownText: "Ad (8s)", skipButtonVisible: true, skipButtonTitle: "Skip ad",
            skipButtonEnabled: true)
        let lines = frame(custom)
        #expect(lines[1] == "AD BREAK (pre-roll)  Ad (8s)")
        #expect(lines[2] == "[ Skip ad (s) ]   [ Learn More (l) ]")
    }

    @Test func nothingButTheBreakShowsBetweenAds() {
        #expect(frame(.hidden)[1] == "AD BREAK (pre-roll)")
        #expect(frame(.hidden)[2].isEmpty)
    }
}
