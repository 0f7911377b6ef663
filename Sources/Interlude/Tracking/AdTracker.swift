import Foundation
import InterludeVAST

/// Decides which tracking URLs are due for one ad, from the playback facts
/// it is told (start, progress, pause, volume, skip, click, complete,
/// error). It owns no timer: the caller feeds it media time and the ad's
/// duration, and it answers with the beacons due at that moment, each
/// exactly once, and with the quartiles crossed, so that quartile events
/// and quartile beacons are one decision.
///
/// Rules (VAST 4.3 §3): impressions of the inline ad and of every wrapper
/// fire together with `creativeView` and `start` at the first frame, once;
/// quartiles at 25/50/75 % and `progress` offsets as play crosses them
/// (percentages and quartiles wait until a duration is known); `pause`/
/// `resume` and `mute`/`unmute` only on change; every URL of an event
/// fires; `about:blank` and non-http URLs never fire.
struct AdTracker: Sendable {
    /// Facts about the placement that fill macros.
    struct Context: Sendable, Hashable {
        var breakPosition: BreakPosition
        /// 1-based position in the pod (`[PODSEQUENCE]` uses the VAST sequence when present).
        var adPosition: Int
        var limitAdTracking: Bool
        /// `[PLAYERSIZE]` as `width,height`, when known.
        var playerSize: PlayerSize?
        var contentID: String?

        init(
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
    struct PlayerSize: Sendable, Hashable {
        var width: Int
        var height: Int
    }

    /// A quartile of the ad's duration, in the order they are crossed.
    enum Quartile: Int, Sendable, CaseIterable {
        case first = 1
        case midpoint, third

        var trackingEvent: TrackingEventType {
            switch self {
            case .first: return .firstQuartile
            case .midpoint: return .midpoint
            case .third: return .thirdQuartile
            }
        }
    }

    /// What one playback fact made due.
    struct Report: Sendable, Hashable {
        /// Quartiles crossed, in order (their events are the caller's).
        var quartiles: [Quartile] = []
        var beacons: [Beacon] = []
    }

    let ad: ResolvedAd
    let context: Context
    /// The media file playing (`[ASSETURI]`).
    let assetURI: String?
    /// Whether `verificationNotExecuted` fires at start (reason 2: not supported).
    let reportsVerificationsNotExecuted: Bool
    private let macros: VASTMacroFiller
    /// The chain's merged linear tracking, computed once (not per event).
    private let trackingEvents: [TrackingEvent]
    private let progressEvents: [(offset: VASTOffset, event: TrackingEvent)]
    /// Every macro value that does not change while the ad plays, built once.
    private let constantValues: [VASTMacro: VASTMacroValue]

    private var started = false
    private var finished = false
    private var firedQuartiles: Set<Quartile> = []
    private var firedProgress: Set<Int> = []
    private var paused = false
    private var muted: Bool?
    private var lastMediaTime: TimeInterval = 0
    private var viewability = ViewabilityMeter()

    init(
        ad: ResolvedAd, context: Context = Context(), assetURI: String? = nil,
        macros: VASTMacroFiller = VASTMacroFiller(), reportsVerificationsNotExecuted: Bool = true
    ) {
        self.ad = ad
        self.context = context
        self.assetURI = assetURI
        self.macros = macros
        self.reportsVerificationsNotExecuted = reportsVerificationsNotExecuted
        trackingEvents = ad.linearTrackingEvents
        progressEvents = trackingEvents.filter { $0.event == .progress }.compactMap { event in
            event.offset.map { ($0, event) }
        }
        var values = PlayerMacros.values(limitAdTracking: context.limitAdTracking)
        values[.breakPosition] = .value(String(context.breakPosition.rawValue))
        values[.podSequence] = .value(String(ad.ad.sequence ?? context.adPosition))
        values[.adCount] = .value(String(context.adPosition))
        values[.adType] = .value(ad.ad.adType?.rawValue ?? "video")
        values[.clickPosition] = .unknown
        values[.assetURI] = assetURI.map { .value($0) } ?? .unknown
        values[.adServingID] = ad.inLine.adServingID.map { .value($0) } ?? .unknown
        let universal = ad.linearCreative?.universalAdIDs ?? []
        values[.universalAdID] = universal.isEmpty ? .unknown : .list(universal.map { "\($0.idRegistry) \($0.value)" })
        values[.adCategories] = ad.inLine.categories.isEmpty ? .unknown : .list(ad.inLine.categories.map(\.value))
        if let size = context.playerSize { values[.playerSize] = .list([String(size.width), String(size.height)]) }
        if let contentID = context.contentID { values[.contentID] = .value(contentID) }
        constantValues = values
    }

    /// Whether the first frame has been reported.
    var hasStarted: Bool { started }

    // MARK: - Playback facts

    /// The first frame is showing: impressions, `creativeView`, `start`, and
    /// each verification's `verificationNotExecuted` (the SDK runs no OM).
    mutating func start(
        duration: TimeInterval? = nil, contentPlayhead: TimeInterval? = nil, visibleFraction: Double? = nil
    ) -> Report {
        guard !started, !finished else { return Report() }
        started = true
        var beacons = ad.impressions.map(\.url).compactMap {
            beacon($0, event: "impression", at: 0, contentPlayhead: contentPlayhead)
        }
        beacons += fire(.creativeView, at: 0, contentPlayhead: contentPlayhead)
        beacons += fire(.start, at: 0, contentPlayhead: contentPlayhead)
        if reportsVerificationsNotExecuted {
            for verification in ad.adVerifications {
                for tracking in verification.trackingEvents where tracking.event == .verificationNotExecuted {
                    // VAST 4.1 §3.17.2: reason 2, "verification not supported".
                    if let due = beacon(
                        tracking.url, event: "verificationNotExecuted", at: 0, contentPlayhead: contentPlayhead,
                        extra: [.reason: .value("2")])
                    {
                        beacons.append(due)
                    }
                }
            }
        }
        var report = progress(
            to: 0, duration: duration, contentPlayhead: contentPlayhead, visibleFraction: visibleFraction)
        report.beacons = beacons + report.beacons
        return report
    }

    /// Media time advanced to `mediaTime` of an ad lasting `duration`
    /// seconds (nil while unknown): quartiles and progress offsets crossed.
    /// `visibleFraction` is how much of the video is on screen (nil when
    /// the display cannot tell), for the ViewableImpression verdict.
    mutating func progress(
        to mediaTime: TimeInterval, duration: TimeInterval?, contentPlayhead: TimeInterval? = nil,
        visibleFraction: Double? = nil
    ) -> Report {
        guard started, !finished else { return Report() }
        lastMediaTime = max(lastMediaTime, mediaTime)
        var report = Report()
        if let verdict = viewability.sample(at: mediaTime, fraction: visibleFraction, duration: duration) {
            report.beacons += viewableImpression(verdict, at: mediaTime, contentPlayhead: contentPlayhead)
        }
        if let duration, duration > 0 {
            for quartile in Quartile.allCases where !firedQuartiles.contains(quartile) {
                guard mediaTime >= duration * Double(quartile.rawValue) / 4 else { break }
                firedQuartiles.insert(quartile)
                report.quartiles.append(quartile)
                report.beacons += fire(quartile.trackingEvent, at: mediaTime, contentPlayhead: contentPlayhead)
            }
        }
        for (index, entry) in progressEvents.enumerated() where !firedProgress.contains(index) {
            let offset: TimeInterval
            switch entry.offset {
            case .time(let time): offset = time.seconds
            case .percent(let percent):
                guard let duration, duration > 0 else { continue }
                offset = duration * percent / 100
            }
            guard mediaTime >= offset else { continue }
            firedProgress.insert(index)
            if let due = beacon(entry.event.url, event: "progress", at: mediaTime, contentPlayhead: contentPlayhead) {
                report.beacons.append(due)
            }
        }
        return report
    }

    /// The ad played to its end: any quartile and offset not yet reported
    /// (at the end every one has been passed, whatever duration is known),
    /// then `complete`. `mediaDuration` is the length the display reported
    /// for the media, when it did: the ViewableImpression verdict counts
    /// the last on-screen fraction up to there, and never up to a VAST
    /// `<Duration>` the file may fall short of.
    mutating func complete(
        duration: TimeInterval?, mediaDuration: TimeInterval? = nil, contentPlayhead: TimeInterval? = nil
    ) -> Report {
        guard started, !finished else { return Report() }
        let end = max(duration ?? 0, lastMediaTime)
        var report = Report()
        for quartile in Quartile.allCases where !firedQuartiles.contains(quartile) {
            firedQuartiles.insert(quartile)
            report.quartiles.append(quartile)
            report.beacons += fire(quartile.trackingEvent, at: end, contentPlayhead: contentPlayhead)
        }
        for (index, entry) in progressEvents.enumerated() where !firedProgress.contains(index) {
            if case .time(let time) = entry.offset, time.seconds > end { continue }
            firedProgress.insert(index)
            if let due = beacon(entry.event.url, event: "progress", at: end, contentPlayhead: contentPlayhead) {
                report.beacons.append(due)
            }
        }
        finished = true
        report.beacons += fire(.complete, at: end, contentPlayhead: contentPlayhead)
        let viewedTo = max(lastMediaTime, mediaDuration ?? 0)
        report.beacons += endViewability(at: viewedTo, duration: duration, contentPlayhead: contentPlayhead)
        return report
    }

    /// The ad stopped before its end without a skip or an error (the app
    /// discarded the break): no event of its own, only the
    /// ViewableImpression verdict it still owes.
    mutating func abandon(at mediaTime: TimeInterval, contentPlayhead: TimeInterval? = nil) -> [Beacon] {
        guard started, !finished else { return [] }
        finished = true
        return endViewability(at: max(lastMediaTime, mediaTime), duration: nil, contentPlayhead: contentPlayhead)
    }

    /// The ad was paused (fires only on change).
    mutating func pause(at mediaTime: TimeInterval) -> [Beacon] {
        guard started, !finished, !paused else { return [] }
        paused = true
        return fire(.pause, at: mediaTime)
    }

    /// The ad resumed (fires only after a pause).
    mutating func resume(at mediaTime: TimeInterval) -> [Beacon] {
        guard started, !finished, paused else { return [] }
        paused = false
        return fire(.resume, at: mediaTime)
    }

    /// The volume changed; `mute`/`unmute` fire when it crosses zero. The
    /// first report only sets the baseline.
    mutating func volumeChanged(to volume: Float, at mediaTime: TimeInterval) -> [Beacon] {
        let nowMuted = volume <= 0
        defer { muted = nowMuted }
        guard started, !finished, let wasMuted = muted, wasMuted != nowMuted else { return [] }
        return fire(nowMuted ? .mute : .unmute, at: mediaTime)
    }

    /// The user skipped the ad.
    mutating func skip(at mediaTime: TimeInterval) -> [Beacon] {
        guard started, !finished else { return [] }
        finished = true
        return fire(.skip, at: mediaTime) + endViewability(at: mediaTime, duration: nil)
    }

    /// The user clicked through: every click-tracking URL of the chain.
    mutating func click(at mediaTime: TimeInterval) -> [Beacon] {
        ad.clickTracking.compactMap { beacon($0.url, event: "click", at: mediaTime) }
    }

    /// The icon showed for the first time in this ad: its `IconViewTracking`.
    func iconViewed(_ icon: AdIcon, at mediaTime: TimeInterval) -> [Beacon] {
        icon.viewTracking.compactMap { beacon($0, event: "iconView", at: mediaTime) }
    }

    /// The user tapped the icon: its `IconClickTracking`.
    func iconClicked(_ icon: AdIcon, at mediaTime: TimeInterval) -> [Beacon] {
        icon.clickTracking.compactMap { beacon($0, event: "iconClick", at: mediaTime) }
    }

    /// The ad failed with `code`: every Error URL of the chain and the inline ad.
    mutating func error(_ code: VASTErrorCode, at mediaTime: TimeInterval) -> [Beacon] {
        guard !finished else { return [] }
        finished = true
        let errors = ad.errorURLs.compactMap {
            beacon($0, event: "error", at: mediaTime, extra: [.errorCode: .value(String(code.rawValue))])
        }
        // An ad that failed after its first frame was seen, and owes its verdict.
        return errors + (started ? endViewability(at: mediaTime, duration: nil) : [])
    }

    // MARK: - Beacons

    /// The verdict still owed when the ad ends after its first frame.
    private mutating func endViewability(
        at mediaTime: TimeInterval, duration: TimeInterval?, contentPlayhead: TimeInterval? = nil
    ) -> [Beacon] {
        guard let verdict = viewability.end(at: mediaTime, duration: duration) else { return [] }
        return viewableImpression(verdict, at: mediaTime, contentPlayhead: contentPlayhead)
    }

    /// The `<ViewableImpression>` URLs of the inline ad and every wrapper for `verdict`.
    private func viewableImpression(
        _ verdict: ViewabilityMeter.Verdict, at mediaTime: TimeInterval, contentPlayhead: TimeInterval?
    ) -> [Beacon] {
        let elements =
            ad.wrappers.compactMap(\.wrapper.viewableImpression) + [ad.inLine.viewableImpression].compactMap { $0 }
        let event: String
        let urls: [VASTURLTemplate]
        switch verdict {
        case .viewable: (event, urls) = ("viewable", elements.flatMap(\.viewable))
        case .notViewable: (event, urls) = ("notViewable", elements.flatMap(\.notViewable))
        case .undetermined: (event, urls) = ("viewUndetermined", elements.flatMap(\.viewUndetermined))
        }
        return urls.compactMap { beacon($0, event: event, at: mediaTime, contentPlayhead: contentPlayhead) }
    }

    private func fire(_ event: TrackingEventType, at mediaTime: TimeInterval, contentPlayhead: TimeInterval? = nil)
        -> [Beacon]
    {
        trackingEvents.filter { $0.event == event }.compactMap {
            beacon($0.url, event: event.rawValue, at: mediaTime, contentPlayhead: contentPlayhead)
        }
    }

    /// Every macro value of a beacon of this ad at `mediaTime` (nil: the
    /// ad's playhead is not known, as for a companion clicked after its ad).
    /// Companion beacons use them too: they are about the same placement.
    func macroValues(at mediaTime: TimeInterval?, contentPlayhead: TimeInterval? = nil)
        -> [VASTMacro: VASTMacroValue]
    {
        var values = constantValues
        let playhead = mediaTime.map { VASTMacroValue.playhead(seconds: $0) } ?? .unknown
        values[.adPlayhead] = playhead
        values[.mediaPlayhead] = playhead
        values[.contentPlayhead] = contentPlayhead.map { .playhead(seconds: $0) } ?? .unknown
        return values
    }

    private func beacon(
        _ template: VASTURLTemplate, event: String, at mediaTime: TimeInterval, contentPlayhead: TimeInterval? = nil,
        extra: [VASTMacro: VASTMacroValue] = [:]
    ) -> Beacon? {
        var values = macroValues(at: mediaTime, contentPlayhead: contentPlayhead)
        values.merge(extra) { _, new in new }
        return Beacon(template: template, values: values, event: event, adID: ad.ad.id ?? "", macros: macros)
    }
}
