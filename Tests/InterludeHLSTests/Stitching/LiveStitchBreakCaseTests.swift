import Foundation
import Testing

@testable import InterludeHLS

/// The break cases a live origin produces, each with its defined answer.
@Suite struct LiveStitchBreakCaseTests {
    @Test func aBreakOpenAtTheLiveEdgeIsStitchedAsFarAsTheOriginGoes() throws {
        let origin = SimulatedLiveOrigin(style: .cueOutDuration, breaks: [.init(start: 8, length: 6)])
        var harness = LiveStitchHarness(origin)
        // The edge is segment 10: three break segments (12 s) are out.
        _ = try harness.replay(5...9)
        let open = try harness.reload(edge: 10)
        #expect(open.segments.map(\.uri).suffix(3) == podURIs("cue-8", count: 3)[...])
        #expect(open.segments.last?.programDateTime == origin.date(8).addingTimeInterval(8))
        // No DATERANGE end, no resumed content yet.
        #expect(!harness.texts.last!.contains(",DURATION="))
    }

    @Test func aBreakLongerThanTheWindowKeepsItsPodPositionAndIsFilledWithSlate() throws {
        // 48 s break, 24 s window: the CUE-OUT leaves the window long before the end.
        let origin = SimulatedLiveOrigin(style: .elemental, breaks: [.init(start: 8, length: 12)])
        var harness = LiveStitchHarness(origin)
        let reloads = try harness.replay(5...30)
        expectNoFindings(LiveReloadChecker.check(reloads))
        let slate = Array(repeating: "slate/4.000.ts", count: 6)
        #expect(streamURIs(reloads) == content(0...7) + podURIs("cue-8") + slate + content(20...30))
        let all = segmentsBySequence(reloads)
        #expect(all[20]?.programDateTime == origin.date(20))
        // Each slate run starts with a DISCONTINUITY (slate segments restart their timestamps).
        #expect((14...19).allSatisfy { all[UInt64($0)]?.isDiscontinuity == true })
        #expect(all[20]?.discontinuitySequence == 9)
    }

    @Test func aBreakWithoutDurationEndsAtItsCueInAndCutsThePodThere() throws {
        let origin = SimulatedLiveOrigin(style: .cueOutWithoutDuration, breaks: [.init(start: 8, length: 4)])
        var harness = LiveStitchHarness(origin)
        let reloads = try harness.replay(5...20)
        expectNoFindings(LiveReloadChecker.check(reloads))
        #expect(streamURIs(reloads) == content(0...7) + podURIs("cue-8", count: 4) + content(12...20))
    }

    @Test func aBreakWithoutDurationThatOutlastsThePodGetsSlateUntilItsCueIn() throws {
        // 40 s break, 24 s pod; slate asked 6 s at a time, then 4 s to close.
        let origin = SimulatedLiveOrigin(style: .cueOutWithoutDuration, breaks: [.init(start: 8, length: 10)])
        var harness = LiveStitchHarness(origin, options: .init(slateSegmentDuration: 6, minimumTargetDuration: 6))
        let reloads = try harness.replay(5...25)
        expectNoFindings(LiveReloadChecker.check(reloads))
        let expected =
            content(0...7) + podURIs("cue-8") + ["slate/6.000.ts", "slate/6.000.ts", "slate/4.000.ts"]
            + content(18...25)
        #expect(streamURIs(reloads) == expected)
        #expect(segmentsBySequence(reloads)[17]?.programDateTime == origin.date(18))
    }

    @Test func aMarkerThatNeverClosesEndsAfterTheMaximumBreakDuration() throws {
        let origin = SimulatedLiveOrigin(style: .cueOutWithoutDuration, breaks: [.init(start: 8, length: 1000)])
        var harness = LiveStitchHarness(origin, options: .init(maximumBreakDuration: 40))
        let reloads = try harness.replay(5...30)
        expectNoFindings(LiveReloadChecker.check(reloads))
        let slate = Array(repeating: "slate/4.000.ts", count: 4)
        #expect(streamURIs(reloads) == content(0...7) + podURIs("cue-8") + slate + content(18...30))
    }

    @Test func aStreamThatStartsMidBreakShowsThatBreaksContentThenAdsFromTheNext() throws {
        let origin = SimulatedLiveOrigin(
            style: .elemental, breaks: [.init(start: 8, length: 6), .init(start: 22, length: 4)])
        var harness = LiveStitchHarness(origin)
        // First reload: window 10…15, the CUE-OUT at 8 already gone.
        let reloads = try harness.replay(15...34)
        expectNoFindings(LiveReloadChecker.check(reloads))
        #expect(streamURIs(reloads, from: 10) == content(10...21) + podURIs("cue-22", count: 4) + content(26...34))
        #expect(harness.timeline.state.breaks.map(\.request.breakID) == ["cue-22"])
    }

    @Test func aBreakThatStartsInsideAnotherEndsTheFirst() throws {
        // CUE-OUT at 8 (24 s) and CUE-OUT at 12 (16 s); the first CUE-IN (at 14) ends the second.
        let origin = SimulatedLiveOrigin(
            style: .cueOutDuration, breaks: [.init(start: 8, length: 6), .init(start: 12, length: 4)])
        var harness = LiveStitchHarness(origin)
        let reloads = try harness.replay(5...24)
        expectNoFindings(LiveReloadChecker.check(reloads))
        let expected = content(0...7) + podURIs("cue-8", count: 4) + podURIs("cue-12", count: 2) + content(14...24)
        #expect(streamURIs(reloads) == expected)
    }

    @Test func aBreakThePodServerLeavesEmptyKeepsItsContent() throws {
        let origin = SimulatedLiveOrigin(style: .dateRange, breaks: [.init(start: 8, length: 6)])
        var pods = TestPods()
        pods.withoutPod = ["splice-8"]
        var harness = LiveStitchHarness(origin, pods: pods)
        let reloads = try harness.replay(5...20)
        expectNoFindings(LiveReloadChecker.check(reloads))
        #expect(streamURIs(reloads) == content(0...20))
        #expect(harness.timeline.state.breaks.first?.isReplaced == false)
    }

    @Test func markersPassThroughWhenAsked() throws {
        var origin = SimulatedLiveOrigin(style: .scte35Enhanced, breaks: [.init(start: 8, length: 6)])
        origin.windowSize = 10
        var harness = LiveStitchHarness(origin, options: .init(passesMarkersThrough: true))
        let reloads = try harness.replay(5...20)
        expectNoFindings(LiveReloadChecker.check(reloads))
        let all = segmentsBySequence(reloads)
        #expect(all[8]?.tag(HLSTagName.cueOut)?.valueText == "24.000")
        #expect(all[8]?.tag(HLSTagName.oatclsSCTE35) != nil)
        #expect(all[8]?.tag(HLSTagName.asset)?.valueText == "CAID=0x0000000020FB6501")
        #expect(all[9]?.tag(HLSTagName.cueOutCont)?.valueText == "ElapsedTime=4.000,Duration=24.000")
        #expect(all[14]?.tag(HLSTagName.cueIn) != nil)
        // The stitched stream reads back as one break over the pod.
        let window = try #require(reloads.last { $0.segments.first?.mediaSequence == 7 })
        let adBreak = try #require(window.adBreaks.first)
        #expect(adBreak.segmentRange == 1..<7)
        #expect(adBreak.isComplete)
    }

    @Test func eachStitchedBreakIsDescribedByADateRange() throws {
        let origin = SimulatedLiveOrigin(style: .oatcls, breaks: [.init(start: 8, length: 6)])
        var harness = LiveStitchHarness(origin)
        let reloads = try harness.replay(5...16)
        let all = segmentsBySequence(reloads)
        let start = try #require(all[8]?.dateRanges.first)
        #expect(start.id == "cue-8")
        #expect(start.startDate == origin.date(8))
        #expect(start.plannedDuration == 24)
        let end = try #require(all[14]?.dateRanges.first)
        #expect(end.id == "cue-8")
        #expect(end.duration == 24)
        #expect(HLSValidator.validate(try #require(reloads.last)).filter { $0.severity == .error }.isEmpty)
    }
}

/// A break that closes where it opens (a cancelled avail: the packager
/// writes the out and the in marker before the same segment) has no
/// content to replace: the stream plays on, unchanged, in every style.
@Suite struct LiveStitchZeroLengthBreakTests {
    @Test(arguments: SimulatedLiveOrigin.Style.allCases)
    func aBreakThatEndsWhereItStartsLeavesTheContent(style: SimulatedLiveOrigin.Style) throws {
        let origin = SimulatedLiveOrigin(style: style, breaks: [.init(start: 8, length: 0)])
        var harness = LiveStitchHarness(origin)
        let reloads = try harness.replay(5...20)
        expectNoFindings(LiveReloadChecker.check(reloads))
        #expect(streamURIs(reloads) == content(0...20))
    }

    @Test func aCueOutWithADurationCancelledByACueInOnTheSameSegmentLeavesTheContent() throws {
        // CUE-OUT:30 then CUE-IN before segment 8, then a real break at 12.
        var origin = SimulatedLiveOrigin(style: .cueOutDuration, breaks: [.init(start: 12, length: 4)])
        origin.windowSize = 6
        var harness = LiveStitchHarness(origin)
        var reloads: [MediaPlaylist] = []
        for edge in 5...24 {
            var text = origin.window(edge: edge)
            text = text.replacingOccurrences(
                of: "#EXTINF:4.000,\ncontent/8.ts",
                with: "#EXT-X-CUE-OUT:30\n#EXT-X-CUE-IN\n#EXTINF:4.000,\ncontent/8.ts")
            reloads.append(try harness.reload(text))
        }
        expectNoFindings(LiveReloadChecker.check(reloads))
        #expect(streamURIs(reloads) == content(0...11) + podURIs("cue-12", count: 4) + content(16...24))
    }
}
