/// One profile's pod as it plays: each ad's segments, then slate, every
/// segment stated to the millisecond so the pod lasts exactly what was
/// decided (`pd` for a filled live pod). Pure: made from a decision and the
/// media, the same in every process.
struct PodLayout: Sendable {
    struct Entry: Sendable, Hashable {
        var segment: PodSegment
        /// Milliseconds the playlist states (`EXTINF`).
        var milliseconds: Int
        /// A DISCONTINUITY goes before it (between ads, before slate, at a slate wrap).
        var discontinuity: Bool
        /// The ad it belongs to; nil for slate.
        var adPosition: Int?
        /// Milliseconds from its ad's start to its own.
        var offsetInAd: Int
    }

    let entries: [Entry]

    /// Milliseconds in all.
    var duration: Int { entries.reduce(0) { $0 + $1.milliseconds } }

    /// Nil when an ad of the decision has no segments in `profile`.
    init?(decision: PodBreakDecision, profile: String, media: any PodMediaSource) {
        var entries: [Entry] = []
        var adMilliseconds = 0
        for ad in decision.ads {
            guard let segments = media.adSegments(creativeID: ad.creativeID, profile: profile), !segments.isEmpty
            else { return nil }
            var elapsed = 0.0
            var stated = 0
            for (index, segment) in segments.enumerated() {
                elapsed += segment.duration
                // Stated from the running total, so rounding never drifts over the ad.
                let end = Int((elapsed * 1000).rounded())
                entries.append(
                    Entry(
                        segment: segment, milliseconds: end - stated, discontinuity: index == 0 && !entries.isEmpty,
                        adPosition: ad.position, offsetInAd: stated))
                stated = end
            }
            adMilliseconds += stated
        }
        let slate = max(0, decision.duration - adMilliseconds)
        if slate > 0 {
            let segments = media.slate(profile: profile, milliseconds: slate)
            guard !segments.isEmpty else { return nil }
            var elapsed = 0.0
            var stated = 0
            for (index, segment) in segments.enumerated() {
                elapsed += segment.duration
                let end = index == segments.count - 1 ? slate : min(slate, Int((elapsed * 1000).rounded()))
                entries.append(
                    Entry(
                        segment: segment, milliseconds: end - stated,
                        discontinuity: (index == 0 && !entries.isEmpty) || (index > 0 && segment.breaksTimeline),
                        adPosition: nil, offsetInAd: 0))
                stated = end
            }
        }
        self.entries = entries
    }

    /// The timed metadata of entry `index`: each event of its ad that falls
    /// in it, at the segment's first PTS plus the event's offset into it.
    func timedMetadata(of index: Int, in decision: PodBreakDecision) -> [(pts: UInt64, eventID: String)] {
        guard entries.indices.contains(index), let position = entries[index].adPosition,
            let ad = decision.ad(at: position)
        else { return [] }
        let entry = entries[index]
        let isLastOfAd = index == entries.count - 1 || entries[index + 1].adPosition != position
        return ad.events.compactMap { event in
            let into = event.offset - entry.offsetInAd
            // An event past the last segment's end (a profile a frame shorter
            // than the longest) goes on that segment's last millisecond.
            guard into >= 0, into < entry.milliseconds || isLastOfAd else { return nil }
            let clamped = min(into, max(0, entry.milliseconds - 1))
            // PTS are 33-bit: an event past the wrap is told as the stream tells it.
            return ((entry.segment.firstPTS + UInt64(clamped) * 90) & 0x1_FFFF_FFFF, event.id)
        }
    }
}

/// HLS text of pod playlists (RFC 8216bis), written directly: they are small
/// and hot, and their numbers must be exact to the millisecond.
enum PodPlaylistWriter {
    /// A multivariant playlist over `profiles`, each variant at `uri(profile)`.
    static func multivariant(profiles: [PodProfile], uri: (PodProfile) -> String) -> String {
        var text = "#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-INDEPENDENT-SEGMENTS\n"
        for profile in profiles {
            text += "#EXT-X-STREAM-INF:BANDWIDTH=\(profile.bandwidth),AVERAGE-BANDWIDTH=\(profile.averageBandwidth)"
            text += ",RESOLUTION=\(profile.width)x\(profile.height),CODECS=\"\(profile.codecs)\""
            text += ",FRAME-RATE=\(milliText(Int((profile.frameRate * 1000).rounded())))\n"
            text += uri(profile) + "\n"
        }
        return text
    }

    /// A VOD-type media playlist of `layout`, segment `n` at `uri(n)`.
    static func media(_ layout: PodLayout, uri: (Int) -> String) -> String {
        let target = max(1, layout.entries.map { ($0.milliseconds + 500) / 1000 }.max() ?? 1)
        var text = "#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:\(target)\n#EXT-X-MEDIA-SEQUENCE:0\n"
        text += "#EXT-X-PLAYLIST-TYPE:VOD\n"
        for (index, entry) in layout.entries.enumerated() {
            if entry.discontinuity { text += "#EXT-X-DISCONTINUITY\n" }
            text += "#EXTINF:\(milliText(entry.milliseconds)),\n" + uri(index) + "\n"
        }
        return text + "#EXT-X-ENDLIST\n"
    }

    /// `4.000` for 4000.
    static func milliText(_ milliseconds: Int) -> String {
        let fraction = String(milliseconds % 1000)
        return "\(milliseconds / 1000)." + String(repeating: "0", count: 3 - fraction.count) + fraction
    }
}
