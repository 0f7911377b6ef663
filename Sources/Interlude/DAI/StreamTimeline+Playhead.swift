import Foundation

extension StreamTimeline {
    /// Largest step between two reports still read as playback, beyond
    /// twice the clock time between them (ticks come every 0.2–0.25 s; one
    /// may be late; a player may play at 2×).
    static let playbackSlack: TimeInterval = 1.0
    /// A report this far behind the last one is a seek back; less is a
    /// display's jitter, and the playhead stays where it was.
    static let backwardJitter: TimeInterval = 0.5
    /// How near a report must be to a seek the timeline asked for to count as its landing.
    static let landingTolerance: TimeInterval = 1.5
    /// Reports waited for a requested seek to land before taking the display at its word.
    static let landingPatience = 8

    /// Reports between two clock reads (4 Hz reports: about a second).
    static let reportsPerClockRead = 4

    /// `playheadMoved(to:at:into:)` with the clock read by `reading`
    /// about once a second of reports, and at once for a report far ahead
    /// of the playhead (the time since the last report then tells a seek
    /// from late reports). Between reads the last reading stands: the time
    /// since it is then over-counted by under a second, which only makes a
    /// forward jump of a few seconds read as playback. A clock read costs
    /// more than the rest of an ordinary report. Kept here, not in the
    /// manager, so that a report reads the playhead in the access that moves it.
    mutating func playheadMoved(
        to time: TimeInterval, reading: () -> TimeInterval, into effects: inout [Effect]
    ) {
        clockSample.reports += 1
        let farAhead = playhead.map { time - $0 > Self.playbackSlack } ?? true
        if farAhead || clockSample.reports >= Self.reportsPerClockRead {
            clockSample.reading = reading()
            clockSample.reports = 0
        }
        playheadMoved(to: time, at: clockSample.reading, into: &effects)
    }

    /// The display reports the playhead at `time` stream seconds, with the
    /// clock at `now`: playback from the last report, or a seek.
    mutating func playheadMoved(to time: TimeInterval, at now: TimeInterval, into effects: inout [Effect]) {
        guard time.isFinite, time >= 0 else {
            if !reportedBadPlayhead {
                reportedBadPlayhead = true
                effects.append(.log("playhead \(time) ignored: not a stream time"))
            }
            return
        }
        if kind == .live { return livePlayheadMoved(to: time, at: now, into: &effects) }
        guard let previous = playhead else {
            // The first report is where playback starts (a bookmark, say): not a seek.
            playhead = time
            lastClock = now
            jump(to: time, into: &effects)
            return
        }
        let elapsed = max(0, now - (lastClock ?? now))
        lastClock = now
        if let landing = expectedLanding {
            if abs(time - landing.time) <= Self.landingTolerance {
                expectedLanding = nil
                playhead = time
                jump(to: time, into: &effects)
                return
            }
            if landing.reports < Self.landingPatience {
                expectedLanding = (landing.time, landing.reports + 1)
                return
            }
            expectedLanding = nil
            effects.append(.log("the display never reached \(landing.time) s; taking \(time) s as the playhead"))
        }
        let delta = time - previous
        if delta < -Self.backwardJitter || delta > elapsed * 2 + Self.playbackSlack {
            userSeeked(from: previous, to: time, into: &effects)
        } else if delta >= 0 {
            playhead = time
            play(from: previous, to: time, into: &effects)
        }
    }

    /// The app asks to seek to `time` (ours: ``StreamManager/seekStream(to:)``).
    /// Returns false when refused: snapback is on and a break plays for
    /// the first time, or the time is not a number.
    mutating func seekRequested(to time: TimeInterval, into effects: inout [Effect]) -> Bool {
        guard time.isFinite else {
            effects.append(.log("seek to \(time) refused: not a stream time"))
            return false
        }
        let target = max(0, time)
        if kind == .vod, snapback, announcedBreak != nil {
            effects.append(.log("seek to \(target) s refused: an ad break is playing for the first time"))
            return false
        }
        if kind == .vod, snapback, let snap = snapbackStart(from: playhead ?? 0, to: target) {
            snapBack(to: snap, resumingAt: target, into: &effects)
            return true
        }
        resumeAfterBreak = nil
        expectedLanding = (target, 0)
        effects.append(.seekStream(target))
        return true
    }

    /// The display ended the stream: a break it was in plays out.
    mutating func streamEnded(into effects: inout [Effect]) {
        if kind == .live { return closeLiveBreak(reason: nil, into: &effects) }
        guard let position = playhead, let breakIndex = segments[segmentIndex].breakIndex else { return }
        let end = breaks[breakIndex].end
        guard end > position else { return }
        playhead = end
        play(from: position, to: end, into: &effects)
    }

    // MARK: - Seeks

    /// The start of the break a seek from `from` to `to` jumped over
    /// unplayed: the last break that starts before `to`, if it starts after `from`.
    func snapbackStart(from: TimeInterval, to: TimeInterval) -> TimeInterval? {
        guard to > from, let index = previousBreakIndex(before: to), !breaks[index].isPlayed,
            breaks[index].start > from
        else { return nil }
        return breaks[index].start
    }

    private mutating func userSeeked(from: TimeInterval, to: TimeInterval, into effects: inout [Effect]) {
        if snapback {
            if announcedBreak != nil {
                effects.append(.log("seek to \(to) s refused: an ad break is playing for the first time"))
                expectedLanding = (from, 0)
                effects.append(.seekStream(from))
                return
            }
            if let snap = snapbackStart(from: from, to: to) {
                return snapBack(to: snap, resumingAt: to, into: &effects)
            }
        }
        resumeAfterBreak = nil
        playhead = to
        jump(to: to, into: &effects)
    }

    private mutating func snapBack(
        to start: TimeInterval, resumingAt target: TimeInterval, into effects: inout [Effect]
    ) {
        resumeAfterBreak = target
        expectedLanding = (start, 0)
        effects.append(.log("snapback: playing the ad break at \(start) s, then resuming at \(target) s"))
        effects.append(.seekStream(start))
    }

    /// The playhead is now at `time` without playing there: leave the break
    /// it was in, enter the one it is in, start the ad it landed in.
    private mutating func jump(to time: TimeInterval, into effects: inout [Effect]) {
        let index = segmentIndex(at: time)
        let segment = segments[index]
        if let open = periodBreak, open != segment.breakIndex { closePeriod(open, into: &effects) }
        segmentIndex = index
        if let breakIndex = segment.breakIndex {
            if periodBreak != breakIndex { openPeriod(breakIndex, into: &effects) }
            if let adIndex = segment.adIndex { adEntered(breakIndex, adIndex, into: &effects) }
        }
        publish(at: time, into: &effects)
    }

    /// Playback from `from` to `to`: every boundary crossed in order.
    private mutating func play(from: TimeInterval, to: TimeInterval, into effects: inout [Effect]) {
        var position = from
        while true {
            let segment = segments[segmentIndex]
            if let breakIndex = segment.breakIndex, let adIndex = segment.adIndex {
                advanceAd(breakIndex, adIndex, from: position, to: min(to, segment.end), into: &effects)
            }
            guard to >= segment.end else { break }
            position = segment.end
            segmentIndex += 1
            let next = segments[segmentIndex]
            if let ended = segment.breakIndex, ended != next.breakIndex {
                let wasFirstPlay = announcedBreak == ended
                closePeriod(ended, into: &effects)
                if wasFirstPlay, let resume = resumeAfterBreak {
                    resumeAfterBreak = nil
                    if resume > position {
                        expectedLanding = (resume, 0)
                        effects.append(.seekStream(resume))
                        return
                    }
                }
            }
            if let breakIndex = next.breakIndex {
                if periodBreak != breakIndex { openPeriod(breakIndex, into: &effects) }
                if let adIndex = next.adIndex { adEntered(breakIndex, adIndex, into: &effects) }
            }
        }
        publish(at: to, into: &effects)
    }

    // MARK: - Periods, breaks, ads

    private mutating func openPeriod(_ breakIndex: Int, into effects: inout [Effect]) {
        periodBreak = breakIndex
        let data = ["breakId": breaks[breakIndex].id]
        let firstAd = breaks[breakIndex].ads.first { !$0.isSlate }?.ad
        effects.append(.emit(AdEvent(type: .adPeriodStarted, ad: firstAd, adData: data)))
        guard !breaks[breakIndex].isPlayed else { return }
        breaks[breakIndex].isPlayed = true
        announcedBreak = breakIndex
        effects.append(.emit(AdEvent(type: .adBreakStarted, ad: firstAd, adData: data)))
        let value = Cuepoint.adDataValue(prefixes: cuepointPrefixes, played: breaks.map(\.isPlayed))
        effects.append(.emit(AdEvent(type: .cuepointsChanged, adData: ["cuepoints": value])))
    }

    private mutating func closePeriod(_ breakIndex: Int, into effects: inout [Effect]) {
        let data = ["breakId": breaks[breakIndex].id]
        if announcedBreak == breakIndex {
            announcedBreak = nil
            effects.append(.emit(AdEvent(type: .adBreakEnded, adData: data)))
        }
        periodBreak = nil
        effects.append(.emit(AdEvent(type: .adPeriodEnded, adData: data)))
        hideUI(into: &effects)
    }

    private mutating func adEntered(_ breakIndex: Int, _ adIndex: Int, into effects: inout [Effect]) {
        guard !breaks[breakIndex].ads[adIndex].isSlate else { return }
        fire(AdMilestone.started, .start, breakIndex, adIndex, into: &effects)
    }

    /// Quartiles and `complete` that playback from `from` to `to` crossed,
    /// once each. Runs on every report in an ad: it reads the slot's
    /// scalars in place, never copying the slot (its `Ad` holds dozens of
    /// references) or hashing anything.
    private mutating func advanceAd(
        _ breakIndex: Int, _ adIndex: Int, from: TimeInterval, to: TimeInterval, into effects: inout [Effect]
    ) {
        let fired = breaks[breakIndex].ads[adIndex].fired
        guard fired & AdMilestone.complete == 0, to > from, !breaks[breakIndex].ads[adIndex].isSlate else { return }
        let marks = breaks[breakIndex].ads[adIndex].milestones
        if from < marks.firstQuartile, to >= marks.firstQuartile {
            fire(AdMilestone.firstQuartile, .firstQuartile, breakIndex, adIndex, into: &effects)
        }
        if from < marks.midpoint, to >= marks.midpoint {
            fire(AdMilestone.midpoint, .midpoint, breakIndex, adIndex, into: &effects)
        }
        if from < marks.thirdQuartile, to >= marks.thirdQuartile {
            fire(AdMilestone.thirdQuartile, .thirdQuartile, breakIndex, adIndex, into: &effects)
        }
        // A tick lands on the complete time, or past it (a millisecond before the ad's end at the latest).
        if from < marks.complete + 0.001, to >= marks.complete {
            fire(AdMilestone.complete, .complete, breakIndex, adIndex, into: &effects)
        }
    }

    private mutating func fire(
        _ bit: UInt8, _ kind: PodMetadata.EventKind, _ breakIndex: Int, _ adIndex: Int, into effects: inout [Effect]
    ) {
        guard breaks[breakIndex].ads[adIndex].fired & bit == 0, let type = kind.adEventType else { return }
        breaks[breakIndex].ads[adIndex].fired |= bit
        // Verified before the app hears of it: an app that destroys the manager on the event still counts it.
        if let eventID = breaks[breakIndex].ads[adIndex].eventIDs[kind] { effects.append(.verify(eventID)) }
        let event = AdEvent(
            type: type, ad: breaks[breakIndex].ads[adIndex].ad, adData: ["breakId": breaks[breakIndex].id])
        effects.append(.emit(event))
    }

    // MARK: - Progress and UI

    /// Progress and the custom UI for the ad at `time`, if any.
    private mutating func publish(at time: TimeInterval, into effects: inout [Effect]) {
        let segment = segments[segmentIndex]
        guard let breakIndex = segment.breakIndex, let adIndex = segment.adIndex,
            !breaks[breakIndex].ads[adIndex].isSlate
        else { return hideUI(into: &effects) }
        let clock = breaks[breakIndex].ads[adIndex].clock
        guard progressed(clock, at: time, breakDuration: breaks[breakIndex].duration, key: breakIndex, into: &effects)
        else { return }
        publishUI(
            breaks[breakIndex].ads[adIndex].ad, clock, at: time,
            hasClickThrough: breaks[breakIndex].ads[adIndex].clickThrough != nil, into: &effects)
    }

    /// The progress call; true when the countdown's second changed, so the UI must be published.
    mutating func progressed(
        _ clock: AdClockFacts, at time: TimeInterval, breakDuration: TimeInterval, key: Int,
        into effects: inout [Effect]
    ) -> Bool {
        let elapsed = min(max(0, time - clock.start), clock.duration)
        effects.append(
            .progress(
                StreamAdProgress(
                    time: elapsed, adDuration: clock.duration, adPosition: clock.adPosition, totalAds: clock.totalAds,
                    adBreakDuration: breakDuration, adPeriodDuration: breakDuration)))
        // The countdown's second as the UI shown writes it: the custom UI rounds like printf, the built-in one up.
        let left = clock.duration - elapsed
        let uiKey = UIKey(
            breakIndex: key, adIndex: clock.adPosition,
            remaining: Int(left.rounded(disableUi ? .toNearestOrEven : .up)))
        guard uiKey != lastUIKey else { return false }
        lastUIKey = uiKey
        return true
    }

    /// The custom UI for `ad` at `time` (Learn More only with a click-through).
    mutating func publishUI(
        _ ad: Ad, _ clock: AdClockFacts, at time: TimeInterval, hasClickThrough: Bool, into effects: inout [Effect]
    ) {
        let elapsed = min(max(0, time - clock.start), clock.duration)
        var state = AdUIState.playing(ad, mediaTime: elapsed, totalTime: clock.duration, strings: strings)
        // The custom UI's Learn More needs somewhere to go (the built-in UI already asks the ad).
        if !hasClickThrough { state.learnMoreVisible = false }
        effects.append(.ui(state))
    }

    mutating func hideUI(into effects: inout [Effect]) {
        guard lastUIKey != nil else { return }
        lastUIKey = nil
        effects.append(.ui(.hidden))
    }

    /// The user chose Learn More: the playing ad's click-through opens.
    mutating func clicked(into effects: inout [Effect]) {
        guard let slot = currentSlot, !slot.isSlate else {
            return effects.append(.log("clicked() ignored: no ad is playing"))
        }
        guard let url = slot.clickThrough else {
            return effects.append(.log("clicked() ignored: the ad has no click-through"))
        }
        effects.append(.emit(AdEvent(type: .clicked, ad: slot.ad)))
        if !slot.clickTracking.isEmpty { effects.append(.clickTracking(slot.clickTracking)) }
        effects.append(.openClickThrough(url))
    }
}
