import Foundation
import InterludeHLS

/// A VOD title made here: every profile's segments, and the playlists the
/// origin serves for it.
public struct VODTitle: Sendable, Hashable {
    /// The catalog id.
    public var id: String
    /// The title drawn on the pictures.
    public var title: String
    /// The profiles made, with `BANDWIDTH`, `AVERAGE-BANDWIDTH` and `CODECS`
    /// measured from this title's segments.
    public var profiles: [EncodingProfile]
    /// Segments by profile id.
    public var renditions: [String: [SegmentFile]]
    /// Content segment duration (the target), seconds.
    public var segmentDuration: Double

    /// Seconds of content (the first profile's segments summed).
    public var duration: Double { profiles.first.flatMap { renditions[$0.id]?.totalDuration } ?? 0 }

    /// The multivariant playlist: one variant per profile, URIs `{title}/{profile}.m3u8`
    /// (relative to `/origin/vod/{title}.m3u8`).
    public var multivariantPlaylist: MultivariantPlaylist {
        LadderPlaylist.multivariant(profiles, uri: { "\(id)/\($0.id).m3u8" })
    }

    /// The VOD media playlist of `profile` (ENDLIST, PLAYLIST-TYPE VOD), segment
    /// URIs `{profile}/00000.ts` (relative to `/origin/vod/{title}/{profile}.m3u8`); nil for an unknown profile.
    public func mediaPlaylist(profile: String) -> MediaPlaylist? {
        guard let segments = renditions[profile] else { return nil }
        var playlist = MediaPlaylist(
            targetDuration: LadderPlaylist.targetDuration(segments, segmentDuration: segmentDuration),
            segments: segments.enumerated().map { index, segment in
                MediaSegment(
                    uri: "\(profile)/\(SegmentNaming.name(index))", duration: LadderPlaylist.extinf(segment.duration))
            }, ended: true)
        playlist.playlistType = "VOD"
        playlist.setHeaderTag(HLSTagName.independentSegments, HLSTag.Value.none)
        return playlist
    }
}

/// Shared pieces of the origin's playlists.
enum LadderPlaylist {
    /// A variant per profile with BANDWIDTH, AVERAGE-BANDWIDTH, CODECS,
    /// RESOLUTION and FRAME-RATE.
    static func multivariant(_ profiles: [EncodingProfile], uri: (EncodingProfile) -> String) -> MultivariantPlaylist {
        let variants = profiles.map { profile in
            var attributes = HLSAttributeList([
                "BANDWIDTH": .integer(UInt64(profile.bandwidth)),
                "AVERAGE-BANDWIDTH": .integer(UInt64(profile.averageBandwidth)),
                "CODECS": .quoted(profile.codecs),
                "RESOLUTION": .resolution(HLSResolution(width: profile.width, height: profile.height)),
            ])
            attributes["FRAME-RATE"] = HLSAttributeValue(kind: .decimalFloatingPoint, text: "\(profile.frameRate).000")
            return VariantStream(attributes: attributes, uri: uri(profile))
        }
        var playlist = MultivariantPlaylist(variants: variants, independentSegments: true)
        playlist.entries.insert(.tag(HLSTag(HLSTagName.version, .text("3"))), at: 1)
        return playlist
    }

    /// EXT-X-TARGETDURATION: the longest segment rounded to the nearest second (RFC 8216bis 4.4.3.1).
    static func targetDuration(_ segments: [SegmentFile], segmentDuration: Double) -> Int {
        max(Int(segmentDuration.rounded()), segments.map { Int($0.duration.rounded()) }.max() ?? 1)
    }

    /// An EXTINF value with millisecond precision.
    static func extinf(_ seconds: Double) -> HLSDecimal {
        let milliseconds = Int((seconds * 1000).rounded())
        let fraction = String(milliseconds % 1000)
        return HLSDecimal(
            value: Double(milliseconds) / 1000,
            text: "\(milliseconds / 1000).\(String(repeating: "0", count: 3 - fraction.count))\(fraction)")
    }

    /// The profiles with bandwidths measured from `renditions` (those missing are left out).
    static func measured(_ profiles: [EncodingProfile], _ renditions: [String: [SegmentFile]], targetDuration: Double)
        -> [EncodingProfile]
    {
        profiles.compactMap { profile in
            guard let segments = renditions[profile.id], !segments.isEmpty else { return nil }
            var measured = profile
            measured.bandwidth = segments.peakBitrate(targetDuration: targetDuration)
            measured.averageBandwidth = segments.averageBitrate
            return measured
        }
    }
}
