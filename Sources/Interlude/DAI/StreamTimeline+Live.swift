import Foundation

/// What a live timeline knows: the break and ad its events are in.
struct LiveState: Sendable {
    var breakID: String?
    var breakStart: TimeInterval = 0
    var breakDuration: TimeInterval?
    var adCount: Int?
    var podIndex = -2
    /// `adBreakStarted` was sent for the open break.
    var announced = false
    /// The playing ad's slot, changed only through `replaceCurrentAd(with:)`
    /// and `markCurrentAdFired(_:)`. No observer: a property observer makes
    /// every change in place a copy of the whole slot (about 500 bytes, every
    /// reference its ad holds retained) and a write back.
    fileprivate(set) var currentAd: StreamTimeline.AdSlot?
    /// What every report reads of the current ad, kept apart so that a
    /// report never copies the slot (its ad holds dozens of references).
    private(set) var current: CurrentAd?

    /// Makes `slot` the current ad (nil: none), and `current` its summary.
    mutating func replaceCurrentAd(with slot: StreamTimeline.AdSlot?) {
        current = slot.map { CurrentAd(clock: $0.clock, isSlate: $0.isSlate, hasClickThrough: $0.clickThrough != nil) }
        currentAd = slot
    }

    /// True when the current ad is one (not slate) that has not completed:
    /// its end now is worth a log line.
    var currentAdIsIncomplete: Bool {
        guard let fired = currentAd?.fired, current?.isSlate == false else { return false }
        return fired & AdMilestone.complete == 0
    }

    /// Sets the `fired` bit `bit` of the current ad in place; the ad's bits
    /// after, or nil when there is no current ad or the bit was already set.
    mutating func markCurrentAdFired(_ bit: UInt8) -> UInt8? {
        guard let fired = currentAd?.fired, fired & bit == 0 else { return nil }
        currentAd?.fired = fired | bit
        return fired | bit
    }

    struct CurrentAd: Sendable, Hashable {
        var clock: AdClockFacts
        var isSlate: Bool
        var hasClickThrough: Bool
        var end: TimeInterval { clock.start + clock.duration }
    }
    /// Milestones fired for each ad, by break and ad. Kept after the break
    /// ends (the oldest forgotten past ``StreamTimeline/rememberedAds``): a
    /// milestone reported again later is a repeat, not an ad coming back.
    private(set) var firedByAd: [AdKey: UInt8] = [:]
    private var firedOrder: [AdKey] = []

    struct AdKey: Hashable, Sendable {
        var breakID: String
        var adID: String
    }

    /// The milestones fired for ad `adID` of break `breakID`.
    func fired(breakID: String, adID: String) -> UInt8 { firedByAd[AdKey(breakID: breakID, adID: adID)] ?? 0 }

    /// Records that ad `adID` of break `breakID` has fired `bits`.
    mutating func recordFired(_ bits: UInt8, breakID: String, adID: String) {
        let key = AdKey(breakID: breakID, adID: adID)
        guard firedByAd.updateValue(bits, forKey: key) == nil else { return }
        firedOrder.append(key)
        if firedOrder.count > StreamTimeline.rememberedAds { firedByAd[firedOrder.removeFirst()] = nil }
    }
    var lastEventTime: TimeInterval = 0
    /// Counts ads made current, so the UI of a new ad is always published.
    var generation = 0
    /// Breaks announced lately (a live stream replays none, but a late
    /// event of a break must not announce it twice). Bounded.
    var announcedBreaks: [String] = []
    /// Ads the metadata names in tags but does not describe, reported once each. Bounded.
    var undescribedAds: [String] = []
}

extension StreamTimeline {
    /// Seconds past a live break's (or ad's) expected end, with no event,
    /// before it counts as over: a missed `complete` never leaves the UI on.
    static let liveGrace: TimeInterval = 2
    static let rememberedBreaks = 64
    /// Ads whose fired milestones are remembered, over the breaks lately played.
    static let rememberedAds = 512
    /// Seconds without an event after which an ad of unknown duration is over.
    static let liveSilence: TimeInterval = 10

    /// A timed-metadata event came due at `time`. `tag` is what the
    /// metadata says the ID is (nil when it says nothing even after a
    /// fresh fetch: logged, and verified all the same, as Google's client does).
    mutating func liveEvent(
        _ eventID: String, tag: PodMetadata.Tag?, metadata: PodMetadata, at time: TimeInterval,
        into effects: inout [Effect]
    ) {
        guard let tag else {
            effects.append(.log("timed metadata \(eventID) is not in the stream's metadata; verified as it is"))
            effects.append(.verify(eventID))
            return
        }
        if tag.kind != .progress { effects.append(.verify(eventID)) }
        // A milestone happens once per ad: reported again (a display without
        // presentation times re-reporting the frame, a rendition's copy a
        // frame apart) it must not bring back the ad, nor reopen its ended break.
        if let bit = Self.milestoneBit(tag.kind), live.fired(breakID: tag.breakID, adID: tag.adID) & bit != 0 {
            return
        }
        if live.breakID != tag.breakID {
            // Slate or progress after a break's last ad completed is its tail, not a new period.
            let isSlate = metadata.ads[tag.adID]?.isSlate ?? false
            if live.announcedBreaks.contains(tag.breakID), tag.kind == .progress || isSlate { return }
            if live.breakID != nil { closeLiveBreak(reason: "break \(tag.breakID) began", into: &effects) }
            openLiveBreak(tag.breakID, metadata: metadata, at: time, into: &effects)
        }
        live.lastEventTime = time
        if live.currentAd?.key != tag.adID {
            makeCurrent(tag, metadata: metadata, at: time, into: &effects)
        }
        // The slot is read through its small summary and changed in place: `!= nil` on the
        // optional slot compared two copies of it (Optional's `==`), each retaining every reference its ad holds.
        guard let current = live.current else { return }
        if let bit = Self.milestoneBit(tag.kind), let fired = live.markCurrentAdFired(bit) {
            live.recordFired(fired, breakID: tag.breakID, adID: tag.adID)
            if !current.isSlate, let type = tag.kind.adEventType, let ad = live.currentAd?.ad {
                effects.append(.emit(AdEvent(type: type, ad: ad, adData: ["breakId": tag.breakID])))
            }
        }
        guard tag.kind == .complete else { return publishLive(at: time, into: &effects) }
        let position = current.clock.adPosition
        let isSlate = current.isSlate
        live.replaceCurrentAd(with: nil)
        hideUI(into: &effects)
        if let count = live.adCount, position >= count, !isSlate {
            closeLiveBreak(reason: nil, into: &effects)
        }
    }

    /// The `fired` bit of an event type (nil for `progress` and unknown types).
    static func milestoneBit(_ kind: PodMetadata.EventKind) -> UInt8? {
        if kind == .start { return AdMilestone.started }
        if kind == .firstQuartile { return AdMilestone.firstQuartile }
        if kind == .midpoint { return AdMilestone.midpoint }
        if kind == .thirdQuartile { return AdMilestone.thirdQuartile }
        if kind == .complete { return AdMilestone.complete }
        return nil
    }

    /// How far into an ad an event of `kind` sits (0 for `start`, 1 for `complete`).
    static func fractionIntoAd(_ kind: PodMetadata.EventKind) -> Double {
        if kind == .firstQuartile { return 0.25 }
        if kind == .midpoint { return 0.5 }
        if kind == .thirdQuartile { return 0.75 }
        if kind == .complete { return 1 }
        return 0
    }

    /// Live playhead: progress and UI for the current ad, and the end of a
    /// break whose last `complete` never came.
    mutating func livePlayheadMoved(to time: TimeInterval, at now: TimeInterval, into effects: inout [Effect]) {
        if let previous = playhead, time < previous {
            // A step back past the break's start (a DVR seek) leaves the break; jitter does nothing.
            guard previous - time > Self.backwardJitter else { return }
            if live.breakID != nil, time < live.breakStart - Self.backwardJitter {
                closeLiveBreak(reason: "the playhead moved back before the break", into: &effects)
            }
        }
        playhead = time
        lastClock = now
        guard live.breakID != nil else { return }
        if let current = live.current {
            // An ad of unknown length is over once its events have stopped for a while.
            let over =
                current.clock.duration > 0
                ? time > current.end + Self.liveGrace : time > live.lastEventTime + Self.liveSilence
            if over {
                effects.append(.log("ad \(live.currentAd?.key ?? "") ended without a complete event"))
                live.replaceCurrentAd(with: nil)
                hideUI(into: &effects)
            }
        }
        let expectedEnd = live.breakDuration.map { live.breakStart + $0 } ?? live.lastEventTime
        if live.current == nil, time > expectedEnd + Self.liveGrace {
            closeLiveBreak(reason: nil, into: &effects)
            return
        }
        publishLive(at: time, into: &effects)
    }

    private mutating func publishLive(at time: TimeInterval, into effects: inout [Effect]) {
        guard let current = live.current, !current.isSlate, current.clock.duration > 0,
            time >= current.clock.start - 0.5
        else { return hideUI(into: &effects) }
        let clock = current.clock
        let breakDuration = live.breakDuration ?? clock.duration
        guard progressed(clock, at: time, breakDuration: breakDuration, key: live.generation, into: &effects),
            let ad = live.currentAd?.ad
        else { return }
        publishUI(ad, clock, at: time, hasClickThrough: current.hasClickThrough, into: &effects)
    }

    private mutating func openLiveBreak(
        _ id: String, metadata: PodMetadata, at time: TimeInterval, into effects: inout [Effect]
    ) {
        let info = metadata.breaks[id]
        live.breakID = id
        live.breakStart = time
        live.breakDuration = info?.duration ?? info?.expectedDuration
        live.adCount = info?.adCount
        live.podIndex = info?.type == "pre" ? 0 : Self.number(in: id) ?? -2
        let data = ["breakId": id]
        effects.append(.emit(AdEvent(type: .adPeriodStarted, adData: data)))
        live.announced = !live.announcedBreaks.contains(id)
        guard live.announced else { return }
        live.announcedBreaks.append(id)
        if live.announcedBreaks.count > Self.rememberedBreaks { live.announcedBreaks.removeFirst() }
        effects.append(.emit(AdEvent(type: .adBreakStarted, adData: data)))
    }

    /// Ends the open live break (`adBreakEnded` if announced, then `adPeriodEnded`).
    mutating func closeLiveBreak(reason: String?, into effects: inout [Effect]) {
        guard let id = live.breakID else { return }
        if live.currentAdIsIncomplete {
            let key = live.currentAd?.key ?? ""
            effects.append(.log("ad \(key) ended without a complete event" + (reason.map { " (\($0))" } ?? "")))
        }
        live.replaceCurrentAd(with: nil)
        hideUI(into: &effects)
        let data = ["breakId": id]
        if live.announced { effects.append(.emit(AdEvent(type: .adBreakEnded, adData: data))) }
        effects.append(.emit(AdEvent(type: .adPeriodEnded, adData: data)))
        live.breakID = nil
        live.announced = false
    }

    /// The ad `tag` names becomes the playing one; its start is placed
    /// back from `time` by how far into the ad the event is (a viewer
    /// joining mid-ad sees the right countdown).
    private mutating func makeCurrent(
        _ tag: PodMetadata.Tag, metadata: PodMetadata, at time: TimeInterval, into effects: inout [Effect]
    ) {
        if live.currentAdIsIncomplete {
            effects.append(.log("ad \(live.currentAd?.key ?? "") ended without a complete event"))
        }
        let info = metadata.ads[tag.adID]
        if info == nil, !live.undescribedAds.contains(tag.adID) {
            live.undescribedAds.append(tag.adID)
            if live.undescribedAds.count > Self.rememberedBreaks { live.undescribedAds.removeFirst() }
            effects.append(.log("the metadata names ad \(tag.adID) in its tags but does not describe it"))
        }
        let duration = info?.duration ?? 0
        let start = time - duration * Self.fractionIntoAd(tag.kind)
        let total = live.adCount ?? 1
        let podInfo = AdPodInfo(
            adPosition: info?.position ?? 1, totalAds: max(total, info?.position ?? 1), podIndex: live.podIndex,
            timeOffset: live.breakStart, maxDuration: live.breakDuration ?? -1)
        live.generation += 1
        live.replaceCurrentAd(
            with: AdSlot(
                key: tag.adID,
                ad: Ad(
                    streamAd: info, id: tag.adID, duration: duration, podInfo: podInfo, disableUi: disableUi,
                    uiElements: uiElements), start: start,
                duration: duration, isSlate: info?.isSlate ?? false, clickThrough: info?.clickThroughURL,
                clickTracking: info?.clickTrackingURLs ?? [], fired: live.fired(breakID: tag.breakID, adID: tag.adID)))
    }

    /// The number a break ID ends in (`3`, `break-3`), for a live pod index.
    /// Read on the bytes (every live break comes here); the character
    /// reading below only when a non-ASCII byte precedes the digits, where
    /// a character could join the first digit (U+0600 and its kind prefix
    /// what follows them).
    static func number(in id: String) -> Int? {
        let utf8 = id.utf8
        var start = utf8.endIndex
        var count = 0
        while start > utf8.startIndex {
            let before = utf8.index(before: start)
            guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(utf8[before]) else { break }
            start = before
            count += 1
        }
        guard count > 0 else { return nil }
        if start == utf8.startIndex || utf8[utf8.index(before: start)] < 0x80 {
            guard count <= 9 else { return nil }
            var value = 0
            for byte in utf8[start...] { value = value * 10 + Int(byte - UInt8(ascii: "0")) }
            return value
        }
        let digits = id.reversed().prefix { $0.isASCII && $0.isNumber }
        guard !digits.isEmpty, digits.count <= 9 else { return nil }
        return Int(String(digits.reversed()))
    }
}
