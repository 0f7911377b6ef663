import Foundation
import Testing

@testable import InterludeHLS

/// The live stitch state's line format: every field comes back exactly,
/// and anything that is not a version 1 state is refused with an error.
@Suite struct LiveStitchStateTextTests {
    /// A state with every field set, including optional ones and text that needs escaping.
    static let full: LiveStitchState = {
        var state = LiveStitchState()
        state.settled = LiveStitchState.Settled(throughSequence: 40, sequenceOffset: -2, discontinuityOffset: 6)
        let open = LiveBreakRecord(
            request: LiveBreakRequest(
                breakID: "cue 50%\nnext", originStartSequence: 50,
                startDate: Date(timeIntervalSinceReferenceDate: 786_000_000.123_456_7), plannedDuration: 30.03,
                style: .dateRange, scte35Out: [0xFC, 0x30, 0x00, 0x11]),
            isReplaced: true, originDiscontinuityBase: 3, contentIsEncrypted: true, slateSegmentDuration: 4.004,
            sourceMarkers: ["#EXT-X-CUE-OUT:30", "#EXT-OATCLS-SCTE35:/DA0AAAA AAAA"],
            anchor: ElapsedAnchor(sequence: 52, elapsed: 8.008), end: nil)
        let ended = LiveBreakRecord(
            request: LiveBreakRequest(breakID: "cue-44", originStartSequence: 44),
            isReplaced: false, originDiscontinuityBase: 2, contentIsEncrypted: false, slateSegmentDuration: 4,
            sourceMarkers: [], anchor: ElapsedAnchor(sequence: 44, elapsed: 0),
            end: LiveBreakRecord.End(
                originCount: 2, contentDuration: 8, outputCount: 3, discontinuitiesAdded: 2,
                originDiscontinuitiesRemoved: 1))
        state.breaks = [ended, open]
        return state
    }()

    @Test func aStateComesBackExactly() throws {
        let text = Self.full.text
        #expect(text.hasPrefix("interlude-live-stitch-state 1\n"))
        #expect(try LiveStitchState(text: text) == Self.full)
        #expect(try LiveStitchState(text: LiveStitchState().text) == LiveStitchState())
    }

    @Test func aStateFromTheTimelineComesBackExactly() throws {
        let origin = SimulatedLiveOrigin(style: .cueOutDuration, breaks: [.init(start: 8, length: 6)])
        var timeline = LiveStitchTimeline()
        for edge in 5...12 { _ = try timeline.stitch(origin.playlist(edge: edge), pods: TestPods()) }
        #expect(!timeline.state.breaks.isEmpty)
        #expect(try LiveStitchState(text: timeline.state.text) == timeline.state)
    }

    @Test(arguments: [
        "", "{\"settled\":{}}", "interlude-live-stitch-state 2\nsettled 0 0 0\n",
        "interlude-live-stitch-state 1\n", "interlude-live-stitch-state 1\nsettled 0 0\n",
        "interlude-live-stitch-state 1\nsettled x 0 0\n",
        "interlude-live-stitch-state 1\nsettled 0 0 0\nmarker #EXT-X-CUE-OUT\n",
        "interlude-live-stitch-state 1\nsettled 0 0 0\nbreak 1 2 0 0 4 1 0 - - cueOut - - b\n",
        "interlude-live-stitch-state 1\nsettled 0 0 0\nbreak 1 1 0 0 nan 1 0 - - cueOut - - b\n",
        "interlude-live-stitch-state 1\nsettled 0 0 0\nbreak 1 1 0 0 4 1 0 - - cueOut fc0 - b\n",
        "interlude-live-stitch-state 1\nsettled 0 0 0\nbreak 1 1 0 0 4 1 0 - - cueOut - 1,2,3 b\n",
        "interlude-live-stitch-state 1\nsettled 0 0 0\nbreak 1 1 0 0 4 1 0 - - cue%4 - - b\n",
        "interlude-live-stitch-state 1\nsettled 0 0 0\nbreak 5 1 0 0 4 1 0 - - a - - b\nbreak 5 1 0 0 4 1 0 - - a - - c\n",
    ])
    func anythingElseIsRefused(text: String) {
        #expect(throws: HLSError.self) { try LiveStitchState(text: text) }
    }

    @Test func everyTruncationOfAStateIsRefusedOrReadWithoutTrapping() {
        let text = Array(Self.full.text.utf8)
        for length in 0..<text.count {
            let cut = String(decoding: text[..<length], as: UTF8.self)
            // A cut at a line end may still be a valid (shorter) state; anything else must throw.
            _ = try? LiveStitchState(text: cut)
        }
    }
}
