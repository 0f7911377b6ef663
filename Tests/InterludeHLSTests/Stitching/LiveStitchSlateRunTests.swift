import Foundation
import Testing

@testable import InterludeHLS

/// Slate and pods whose own timestamps restart inside a run (a looping
/// slate), and states merged while a break is still open.
@Suite struct LiveStitchSlateRunTests {
    /// One-ad pods of 3 s and slate that restarts every 2 s: its third
    /// second, fifth, … are marked ``AdSegment/isDiscontinuity``.
    struct LoopingSlatePods: LiveStitchPodProvider {
        func pod(for request: LiveBreakRequest) throws(HLSError) -> AdPod? {
            AdPod(ads: [AdPod.Ad(segments: [AdSegment(uri: "ads/\(request.breakID)/0.ts", duration: 3)])])
        }

        func slate(duration: Double, for request: LiveBreakRequest) -> [AdSegment] {
            let whole = Int(duration.rounded(.down))
            var segments = (0..<whole).map {
                AdSegment(
                    uri: "slate/\(Int(duration * 1000))/\($0).ts", duration: 1, isDiscontinuity: $0 > 0 && $0 % 2 == 0)
            }
            let rest = duration - Double(whole)
            if rest > 0.0005 {
                segments.append(
                    AdSegment(uri: "slate/\(Int(duration * 1000))/tail.ts", duration: rest, isDiscontinuity: whole > 0))
            }
            return segments
        }
    }

    @Test func aSlateSegmentThatRestartsGetsADiscontinuityAndTheNumberingCountsIt() throws {
        let origin = SimulatedLiveOrigin(style: .cueOutDuration, breaks: [.init(start: 10, length: 3)])
        var timeline = LiveStitchTimeline()
        var reloads: [MediaPlaylist] = []
        for edge in 5...30 {
            let bytes = try timeline.stitch(bytes: Array(origin.window(edge: edge).utf8), pods: LoopingSlatePods())
            reloads.append(try HLSParser().parseMedia(bytes))
        }
        expectNoFindings(LiveReloadChecker.check(reloads))
        let all = segmentsBySequence(reloads).sorted { $0.key < $1.key }.map(\.value)
        // 12 s break: the 3 s ad, then slate in target-duration (4 s) runs, then the 1 s remainder.
        let slate = all.filter { $0.uri.hasPrefix("slate/") }
        #expect(slate.reduce(0) { $0 + $1.duration.value } == 9)
        for segment in slate {
            let restarts =
                segment.uri.hasSuffix("/0.ts") || segment.uri.hasSuffix("/2.ts") || segment.uri.hasSuffix("/tail.ts")
            #expect(segment.isDiscontinuity == restarts, "\(segment.uri)")
        }
        // Discontinuity numbers rise at each of those tags, as RFC 8216bis 6.2.2 counts them.
        for (before, segment) in zip(all, all.dropFirst()) {
            #expect(segment.discontinuitySequence == before.discontinuitySequence + (segment.isDiscontinuity ? 1 : 0))
        }
    }

    @Test func aSplicedPodSegmentMarkedAsRestartingGetsADiscontinuity() throws {
        var content = MediaPlaylist(
            targetDuration: 4,
            segments: (0..<3).map { MediaSegment(uri: "c\($0).ts", duration: 4) }, ended: true)
        content.playlistType = "VOD"
        let pod = AdPod(ads: [
            AdPod.Ad(segments: [
                AdSegment(uri: "a0.ts", duration: 4), AdSegment(uri: "slate0.ts", duration: 1, isDiscontinuity: true),
                AdSegment(uri: "slate1.ts", duration: 1),
            ])
        ])
        let spliced = try AdSplicer(markerStyle: .cueOut).insert(pod, into: content, at: 1)
        #expect(spliced.segments.map(\.uri) == ["c0.ts", "a0.ts", "slate0.ts", "slate1.ts", "c1.ts", "c2.ts"])
        #expect(spliced.segments.map(\.isDiscontinuity) == [false, true, true, false, true, false])
    }

    @Test func mergingKeepsTheAnchorNearestTheLiveEdgeOfABreakStillOpen() throws {
        // A break longer than the window, without PROGRAM-DATE-TIME: only the anchor knows how far it has run.
        var origin = SimulatedLiveOrigin(style: .cueOutWithoutDuration, breaks: [.init(start: 8, length: 20)])
        origin.programDateTime = false
        var earlier = LiveStitchTimeline()
        for edge in 5...10 { _ = try earlier.stitch(origin.playlist(edge: edge), pods: TestPods()) }
        var later = LiveStitchTimeline(state: earlier.state)
        for edge in 11...16 { _ = try later.stitch(origin.playlist(edge: edge), pods: TestPods()) }
        #expect(later.state.breaks.first?.end == nil)
        var merged = earlier.state
        merged.merge(later.state)
        #expect(merged == later.state)
        // A process that loads the merged state answers the next reload as the later one does.
        var fromMerged = LiveStitchTimeline(state: merged)
        let expected = try later.stitch(origin.playlist(edge: 17), pods: TestPods())
        #expect(try fromMerged.stitch(origin.playlist(edge: 17), pods: TestPods()) == expected)
    }
}
