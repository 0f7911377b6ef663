import Foundation
import Testing

@testable import InterludeHLS

/// Replays reloads of a simulated origin through a timeline the way a
/// player sees them: the stitched bytes are parsed back before checking.
struct LiveStitchHarness {
    var origin: SimulatedLiveOrigin
    var timeline: LiveStitchTimeline
    var pods = TestPods()
    /// The text of every stitched reload, in order.
    var texts: [String] = []

    init(_ origin: SimulatedLiveOrigin, options: LiveStitchTimeline.Options = .init(), pods: TestPods = TestPods()) {
        self.origin = origin
        self.timeline = LiveStitchTimeline(options: options)
        self.pods = pods
    }

    /// Stitches the window ending at `edge` and returns the output as parsed back.
    @discardableResult
    mutating func reload(edge: Int) throws -> MediaPlaylist {
        try reload(origin.window(edge: edge))
    }

    /// Stitches `window`, an origin playlist's text, and returns the output as parsed back.
    @discardableResult
    mutating func reload(_ window: String) throws -> MediaPlaylist {
        let bytes = try timeline.stitch(bytes: Array(window.utf8), pods: pods)
        let text = String(decoding: bytes, as: UTF8.self)
        texts.append(text)
        return try HLSParser().parseMedia(bytes)
    }

    mutating func replay(_ edges: ClosedRange<Int>) throws -> [MediaPlaylist] {
        try edges.map { try reload(edge: $0) }
    }
}

/// Every output segment seen, by media sequence number (the checker has
/// already made sure one number never names two segments).
func segmentsBySequence(_ reloads: [MediaPlaylist]) -> [UInt64: MediaSegment] {
    var result: [UInt64: MediaSegment] = [:]
    for playlist in reloads {
        for segment in playlist.segments where result[segment.mediaSequence] == nil {
            result[segment.mediaSequence] = segment
        }
    }
    return result
}

/// The URIs of the stream in media sequence order, from `first` to the last seen.
func streamURIs(_ reloads: [MediaPlaylist], from first: UInt64 = 0) -> [String] {
    let all = segmentsBySequence(reloads)
    guard let last = all.keys.max() else { return [] }
    return (first...last).map { all[$0]?.uri ?? "<missing \($0)>" }
}

func expectNoFindings(_ findings: [HLSFinding], sourceLocation: SourceLocation = #_sourceLocation) {
    #expect(findings.isEmpty, "\(findings.prefix(5).map(\.description))", sourceLocation: sourceLocation)
}

/// `content/a.ts` … `content/b.ts`.
func content(_ range: ClosedRange<Int>) -> [String] { range.map { "content/\($0).ts" } }

/// The URIs of pod `breakID` from `TestPods` with the given shape, first `count` of them.
func podURIs(_ breakID: String, ads: Int = 2, perAd: Int = 3, count: Int? = nil) -> [String] {
    let all = (0..<ads).flatMap { ad in (0..<perAd).map { "ads/\(breakID)/ad\(ad)/\($0).ts" } }
    return Array(all.prefix(count ?? all.count))
}
