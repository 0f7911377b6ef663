import Foundation
import Testing

@testable import InterludeHLS

/// Outside input the live timeline must survive: a failing pod provider,
/// pods it cannot splice, empty and stale windows, windows that jump.
@Suite struct LiveStitchBadInputTests {
    struct FailingPods: LiveStitchPodProvider {
        func pod(for request: LiveBreakRequest) throws(HLSError) -> AdPod? {
            throw HLSError(HLSError.Code("podUnavailable"), "decision store unreachable")
        }
        func slate(duration: Double, for request: LiveBreakRequest) -> [AdSegment] { [] }
    }

    static let origin = SimulatedLiveOrigin(style: .cueOutDuration, breaks: [.init(start: 8, length: 6)])

    @Test func aProviderThatThrowsFailsTheReloadAndRecordsNothing() throws {
        var timeline = LiveStitchTimeline()
        for edge in 5...7 { _ = try timeline.stitch(Self.origin.playlist(edge: edge), pods: TestPods()) }
        let before = timeline.state
        #expect(throws: HLSError.self) { try timeline.stitch(Self.origin.playlist(edge: 8), pods: FailingPods()) }
        #expect(timeline.state == before)
        // The next reload with a working provider records the break as usual.
        _ = try timeline.stitch(Self.origin.playlist(edge: 9), pods: TestPods())
        #expect(timeline.state.breaks.map(\.request.breakID) == ["cue-8"])
    }

    @Test func aPodThatCannotBeSplicedIsRefused() throws {
        let broken = LiveStitchPods(pod: { _ in
            AdPod(ads: [AdPod.Ad(segments: [AdSegment(uri: "a.ts", duration: .nan)])])
        })
        var timeline = LiveStitchTimeline()
        do {
            _ = try timeline.stitch(Self.origin.playlist(edge: 9), pods: broken)
            Issue.record("expected an error")
        } catch {
            #expect(error.code == .invalidAdPod)
        }
        var fmp4 = TestPods()
        fmp4.mapURI = "init.mp4"
        #expect(throws: HLSError.self) { try timeline.stitch(Self.origin.playlist(edge: 9), pods: fmp4) }
        #expect(timeline.state.breaks.isEmpty)
    }

    @Test func slateWithBadDurationsIsLeftOut() throws {
        let origin = SimulatedLiveOrigin(style: .cueOutDuration, breaks: [.init(start: 8, length: 10)])
        let pods = LiveStitchPods(
            pod: { _ in AdPod(ads: [AdPod.Ad(segments: [AdSegment(uri: "ad.ts", duration: 4)])]) },
            slate: { _, _ in [AdSegment(uri: "bad.ts", duration: -1), AdSegment(uri: "inf.ts", duration: .infinity)] })
        var timeline = LiveStitchTimeline()
        var reloads: [MediaPlaylist] = []
        for edge in 5...24 { reloads.append(try timeline.stitch(origin.playlist(edge: edge), pods: pods)) }
        // No slate to fill with: content resumes at its own time after a gap in dates.
        let uris = streamURIs(reloads)
        #expect(!uris.contains("bad.ts") && !uris.contains("inf.ts"))
        #expect(uris.contains("content/18.ts"))
        let findings = LiveReloadChecker.check(reloads).filter { $0.rule != .programDateTimeDiscontinuous }
        expectNoFindings(findings)
    }

    @Test func anEmptyWindowGivesAPlaylistWithoutSegments() throws {
        var timeline = LiveStitchTimeline()
        let empty = try HLSParser().parseMedia(
            Array("#EXTM3U\n#EXT-X-TARGETDURATION:4\n#EXT-X-MEDIA-SEQUENCE:7\n".utf8))
        let output = try timeline.stitch(empty, pods: TestPods())
        #expect(output.segments.isEmpty)
        #expect(output.mediaSequence == 7)
    }

    @Test func aWindowThatJumpsPastAnOpenBreakStillAnswers() throws {
        // The window skips past the CUE-IN at 38: the maximum duration ends
        // the break (100 s after its start, at segment 33).
        let origin = SimulatedLiveOrigin(style: .cueOutWithoutDuration, breaks: [.init(start: 8, length: 30)])
        var timeline = LiveStitchTimeline(options: .init(maximumBreakDuration: 100))
        var reloads: [MediaPlaylist] = []
        for edge in [5, 8, 9, 30, 31, 45, 46] {
            reloads.append(try timeline.stitch(origin.playlist(edge: edge), pods: TestPods()))
        }
        let sequences = reloads.map(\.mediaSequence)
        #expect(zip(sequences, sequences.dropFirst()).allSatisfy { $0 <= $1 })
        #expect(reloads.last?.segments.last?.uri == "content/46.ts")
    }

    @Test func garbageStateFromTheStoreDoesNotDecode() throws {
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(LiveStitchState.self, from: Data("{\"breaks\":[{\"request\":7}]}".utf8))
        }
    }
}

extension LiveStitchBadInputTests {
    @Test func deltaUpdatesAndHugeSequenceNumbersAreRefused() throws {
        var timeline = LiveStitchTimeline()
        let skip = try HLSParser().parseMedia(
            Array(
                "#EXTM3U\n#EXT-X-VERSION:9\n#EXT-X-TARGETDURATION:4\n#EXT-X-MEDIA-SEQUENCE:10\n#EXT-X-SKIP:SKIPPED-SEGMENTS=3\n#EXTINF:4,\nd.ts\n#EXTINF:4,\ne.ts\n"
                    .utf8))
        #expect(throws: HLSError.self) { try timeline.stitch(skip, pods: TestPods()) }
        let huge = try HLSParser().parseMedia(
            Array(
                "#EXTM3U\n#EXT-X-TARGETDURATION:4\n#EXT-X-MEDIA-SEQUENCE:18446744073709551614\n#EXTINF:4,\na.ts\n".utf8)
        )
        #expect(throws: HLSError.self) { try timeline.stitch(huge, pods: TestPods()) }
        #expect(timeline.state == LiveStitchState())
    }

    @Test func aWindowOlderThanARecordedBreakLeavesTheBreakAlone() throws {
        let origin = SimulatedLiveOrigin(style: .cueOutWithoutDuration, breaks: [.init(start: 20, length: 4)])
        var timeline = LiveStitchTimeline()
        _ = try timeline.stitch(origin.playlist(edge: 21), pods: TestPods())
        let recorded = timeline.state
        let older = try timeline.stitch(origin.playlist(edge: 10), pods: TestPods())
        #expect(older.segments.map(\.uri) == content(5...10))
        #expect(timeline.state == recorded)
    }

    /// Found by HLSPlaylistFuzz: an EXTINF of 6.7e124 s is a valid decimal
    /// float, and the stitcher's TARGETDURATION (and the reload checker's and
    /// the splicer's) trapped converting it to an integer.
    @Test func anAbsurdlyLongSegmentStitchesChecksAndSplicesWithoutTrapping() throws {
        let huge = "6" + String(repeating: "7", count: 124) + ".000"
        let text = """
            #EXTM3U
            #EXT-X-VERSION:4
            #EXT-X-TARGETDURATION:6
            #EXT-X-MEDIA-SEQUENCE:0
            #EXT-X-PROGRAM-DATE-TIME:2024-05-01T12:00:00.000Z
            #EXTINF:6.000,
            c0.ts
            #EXTINF:\(huge),
            c1.ts

            """
        guard case .media(let media) = try HLSParser().parse(Array(text.utf8)) else {
            Issue.record("not a media playlist")
            return
        }
        var timeline = LiveStitchTimeline()
        let first = try timeline.stitch(media, pods: TestPods())
        let second = try timeline.stitch(media, pods: TestPods())
        #expect(first.targetDuration ?? 0 > 6)
        _ = LiveReloadChecker.check([first, second])
        let pod = AdPod(ads: [AdPod.Ad(segments: [AdSegment(uri: "ad.ts", duration: 1e300)])])
        _ = try? media.insertingAdPod(pod, at: 1)
    }

    /// Found by HLSPlaylistFuzz (out of memory): a break whose content is one
    /// segment of 10^124 s was filled with slate for all of it. The fill is
    /// bounded (a day, 50,000 segments), so the reload finishes and stays small.
    @Test func aBreakOverAnAbsurdlyLongSegmentIsFilledWithinBounds() throws {
        let huge = "6" + String(repeating: "7", count: 124) + ".000"
        let text = """
            #EXTM3U
            #EXT-X-TARGETDURATION:6
            #EXT-X-MEDIA-SEQUENCE:0
            #EXT-X-PROGRAM-DATE-TIME:2024-05-01T12:00:00.000Z
            #EXTINF:6.000,
            c0.ts
            #EXT-X-CUE-OUT:12
            #EXTINF:\(huge),
            c1.ts
            #EXT-X-CUE-IN
            #EXTINF:6.000,
            c2.ts
            #EXTINF:6.000,
            c3.ts

            """
        guard case .media(let media) = try HLSParser().parse(Array(text.utf8)) else {
            Issue.record("not a media playlist")
            return
        }
        for slate in [6.0, 1e-9] {
            var timeline = LiveStitchTimeline(options: .init(slateSegmentDuration: slate))
            let first = try timeline.stitch(media, pods: TestPods())
            let second = try timeline.stitch(media, pods: TestPods())
            #expect(second.segments.count <= BreakLayout.maximumSegments + 8)
            #expect(first.segments.map(\.uri) == second.segments.map(\.uri))
            #expect(second.segments.last?.uri == "c3.ts")
        }
    }
}
