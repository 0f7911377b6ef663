import Foundation
import InterludeVAST

/// The machine's steps: beginning, playing, ending and failing an ad.
extension AdBreakMachine {
    /// The one duration of the ad at `index`: the media's once the display
    /// reported it, else the VAST `<Duration>`; nil while neither is known.
    /// Quartile events, quartile beacons, `progress` offsets, the skip
    /// offset and the countdown all use it.
    func duration(of index: Int) -> TimeInterval? {
        mediaDuration ?? (ads[index].duration > 0 ? ads[index].duration : nil)
    }

    mutating func beginAd(_ index: Int, announceLoaded: Bool) -> [Effect] {
        guard index < ads.count else { return endBreak() }
        let ad = ads[index]
        phase = .loading(index, .requested)
        mediaTime = 0
        mediaDuration = nil
        shownIcons = []
        paused = false
        pausedForBackground = false
        startPaused = false
        tracker = AdTracker(
            ad: resolvedAds[index],
            context: .init(
                breakPosition: breakPosition, adPosition: ad.adPodInfo.adPosition, limitAdTracking: limitAdTracking),
            assetURI: ad.mediaURL, macros: macros,
            reportsVerificationsNotExecuted: rendering.reportsVerificationsNotExecuted)
        let effects: [Effect] = announceLoaded ? [.emit(AdEvent(type: .loaded, ad: ad))] : []
        guard let media = ad.mediaURL, let url = URL.lenient(media, relativeTo: nil), url.isHTTPOrHTTPS || url.isFileURL
        else {
            return effects + fail(index, code: .noSupportedMediaFile, message: "no media file of a supported type")
        }
        return effects + [.loadMedia(url), .startLoadTimer(rendering.loadVideoTimeout)]
    }

    mutating func adStarted(_ index: Int, contentPlayhead: TimeInterval?) -> [Effect] {
        phase = .playing(index)
        paused = false
        var effects: [Effect] = [.cancelLoadTimer]
        let duration = duration(of: index)
        let report = tracker?.start(
            duration: duration, contentPlayhead: contentPlayhead, visibleFraction: visibleFraction)
        effects.append(.send(report?.beacons ?? []))
        effects.append(.send(tracker?.volumeChanged(to: volume, at: 0) ?? []))
        effects.append(.emit(AdEvent(type: .started, ad: ads[index])))
        effects += quartileEvents(report?.quartiles ?? [], index)
        appendUI(index, mediaTime: nil, to: &effects)
        // A display that started while the ad was held (it raced the hold): pause it at once.
        if isHeld {
            pausedForBackground = inBackground && !startPaused
            startPaused = false
            effects += pauseAd(index)
        }
        return effects
    }

    mutating func progressed(
        _ index: Int, to time: TimeInterval, of total: TimeInterval, contentPlayhead: TimeInterval?
    )
        -> [Effect]
    {
        // A display's non-finite or negative time says nothing: the tick is dropped.
        guard time.isFinite, time >= 0 else { return [] }
        noteMediaDuration(total, of: index)
        mediaTime = time
        let duration = duration(of: index)
        let report = tracker?.progress(
            to: time, duration: duration, contentPlayhead: contentPlayhead, visibleFraction: visibleFraction)
        var effects: [Effect] = [.send(report?.beacons ?? [])]
        effects += quartileEvents(report?.quartiles ?? [], index)
        effects.append(.progress(mediaTime: time, totalTime: duration ?? 0))
        appendUI(index, mediaTime: time, to: &effects)
        return effects
    }

    mutating func completed(_ index: Int, contentPlayhead: TimeInterval?) -> [Effect] {
        let duration = duration(of: index)
        let report = tracker?.complete(
            duration: duration, mediaDuration: mediaDuration, contentPlayhead: contentPlayhead)
        mediaTime = max(mediaTime, duration ?? 0)
        var effects: [Effect] = [.send(report?.beacons ?? [])]
        effects += quartileEvents(report?.quartiles ?? [], index)
        effects.append(.emit(AdEvent(type: .complete, ad: ads[index])))
        effects.append(.ui(.hidden))
        return effects + finishAd(index)
    }

    mutating func skip(_ index: Int) -> [Effect] {
        let ad = ads[index]
        guard ad.isSkippable else { return [log("skip() ignored: the ad is not skippable")] }
        guard let offset = ad.skipOffset(forDuration: duration(of: index) ?? 0) else {
            return [log("skip() ignored: the ad's skip offset waits for its media's duration")]
        }
        guard mediaTime >= offset else {
            return [log("skip() ignored: the ad can be skipped after \(offset) s, it is at \(mediaTime) s")]
        }
        var effects: [Effect] = [.resetDisplay, .send(tracker?.skip(at: mediaTime) ?? [])]
        effects.append(.emit(AdEvent(type: .skipped, ad: ad)))
        effects.append(.ui(.hidden))
        return effects + finishAd(index)
    }

    mutating func clicked(_ index: Int) -> [Effect] {
        guard let template = resolvedAds[index].clickThrough,
            let url = URL.lenient(macros.fill(template), relativeTo: nil), url.isHTTPOrHTTPS
        else { return [log("clicked() ignored: the ad has no click-through")] }
        var effects: [Effect] = [.openClickThrough(url), .send(tracker?.click(at: mediaTime) ?? [])]
        effects.append(.emit(AdEvent(type: .clicked, ad: ads[index])))
        if !paused { effects += pauseAd(index) }
        return effects
    }

    mutating func pauseAd(_ index: Int) -> [Effect] {
        paused = true
        return [.pause, .send(tracker?.pause(at: mediaTime) ?? []), .emit(AdEvent(type: .pause, ad: ads[index]))]
    }

    mutating func resumeAd(_ index: Int) -> [Effect] {
        paused = false
        return [.play, .send(tracker?.resume(at: mediaTime) ?? []), .emit(AdEvent(type: .resume, ad: ads[index]))]
    }

    /// The ad still loading must not play yet: a display told to play is paused again.
    mutating func hold(_ index: Int, _ stage: LoadStage) -> [Effect] {
        guard stage == .playRequested else { return [] }
        phase = .loading(index, .loaded)
        return [.cancelLoadTimer, .pause]
    }

    /// The hold is over (foreground, or the app's resume): loaded media plays.
    mutating func release(_ index: Int, _ stage: LoadStage) -> [Effect] {
        guard !isHeld, stage == .loaded else { return [] }
        phase = .loading(index, .playRequested)
        return [.play, .startLoadTimer(rendering.loadVideoTimeout)]
    }

    mutating func fail(_ index: Int, code: VASTErrorCode, message: String) -> [Effect] {
        let error = AdError(type: .playingFailed, code: AdError.Code(code.rawValue), message: message)
        var effects: [Effect] = [.cancelLoadTimer, .resetDisplay]
        effects.append(.send(tracker?.error(code, at: mediaTime) ?? []))
        effects.append(.error(error))
        effects.append(.ui(.hidden))
        return effects + finishAd(index)
    }

    /// The ad at `index` is over; the next begins on ``Input/proceed``.
    mutating func finishAd(_ index: Int) -> [Effect] {
        tracker = nil
        phase = .between(next: index + 1)
        return [.proceed]
    }

    mutating func endBreak() -> [Effect] {
        phase = .finished
        tracker = nil
        var effects: [Effect] = []
        if announcesBreak { effects.append(.emit(AdEvent(type: .adBreakEnded))) }
        effects += [.requestContentResume, .breakFinished]
        return effects
    }

    func quartileEvents(_ quartiles: [AdTracker.Quartile], _ index: Int) -> [Effect] {
        quartiles.map { quartile in
            let type: AdEvent.EventType
            switch quartile {
            case .first: type = .firstQuartile
            case .midpoint: type = .midpoint
            case .third: type = .thirdQuartile
            }
            return .emit(AdEvent(type: type, ad: ads[index]))
        }
    }

    /// The UI at `mediaTime`, and the view tracking of each icon it shows
    /// for the first time in this ad.
    /// (Appended in place: it runs on every progress tick.)
    mutating func appendUI(_ index: Int, mediaTime: TimeInterval?, to effects: inout [Effect]) {
        let state = uiState(index, mediaTime: mediaTime)
        effects.append(.ui(state))
        for icon in state.icons where shownIcons.insert(icon.ordinal).inserted {
            effects.append(.send(tracker?.iconViewed(icon, at: mediaTime ?? 0) ?? []))
        }
    }

    /// The user tapped `tapped`, an icon of the playing ad: its click
    /// tracking, `iconTapped`, and its click-through (the ad pauses, as for
    /// a click-through of the ad) when it has one. An icon with fallback
    /// images instead is the app's to show (``AdIcon/fallbackImages``).
    mutating func iconClicked(_ index: Int, _ tapped: AdIcon) -> [Effect] {
        guard let icon = ads[index].icons.first(where: { $0 == tapped }), icon.isVisible(at: mediaTime) else {
            return [log("iconClicked(_:) ignored: the icon is not showing in the playing ad")]
        }
        var effects: [Effect] = [.send(tracker?.iconClicked(icon, at: mediaTime) ?? [])]
        effects.append(.emit(AdEvent(type: .iconTapped, ad: ads[index])))
        if let template = icon.clickThroughURL, let url = URL.lenient(macros.fill(template), relativeTo: nil),
            url.isHTTPOrHTTPS
        {
            effects.insert(.openClickThrough(url), at: 0)
            if !paused { effects += pauseAd(index) }
        }
        // An app with no way to open links (a TV) shows the fallback image even when there is a click-through.
        if !icon.fallbackImages.isEmpty { iconFallbackAd = ads[index] }
        return effects
    }

    func uiState(_ index: Int, mediaTime: TimeInterval?) -> AdUIState {
        AdUIState.playing(ads[index], mediaTime: mediaTime, totalTime: duration(of: index), strings: strings)
    }
}
