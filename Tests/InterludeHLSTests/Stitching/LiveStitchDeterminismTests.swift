import Foundation
import Testing

@testable import InterludeHLS

/// The output is a pure function of the origin window and the stored
/// state: processes that share the state answer alike, in any order.
@Suite struct LiveStitchDeterminismTests {
    static let origin = SimulatedLiveOrigin(
        style: .scte35Enhanced,
        breaks: [.init(start: 8, length: 6), .init(start: 20, length: 12), .init(start: 40, length: 3)])

    static func singleProcess(_ edges: [Int]) throws -> [String] {
        var timeline = LiveStitchTimeline()
        return try edges.map { edge in
            String(
                decoding: try timeline.stitch(bytes: Array(origin.window(edge: edge).utf8), pods: TestPods()),
                as: UTF8.self)
        }
    }

    /// Two processes load the stored state (JSON), answer the reload, and store
    /// the state again; `who(reload)` says which process answers it.
    static func twoProcesses(_ edges: [Int], who: (Int) -> Int) throws -> [String] {
        var stored = try JSONEncoder().encode(LiveStitchState())
        var texts: [String] = []
        for (reload, edge) in edges.enumerated() {
            _ = who(reload)
            let state = try JSONDecoder().decode(LiveStitchState.self, from: stored)
            var timeline = LiveStitchTimeline(state: state)
            let bytes = try timeline.stitch(bytes: Array(origin.window(edge: edge).utf8), pods: TestPods())
            texts.append(String(decoding: bytes, as: UTF8.self))
            stored = try JSONEncoder().encode(timeline.state)
        }
        return texts
    }

    @Test func twoProcessesSharingTheStoredStateAnswerByteForByteLikeOne() throws {
        let edges = Array(5...50)
        let one = try Self.singleProcess(edges)
        let alternating = try Self.twoProcesses(edges) { $0 % 2 }
        let bursts = try Self.twoProcesses(edges) { ($0 / 3) % 2 }
        #expect(one == alternating)
        #expect(one == bursts)
        let reloads = try one.map { try HLSParser().parseMedia(Array($0.utf8)) }
        expectNoFindings(LiveReloadChecker.check(reloads))
    }

    @Test func aTimelineThatSeesEveryOtherWindowAnswersThoseWindowsAlike() throws {
        let every = try Self.singleProcess(Array(5...50))
        let everyOther = try Self.singleProcess(Array(stride(from: 5, through: 50, by: 2)))
        for (index, text) in everyOther.enumerated() { #expect(text == every[index * 2]) }
    }

    @Test func stitchingTheSameWindowTwiceChangesNothing() throws {
        var timeline = LiveStitchTimeline()
        for edge in 5...12 { _ = try timeline.stitch(Self.origin.playlist(edge: edge), pods: TestPods()) }
        let state = timeline.state
        let first = HLSWriter.bytes(try timeline.stitch(Self.origin.playlist(edge: 12), pods: TestPods()))
        let second = HLSWriter.bytes(try timeline.stitch(Self.origin.playlist(edge: 12), pods: TestPods()))
        #expect(first == second)
        #expect(timeline.state == state)
    }

    @Test func mergingTwoProcessesStatesKeepsWhatEitherLearned() throws {
        // Process A saw the first break start, B (from the same stored start) the second.
        var a = LiveStitchTimeline()
        for edge in 5...16 { _ = try a.stitch(Self.origin.playlist(edge: edge), pods: TestPods()) }
        var b = LiveStitchTimeline(state: a.state)
        for edge in 17...24 { _ = try b.stitch(Self.origin.playlist(edge: edge), pods: TestPods()) }
        var merged = a.state
        merged.merge(b.state)
        #expect(merged == b.state)
        var reversed = b.state
        reversed.merge(a.state)
        #expect(reversed == b.state)
    }

    @Test func theStateStaysSmallAndFoldsOldBreaks() throws {
        var timeline = LiveStitchTimeline(options: .init(settleAfterSegments: 10))
        var reloads: [MediaPlaylist] = []
        for edge in 5...70 { reloads.append(try timeline.stitch(Self.origin.playlist(edge: edge), pods: TestPods())) }
        expectNoFindings(LiveReloadChecker.check(reloads))
        #expect(timeline.state.breaks.isEmpty)
        #expect(timeline.state.settled.throughSequence == 43)
        let json = try JSONEncoder().encode(timeline.state)
        #expect(json.count < 200)
        // A window from before the fold cannot be answered with the same numbers.
        #expect(throws: HLSError.self) { try timeline.stitch(Self.origin.playlist(edge: 30), pods: TestPods()) }
    }

    @Test func thePodIsAskedForOncePerReloadAndBreakWithTheBreaksIdentity() throws {
        let pods = TestPods()
        var timeline = LiveStitchTimeline()
        for edge in 5...10 { _ = try timeline.stitch(Self.origin.playlist(edge: edge), pods: pods) }
        // Break 8 is in windows 8…10: created once, then laid out on each reload.
        #expect(pods.counter.pods == 3)
        let request = try #require(timeline.state.breaks.first?.request)
        #expect(request.breakID == "cue-8")
        #expect(request.originStartSequence == 8)
        #expect(request.plannedDuration == 24)
        #expect(request.startDate == Self.origin.date(8))
        #expect(request.scte35Out == SimulatedLiveOrigin.spliceOut(8, 24).encoded())
    }
}
