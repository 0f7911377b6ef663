import Foundation
import InterludeHLS
import InterludeTestSupport
import Testing

@testable import InterludeServer

/// Reloads one live stream's renditions over HTTP as a player would, on a
/// clock the test moves, checking each reload with ``LiveReloadChecker``
/// (RFC 8216bis 6.2.2) and that the renditions stay aligned.
struct LiveReplay {
    let port: UInt16
    let streamID: String
    let channel: String
    var query = ""
    var checkers: [String: LiveReloadChecker] = [:]
    var reloads: [String: [MediaPlaylist]] = [:]
    var texts: [String: [String]] = [:]

    init(port: UInt16, streamID: String, channel: String, query: String = "") {
        self.port = port
        self.streamID = streamID
        self.channel = channel
        self.query = query
    }

    func path(_ profile: String) -> String {
        "/vtp/stream_id/\(streamID)/live/\(channel)/\(profile).m3u8\(query)"
    }

    /// Reloads every profile once; returns the playlists by profile.
    @discardableResult
    mutating func reload(_ profiles: [String] = ["180p", "360p"], sourceLocation: SourceLocation = #_sourceLocation)
        async throws -> [String: MediaPlaylist]
    {
        var now: [String: MediaPlaylist] = [:]
        for profile in profiles {
            let (playlist, text) = try await VTPTest.media(path(profile), port: port, sourceLocation: sourceLocation)
            let found = checkers[profile, default: LiveReloadChecker()].check(playlist)
            #expect(
                found.isEmpty,
                "\(profile) reload \(reloads[profile]?.count ?? 0): \(found.prefix(3).map(\.description))\n\(text)",
                sourceLocation: sourceLocation)
            reloads[profile, default: []].append(playlist)
            texts[profile, default: []].append(text)
            now[profile] = playlist
        }
        if let first = now.values.first {
            for playlist in now.values {
                #expect(playlist.mediaSequence == first.mediaSequence, sourceLocation: sourceLocation)
                #expect(playlist.discontinuitySequence == first.discontinuitySequence, sourceLocation: sourceLocation)
                #expect(
                    playlist.segments.map(\.duration) == first.segments.map(\.duration), sourceLocation: sourceLocation)
                #expect(
                    playlist.segments.map(\.isDiscontinuity) == first.segments.map(\.isDiscontinuity),
                    sourceLocation: sourceLocation)
            }
        }
        return now
    }

    /// Every segment of `profile` seen, by media sequence number, in order.
    func stream(_ profile: String) -> [MediaSegment] {
        var bySequence: [UInt64: MediaSegment] = [:]
        for playlist in reloads[profile] ?? [] {
            for segment in playlist.segments where bySequence[segment.mediaSequence] == nil {
                bySequence[segment.mediaSequence] = segment
            }
        }
        return bySequence.keys.sorted().compactMap { bySequence[$0] }
    }

    static func isPod(_ segment: MediaSegment) -> Bool {
        !segment.uri.contains("/origin/") && !segment.uri.contains("/fixture/")
    }

    /// The lengths of the runs of pod segments that content surrounds.
    func completeBreaks(_ profile: String) -> [Double] {
        let segments = stream(profile)
        var lengths: [Double] = []
        var current: Double?
        var sawContent = false
        for segment in segments {
            if Self.isPod(segment) {
                if sawContent { current = (current ?? 0) + segment.duration.value }
            } else {
                if let length = current { lengths.append(length) }
                current = nil
                sawContent = true
            }
        }
        return lengths
    }
}
