import Foundation
import InterludeVAST

/// Plays the ads of one load: a VAST response (its ads as one break) or a
/// VMAP schedule (breaks loaded as the content reaches them). IMA's
/// `IMAAdsManager`. The decisions are the break machine's; this class runs
/// their effects (display, timers, beacons, delegate) and nothing after
/// ``destroy()``.
///
/// Every input (the app's calls, the display's reports, timers, loads) is
/// handled one at a time, in order: a call the app makes from inside a
/// delegate call or an event is queued and handled once the step that
/// called the delegate is done, so the step never runs on after the state
/// changed under it.
@MainActor
public final class AdsManager {
    public weak var delegate: (any AdsManagerDelegate)?

    /// Cue points of a VMAP schedule in seconds (0 pre-roll, −1 post-roll);
    /// empty for a plain VAST response, as in IMA.
    public var adCuePoints: [TimeInterval] { schedule?.cuePoints ?? [] }

    /// The ads of a VAST response with their pod positions (empty for VMAP).
    public internal(set) var ads: [Ad]

    /// The ad UI as it should look now (custom or built-in, see ``AdUIState``).
    public internal(set) var uiState: AdUIState = .hidden

    /// Every event, also as a stream (for SwiftUI and `for await`).
    public let events: AsyncStream<AdEvent>

    /// Opens click-through pages; the default does nothing but log (headless).
    public var linkOpener: (@MainActor (URL) -> Void)?

    /// Ad volume, 0–1, applied to the display; crossing 0 fires `mute`/`unmute`.
    public var volume: Float = 1 {
        didSet {
            guard !closing else { return }
            display?.volume = volume
            submit(.volume(volume))
        }
    }

    /// Where the playing ad is.
    public var adPlaybackInfo: AdPlaybackInfo {
        AdPlaybackInfo(
            currentMediaTime: display?.currentMediaTime ?? 0, totalMediaTime: display?.totalMediaTime ?? 0,
            bufferedMediaTime: display?.bufferedMediaTime ?? 0, isPlaying: display?.isPlaying ?? false)
    }

    let resolvedAds: [ResolvedAd]
    /// The VMAP document of a schedule (nil for a VAST response).
    let vmap: VMAPDocument?
    var schedule: AdBreakSchedule?
    let services: LoaderServices
    let vmapURL: URL?
    var contentCompleted = false

    var request: AdsRequest?
    var display: (any VideoDisplay)?
    let displayProxy = DisplayProxy()
    let eventContinuation: AsyncStream<AdEvent>.Continuation
    var rendering = AdsRenderingSettings()
    var strings = AdUIStrings.english
    /// The break playing, and its VMAP slot (nil for a plain VAST response).
    var machine: AdBreakMachine?
    var currentSlot: AdBreakSchedule.Slot?
    /// Counts the breaks started, so a step queued by one never reaches the next.
    var breakSerial = 0
    /// A loaded break waiting for `start()`.
    var readyBreak: ReadyBreak?
    /// The break being loaded to be offered: while it loads no other break becomes due.
    var loadingSlot: AdBreakSchedule.Slot?
    /// Breaks due and not yet offered (several pre-rolls, two breaks at one offset, the post-rolls).
    var dueSlots: [AdBreakSchedule.Slot] = []
    var loadTimer: Task<Void, Never>?
    var contentWatcher: Task<Void, Never>?
    var breakLoads: [Int: Task<AdResolution, Never>] = [:]
    var initialized = false
    /// The app called ``destroy()``: from then on it hears nothing.
    var closing = false
    var destroyed = false
    /// The app is in the background and ads pause there (no background playback).
    var inBackground = false
    /// The app is in the background, whether or not ads play on there: the
    /// display's last on-screen measure no longer holds.
    var appInBackground = false
    var allAdsCompletedSent = false
    /// The ad of an icon fallback image still open when its break ended.
    var iconFallbackAd: Ad?
    /// Inputs waiting for the one being handled.
    var inbox: [ManagerInput] = []
    var isHandling = false

    struct ReadyBreak {
        var machine: AdBreakMachine
        var slot: AdBreakSchedule.Slot?
    }

    init(
        resolvedAds: [ResolvedAd], vmap: VMAPDocument?, vmapURL: URL?, request: AdsRequest, services: LoaderServices
    ) {
        self.resolvedAds = resolvedAds
        self.vmap = vmap
        schedule = vmap.map { AdBreakSchedule(vmap: $0, contentDuration: request.contentDuration) }
        for skipped in schedule?.skipped ?? [] {
            services.logger.log(.warning, "VMAP \(skipped.code.rawValue): \(skipped.reason)")
        }
        for note in schedule?.notes ?? [] { services.logger.log(.info, "VMAP: \(note)") }
        self.vmapURL = vmapURL
        self.request = request
        self.services = services
        display = request.adDisplayContainer?.videoDisplay
        ads = Self.makeAds(resolvedAds, podIndex: 0, timeOffset: 0, rendering: AdsRenderingSettings())
        (events, eventContinuation) = AsyncStream.makeStream(of: AdEvent.self)
        displayProxy.manager = self
    }

    // MARK: - IMA API

    /// Prepares playback with `settings` and announces the first ads: a
    /// VAST response's `loaded` (call ``start()`` then), or a VMAP's cue
    /// points and its pre-roll (`loaded`, or `adBreakReady` when
    /// ``Settings/autoPlayAdBreaks`` is false). Call once.
    public func initialize(with settings: AdsRenderingSettings? = nil) {
        guard !closing else { return }
        guard !initialized else { return submit(.log("initialize(with:) ignored: already initialized")) }
        initialized = true
        rendering = settings ?? AdsRenderingSettings()
        strings = AdUIStrings.forLanguage(services.resolver.settings.language)
        display?.delegate = displayProxy
        display?.volume = volume
        submit(.begin)
    }

    /// Plays the ready break: a VAST response's ads (IMA: call on `loaded`),
    /// a VMAP pre-roll, or a break announced by `adBreakReady`.
    public func start() { submit(.start) }

    public func pause() { submit(.machine(.pause)) }
    public func resume() { submit(.machine(.resume)) }
    /// Skips the ad, once it is skippable and past its offset.
    public func skip() { submit(.machine(.skip)) }
    /// The user chose Learn More: opens the click-through, pings, pauses.
    public func clicked() { submit(.machine(.clicked)) }
    /// Interlude: the user tapped `icon`, one of ``AdUIState/icons``: its
    /// click tracking is sent and `iconTapped` emitted; with a
    /// click-through, it opens and the ad pauses, as for ``clicked()``.
    /// IMA's SDK notices taps on the icons it draws itself.
    public func iconClicked(_ icon: AdIcon) { submit(.machine(.iconClicked(icon))) }
    /// Interlude: the app closed the fallback image it showed for an icon
    /// tap (``AdIcon/fallbackImages``): emits `iconFallbackImageClosed`.
    public func iconFallbackImageClosed() { submit(.iconFallbackImageClosed) }

    /// Drops the rest of the current break and resumes content. A break that
    /// is ready or still loading is dropped before it plays (content, never
    /// paused, is not asked to resume); when it was the last,
    /// `allAdsCompleted` follows.
    public func discardAdBreak() { submit(.discard) }

    /// Stops everything: after this no event, timer, beacon or display
    /// command comes from this manager, and it holds nothing of the app's.
    /// Called from inside a delegate call, the app hears nothing more from
    /// that moment; what it asked for before (a skip) still sends its beacons.
    public func destroy() {
        guard !closing else { return }
        closing = true
        inbox.append(.destroy)
        drain()
    }

    /// The app went to the background: the ad pauses (an ad whose media is
    /// still loading is held until the foreground) unless background
    /// playback is enabled. Either way, until the foreground, how much of
    /// the video is on screen counts as unknown (picture in picture may
    /// show it): a run in view for `<ViewableImpression>` stops.
    public func appDidEnterBackground() { submit(.background) }

    /// The app came back: an ad paused or held for the background plays on.
    public func appWillEnterForeground() { submit(.foreground) }

    /// The content finished: the post-roll (if any) becomes due.
    func contentDidComplete() { submit(.contentComplete) }

    // MARK: - Helpers

    var contentTime: TimeInterval? { request?.contentPlayhead?.currentTime }

    /// The app-facing ads of one break, with the rendering settings applied.
    static func makeAds(
        _ resolved: [ResolvedAd], podIndex: Int, timeOffset: TimeInterval, rendering: AdsRenderingSettings
    ) -> [Ad] {
        resolved.enumerated().map { index, ad in
            Ad(
                resolved: ad,
                podInfo: AdPodInfo(
                    adPosition: index + 1, totalAds: resolved.count, podIndex: podIndex, timeOffset: timeOffset),
                preferences: rendering.mediaPreferences, uiElements: rendering.uiElements,
                disableUi: rendering.disableUi)
        }
    }

    func makeMachine(
        ads: [Ad], resolved: [ResolvedAd], breakPosition: BreakPosition, announcesBreak: Bool, firstAdAnnounced: Bool
    ) -> AdBreakMachine {
        AdBreakMachine(
            ads: ads, resolvedAds: resolved, rendering: rendering, strings: strings, breakPosition: breakPosition,
            macros: services.resolver.macros, limitAdTracking: services.resolver.settings.limitAdTracking,
            announcesBreak: announcesBreak, firstAdAnnounced: firstAdAnnounced)
    }

    /// Tears everything down (the queued ``destroy()``).
    func tearDown() {
        destroyed = true
        loadTimer?.cancel()
        contentWatcher?.cancel()
        for task in breakLoads.values { task.cancel() }
        breakLoads.removeAll()
        display?.reset()
        if display?.delegate === displayProxy { display?.delegate = nil }
        display = nil
        request = nil
        machine = nil
        readyBreak = nil
        delegate = nil
        linkOpener = nil
        displayProxy.manager = nil
        inbox.removeAll()
        eventContinuation.finish()
    }
}
