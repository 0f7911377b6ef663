import Foundation
import InterludeVAST

/// Decides which tracking URLs are due for one ad, from the playback facts
/// it is told (start, progress, pause, volume, skip, click, complete,
/// error). It owns no timer: the caller feeds it media time, and it answers
/// with the beacons due at that moment, each exactly once.
///
/// Rules (VAST 4.3 §3): impressions of the inline ad and of every wrapper
/// fire together with `creativeView` and `start` at the first frame, once;
/// quartiles at 25/50/75 % and `progress` offsets as play crosses them;
/// `pause`/`resume` and `mute`/`unmute` only on change; every URL of an event
/// fires; `about:blank` and non-http URLs never fire.
public struct AdTracker: Sendable {
    /// Facts about the placement that fill macros.
    public struct Context: Sendable, Hashable {
        public var breakPosition: BreakPosition
        /// 1-based position in the pod (`[PODSEQUENCE]` uses the VAST sequence when present).
        public var adPosition: Int
        public var limitAdTracking: Bool
        /// `[PLAYERSIZE]` as `width,height`, when known.
        public var playerSize: PlayerSize?
        public var contentID: String?

        public init(
            breakPosition: BreakPosition = .standalone, adPosition: Int = 1, limitAdTracking: Bool = false,
            playerSize: PlayerSize? = nil, contentID: String? = nil
        ) {
            self.breakPosition = breakPosition
            self.adPosition = adPosition
            self.limitAdTracking = limitAdTracking
            self.playerSize = playerSize
            self.contentID = contentID
        }
    }

    /// The player's size in points.
    public struct PlayerSize: Sendable, Hashable {
        public var width: Int
        public var height: Int
        public init(width: Int, height: Int) {
            self.width = width
            self.height = height
        }
    }

    public let ad: ResolvedAd
    public let duration: TimeInterval
    public let context: Context
    /// The media file playing (`[ASSETURI]`).
    public let assetURI: String?
    private let macros: VASTMacroFiller
    /// The chain's merged linear tracking, computed once (not per event).
    private let trackingEvents: [TrackingEvent]
    private let progressEvents: [(offset: TimeInterval, event: TrackingEvent)]

    private var started = false
    private var finished = false
    private var firedQuartiles: Set<Int> = []
    private var firedProgress: Set<Int> = []
    private var paused = false
    private var muted: Bool?
    private var lastMediaTime: TimeInterval = 0

    public init(
        ad: ResolvedAd, duration: TimeInterval, context: Context = Context(), assetURI: String? = nil,
        macros: VASTMacroFiller = VASTMacroFiller()
    ) {
        self.ad = ad
        self.duration = duration
        self.context = context
        self.assetURI = assetURI
        self.macros = macros
        trackingEvents = ad.linearTrackingEvents
        progressEvents = trackingEvents.filter { $0.event == .progress }.compactMap { event in
            guard let offset = event.offset else { return nil }
            return (offset.seconds(ofDuration: duration), event)
        }
    }

    /// Whether the first frame has been reported.
    public var hasStarted: Bool { started }

    // MARK: - Playback facts

    /// The first frame is showing: impressions, `creativeView`, `start`.
    public mutating func start(contentPlayhead: TimeInterval? = nil) -> [Beacon] {
        guard !started, !finished else { return [] }
        started = true
        var beacons = ad.impressions.map(\.url).compactMap {
            beacon($0, event: "impression", at: 0, contentPlayhead: contentPlayhead)
        }
        beacons += fire(.creativeView, at: 0, contentPlayhead: contentPlayhead)
        beacons += fire(.start, at: 0, contentPlayhead: contentPlayhead)
        beacons += progress(to: 0, contentPlayhead: contentPlayhead)
        return beacons
    }

    /// Media time advanced to `mediaTime`: quartiles and progress offsets crossed.
    public mutating func progress(to mediaTime: TimeInterval, contentPlayhead: TimeInterval? = nil) -> [Beacon] {
        guard started, !finished else { return [] }
        lastMediaTime = max(lastMediaTime, mediaTime)
        var beacons: [Beacon] = []
        if duration > 0 {
            for (index, (fraction, event)) in [
                (0.25, TrackingEventType.firstQuartile), (0.5, .midpoint), (0.75, .thirdQuartile),
            ]
            .enumerated()
            where mediaTime >= duration * fraction && !firedQuartiles.contains(index) {
                firedQuartiles.insert(index)
                beacons += fire(event, at: mediaTime, contentPlayhead: contentPlayhead)
            }
        }
        for (index, entry) in progressEvents.enumerated()
        where mediaTime >= entry.offset && !firedProgress.contains(index) {
            firedProgress.insert(index)
            if let due = beacon(entry.event.url, event: "progress", at: mediaTime, contentPlayhead: contentPlayhead) {
                beacons.append(due)
            }
        }
        return beacons
    }

    /// The ad played to its end: any quartile not yet reported, then `complete`.
    public mutating func complete(contentPlayhead: TimeInterval? = nil) -> [Beacon] {
        guard started, !finished else { return [] }
        var beacons = progress(to: max(duration, lastMediaTime), contentPlayhead: contentPlayhead)
        finished = true
        beacons += fire(.complete, at: max(duration, lastMediaTime), contentPlayhead: contentPlayhead)
        return beacons
    }

    /// The ad was paused (fires only on change).
    public mutating func pause(at mediaTime: TimeInterval) -> [Beacon] {
        guard started, !finished, !paused else { return [] }
        paused = true
        return fire(.pause, at: mediaTime)
    }

    /// The ad resumed (fires only after a pause).
    public mutating func resume(at mediaTime: TimeInterval) -> [Beacon] {
        guard started, !finished, paused else { return [] }
        paused = false
        return fire(.resume, at: mediaTime)
    }

    /// The volume changed; `mute`/`unmute` fire when it crosses zero. The
    /// first report only sets the baseline.
    public mutating func volumeChanged(to volume: Float, at mediaTime: TimeInterval) -> [Beacon] {
        let nowMuted = volume <= 0
        defer { muted = nowMuted }
        guard started, !finished, let wasMuted = muted, wasMuted != nowMuted else { return [] }
        return fire(nowMuted ? .mute : .unmute, at: mediaTime)
    }

    /// The user skipped the ad.
    public mutating func skip(at mediaTime: TimeInterval) -> [Beacon] {
        guard started, !finished else { return [] }
        finished = true
        return fire(.skip, at: mediaTime)
    }

    /// The user clicked through: every click-tracking URL of the chain.
    public mutating func click(at mediaTime: TimeInterval) -> [Beacon] {
        ad.clickTracking.compactMap { beacon($0.url, event: "click", at: mediaTime) }
    }

    /// The ad failed with `code`: every Error URL of the chain and the inline ad.
    public mutating func error(_ code: VASTErrorCode, at mediaTime: TimeInterval) -> [Beacon] {
        guard !finished else { return [] }
        finished = true
        return ad.errorURLs.compactMap { beacon($0, event: "error", at: mediaTime, errorCode: code) }
    }

    // MARK: - Beacons

    private func fire(_ event: TrackingEventType, at mediaTime: TimeInterval, contentPlayhead: TimeInterval? = nil)
        -> [Beacon]
    {
        trackingEvents.filter { $0.event == event }.compactMap {
            beacon($0.url, event: event.rawValue, at: mediaTime, contentPlayhead: contentPlayhead)
        }
    }

    private func beacon(
        _ template: VASTURLTemplate, event: String, at mediaTime: TimeInterval, contentPlayhead: TimeInterval? = nil,
        errorCode: VASTErrorCode? = nil
    ) -> Beacon? {
        Beacon(
            template: template,
            values: macroValues(at: mediaTime, contentPlayhead: contentPlayhead, errorCode: errorCode),
            event: event, adID: ad.ad.id ?? "", macros: macros)
    }

    private func macroValues(at mediaTime: TimeInterval, contentPlayhead: TimeInterval?, errorCode: VASTErrorCode?)
        -> [VASTMacro: VASTMacroValue]
    {
        var values: [VASTMacro: VASTMacroValue] = [
            .adPlayhead: .playhead(seconds: mediaTime),
            .mediaPlayhead: .playhead(seconds: mediaTime),
            .contentPlayhead: contentPlayhead.map { .playhead(seconds: $0) } ?? .unknown,
            .breakPosition: .value(String(context.breakPosition.rawValue)),
            .podSequence: .value(String(ad.ad.sequence ?? context.adPosition)),
            .adCount: .value(String(context.adPosition)),
            .limitAdTracking: .value(context.limitAdTracking ? "1" : "0"),
            .adType: .value(ad.ad.adType?.rawValue ?? "video"),
            .placementType: .value("1"),  // linear video
            .vastVersions: .list(["2", "3", "5", "6", "7", "8", "11", "12", "13", "14"]),
            .apiFrameworks: .unknown,
            .playerCapabilities: .list(["skip", "mute"]),
            .serverSide: .value("0"),
            .clickPosition: .unknown,
        ]
        values[.assetURI] = assetURI.map { .value($0) } ?? .unknown
        values[.adServingID] = ad.inLine.adServingID.map { .value($0) } ?? .unknown
        let universal = ad.linearCreative?.universalAdIDs ?? []
        values[.universalAdID] = universal.isEmpty ? .unknown : .list(universal.map { "\($0.idRegistry) \($0.value)" })
        values[.adCategories] = ad.inLine.categories.isEmpty ? .unknown : .list(ad.inLine.categories.map(\.value))
        if let size = context.playerSize { values[.playerSize] = .list([String(size.width), String(size.height)]) }
        if let contentID = context.contentID { values[.contentID] = .value(contentID) }
        if let errorCode { values[.errorCode] = .value(String(errorCode.rawValue)) }
        return values
    }
}
