import Foundation
import Interlude
import InterludeHLS

@testable import InterludePlayer

/// Drives an ``HLSPlaybackState`` by hand: the test answers the requests
/// it asks for and moves time, and reads what it reported. No clock, no
/// network, no tasks.
struct PlaybackHarness {
    var state: HLSPlaybackState
    var now: TimeInterval = 0
    /// The playlist request waiting for an answer.
    var playlistFetch: HLSFetch?
    /// The segment request waiting for an answer.
    var segmentFetch: HLSFetch?
    /// Every report, in order, with the time it was made.
    var reports: [(time: TimeInterval, report: HLSDisplayReport)] = []
    var logs: [String] = []
    /// Every playlist request, with the time it asked to start.
    var playlistRequests: [HLSFetch] = []
    var segmentRequests: [HLSFetch] = []

    init(_ configuration: HLSStreamDisplay.Configuration = HLSStreamDisplay.Configuration()) {
        state = HLSPlaybackState(configuration: configuration)
    }

    mutating func apply(_ transition: (inout HLSPlaybackState, TimeInterval, inout [HLSPlaybackEffect]) -> Void) {
        var effects: [HLSPlaybackEffect] = []
        transition(&state, now, &effects)
        for effect in effects {
            switch effect {
            case .fetchPlaylist(let fetch):
                playlistFetch = fetch
                playlistRequests.append(fetch)
            case .fetchSegment(let fetch):
                segmentFetch = fetch
                segmentRequests.append(fetch)
            case .cancelPlaylistFetch: playlistFetch = nil
            case .cancelSegmentFetch: segmentFetch = nil
            case .report(let report): reports.append((now, report))
            case .log(_, let message): logs.append(message)
            }
        }
    }

    mutating func load(_ url: String) { apply { $0.load(URL(string: url)!, now: $1, into: &$2) } }
    mutating func play() { apply { $0.play(now: $1, into: &$2) } }
    mutating func pause() { apply { $0.pause(now: $1, into: &$2) } }
    mutating func seek(_ time: TimeInterval) { apply { $0.seek(to: time, now: $1, into: &$2) } }

    /// Answers the playlist request with `body` (time moves to when it may start, if later).
    mutating func answerPlaylist(
        _ body: String, status: Int = 200, contentType: String = "application/vnd.apple.mpegurl"
    ) {
        guard let fetch = playlistFetch else { return }
        playlistFetch = nil
        advance(to: max(now, fetch.notBefore))
        let response = HLSFetchResponse(
            statusCode: status, url: fetch.url, headers: ["Content-Type": contentType], body: Array(body.utf8),
            byteCount: body.utf8.count, contents: nil)
        let startedAt = now
        apply { $0.playlistFetched(id: fetch.id, startedAt: startedAt, result: .success(response), now: $1, into: &$2) }
    }

    /// Fails the playlist request with `error`.
    mutating func failPlaylist(_ error: HTTPClientError, after seconds: TimeInterval = 0) {
        guard let fetch = playlistFetch else { return }
        playlistFetch = nil
        advance(to: max(now, fetch.notBefore))
        let startedAt = now
        advance(to: now + seconds)
        apply { $0.playlistFetched(id: fetch.id, startedAt: startedAt, result: .failure(error), now: $1, into: &$2) }
    }

    /// Answers the segment request with `contents` (a transport stream with no metadata by default).
    mutating func answerSegment(_ contents: HLSSegmentContents = .media(pts: 0), status: Int = 200, bytes: Int = 1000) {
        guard let fetch = segmentFetch else { return }
        segmentFetch = nil
        advance(to: max(now, fetch.notBefore))
        let response = HLSFetchResponse(
            statusCode: status, url: fetch.url, headers: [:], body: [], byteCount: bytes,
            contents: status == 200 ? contents : nil)
        apply { $0.segmentFetched(id: fetch.id, result: .success(response), now: $1, into: &$2) }
    }

    mutating func failSegment(_ error: HTTPClientError) {
        guard let fetch = segmentFetch else { return }
        segmentFetch = nil
        advance(to: max(now, fetch.notBefore))
        apply { $0.segmentFetched(id: fetch.id, result: .failure(error), now: $1, into: &$2) }
    }

    /// Answers segment requests until none is asked for (each one instantly).
    mutating func answerAllSegments(_ contents: (URL) -> HLSSegmentContents = { _ in .media(pts: 0) }) {
        var guardCount = 0
        while let fetch = segmentFetch, guardCount < 10_000 {
            answerSegment(contents(fetch.url))
            guardCount += 1
        }
    }

    /// Moves time to `instant`, waking the core whenever it asked to be woken.
    mutating func advance(to instant: TimeInterval) {
        var wakes = 0
        // A wake-up within rounding of the instant (sums of 0.2 s steps) belongs to it.
        while let wake = state.nextWakeTime(now: now), wake <= instant + 1e-9, wakes < 1_000_000 {
            now = max(now, wake)
            apply { $0.tick(now: $1, into: &$2) }
            wakes += 1
        }
        now = max(now, instant)
    }

    mutating func advance(by seconds: TimeInterval) { advance(to: now + seconds) }

    /// The playhead now, as the display reads it.
    var position: TimeInterval { state.playhead(at: now) }

    // MARK: Reading reports

    var progressTimes: [TimeInterval] {
        reports.compactMap { if case .progressed(let time, _) = $0.report { return time } else { return nil } }
    }

    var metadata: [(values: [String: String], presentationTime: TimeInterval, reportedAt: TimeInterval)] {
        reports.compactMap {
            if case .timedMetadata(let values, let time) = $0.report { return (values, time, $0.time) }
            return nil
        }
    }

    var errors: [HLSStreamError] {
        reports.compactMap { if case .failed(let error) = $0.report { return error } else { return nil } }
    }

    func count(_ report: HLSDisplayReport) -> Int { reports.filter { $0.report == report }.count }
}

extension HLSSegmentContents {
    /// A transport stream segment whose media starts at `pts`, carrying
    /// `metadata` as (PTS, frames) pairs.
    static func media(pts: UInt64?, metadata: [(UInt64, [ID3Frame])] = []) -> HLSSegmentContents {
        HLSSegmentContents(
            firstMediaPTS: pts,
            metadata: metadata.map { TimedID3Metadata(pts: $0.0, frames: $0.1, pid: 0x0102, byteOffset: 0) },
            isTransportStream: true, issueCount: 0, firstIssue: nil)
    }
}

/// Playlists written for the tests.
enum Playlists {
    /// A VOD media playlist of `count` segments of `duration` seconds.
    static func vod(count: Int, duration: Double = 4, target: Int = 4, extra: String = "") -> String {
        var lines = ["#EXTM3U", "#EXT-X-VERSION:3", "#EXT-X-TARGETDURATION:\(target)", "#EXT-X-PLAYLIST-TYPE:VOD"]
        if !extra.isEmpty { lines.append(extra) }
        for index in 0..<count { lines += ["#EXTINF:\(duration),", "seg\(index).ts"] }
        lines.append("#EXT-X-ENDLIST")
        return lines.joined(separator: "\n") + "\n"
    }

    /// A live window: segments `first..<first+count` of `duration` seconds,
    /// each named `seg<n>.ts`, with optional per-segment tags.
    static func live(
        first: Int, count: Int, duration: Double = 4, target: Int = 4, discontinuitySequence: Int = 0,
        header: String = "", tags: [Int: String] = [:], ended: Bool = false
    ) -> String {
        var lines = [
            "#EXTM3U", "#EXT-X-VERSION:3", "#EXT-X-TARGETDURATION:\(target)", "#EXT-X-MEDIA-SEQUENCE:\(first)",
            "#EXT-X-DISCONTINUITY-SEQUENCE:\(discontinuitySequence)",
        ]
        if !header.isEmpty { lines.append(header) }
        for number in first..<(first + count) {
            if let tag = tags[number] { lines.append(tag) }
            lines += ["#EXTINF:\(duration),", "seg\(number).ts"]
        }
        if ended { lines.append("#EXT-X-ENDLIST") }
        return lines.joined(separator: "\n") + "\n"
    }
}
