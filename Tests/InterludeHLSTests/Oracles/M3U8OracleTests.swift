import Foundation
import Testing

@testable import InterludeHLS

/// The Python `m3u8` package reads every playlist the stitcher writes in
/// these tests the way InterludeHLS does, and on its reading too the
/// numbering rules of RFC 8216bis 6.2.2 hold.
@Suite(.enabled(if: PythonOracle.has("m3u8"), "python3 with the m3u8 package is missing (pip install m3u8)"))
struct M3U8OracleTests {
    /// Every scenario's stitched reloads, by scenario name.
    static func scenarios() throws -> [(String, [String])] {
        var result: [(String, [String])] = []
        for style in SimulatedLiveOrigin.Style.allCases {
            var origin = SimulatedLiveOrigin(
                style: style, breaks: [.init(start: 8, length: 6), .init(start: 22, length: 12)])
            origin.loopLength = 15
            var harness = LiveStitchHarness(origin)
            _ = try harness.replay(5...44)
            result.append((style.rawValue, harness.texts))
        }
        var passthrough = LiveStitchHarness(
            SimulatedLiveOrigin(style: .scte35Enhanced, breaks: [.init(start: 8, length: 6)]),
            options: .init(passesMarkersThrough: true))
        _ = try passthrough.replay(5...24)
        result.append(("passthrough", passthrough.texts))
        var interstitials = LiveStitchHarness(
            SimulatedLiveOrigin(style: .dateRange, breaks: [.init(start: 8, length: 6)]),
            options: .init(mode: .interstitials))
        _ = try interstitials.replay(5...24)
        result.append(("interstitials", interstitials.texts))
        var vod = try Fixture.media("VOD/vod-basic.m3u8")
        try vod.insertAdPod(AdSplicerTests.threeAdPod, at: 1)
        try vod.insertInterstitial(.vodInsertion(assetURI: "post.m3u8"), id: "post", at: vod.segments.count)
        result.append(("vod", [vod.text]))
        return result
    }

    @Test func m3u8ReadsEveryStitchedPlaylistAsInterludeDoes() throws {
        let directory = try PythonOracle.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let scenarios = try Self.scenarios()
        var ours: [String: MediaPlaylist] = [:]
        for (name, texts) in scenarios {
            for (index, text) in texts.enumerated() {
                let file = "\(name)-\(String(format: "%03d", index)).m3u8"
                try Data(text.utf8).write(to: directory.appendingPathComponent(file))
                ours[file] = try MediaPlaylist(parsing: text)
            }
        }
        let run = try PythonOracle.snakeCaseDecoder.decode(
            M3U8Run.self,
            from: PythonOracle.run([PythonOracle.scripts.appendingPathComponent("m3u8-oracle.py").path, directory.path])
        )
        #expect(run.files.count == ours.count)
        for (file, playlist) in ours {
            let report = try #require(run.files[file], "\(file)")
            #expect(report.mediaSequence ?? 0 == playlist.mediaSequence, "\(file)")
            #expect(report.discontinuitySequence ?? 0 == playlist.discontinuitySequence, "\(file)")
            #expect(report.targetDuration.map { Int($0) } == playlist.targetDuration, "\(file)")
            #expect(report.segments.map(\.uri) == playlist.segments.map(\.uri), "\(file)")
            #expect(report.segments.map(\.discontinuity) == playlist.segments.map(\.isDiscontinuity), "\(file)")
            for (theirs, segment) in zip(report.segments, playlist.segments) {
                #expect(abs(theirs.duration - segment.duration.value) < 1e-9, "\(file) \(segment.uri)")
                if let text = theirs.programDateTime, let date = segment.programDateTime {
                    let parsed = try #require(HLSDateFormat.parse(text.replacingOccurrences(of: "+00:00", with: "Z")))
                    #expect(abs(parsed.timeIntervalSince(date)) < 0.001, "\(file) \(segment.uri)")
                }
                #expect(theirs.keyMethod == segment.keys.last?.attributes.string("METHOD") || segment.keys.isEmpty)
            }
        }
        // The numbering rules on m3u8's own reading of each scenario's reloads.
        for (name, texts) in scenarios where texts.count > 1 {
            let reports = try texts.indices.map { index in
                try #require(run.files["\(name)-\(String(format: "%03d", index)).m3u8"])
            }
            #expect(Self.numberingProblems(reports).isEmpty, "\(name): \(Self.numberingProblems(reports).prefix(3))")
        }
    }

    /// RFC 8216bis 6.2.2 on m3u8's view: a number names one URI and one
    /// discontinuity number for good, and the sequences rise by what left.
    static func numberingProblems(_ reports: [M3U8Report]) -> [String] {
        var problems: [String] = []
        var seen: [UInt64: (uri: String, discontinuity: UInt64)] = [:]
        var previous: M3U8Report?
        for (reload, report) in reports.enumerated() {
            let first = report.mediaSequence ?? 0
            var discontinuity = report.discontinuitySequence ?? 0
            for (index, segment) in report.segments.enumerated() {
                if segment.discontinuity { discontinuity += 1 }
                let sequence = first + UInt64(index)
                if let known = seen[sequence], known != (segment.uri, discontinuity) {
                    problems.append("reload \(reload): \(sequence) was \(known), now \(segment.uri) \(discontinuity)")
                }
                seen[sequence] = (segment.uri, discontinuity)
            }
            if let previous, let before = previous.mediaSequence {
                let removed = Int(first - before)
                let left = previous.segments.prefix(removed).filter(\.discontinuity).count
                if removed <= previous.segments.count,
                    (report.discontinuitySequence ?? 0) != (previous.discontinuitySequence ?? 0) + UInt64(left)
                {
                    problems.append("reload \(reload): DISCONTINUITY-SEQUENCE did not rise by the \(left) that left")
                }
            }
            previous = report
        }
        return problems
    }
}
