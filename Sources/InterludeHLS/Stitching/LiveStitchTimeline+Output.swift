import Foundation

extension LiveStitchTimeline {
    /// Writes the viewer's playlist for `window` from the records in `state`.
    func write(_ window: OriginWindow, state: LiveStitchState, pods: some LiveStitchPodProvider) throws(HLSError)
        -> MediaPlaylist
    {
        var window = window
        let origin = window.playlist
        var writer = OutputWriter(options: options, origin: origin)
        var sequenceOffset = state.settled.sequenceOffset
        var discontinuityOffset = state.settled.discontinuityOffset
        let records = state.breaks
        var next = 0
        var resuming: LiveBreakRecord?
        var index = 0
        while index < window.count {
            let sequence = window.sequence(at: index)
            // Breaks that ended by here shift what follows.
            while next < records.count, let end = records[next].originEnd, end <= sequence {
                sequenceOffset += records[next].sequenceDelta
                discontinuityOffset += records[next].discontinuityDelta
                if end == sequence, records[next].isReplaced { resuming = records[next] }
                next += 1
            }
            if options.mode == .replace, next < records.count, records[next].isReplaced,
                records[next].contains(sequence)
            {
                let record = records[next]
                let pod = try window.pod(for: record.request, from: pods)
                let start = startTime(of: record, in: window) ?? window.time(at: index)
                writer.writeBreak(
                    record, pod: pod, startTime: start, window: &window, pods: pods,
                    firstSequence: record.originStart.shifted(by: sequenceOffset),
                    discontinuityBase: record.originDiscontinuityBase.shifted(by: discontinuityOffset))
                index = record.originEnd.flatMap(window.index(of:)) ?? window.count
                // Back to back: the next pod's own DISCONTINUITY marks the splice.
                resuming = nil
                continue
            }
            let segment = origin.segments[index]
            var interstitialURI: String?
            if options.mode == .interstitials, let record = records.first(where: { $0.originStart == sequence }),
                record.isReplaced
            {
                interstitialURI = try pods.interstitialAssetURI(for: record.request)
                writer.interstitialRecord = record
            }
            writer.writeContent(
                segment, at: index, sequence: sequence.shifted(by: sequenceOffset),
                discontinuity: segment.discontinuitySequence.shifted(by: discontinuityOffset),
                resuming: resuming, interstitialURI: interstitialURI)
            resuming = nil
            index += 1
        }
        if writer.firstSequence == nil {
            // Nothing to show (a window inside a break whose pod segments it
            // does not reach): the next segment's number stands.
            if let sequence = writer.nextSequence {
                writer.firstSequence = sequence
                writer.firstDiscontinuity = writer.currentDiscontinuity
            } else {
                writer.firstSequence = window.sequence(at: window.count).shifted(by: sequenceOffset)
                writer.firstDiscontinuity =
                    (origin.segments.last?.discontinuitySequence ?? origin.discontinuitySequence)
                    .shifted(by: discontinuityOffset)
            }
        }
        return writer.playlist()
    }
}

extension UInt64 {
    /// This number moved by `offset`, clamped to the type's range: numbers
    /// below 2^62 (what ``LiveStitchTimeline`` accepts) never reach the clamp.
    func shifted(by offset: Int64) -> UInt64 {
        offset >= 0 ? self &+ UInt64(offset) : (self >= offset.magnitude ? self - offset.magnitude : 0)
    }
}
