import Foundation

extension HLSPlaybackState {
    /// Adds metadata to the queue in time order (stable for equal times).
    mutating func enqueue(_ items: [HLSScheduledMetadata]) {
        for item in items {
            var index = pendingMetadata.count
            // Segments arrive in order, so items almost always go at the end.
            while index > 0, pendingMetadata[index - 1].time > item.time { index -= 1 }
            pendingMetadata.insert(item, at: index)
        }
    }

    /// Reports, in order, the metadata the playhead has reached at `position`.
    mutating func reportMetadata(upTo position: TimeInterval, into effects: inout [HLSPlaybackEffect]) {
        var due = 0
        while due < pendingMetadata.count, pendingMetadata[due].time <= position + HLSTime.epsilon {
            let item = pendingMetadata[due]
            effects.append(.report(.timedMetadata(item.values, presentationTime: item.time)))
            counters.timedMetadataReported += 1
            if case .dateRange(let id) = item.source { reportedDateRanges.insert(id) }
            due += 1
        }
        if due > 0 { pendingMetadata.removeFirst(due) }
    }

    /// Queues the latest playlist's date ranges not reported yet: at their
    /// start, or at once for one that began before the playhead and has
    /// not ended (joining a live stream or seeking into the range). Client
    /// attributes a later playlist adds to a queued range are merged in.
    mutating func scheduleDateRanges() {
        let current = Set(timeline.dateRanges.map(\.id))
        // A range that left the playlist will not come back: forget it, so memory stays flat.
        reportedDateRanges.formIntersection(current)
        for range in timeline.dateRanges where !reportedDateRanges.contains(range.id) {
            if let queued = pendingMetadata.firstIndex(where: { $0.source == .dateRange(range.id) }) {
                pendingMetadata[queued].values.merge(range.values) { first, _ in first }
                continue
            }
            let isAhead = range.start >= playhead - HLSTime.epsilon
            let isOpen = range.end.map { $0 > playhead + HLSTime.epsilon } ?? true
            if isAhead || isOpen {
                enqueue([HLSScheduledMetadata(time: range.start, values: range.values, source: .dateRange(range.id))])
            } else {
                reportedDateRanges.insert(range.id)
            }
        }
    }

    /// After a seek: the queue holds what lies ahead of the new playhead in
    /// the buffer, and the date ranges from there on are reported again.
    mutating func rebuildPendingMetadata() {
        pendingMetadata.removeAll(keepingCapacity: true)
        if let (first, _) = timeline.position(of: playhead) {
            for segment in timeline.segments[first...] where segment.isBuffered {
                enqueue(segment.metadata.filter { $0.time >= playhead - HLSTime.epsilon })
            }
        }
        for range in timeline.dateRanges where range.start >= playhead - HLSTime.epsilon {
            reportedDateRanges.remove(range.id)
        }
        scheduleDateRanges()
    }
}
