import Foundation
import InterludeVAST

/// Plays one ad break (a pod, or a single ad) as pure decisions: it is told
/// what happened (an input) and answers with what to do (effects). The
/// ``AdsManager`` only carries effects out: display commands, timers,
/// beacons, delegate calls. Every rule is tested without a display or time.
///
/// Each step ends where an app could react: moving on to the next ad is its
/// own step (``Effect/proceed``, fed back as ``Input/proceed`` after the
/// effects before it), so a call the app makes from inside an event (a
/// discard on `COMPLETE`) is decided before the next ad begins.
struct AdBreakMachine: Sendable {
    /// What happened.
    enum Input: Sendable, Hashable {
        /// Play the break (the app's `start()`, or a due VMAP break).
        case start
        /// Begin the next ad (or end the break): the manager feeds this back
        /// once the effects that asked for it (``Effect/proceed``) are done.
        case proceed
        case displayLoaded
        case displayStarted
        case displayProgressed(mediaTime: TimeInterval, totalTime: TimeInterval)
        case displayCompleted
        /// The display could not play the media: 401 not found, 405 cannot display.
        case displayFailed(VASTErrorCode)
        /// `loadVideoTimeout` passed before the media loaded, or before it
        /// started once told to play (402).
        case loadTimedOut
        /// The user touched the video.
        case displayTapped
        case pause
        case resume
        case skip
        case clicked
        /// The user tapped an icon of the playing ad.
        case iconClicked(AdIcon)
        case iconFallbackImageClosed
        case volumeChanged(Float)
        /// Drop the rest of the break (`discardAdBreak()`).
        case discard
        /// The app went to the background without background playback: the
        /// ad pauses, or an ad still loading is held until the foreground.
        case enteredBackground
        case enteredForeground
    }

    /// What to do.
    enum Effect: Sendable, Hashable {
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
        /// Handle ``Input/proceed`` after the effects before this one.
        case proceed
        /// The break is over; the manager moves on.
        case breakFinished
    }

    enum Phase: Sendable, Hashable {
        case idle
        /// Between ads: the ad at `next` begins on ``Input/proceed``.
        case between(next: Int)
        case loading(Int, LoadStage)
        case playing(Int)
        case finished
    }

    /// How far an ad's media got before its first frame.
    enum LoadStage: Sendable, Hashable {
        /// Told to load; the load timer runs.
        case requested
        /// Loaded, but held (paused by the app, or in the background): not told to play.
        case loaded
        /// Told to play; the start watchdog (the same timeout) runs.
        case playRequested
    }

    /// The ads of the break; a percentage skip offset is resolved once the
    /// media's duration is known.
    private(set) var ads: [Ad]
    let resolvedAds: [ResolvedAd]
    let rendering: AdsRenderingSettings
    let strings: AdUIStrings
    let breakPosition: BreakPosition
    let macros: VASTMacroFiller
    let limitAdTracking: Bool
    /// Whether `adBreakStarted`/`adBreakEnded` are emitted (the first time a break plays).
    let announcesBreak: Bool
    /// Whether the first ad's `loaded` was already emitted (at `initialize`).
    let firstAdAnnounced: Bool

    var phase: Phase = .idle
    var tracker: AdTracker?
    /// The playing ad is paused (its `pause` event was emitted).
    var paused = false
    /// The pause came from going to the background; the foreground resumes it.
    var pausedForBackground = false
    /// The app paused the ad before its first frame: it starts paused.
    var startPaused = false
    private(set) var inBackground: Bool
    var mediaTime: TimeInterval = 0
    /// The media's duration, once the display reported a usable one.
    var mediaDuration: TimeInterval?
    var volume: Float = 1
    /// How much of the video is on screen, as the display last said (nil:
    /// it cannot tell); set by the manager before each input, read for the
    /// ViewableImpression verdict.
    var visibleFraction: Double?
    /// Ordinals of the playing ad's icons shown so far (their view tracking went).
    var shownIcons: Set<Int> = []
    /// The ad whose icon the user tapped for its fallback image, until the
    /// app says the image closed (it may outlive the ad, or the break).
    var iconFallbackAd: Ad?

    init(
        ads: [Ad], resolvedAds: [ResolvedAd], rendering: AdsRenderingSettings, strings: AdUIStrings,
        breakPosition: BreakPosition, macros: VASTMacroFiller = VASTMacroFiller(), limitAdTracking: Bool = false,
        announcesBreak: Bool = true, firstAdAnnounced: Bool = false, inBackground: Bool = false
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
        self.inBackground = inBackground
    }

    /// The ad playing or loading, if any.
    var currentAd: Ad? {
        switch phase {
        case .loading(let index, _), .playing(let index): return ads[index]
        case .idle, .between, .finished: return nil
        }
    }

    var isFinished: Bool { phase == .finished }
    var isPaused: Bool { paused }
    /// An ad that loads now is not told to play.
    var isHeld: Bool { startPaused || inBackground }

    /// Reacts to `input`; `contentPlayhead` fills `[CONTENTPLAYHEAD]`.
    mutating func handle(_ input: Input, contentPlayhead: TimeInterval? = nil) -> [Effect] {
        switch (input, phase) {
        case (.start, .idle):
            phase = .between(next: 0)
            var effects: [Effect] = [.requestContentPause]
            if announcesBreak { effects.append(.emit(AdEvent(type: .adBreakStarted, ad: ads.first))) }
            return effects + [.proceed]
        case (.start, _):
            return [log("start() ignored: the break is already playing or over")]
        case (.proceed, .between(let next)):
            return beginAd(next, announceLoaded: next > 0 || !firstAdAnnounced)
        case (.proceed, _):
            return []  // the break moved on (discarded) before its next ad began

        case (.displayLoaded, .loading(let index, .requested)):
            guard !isHeld else {
                phase = .loading(index, .loaded)
                return [.cancelLoadTimer]
            }
            phase = .loading(index, .playRequested)
            return [.cancelLoadTimer, .play, .startLoadTimer(rendering.loadVideoTimeout)]
        case (.displayStarted, .loading(let index, _)):
            return adStarted(index, contentPlayhead: contentPlayhead)
        case (.displayStarted, .playing):
            return []
        case (.displayProgressed(let time, let total), .playing(let index)):
            return progressed(index, to: time, of: total, contentPlayhead: contentPlayhead)
        case (.displayCompleted, .playing(let index)):
            return completed(index, contentPlayhead: contentPlayhead)

        case (.displayFailed(let code), .loading(let index, _)), (.displayFailed(let code), .playing(let index)):
            return fail(index, code: code, message: "the media file could not be played")
        case (.loadTimedOut, .loading(let index, .requested)):
            return fail(
                index, code: .mediaFileTimeout,
                message: "the media file did not load within \(formatSeconds(rendering.loadVideoTimeout)) s")
        case (.loadTimedOut, .loading(let index, .playRequested)):
            return fail(
                index, code: .mediaFileTimeout,
                message:
                    "the display did not start playing within \(formatSeconds(rendering.loadVideoTimeout)) s of loading"
            )
        case (.loadTimedOut, _):
            return []  // a timer that fired as it was cancelled

        case (.displayTapped, .playing(let index)):
            var effects: [Effect] = [.emit(AdEvent(type: .tapped, ad: ads[index]))]
            // The built-in UI resumes a paused ad on tap; with a custom UI the app does (the guide's `tapped` → `resume`).
            if paused && !ads[index].isUiDisabled {
                effects += handle(.resume, contentPlayhead: contentPlayhead)
            }
            return effects

        case (.pause, .playing(let index)):
            guard !paused else { return [log("pause() ignored: the ad is already paused")] }
            return pauseAd(index)
        case (.pause, .loading(let index, let stage)):
            guard !startPaused else { return [log("pause() ignored: the ad already starts paused")] }
            startPaused = true
            return hold(index, stage) + [log("pause(): the ad starts paused once its media loads")]
        case (.resume, .playing(let index)):
            guard paused else { return [log("resume() ignored: the ad is not paused")] }
            pausedForBackground = false
            return resumeAd(index)
        case (.resume, .loading(let index, let stage)):
            guard startPaused else { return [log("resume() ignored: the ad is not paused")] }
            startPaused = false
            return release(index, stage)

        case (.skip, .playing(let index)):
            return skip(index)
        case (.clicked, .playing(let index)):
            return clicked(index)
        case (.iconClicked(let icon), .playing(let index)):
            return iconClicked(index, icon)
        case (.iconFallbackImageClosed, _):
            // The image may stay open past its ad: it is the tapped icon's ad that the event names.
            guard let ad = iconFallbackAd else {
                return [log("iconFallbackImageClosed() ignored: no icon fallback image is open")]
            }
            iconFallbackAd = nil
            return [.emit(AdEvent(type: .iconFallbackImageClosed, ad: ad))]

        case (.volumeChanged(let level), _):
            volume = level
            guard case .playing = phase else { return [] }
            return [.send(tracker?.volumeChanged(to: level, at: mediaTime) ?? [])]

        case (.discard, .loading), (.discard, .playing), (.discard, .between):
            // A started ad cut short still owes its ViewableImpression verdict.
            let owed = tracker?.abandon(at: mediaTime, contentPlayhead: contentPlayhead) ?? []
            return [.cancelLoadTimer, .resetDisplay, .send(owed), .ui(.hidden)] + endBreak()
        case (.discard, .idle):
            phase = .finished
            return [.breakFinished]

        case (.enteredBackground, _):
            guard !inBackground else { return [] }
            inBackground = true
            switch phase {
            case .playing(let index) where !paused:
                pausedForBackground = true
                return pauseAd(index)
            case .loading(let index, let stage):
                return hold(index, stage)
            default:
                return []
            }
        case (.enteredForeground, _):
            guard inBackground else { return [] }
            inBackground = false
            switch phase {
            case .playing(let index) where pausedForBackground:
                pausedForBackground = false
                return resumeAd(index)
            case .loading(let index, let stage):
                return release(index, stage)
            default:
                return []
            }

        default:
            return [log("\(input) ignored: no ad is playing")]
        }
    }

    func log(_ message: String) -> Effect {
        .emit(AdEvent(type: .log, ad: currentAd, adData: ["message": message]))
    }

    /// Sets the ad's usable media duration from a display's report (finite
    /// and positive, else ignored), resolving a percentage skip offset.
    mutating func noteMediaDuration(_ total: TimeInterval, of index: Int) {
        guard total.isFinite, total > 0, total != mediaDuration else { return }
        mediaDuration = total
        if let offset = ads[index].skipOffset(forDuration: total) { ads[index].skipTimeOffset = offset }
    }
}
