import Foundation
import Testing

@testable import InterludeHLS

/// RFC 8216bis 6.2.2 across reloads of a stitched live stream, for every
/// marker style an origin may use.
@Suite struct LiveStitchNumberingTests {
    static func breakID(_ style: SimulatedLiveOrigin.Style, _ start: Int) -> String {
        switch style {
        case .dateRange: return "splice-\(start)"
        case .dateRangeCommand: return "po-\(start)"
        default: return "cue-\(start)"
        }
    }

    /// Two breaks: 24 s at segment 8 (the 24 s pod fits exactly) and 16 s at
    /// 22 (the pod is cut at its end), 30 reloads sliding one segment each.
    @Test(arguments: SimulatedLiveOrigin.Style.allCases)
    func thirtyReloadsOverTwoBreaksKeepEveryNumberingRule(style: SimulatedLiveOrigin.Style) throws {
        let origin = SimulatedLiveOrigin(
            style: style, breaks: [.init(start: 8, length: 6), .init(start: 22, length: 4)])
        var harness = LiveStitchHarness(origin)
        let reloads = try harness.replay(5...34)
        expectNoFindings(LiveReloadChecker.check(reloads))
        let first = Self.breakID(style, 8)
        let second = Self.breakID(style, 22)
        // The pods take the breaks' places one for one (4 s segments on both sides).
        let expected =
            content(0...7) + podURIs(first) + content(14...21) + podURIs(second, count: 4) + content(26...34)
        #expect(streamURIs(reloads) == expected)
        // DISCONTINUITY before each ad and where content resumes.
        let all = segmentsBySequence(reloads)
        #expect(all[7]?.discontinuitySequence == 0)
        #expect(all[8]?.discontinuitySequence == 1)
        #expect(all[11]?.discontinuitySequence == 2)
        #expect(all[14]?.discontinuitySequence == 3)
        #expect(all[22]?.discontinuitySequence == 4)
        #expect(all[25]?.discontinuitySequence == 5)
        #expect(all[26]?.discontinuitySequence == 6)
        // Content resumes on time: its dates are the origin's.
        for n in [14, 21, 26, 34] { #expect(all[UInt64(n)]?.programDateTime == origin.date(n)) }
        #expect(all[11]?.programDateTime == origin.date(8).addingTimeInterval(12))
        // No source marker survives by default.
        for text in harness.texts {
            #expect(!text.contains("CUE-OUT") && !text.contains("CUE-IN") && !text.contains("SCTE35"))
            #expect(!text.contains("OATCLS") && !text.contains("SPLICEPOINT") && !text.contains("EXT-X-ASSET"))
        }
    }

    @Test func podsWithFewerLongerSegmentsRenumberContentAfterThemOnce() throws {
        // 24 s of content (six 4 s segments) replaced by four 6 s segments.
        let origin = SimulatedLiveOrigin(style: .cueOutDuration, breaks: [.init(start: 8, length: 6)])
        var harness = LiveStitchHarness(
            origin, options: .init(minimumTargetDuration: 6), pods: TestPods(segmentsPerAd: 2, segmentDuration: 6))
        let reloads = try harness.replay(5...30)
        expectNoFindings(LiveReloadChecker.check(reloads))
        #expect(streamURIs(reloads) == content(0...7) + podURIs("cue-8", perAd: 2) + content(14...30))
        let last = try #require(reloads.last)
        // Window 25…30: origin numbers less the two segments the pod saved.
        #expect(last.mediaSequence == 23)
        #expect(last.segments.first?.uri == "content/25.ts")
        #expect(last.targetDuration == 6)
    }

    @Test func originDiscontinuitiesCountOnceWhenTheyLeaveTheWindow() throws {
        // The source loops every 10 segments with a DISCONTINUITY at each wrap.
        var origin = SimulatedLiveOrigin(style: .elemental, breaks: [.init(start: 12, length: 5)])
        origin.loopLength = 10
        var harness = LiveStitchHarness(origin)
        let reloads = try harness.replay(5...40)
        expectNoFindings(LiveReloadChecker.check(reloads))
        let all = segmentsBySequence(reloads)
        #expect(all[9]?.discontinuitySequence == 0)
        #expect(all[10]?.discontinuitySequence == 1)  // wrap
        #expect(all[12]?.discontinuitySequence == 2)  // ad 0
        #expect(all[15]?.discontinuitySequence == 3)  // ad 1 (cut at 20 s)
        #expect(all[17]?.discontinuitySequence == 4)  // content resumes
        #expect(all[20]?.discontinuitySequence == 5)  // wrap
        #expect(all[30]?.discontinuitySequence == 6)
        // A window that starts on a tagged segment counts the tag in its first number.
        let starting = try #require(reloads.first { $0.segments.first?.uri == "content/20.ts" })
        #expect(starting.discontinuitySequence == 4)
        #expect(starting.segments.first?.discontinuitySequence == 5)
    }

    @Test func anOriginThatRepeatsItsDateRangeOnTheWindowsFirstSegmentStitchesAlike() throws {
        // The reference server's channel repeats the SCTE35-OUT DATERANGE on the
        // window's first segment while the break runs.
        var origin = SimulatedLiveOrigin(
            style: .dateRange, breaks: [.init(start: 8, length: 6), .init(start: 22, length: 12)])
        origin.repeatsOutOnWindowStart = true
        var harness = LiveStitchHarness(origin)
        let reloads = try harness.replay(5...44)
        expectNoFindings(LiveReloadChecker.check(reloads))
        let slate = Array(repeating: "slate/4.000.ts", count: 6)
        #expect(
            streamURIs(reloads)
                == content(0...7) + podURIs("splice-8") + content(14...21) + podURIs("splice-22") + slate
                + content(34...44))
        // A stream joining mid-break sees that break's content, whose DATERANGE start is before its window.
        var late = LiveStitchHarness(origin)
        let joined = try late.replay(29...44)
        expectNoFindings(LiveReloadChecker.check(joined))
        #expect(streamURIs(joined, from: 24) == content(24...44))
    }

    @Test func everyReloadParsesToWhatTheTimelineReturned() throws {
        let origin = SimulatedLiveOrigin(style: .scte35Enhanced, breaks: [.init(start: 8, length: 6)])
        var timeline = LiveStitchTimeline()
        for edge in 5...24 {
            let stitched = try timeline.stitch(origin.playlist(edge: edge), pods: TestPods())
            let reparsed = try HLSParser().parseMedia(HLSWriter.bytes(stitched))
            #expect(reparsed.segments.map(\.mediaSequence) == stitched.segments.map(\.mediaSequence))
            #expect(
                reparsed.segments.map(\.discontinuitySequence) == stitched.segments.map(\.discontinuitySequence))
            #expect(reparsed.segments.map(\.programDateTime) == stitched.segments.map(\.programDateTime))
        }
    }

    @Test func adsAfterEncryptedContentAreClearAndContentGetsItsKeyBack() throws {
        var origin = SimulatedLiveOrigin(style: .cueOutDuration, breaks: [.init(start: 4, length: 3)])
        origin.windowSize = 40
        origin.keyURI = "https://keys.example.com/k1"
        var harness = LiveStitchHarness(origin, pods: TestPods(ads: 1))
        let reloads = try harness.replay(2...12)
        expectNoFindings(LiveReloadChecker.check(reloads))
        let last = try #require(reloads.last)
        let ads = last.segments.filter { $0.uri.hasPrefix("ads/") }
        #expect(ads.count == 3)
        #expect(ads.allSatisfy { $0.keys.map { $0.attributes.string("METHOD") } == ["NONE"] })
        let resumed = try #require(last.segments.first { $0.uri == "content/7.ts" })
        #expect(resumed.keys.map { $0.attributes.string("URI") } == ["https://keys.example.com/k1"])
    }
}
