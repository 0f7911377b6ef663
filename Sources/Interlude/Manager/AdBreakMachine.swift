import Foundation
import InterludeVAST

/// Plays one ad break (a pod, or a single ad) as pure decisions: it is told
/// what happened (an input) and answers with what to do (effects). The
/// ``AdsManager`` only carries effects out: display commands, timers,
/// beacons, delegate calls. Every rule is tested without a display or time.
public struct AdBreakMachine: Sendable {
    /// What happened.
    public enum Input: Sendable, Hashable {
        /// Play the break (the app's `start()`, or a due VMAP break).
        case start
        case displayLoaded
        case displayStarted
        case displayProgressed(mediaTime: TimeInterval, totalTime: TimeInterval)
        case displayCompleted
        /// The display could not play the media: 401 not found, 405 cannot display.
        case displayFailed(VASTErrorCode)
        /// `loadVideoTimeout` passed before the media loaded (402).
        case loadTimedOut
        /// The user touched the video.
        case displayTapped
        case pause
        case resume
        case skip
        case clicked
        case volumeChanged(Float)
        /// Drop the rest of the break (`discardAdBreak()`).
        case discard
    }

    /// What to do.
    public enum Effect: Sendable, Hashable {
        case requestContentPause
        case requestContentResume
        case emit(AdEvent)
        case error(AdError)
        case loadMedia(URL)
        case play
        case pause
        case resetDisplay
        case startLoadTimer(TimeInterval)
        case cancelLoadTimer
        case send([Beacon])
        case progress(mediaTime: TimeInterval, totalTime: TimeInterval)
        case ui(AdUIState)
        case openClickThrough(URL)
        /// The break is over; the manager moves on.
        case breakFinished
    }

    enum Phase: Sendable, Hashable {
        case idle
        case loading(Int)
        case playing(Int)
        case finished
    }

    public let ads: [Ad]
    public let resolvedAds: [ResolvedAd]
    let rendering: AdsRenderingSettings
    let strings: AdUIStrings
    let breakPosition: BreakPosition
    let macros: VASTMacroFiller
    let limitAdTracking: Bool
    /// Whether `adBreakStarted`/`adBreakEnded` are emitted (the first time a break plays).
    let announcesBreak: Bool
    /// Whether the first ad's `loaded` was already emitted (at `initialize`).
    let firstAdAnnounced: Bool

    private(set) var phase: Phase = .idle
    private var tracker: AdTracker?
    private var paused = false
    private var mediaTime: TimeInterval = 0
    private var totalTime: TimeInterval = 0
    private var quartilesEmitted = 0
    private var volume: Float = 1

    public init(
        ads: [Ad], resolvedAds: [ResolvedAd], rendering: AdsRenderingSettings, strings: AdUIStrings,
        breakPosition: BreakPosition, macros: VASTMacroFiller = VASTMacroFiller(), limitAdTracking: Bool = false,
        announcesBreak: Bool = true, firstAdAnnounced: Bool = false
    ) {
        self.ads = ads
        self.resolvedAds = resolvedAds
        self.rendering = rendering
        self.strings = strings
        self.breakPosition = breakPosition
        self.macros = macros
        self.limitAdTracking = limitAdTracking
        self.announcesBreak = announcesBreak
        self.firstAdAnnounced = firstAdAnnounced
    }

    /// The ad playing or loading, if any.
    public var currentAd: Ad? {
        switch phase {
        case .loading(let index), .playing(let index): return ads[index]
        case .idle, .finished: return nil
        }
    }

    public var isFinished: Bool { phase == .finished }
    public var isPaused: Bool { paused }

    /// Reacts to `input`; `contentPlayhead` fills `[CONTENTPLAYHEAD]`.
    public mutating func handle(_ input: Input, contentPlayhead: TimeInterval? = nil) -> [Effect] {
        switch (input, phase) {
        case (.start, .idle):
            var effects: [Effect] = [.requestContentPause]
            if announcesBreak { effects.append(.emit(AdEvent(type: .adBreakStarted, ad: ads.first))) }
            return effects + beginAd(0, announceLoaded: !firstAdAnnounced)
        case (.start, _):
            return [log("start() ignored: the break is already playing or over")]

        case (.displayLoaded, .loading):
            return [.cancelLoadTimer, .play]

        case (.displayStarted, .loading(let index)):
            phase = .playing(index)
            paused = false
            var effects: [Effect] = [.cancelLoadTimer]
            effects.append(.send(tracker?.start(contentPlayhead: contentPlayhead) ?? []))
            effects.append(.send(tracker?.volumeChanged(to: volume, at: 0) ?? []))
            effects.append(.emit(AdEvent(type: .started, ad: ads[index])))
            effects.append(.ui(uiState(index, mediaTime: nil)))
            return effects
        case (.displayStarted, .playing):
            return []

        case (.displayProgressed(let time, let total), .playing(let index)):
            mediaTime = time
            totalTime = total > 0 ? total : max(ads[index].duration, 0)
            var effects: [Effect] = [.send(tracker?.progress(to: time, contentPlayhead: contentPlayhead) ?? [])]
            effects += quartileEvents(index)
            effects.append(.progress(mediaTime: time, totalTime: totalTime))
            effects.append(.ui(uiState(index, mediaTime: time)))
            return effects

        case (.displayCompleted, .playing(let index)):
            var effects: [Effect] = [.send(tracker?.complete(contentPlayhead: contentPlayhead) ?? [])]
            mediaTime = max(mediaTime, totalTime)
            effects += quartileEvents(index, completing: true)
            effects.append(.emit(AdEvent(type: .complete, ad: ads[index])))
            effects.append(.ui(.hidden))
            return effects + advance(after: index)

        case (.displayFailed(let code), .loading(let index)), (.displayFailed(let code), .playing(let index)):
            return fail(index, code: code, message: "the media file could not be played")
        case (.loadTimedOut, .loading(let index)):
            return fail(
                index, code: .mediaFileTimeout,
                message: "the media file did not load within \(rendering.loadVideoTimeout) s")

        case (.displayTapped, .playing(let index)):
            var effects: [Effect] = [.emit(AdEvent(type: .tapped, ad: ads[index]))]
            // The built-in UI resumes a paused ad on tap; with a custom UI the app does (the guide's `tapped` → `resume`).
            if paused && !uiState(index, mediaTime: mediaTime).isCustomUIVisible {
                effects += handle(.resume, contentPlayhead: contentPlayhead)
            }
            return effects

        case (.pause, .playing(let index)):
            guard !paused else { return [log("pause() ignored: the ad is already paused")] }
            paused = true
            return [.pause, .send(tracker?.pause(at: mediaTime) ?? []), .emit(AdEvent(type: .pause, ad: ads[index]))]
        case (.resume, .playing(let index)):
            guard paused else { return [log("resume() ignored: the ad is not paused")] }
            paused = false
            return [.play, .send(tracker?.resume(at: mediaTime) ?? []), .emit(AdEvent(type: .resume, ad: ads[index]))]

        case (.skip, .playing(let index)):
            let ad = ads[index]
            guard ad.isSkippable else { return [log("skip() ignored: the ad is not skippable")] }
            guard mediaTime >= ad.skipTimeOffset else {
                return [
                    log("skip() ignored: the ad can be skipped after \(ad.skipTimeOffset) s, it is at \(mediaTime) s")
                ]
            }
            var effects: [Effect] = [.resetDisplay, .send(tracker?.skip(at: mediaTime) ?? [])]
            effects.append(.emit(AdEvent(type: .skipped, ad: ad)))
            effects.append(.ui(.hidden))
            return effects + advance(after: index)

        case (.clicked, .playing(let index)):
            guard let template = resolvedAds[index].clickThrough,
                let url = URL.lenient(macros.fill(template), relativeTo: nil), url.isHTTPOrHTTPS
            else { return [log("clicked() ignored: the ad has no click-through")] }
            var effects: [Effect] = [.openClickThrough(url), .send(tracker?.click(at: mediaTime) ?? [])]
            effects.append(.emit(AdEvent(type: .clicked, ad: ads[index])))
            if !paused {
                paused = true
                effects += [
                    .pause, .send(tracker?.pause(at: mediaTime) ?? []), .emit(AdEvent(type: .pause, ad: ads[index])),
                ]
            }
            return effects

        case (.volumeChanged(let level), _):
            volume = level
            guard case .playing = phase else { return [] }
            return [.send(tracker?.volumeChanged(to: level, at: mediaTime) ?? [])]

        case (.discard, .loading), (.discard, .playing):
            var effects: [Effect] = [.cancelLoadTimer, .resetDisplay, .ui(.hidden)]
            effects += endBreak()
            return effects
        case (.discard, .idle):
            phase = .finished
            return [.breakFinished]

        default:
            return [log("\(input) ignored in state \(phase)")]
        }
    }

    // MARK: - Steps

    private mutating func beginAd(_ index: Int, announceLoaded: Bool = true) -> [Effect] {
        guard index < ads.count else { return endBreak() }
        let ad = ads[index]
        phase = .loading(index)
        mediaTime = 0
        totalTime = max(ad.duration, 0)
        quartilesEmitted = 0
        paused = false
        let resolved = resolvedAds[index]
        tracker = AdTracker(
            ad: resolved, duration: max(ad.duration, 0),
            context: .init(
                breakPosition: breakPosition, adPosition: ad.adPodInfo.adPosition, limitAdTracking: limitAdTracking),
            assetURI: ad.mediaURL, macros: macros)
        var effects: [Effect] = announceLoaded ? [.emit(AdEvent(type: .loaded, ad: ad))] : []
        guard let media = ad.mediaURL, let url = URL.lenient(media, relativeTo: nil), url.isHTTPOrHTTPS || url.isFileURL
        else {
            return effects + fail(index, code: .noSupportedMediaFile, message: "no media file of a supported type")
        }
        effects += [.loadMedia(url), .startLoadTimer(rendering.loadVideoTimeout)]
        return effects
    }

    private mutating func fail(_ index: Int, code: VASTErrorCode, message: String) -> [Effect] {
        let error = AdError(type: .playingFailed, code: AdError.Code(code.rawValue), message: message)
        var effects: [Effect] = [.cancelLoadTimer, .resetDisplay]
        effects.append(.send(tracker?.error(code, at: mediaTime) ?? []))
        effects.append(.error(error))
        effects.append(.ui(.hidden))
        return effects + advance(after: index)
    }

    private mutating func advance(after index: Int) -> [Effect] {
        tracker = nil
        return beginAd(index + 1)
    }

    private mutating func endBreak() -> [Effect] {
        phase = .finished
        tracker = nil
        var effects: [Effect] = []
        if announcesBreak { effects.append(.emit(AdEvent(type: .adBreakEnded))) }
        effects += [.requestContentResume, .breakFinished]
        return effects
    }

    private mutating func quartileEvents(_ index: Int, completing: Bool = false) -> [Effect] {
        guard totalTime > 0 else { return [] }
        let types: [AdEvent.EventType] = [.firstQuartile, .midpoint, .thirdQuartile]
        var effects: [Effect] = []
        while quartilesEmitted < 3 {
            let threshold = totalTime * Double(quartilesEmitted + 1) / 4
            guard completing || mediaTime >= threshold else { break }
            effects.append(.emit(AdEvent(type: types[quartilesEmitted], ad: ads[index])))
            quartilesEmitted += 1
        }
        return effects
    }

    private func uiState(_ index: Int, mediaTime: TimeInterval?) -> AdUIState {
        AdUIState.playing(
            ads[index], mediaTime: mediaTime, totalTime: totalTime, disableUi: rendering.disableUi, strings: strings)
    }

    private func log(_ message: String) -> Effect {
        .emit(AdEvent(type: .log, ad: currentAd, adData: ["message": message]))
    }
}
