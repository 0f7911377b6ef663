import Foundation
import InterludeHLS

/// One pod of a VOD stream, ready to go into one rendition.
struct VODPodInsertion: Sendable, Hashable {
    /// The decision's break ID (`vod_0`): the DATERANGE ID and the client
    /// attribute, as the metadata's `breaks[].id` names it.
    var breakID: String
    /// Content seconds where the pod goes (the plan's offset).
    var contentOffset: Double
    /// The pod's segments in this rendition.
    var pod: AdPod
    /// The pod's media playlist in this rendition (interstitials' `X-ASSET-URI`).
    var assetURI: String
}

/// Writes a VOD rendition with its pods: pure, the same bytes in every process.
///
/// Replacement (default): each pod goes in at the segment boundary nearest
/// its offset, with DISCONTINUITY in and out, `EXT-X-KEY:METHOD=NONE` over
/// it when the content is encrypted, a DATERANGE (ID, START-DATE, DURATION,
/// PLANNED-DURATION, SCTE35-OUT and ``breakIDAttribute``), and
/// PROGRAM-DATE-TIME continuous across it (``AdSplicer``). Interstitials: the
/// content is left as it is and each pod is an interstitial DATERANGE
/// (`X-ASSET-URI` the pod's playlist, `X-RESUME-OFFSET=0`, `X-RESTRICT`,
/// `CUE="PRE"` / `"POST"` at the ends). A content playlist without
/// PROGRAM-DATE-TIME gets `anchor` on its first segment, since a playlist
/// with DATERANGEs must carry one (RFC 8216bis 4.4.5.1).
enum VODStitcher {
    /// The client attribute carrying the break ID on every break's DATERANGE
    /// (a player that surfaces DATERANGE but not the metadata still knows the break).
    static let breakIDAttribute = "X-COM-INTERLUDE-BREAK-ID"

    static func stitch(
        _ content: MediaPlaylist, pods: [VODPodInsertion], mode: LiveStitchTimeline.Mode, anchor: Date
    ) throws(HLSError) -> MediaPlaylist {
        var playlist = content
        guard !playlist.segments.isEmpty else {
            throw HLSError(.invalidSplicePoint, "the content playlist has no segments")
        }
        if playlist.segments[0].programDateTime == nil {
            playlist.segments[0].tags.append(HLSTag(HLSTagName.programDateTime, .text(HLSDateFormat.format(anchor))))
            playlist.updateTimeline()
        }
        let placed = pods.map { (boundary: boundary(nearest: $0.contentOffset, in: content), insertion: $0) }
        switch mode {
        case .replace:
            let splicer = AdSplicer(markerStyle: .dateRange)
            // From the last boundary back, so each boundary still indexes the content.
            for (boundary, insertion) in placed.sorted(by: { $0.boundary > $1.boundary }) {
                var pod = insertion.pod
                pod.id = insertion.breakID
                try splicer.insert(pod, into: &playlist, at: boundary)
            }
        case .interstitials:
            for (boundary, insertion) in placed {
                try playlist.insertInterstitial(
                    .vodInsertion(assetURI: insertion.assetURI), id: insertion.breakID, at: boundary, anchorDate: anchor
                )
            }
        }
        tagBreaks(&playlist, ids: Set(pods.map(\.breakID)))
        return playlist
    }

    /// The segment boundary nearest `time` (content seconds): 0 for a
    /// pre-roll, the segment count for a post-roll; the earlier of two
    /// equally near.
    static func boundary(nearest time: Double, in playlist: MediaPlaylist) -> Int {
        var best = 0
        var bestDistance = Double.infinity
        for index in 0...playlist.segments.count {
            let distance = abs(playlist.boundaryStart(index) - time)
            if distance < bestDistance - 0.0005 {
                best = index
                bestDistance = distance
            }
        }
        return best
    }

    /// Adds ``breakIDAttribute`` (the value `attribute(id)`, the ID itself by
    /// default) to every DATERANGE whose ID is one of `ids`.
    static func tagBreaks(
        _ playlist: inout MediaPlaylist, ids: Set<String>, attribute: (String) -> String = { $0 }
    ) {
        guard !ids.isEmpty else { return }
        for index in playlist.segments.indices where playlist.segments[index].hasDateRange {
            playlist.segments[index].tags = playlist.segments[index].tags.map { tag in
                tagged(tag, ids: ids, attribute: attribute)
            }
        }
    }

    /// `tag` with ``breakIDAttribute`` (the value `attribute(id)`) when it is a
    /// DATERANGE of one of `ids` without one.
    static func tagged(_ tag: HLSTag, ids: Set<String>, attribute: (String) -> String) -> HLSTag {
        guard tag.name == HLSTagName.dateRange, !tag.isComment, case .attributes(var list) = tag.value,
            let id = list.string("ID"), ids.contains(id), list[breakIDAttribute] == nil
        else { return tag }
        list[breakIDAttribute] = .quoted(attribute(id))
        var result = tag
        result.value = .attributes(list)
        return result
    }
}

extension MediaPlaylist {
    /// Seconds from the first segment's start to boundary `index` (the end for `segments.count`).
    func boundaryStart(_ index: Int) -> Double {
        index < segments.count ? segments[index].startTime : totalDuration
    }
}

extension MediaSegment {
    /// True when a DATERANGE is among the tags before the URI.
    var hasDateRange: Bool { tags.contains { $0.name == HLSTagName.dateRange && !$0.isComment } }
}

extension AdPod {
    /// A pod from segments in play order, a new ad (with its DISCONTINUITY)
    /// at each segment that starts one; `id` is the break ID.
    init(runs segments: [(segment: AdSegment, startsRun: Bool)], id: String) {
        var ads: [AdPod.Ad] = []
        for (segment, startsRun) in segments {
            if startsRun || ads.isEmpty {
                ads.append(AdPod.Ad(segments: [segment]))
            } else {
                ads[ads.count - 1].segments.append(segment)
            }
        }
        self.init(ads: ads, id: id)
    }
}
