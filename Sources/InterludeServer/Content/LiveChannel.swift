import Foundation
import InterludeHLS

/// A simulated live channel: its source looped on the channel's timeline,
/// with ad breaks at fixed intervals. Everything here is a pure function of
/// the catalog and a date, so every server process computes the same window.
///
/// Timeline: channel time runs `speed` times as fast as the clock from the
/// epoch. Global segment `n` starts at `epoch + n × segmentDuration`
/// (channel time) and plays source segment `n mod sourceSegments`; a
/// DISCONTINUITY precedes each wrap. Break `k` (from 0) starts at segment
/// `(k + 1) × breakInterval / segmentDuration` and spans
/// `breakDuration / segmentDuration` segments.
public struct LiveChannel: Sendable, Hashable {
    /// The catalog entry.
    public var settings: CatalogChannel
    /// The profiles made, bandwidths measured from the source.
    public var profiles: [EncodingProfile]
    /// The looped source's segments by profile id (all `segmentDuration` long).
    public var source: [String: [SegmentFile]]
    /// Content segment duration, seconds.
    public var segmentDuration: Double

    /// The channel id.
    public var id: String { settings.id }
    /// Segments in one loop of the source.
    public var sourceSegmentCount: Int { Int((settings.sourceDuration / segmentDuration).rounded()) }
    /// Segments in a break, 0 without breaks.
    public var breakSegmentCount: Int { Int((settings.breakDuration / segmentDuration).rounded()) }
    /// Segments from one break start to the next, 0 without breaks.
    public var breakPeriodSegments: Int { Int((settings.breakInterval / segmentDuration).rounded()) }

    /// Channel time at clock date `date`: `epoch + (date − epoch) × speed`.
    public func channelTime(at date: Date) -> Date {
        settings.epoch.addingTimeInterval(date.timeIntervalSince(settings.epoch) * settings.speed)
    }

    /// The (channel-time) date global segment `sequence` starts.
    public func startDate(ofSegment sequence: Int) -> Date {
        settings.epoch.addingTimeInterval(Double(sequence) * segmentDuration)
    }

    /// Segments complete at clock date `date` (the next one to appear is this number).
    public func completedSegments(at date: Date) -> Int {
        let elapsed = channelTime(at: date).timeIntervalSince(settings.epoch)
        guard elapsed > 0 else { return 0 }
        // The epsilon keeps a segment that ends exactly now from flickering with float error.
        return Int((elapsed / segmentDuration + 1e-9).rounded(.down))
    }

    /// The origin's window at clock date `date`: up to `windowSegments` of the
    /// latest complete segments and the breaks that touch them.
    public func window(at date: Date) -> LiveWindow {
        let end = completedSegments(at: date)
        let first = max(0, end - settings.windowSegments)
        let count = sourceSegmentCount
        let segments = (first..<end).map { sequence in
            LiveSegment(
                sequence: sequence, sourceIndex: sequence % count, date: startDate(ofSegment: sequence),
                duration: segmentDuration,
                // The window's first segment never carries the tag: DISCONTINUITY-SEQUENCE already counts it,
                // so readers that do and do not count a tag on the first segment agree.
                hasDiscontinuity: sequence > first && sequence % count == 0,
                breakIndex: breakIndex(ofSegment: sequence))
        }
        var breaks: [LiveBreak] = []
        let period = breakPeriodSegments
        if period > 0, let last = segments.last?.sequence {
            // Break k spans [(k+1)·P, (k+1)·P + B); it touches the window when it
            // starts by the last segment and its CUE-IN segment is not before the first.
            var index = max(0, (first - breakSegmentCount) / period - 2)
            while let liveBreak = liveBreak(index), liveBreak.firstSequence <= last {
                if liveBreak.endSequence >= first { breaks.append(liveBreak) }
                index += 1
            }
        }
        return LiveWindow(
            mediaSequence: first, discontinuitySequence: first / count, segments: segments, breaks: breaks)
    }

    /// The break a global segment is in, nil for content.
    public func breakIndex(ofSegment sequence: Int) -> Int? {
        let period = breakPeriodSegments
        guard period > 0, sequence >= period, sequence % period < breakSegmentCount else { return nil }
        return sequence / period - 1
    }

    /// Break `index` (0 is the first after the epoch); nil without breaks or for a negative index.
    public func liveBreak(_ index: Int) -> LiveBreak? {
        guard breakPeriodSegments > 0, index >= 0 else { return nil }
        let first = (index + 1) * breakPeriodSegments
        return LiveBreak(
            index: index, id: "break-\(index)", start: startDate(ofSegment: first), duration: settings.breakDuration,
            firstSequence: first, segmentCount: breakSegmentCount,
            eventID: UInt32(truncatingIfNeeded: index + 1))
    }

    /// The breaks starting in `[from, to)` (channel time).
    public func breaks(startingFrom from: Date, to: Date) -> [LiveBreak] {
        guard breakPeriodSegments > 0, to > from else { return [] }
        let interval = settings.breakInterval
        let firstIndex = max(0, Int((from.timeIntervalSince(settings.epoch) / interval).rounded(.up)) - 1)
        var result: [LiveBreak] = []
        var index = firstIndex
        while let liveBreak = liveBreak(index), liveBreak.start < to {
            if liveBreak.start >= from { result.append(liveBreak) }
            index += 1
        }
        return result
    }
}

/// The origin's window at one moment.
public struct LiveWindow: Sendable, Hashable {
    /// `EXT-X-MEDIA-SEQUENCE`: the first segment's global number.
    public var mediaSequence: Int
    /// `EXT-X-DISCONTINUITY-SEQUENCE`: source wraps at or before the first segment.
    public var discontinuitySequence: Int
    /// The segments, oldest first (empty before the first segment completes).
    public var segments: [LiveSegment]
    /// Breaks with a segment in the window, or whose CUE-IN segment is in it.
    public var breaks: [LiveBreak]
}

/// One segment of a live window.
public struct LiveSegment: Sendable, Hashable {
    /// Global segment number (its media sequence number).
    public var sequence: Int
    /// The source segment it plays.
    public var sourceIndex: Int
    /// PROGRAM-DATE-TIME (channel time).
    public var date: Date
    /// Seconds.
    public var duration: Double
    /// True when a DISCONTINUITY tag precedes it in the playlist (a source wrap).
    public var hasDiscontinuity: Bool
    /// The break it is in, nil for content.
    public var breakIndex: Int?
}

/// One ad break of a live channel, as data for the VTP and pod serving.
public struct LiveBreak: Sendable, Hashable {
    /// Break number from the epoch (0 first); the pod id.
    public var index: Int
    /// DATERANGE ID and ad break id: `break-{index}`.
    public var id: String
    /// Start (channel time, the PROGRAM-DATE-TIME of its first segment).
    public var start: Date
    /// Seconds.
    public var duration: Double
    /// Global number of its first segment.
    public var firstSequence: Int
    /// Segments it spans.
    public var segmentCount: Int
    /// SCTE-35 segmentation_event_id (unique per break of the channel).
    public var eventID: UInt32

    /// The global number of the first segment after it (where CUE-IN goes).
    public var endSequence: Int { firstSequence + segmentCount }
    /// When it ends.
    public var end: Date { start.addingTimeInterval(duration) }
}
