import Foundation

/// The ad breaks of one stream as pure decisions: told where the playhead
/// is (or, live, which timed-metadata event came due), it answers with
/// what to do — events to emit, progress, the custom UI, verifications,
/// seeks — and nothing else. The ``StreamManager`` carries the effects out.
///
/// VOD: the breaks come from the stream's metadata up front; ad events fire
/// by stream time. Live: breaks appear as their events come due; ad
/// events fire by metadata. Either way `adPeriodStarted`/`adPeriodEnded`
/// mark every entry and exit, `adBreakStarted`/`adBreakEnded` the first
/// play of a break only, and each ad's `started`, quartiles and `complete`
/// fire once (a replay fires its period only).
struct StreamTimeline: Sendable {
    enum Kind: Sendable, Hashable { case vod, live }

    /// What to do.
    enum Effect: Sendable, Hashable {
        // Boxed: an event's ad is hundreds of bytes and dozens of
        // references; boxed, moving an effect moves one pointer.
        indirect case emit(AdEvent)
        /// The delegate's `adDidProgressToTime:…` call.
        case progress(StreamAdProgress)
        indirect case ui(AdUIState)
        /// Ping media verification for this event ID.
        case verify(String)
        /// Move the display's playhead (snapback, or a refused seek).
        case seekStream(TimeInterval)
        case openClickThrough(URL)
        /// Ping the ad's click-tracking URLs.
        case clickTracking([String])
        case log(String)
    }

    /// One ad (or slate) laid out in stream time.
    struct AdSlot: Sendable, Hashable {
        /// The metadata's key for the ad.
        var key: String
        var ad: Ad
        var start: TimeInterval
        var duration: TimeInterval
        var isSlate: Bool
        var clickThrough: URL?
        var clickTracking: [String] = []
        /// VOD: the event ID each event of this ad verifies with.
        var eventIDs: [PodMetadata.EventKind: String] = [:]
        /// Events already fired (`AdMilestone` bits).
        var fired: UInt8 = 0
        /// When the quartiles and `complete` fire: by quartile of the ad, or
        /// (VOD) at the timeline's event times.
        var milestones: Milestones
        var end: TimeInterval { start + duration }
        /// What a progress report needs, without the slot's references.
        var clock: AdClockFacts {
            AdClockFacts(
                start: start, duration: duration, adPosition: ad.adPodInfo.adPosition, totalAds: ad.adPodInfo.totalAds)
        }

        init(
            key: String, ad: Ad, start: TimeInterval, duration: TimeInterval, isSlate: Bool, clickThrough: URL?,
            clickTracking: [String] = [], fired: UInt8 = 0
        ) {
            self.key = key
            self.ad = ad
            self.start = start
            self.duration = duration
            self.isSlate = isSlate
            self.clickThrough = clickThrough
            self.clickTracking = clickTracking
            self.fired = fired
            milestones = Milestones(start: start, duration: duration)
        }

        /// The timeline's own event times, where it gives them.
        mutating func setEventTime(_ time: TimeInterval, for kind: PodMetadata.EventKind) {
            if kind == .firstQuartile { milestones.firstQuartile = time }
            if kind == .midpoint { milestones.midpoint = time }
            if kind == .thirdQuartile { milestones.thirdQuartile = time }
            if kind == .complete { milestones.complete = min(time, end - 0.001) }
        }
    }

    /// Stream times of an ad's quartiles and `complete`.
    struct Milestones: Sendable, Hashable {
        var firstQuartile: TimeInterval
        var midpoint: TimeInterval
        var thirdQuartile: TimeInterval
        var complete: TimeInterval

        init(start: TimeInterval, duration: TimeInterval) {
            firstQuartile = start + duration * 0.25
            midpoint = start + duration * 0.5
            thirdQuartile = start + duration * 0.75
            complete = start + duration - 0.001
        }
    }

    /// One ad break laid out in stream time.
    struct Break: Sendable, Hashable {
        var id: String
        var start: TimeInterval
        var duration: TimeInterval
        var ads: [AdSlot]
        var podIndex: Int
        var isPlayed = false
        var end: TimeInterval { start + duration }
    }

    /// A stretch of VOD stream time: content, or one slot of a break
    /// (`adIndex` nil for a gap no ad fills).
    struct Segment: Sendable, Hashable {
        var start: TimeInterval
        var end: TimeInterval
        var breakIndex: Int?
        var adIndex: Int?
    }

    let kind: Kind
    var breaks: [Break] = []
    /// VOD: the stream cut into segments covering [0, ∞), in order.
    private(set) var segments: [Segment] = []
    /// The app asked for its own UI (`AdsRenderingSettings.disableUi`): ads get `isUiDisabled`.
    var disableUi = false
    /// What the built-in UI shows (`AdsRenderingSettings.uiElements`).
    var uiElements: [UIElement] = [.adAttribution, .countdown]
    var strings = AdUIStrings.english
    /// Opt-in snapback (VOD): a seek over an unplayed break plays it first.
    var snapback = false

    // Playhead state (shared by the extensions).
    var playhead: TimeInterval?
    var lastClock: TimeInterval?
    /// VOD: index into ``segments`` of the playhead.
    var segmentIndex = 0
    /// The break whose period is open (`adPeriodStarted` sent, not ended).
    var periodBreak: Int?
    /// The break announced with `adBreakStarted` and not yet ended.
    var announcedBreak: Int?
    /// Where the snapback resumes once the snapped-to break ends.
    var resumeAfterBreak: TimeInterval?
    /// A seek the timeline asked for: reports far from it are the display
    /// still catching up, not the user.
    var expectedLanding: (time: TimeInterval, reports: Int)?
    /// The UI last published, by (ad, remaining second), so a tick that
    /// changes nothing costs no formatting.
    var lastUIKey: UIKey?
    var reportedBadPlayhead = false
    /// The clock as last read for a report, and the reports since.
    var clockSample = ClockSample()
    /// Live state.
    var live = LiveState()

    /// The clock reading reports share (`playheadMoved(to:reading:into:)`).
    struct ClockSample: Sendable, Hashable {
        var reading: TimeInterval = 0
        var reports = 0
    }

    struct UIKey: Sendable, Hashable {
        var breakIndex: Int
        var adIndex: Int
        var remaining: Int
    }

    /// A VOD timeline from the stream's metadata (its `breaks`). Breaks
    /// without a usable duration, and breaks that overlap an earlier one,
    /// are left out and reported in ``skippedOnLoad``.
    init(vod metadata: PodMetadata, disableUi: Bool = false, uiElements: [UIElement] = [.adAttribution, .countdown]) {
        kind = .vod
        self.disableUi = disableUi
        self.uiElements = uiElements
        var laidOut: [Break] = []
        var skipped: [String] = []
        var types: [String: String] = [:]
        var contentTimes: [String: TimeInterval] = [:]
        let ordered = (metadata.vodBreaks ?? []).enumerated().sorted {
            ($0.element.start, $0.offset) < ($1.element.start, $1.offset)
        }
        for item in ordered.map(\.element) {
            if let previous = laidOut.last, item.start < previous.end - 0.001 {
                skipped.append("break \(item.id) at \(item.start) s overlaps break \(previous.id)")
                continue
            }
            let slots = Self.layOut(
                item, metadata: metadata, disableUi: disableUi, uiElements: uiElements, skipped: &skipped)
            let duration = item.duration ?? slots.last.map { $0.end - item.start } ?? 0
            guard duration > 0 else {
                skipped.append("break \(item.id) has no duration")
                continue
            }
            types[item.id] = item.type
            contentTimes[item.id] = item.contentTime
            laidOut.append(Break(id: item.id, start: item.start, duration: duration, ads: slots, podIndex: 0))
        }
        breaks = Self.numbered(laidOut, types: types, contentTimes: contentTimes)
        skippedOnLoad = skipped
        segments = Self.segments(of: breaks)
        cuepointPrefixes = cuepoints.map(\.adDataPrefix)
    }

    /// A live timeline: no breaks until their events come due.
    init() {
        kind = .live
        segments = [Segment(start: 0, end: .infinity)]
    }

    /// The `cuepointsChanged` entries up to `played`, made once.
    private(set) var cuepointPrefixes: [String] = []

    /// What ``init(vod:)`` left out, for log lines.
    private(set) var skippedOnLoad: [String] = []

    // MARK: - Cuepoints and time mapping (DAI.md §1)

    /// The breaks as cuepoints, in order (empty for live).
    var cuepoints: [Cuepoint] {
        breaks.map { Cuepoint(startTime: $0.start, endTime: $0.end, isPlayed: $0.isPlayed) }
    }

    /// Content time of a stream time: minus the breaks that ended at or
    /// before it, and minus the part of the break it is in. Identity for live.
    func contentTime(forStreamTime streamTime: TimeInterval) -> TimeInterval {
        guard kind == .vod, streamTime.isFinite else { return streamTime }
        var content = streamTime
        for item in breaks {
            if item.end <= streamTime {
                content -= item.duration
            } else if item.start <= streamTime {
                content -= streamTime - item.start
            } else {
                break
            }
        }
        return max(0, content)
    }

    /// Stream time of a content time: plus the breaks that start at or
    /// before it in content time. Identity for live.
    func streamTime(forContentTime contentTime: TimeInterval) -> TimeInterval {
        guard kind == .vod, contentTime.isFinite else { return contentTime }
        var stream = max(0, contentTime)
        var before: TimeInterval = 0
        for item in breaks {
            let contentStart = item.start - before
            guard contentStart <= contentTime else { break }
            stream += item.duration
            before += item.duration
        }
        return stream
    }

    /// The last cuepoint that starts before `streamTime`, played or not.
    func previousCuepoint(forStreamTime streamTime: TimeInterval) -> Cuepoint? {
        previousBreakIndex(before: streamTime).map { index in
            Cuepoint(startTime: breaks[index].start, endTime: breaks[index].end, isPlayed: breaks[index].isPlayed)
        }
    }

    func previousBreakIndex(before streamTime: TimeInterval) -> Int? {
        guard streamTime.isFinite else { return nil }
        return breaks.lastIndex { $0.start < streamTime }
    }

    /// The segment holding `time`.
    func segmentIndex(at time: TimeInterval) -> Int {
        var low = 0
        var high = segments.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if segments[middle].start <= time { low = middle } else { high = middle - 1 }
        }
        return low
    }

    /// The ad the playhead is in, when it is in one (slate included).
    var currentSlot: AdSlot? {
        if kind == .live { return live.currentAd }
        let segment = segments[segmentIndex]
        guard playhead != nil, let breakIndex = segment.breakIndex, let adIndex = segment.adIndex else { return nil }
        return breaks[breakIndex].ads[adIndex]
    }

}

/// An ad's timing and place in its pod: what each progress report reads.
struct AdClockFacts: Sendable, Hashable {
    var start: TimeInterval
    var duration: TimeInterval
    var adPosition: Int
    var totalAds: Int
}

/// The delegate's progress call, as a value.
struct StreamAdProgress: Sendable, Hashable {
    var time: TimeInterval
    var adDuration: TimeInterval
    var adPosition: Int
    var totalAds: Int
    var adBreakDuration: TimeInterval
    var adPeriodDuration: TimeInterval
}

/// Bits of ``StreamTimeline/AdSlot/fired``.
enum AdMilestone {
    static let started: UInt8 = 1
    static let firstQuartile: UInt8 = 2
    static let midpoint: UInt8 = 4
    static let thirdQuartile: UInt8 = 8
    static let complete: UInt8 = 16
}
