import Foundation

/// Everything the stream side serves, read once at start: the ladder, the
/// VOD titles and live channels made here, each creative conditioned to
/// every profile, and the slate. Pod serving and the VTP read it; the
/// origin routes serve from it.
///
/// A library over media that has not been made (`--no-media`, or a build
/// that has not run) still answers with nominal segments — durations and
/// timestamps as the recipe intends, files absent — so playlists and pod
/// decisions work in tests that need no real media; ``isComplete`` tells.
public final class MediaLibrary: Sendable {
    /// The data directory segment paths are relative to.
    public let dataDirectory: URL
    /// The ladder, with BANDWIDTH and AVERAGE-BANDWIDTH the highest measured
    /// over everything made in each profile (content, ads and slate), so a
    /// stitched stream's variant states a truthful peak.
    public let profiles: [EncodingProfile]
    /// Content segment duration, seconds (ads use the same GOP).
    public let segmentDuration: Double
    /// True when every rendition was read from disk (none nominal).
    public let isComplete: Bool
    /// The catalog's stream content (external origins included).
    public let content: ContentCatalog

    private let titles: [String: VODTitle]
    private let channels: [String: LiveChannel]
    private let ads: [String: ConditionedAd]
    private let slates: [String: SlateRendition]

    /// Reads every rendition of `plan` from `dataDirectory` (nominal where missing).
    public init(catalog: Catalog, plan: MediaPlan, dataDirectory: URL) {
        self.dataDirectory = dataDirectory
        content = catalog.content
        segmentDuration = plan.segmentDuration
        var complete = true
        var segments: [MediaPlan.Item: [String: [SegmentFile]]] = [:]
        var codecs: [String: String] = [:]
        for entry in plan.renditions {
            if let manifest = RenditionManifest.read(entry, dataDirectory: dataDirectory) {
                segments[entry.item, default: [:]][entry.profile.id] = manifest.segments
                codecs[entry.profile.id] = manifest.codecs
            } else {
                complete = false
                segments[entry.item, default: [:]][entry.profile.id] = entry.nominalSegments(
                    segmentDuration: plan.segmentDuration)
            }
        }
        isComplete = complete
        let ladder = catalog.content.profiles
        let target = plan.segmentDuration
        var titles: [String: VODTitle] = [:]
        for title in catalog.content.titles where title.origin == nil {
            let renditions = segments[.title(title.id)] ?? [:]
            titles[title.id] = VODTitle(
                id: title.id, title: title.title,
                profiles: LadderPlaylist.measured(ladder, renditions, targetDuration: target), renditions: renditions,
                segmentDuration: target)
        }
        var channels: [String: LiveChannel] = [:]
        for channel in catalog.content.channels where channel.origin == nil {
            let wanted = channel.profiles.map(Set.init) ?? Set(ladder.map(\.id))
            let shared = segments[.liveSource(MediaPlan.liveSourceKey(channel))] ?? [:]
            let source = shared.filter { wanted.contains($0.key) }
            channels[channel.id] = LiveChannel(
                settings: channel, profiles: LadderPlaylist.measured(ladder, source, targetDuration: target),
                source: source, segmentDuration: target)
        }
        var ads: [String: ConditionedAd] = [:]
        for creative in catalog.creatives {
            guard let renditions = segments[.ad(creative.id)], let first = ladder.first,
                let duration = renditions[first.id]?.totalDuration
            else { continue }
            ads[creative.id] = ConditionedAd(creativeID: creative.id, duration: duration, renditions: renditions)
        }
        var slates: [String: SlateRendition] = [:]
        for profile in ladder {
            if let files = segments[.slate]?[profile.id] {
                slates[profile.id] = SlateRendition(profile: profile, segments: files)
            }
        }
        // Each profile's variant states the highest peak and mean of anything stitched into it.
        profiles = ladder.map { profile in
            var measured = profile
            let all = segments.values.compactMap { $0[profile.id] }.filter { !$0.isEmpty }
            if !all.isEmpty {
                measured.bandwidth = all.map { $0.peakBitrate(targetDuration: target) }.max() ?? profile.bandwidth
                measured.averageBandwidth = all.map(\.averageBitrate).max() ?? profile.averageBandwidth
            }
            if let written = codecs[profile.id] { measured.codecs = written }
            return measured
        }
        self.titles = titles
        self.channels = channels
        self.ads = ads
        self.slates = slates
    }

    /// The profile with this id.
    public func profile(_ id: String) -> EncodingProfile? { profiles.first { $0.id == id } }

    /// The creative conditioned to every profile; nil for an unknown id or a
    /// catalog without a ladder.
    public func ad(_ creativeID: String) -> ConditionedAd? { ads[creativeID] }

    /// Slate segments of `profile` whose stated durations sum to `duration`
    /// rounded to the millisecond: whole one-second segments from a
    /// continuous 30 s run (wrapping after 30), then, for the remainder, one
    /// tail segment of the nearest whole number of frames stating the
    /// remainder exactly (so it is within half a frame of what it states; a
    /// remainder under half a frame is stated on the last second instead).
    /// The run is continuous (``SegmentFile/continues(after:frameTicks:)``);
    /// a wrap and the tail need a DISCONTINUITY before them. Empty for a
    /// duration of 0 (or less) or an unknown profile.
    public func slate(profile: String, duration: Double) -> [SegmentFile] {
        slates[profile]?.fill(duration) ?? []
    }

    /// A VOD title made here; nil for an unknown id or an external origin.
    public func vodTitle(_ id: String) -> VODTitle? { titles[id] }

    /// A live channel made here; nil for an unknown id or an external origin.
    public func liveChannel(_ id: String) -> LiveChannel? { channels[id] }

    /// The absolute file of a segment.
    public func fileURL(for segment: SegmentFile) -> URL { dataDirectory.appendingPathComponent(segment.path) }

    /// Ids of the titles made here, in catalog order.
    public var titleIDs: [String] { content.titles.filter { $0.origin == nil }.map(\.id) }
    /// Ids of the channels made here, in catalog order.
    public var channelIDs: [String] { content.channels.filter { $0.origin == nil }.map(\.id) }
}
