import Foundation

extension StreamTimeline {
    /// The ads of one break at their starts (back to back from the
    /// break's start where the timeline gives none); an ad without a
    /// duration takes what is left of the break.
    static func layOut(
        _ item: PodMetadata.VODBreak, metadata: PodMetadata, disableUi: Bool, uiElements: [UIElement],
        skipped: inout [String]
    ) -> [AdSlot] {
        let members = item.ads.enumerated().sorted {
            ($0.element.info.position ?? Int.max, $0.offset) < ($1.element.info.position ?? Int.max, $1.offset)
        }.map(\.element)
        let total = members.filter { !$0.info.isSlate }.count
        let breakEnd = item.duration.map { item.start + $0 }
        var slots: [AdSlot] = []
        var cursor = item.start
        var position = 0
        for member in members {
            let info = member.info
            let start = member.start ?? cursor
            guard start >= cursor - 0.001 else {
                skipped.append("ad \(info.id) of break \(item.id) starts before the ad or break ahead of it ends")
                continue
            }
            guard let duration = info.duration ?? breakEnd.map({ $0 - start }), duration > 0 else {
                skipped.append("ad \(info.id) of break \(item.id) has no duration")
                continue
            }
            if let breakEnd, start + duration > breakEnd + 0.001 {
                skipped.append("ad \(info.id) runs past the end of break \(item.id)")
                continue
            }
            if !info.isSlate { position += 1 }
            let podInfo = AdPodInfo(
                adPosition: info.isSlate ? 0 : (info.position ?? position), totalAds: max(total, 1), podIndex: 0,
                timeOffset: 0, maxDuration: item.duration ?? -1)
            var slot = AdSlot(
                key: info.id,
                ad: Ad(
                    streamAd: info, id: info.id, duration: duration, podInfo: podInfo, disableUi: disableUi,
                    uiElements: uiElements), start: start,
                duration: duration, isSlate: info.isSlate, clickThrough: info.clickThroughURL,
                clickTracking: info.clickTrackingURLs)
            for event in member.events {
                slot.eventIDs[event.kind] = event.id
                if let time = event.time { slot.setEventTime(time, for: event.kind) }
            }
            // A timeline without events: the tags' keys are the IDs.
            if member.events.isEmpty {
                for (key, tag) in metadata.tags where tag.adID == info.id { slot.eventIDs[tag.kind] = key }
            }
            slots.append(slot)
            cursor = start + duration
        }
        return slots
    }

    /// Pod indexes and time offsets (DAI.md §1): 0 for a pre-roll, 1…N for
    /// mid-rolls, N+1 for a post-roll; the offset is the break's content time
    /// (0 pre-roll, −1 post-roll).
    static func numbered(
        _ laidOut: [Break], types: [String: String], contentTimes: [String: TimeInterval]
    ) -> [Break] {
        var result = laidOut
        var midrolls = 0
        var before: TimeInterval = 0
        for index in result.indices {
            let id = result[index].id
            let type = types[id]
            let isPre = type == "pre" || (type == nil && result[index].start < 0.001)
            let isPost = type == "post"
            if !isPre && !isPost { midrolls += 1 }
            let podIndex = isPre ? 0 : isPost ? -1 : midrolls
            let offset = isPre ? 0 : isPost ? -1 : contentTimes[id] ?? result[index].start - before
            before += result[index].duration
            result[index].podIndex = podIndex
            for slot in result[index].ads.indices {
                result[index].ads[slot].ad.adPodInfo.podIndex = podIndex
                result[index].ads[slot].ad.adPodInfo.timeOffset = offset
            }
        }
        for index in result.indices where result[index].podIndex == -1 {
            for slot in result[index].ads.indices { result[index].ads[slot].ad.adPodInfo.podIndex = midrolls + 1 }
            result[index].podIndex = midrolls + 1
        }
        return result
    }

    static func segments(of breaks: [Break]) -> [Segment] {
        var segments: [Segment] = []
        var cursor: TimeInterval = 0
        for (breakIndex, item) in breaks.enumerated() {
            if item.start > cursor { segments.append(Segment(start: cursor, end: item.start)) }
            var slotCursor = item.start
            for (adIndex, slot) in item.ads.enumerated() {
                if slot.start > slotCursor {
                    segments.append(Segment(start: slotCursor, end: slot.start, breakIndex: breakIndex))
                }
                segments.append(Segment(start: slot.start, end: slot.end, breakIndex: breakIndex, adIndex: adIndex))
                slotCursor = slot.end
            }
            if item.end > slotCursor {
                segments.append(Segment(start: slotCursor, end: item.end, breakIndex: breakIndex))
            }
            cursor = item.end
        }
        segments.append(Segment(start: cursor, end: .infinity))
        return segments
    }
}
