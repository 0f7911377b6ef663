import Foundation
import InterludeVAST

/// Plays the ads of one load: a VAST response (its ads as one break) or a
/// VMAP schedule (breaks loaded as the content reaches them). IMA's
/// `IMAAdsManager`. The decisions are ``AdBreakMachine``'s; this class runs
/// their effects (display, timers, beacons, delegate) and nothing after
/// ``destroy()``.
@MainActor
public final class AdsManager {
    public weak var delegate: (any AdsManagerDelegate)?

    /// Cue points of a VMAP schedule in seconds (0 pre-roll, −1 post-roll);
    /// empty for a plain VAST response, as in IMA.
    public var adCuePoints: [TimeInterval] { schedule?.cuePoints ?? [] }

    /// The ads of a VAST response with their pod positions (empty for VMAP).
    public private(set) var ads: [Ad]

    /// The custom UI as it should look now.
    public private(set) var uiState: AdUIState = .hidden

    /// Every event, also as a stream (for SwiftUI and `for await`).
    public let events: AsyncStream<AdEvent>

    /// Opens click-through pages; the default does nothing but log (headless).
    public var linkOpener: (@MainActor (URL) -> Void)?

    /// Ad volume, 0–1, applied to the display.
    public var volume: Float = 1 {
        didSet {
            display?.volume = volume
            if machine != nil { run([.volumeChanged(volume)]) }
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
    private(set) var schedule: AdBreakSchedule?
    let services: LoaderServices
    let vmapURL: URL?
    private(set) var contentCompleted = false

    private var request: AdsRequest?
    private var display: (any VideoDisplay)?
    private let displayProxy = DisplayProxy()
    private let eventContinuation: AsyncStream<AdEvent>.Continuation
    private var rendering = AdsRenderingSettings()
    private var strings = AdUIStrings.english
    private var machine: AdBreakMachine?
    private var currentSlot: AdBreakSchedule.Slot?
    private var readyBreak: (machine: AdBreakMachine, slot: AdBreakSchedule.Slot?)?
    private var loadTimer: Task<Void, Never>?
    private var contentWatcher: Task<Void, Never>?
    private var breakLoads: [Int: Task<AdResolution, Never>] = [:]
    /// A due break is loading: no other break may become due until it is
    /// offered, or two would be offered and the second replace the first.
    private var offerPending = false
    private var initialized = false
    private var destroyed = false
    private var pausedForBackground = false
    private var allAdsCompletedSent = false

    init(
        resolvedAds: [ResolvedAd], vmap: VMAPDocument?, vmapURL: URL?, request: AdsRequest, services: LoaderServices
    ) {
        self.resolvedAds = resolvedAds
        self.vmap = vmap
        schedule = vmap.map { AdBreakSchedule(vmap: $0, contentDuration: request.contentDuration) }
        for skipped in schedule?.skipped ?? [] {
            services.logger.log(.warning, "VMAP \(skipped.code.rawValue): \(skipped.reason)")
        }
        self.vmapURL = vmapURL
        self.request = request
        self.services = services
        display = request.adDisplayContainer?.videoDisplay
        let total = resolvedAds.count
        ads = resolvedAds.enumerated().map { index, resolved in
            Ad(
                resolved: resolved,
                podInfo: AdPodInfo(adPosition: index + 1, totalAds: total, podIndex: 0, timeOffset: 0))
        }
        (events, eventContinuation) = AsyncStream.makeStream(of: AdEvent.self)
        displayProxy.manager = self
    }

    // MARK: - IMA API

    /// Prepares playback with `settings` and announces the first ads
    /// (`loaded`). Call once, then ``start()`` on `loaded`.
    public func initialize(with settings: AdsRenderingSettings? = nil) {
        guard !destroyed else { return }
        guard !initialized else { return emitLog("initialize(with:) ignored: already initialized") }
        initialized = true
        rendering = settings ?? AdsRenderingSettings()
        strings = AdUIStrings.forLanguage(services.resolver.settings.language)
        display?.delegate = displayProxy
        display?.volume = volume
        if schedule != nil {
            startSchedule()
        } else {
            prepareStandaloneBreak()
        }
    }

    /// Plays the ready break (IMA: call on `loaded`).
    public func start() {
        guard !destroyed else { return }
        guard machine == nil else { return emitLog("start() ignored: a break is already playing") }
        guard let ready = readyBreak else { return emitLog("start() ignored: no ad break is ready") }
        readyBreak = nil
        machine = ready.machine
        currentSlot = ready.slot
        if let slot = ready.slot {
            run(
                BreakTracking.beacons(
                    .breakStart, for: slot, contentPlayhead: contentTime, macros: services.resolver.macros))
        }
        // The app may have set the volume before the break: it is the mute/unmute baseline.
        run([.volumeChanged(volume), .start])
    }

    public func pause() { run([.pause]) }
    public func resume() { run([.resume]) }
    /// Skips the ad, once it is skippable and past its offset.
    public func skip() { run([.skip]) }
    /// The user chose Learn More: opens the click-through, pings, pauses.
    public func clicked() { run([.clicked]) }

    /// Drops the rest of the current break and resumes content.
    public func discardAdBreak() {
        if machine == nil, readyBreak != nil {
            readyBreak = nil
            delegate?.adsManagerDidRequestContentResume(self)
            return
        }
        run([.discard])
    }

    /// Stops everything: after this no event, timer, beacon or display
    /// command comes from this manager, and it holds nothing of the app's.
    public func destroy() {
        guard !destroyed else { return }
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
        eventContinuation.finish()
    }

    /// The app went to the background: the ad pauses unless background
    /// playback is enabled.
    public func appDidEnterBackground() {
        guard !services.resolver.settings.enableBackgroundPlayback, let machine, !machine.isPaused,
            machine.currentAd != nil
        else { return }
        pausedForBackground = true
        pause()
    }

    /// The app came back: an ad paused for the background resumes.
    public func appWillEnterForeground() {
        guard pausedForBackground else { return }
        pausedForBackground = false
        resume()
    }

    // MARK: - Breaks

    private var contentTime: TimeInterval? { request?.contentPlayhead?.currentTime }

    private func prepareStandaloneBreak() {
        let ads = zip(self.ads, resolvedAds).map { ad, resolved in
            Ad(
                resolved: resolved, podInfo: ad.adPodInfo, preferences: rendering.mediaPreferences,
                uiElements: rendering.uiElements)
        }
        self.ads = ads
        let machine = makeMachine(
            ads: ads, resolved: resolvedAds, slot: nil, breakPosition: .preroll, announcesBreak: true)
        readyBreak = (machine, nil)
        if let first = ads.first { emit(AdEvent(type: .loaded, ad: first)) }
    }

    private func makeMachine(
        ads: [Ad], resolved: [ResolvedAd], slot: AdBreakSchedule.Slot?, breakPosition: BreakPosition,
        announcesBreak: Bool
    ) -> AdBreakMachine {
        AdBreakMachine(
            ads: ads, resolvedAds: resolved, rendering: rendering, strings: strings, breakPosition: breakPosition,
            macros: services.resolver.macros, limitAdTracking: services.resolver.settings.limitAdTracking,
            announcesBreak: announcesBreak, firstAdAnnounced: true)
    }

    private func startSchedule() {
        guard var schedule, let vmap else { return }
        if let after = rendering.playAdsAfterTime {
            schedule = AdBreakSchedule(vmap: vmap, contentDuration: request?.contentDuration, playAdsAfterTime: after)
            self.schedule = schedule
        }
        emit(
            AdEvent(
                type: .cuepointsChanged,
                adData: ["cuepoints": schedule.cuePoints.map { String($0) }.joined(separator: ",")]))
        if let preroll = schedule.pendingPrerolls.first {
            loadAndOffer(preroll)
        }
        watchContent()
    }

    /// Polls the content playhead on the injected clock to find due breaks.
    private func watchContent() {
        guard request?.contentPlayhead != nil else { return }
        let clock = services.resolver.clock
        contentWatcher = Task { [weak self] in
            while !Task.isCancelled {
                do { try await clock.sleep(for: 0.25) } catch { return }
                self?.contentTick()
            }
        }
    }

    private func contentTick() {
        guard !destroyed, machine == nil, readyBreak == nil, !offerPending, var schedule, let now = contentTime else {
            return
        }
        if rendering.enablePreloading {
            for slot in schedule.slotsToPrefetch(at: now, lead: 5) { prefetch(slot) }
        }
        let due = schedule.contentProgressed(to: now)
        self.schedule = schedule
        if let due { loadAndOffer(due) }
    }

    private func prefetch(_ slot: AdBreakSchedule.Slot) {
        guard breakLoads[slot.id] == nil else { return }
        breakLoads[slot.id] = Task { [services, weak self] in
            guard let self else { return AdResolution() }
            return await self.loadBreak(slot, services: services)
        }
    }

    /// Loads a break (or takes its prefetch) and offers it: with
    /// `autoPlayAdBreaks` it starts at once, otherwise `adBreakReady` waits for `start()`.
    private func loadAndOffer(_ slot: AdBreakSchedule.Slot) {
        schedule?.markPlayed(slot.id)
        prefetch(slot)
        guard let task = breakLoads[slot.id] else { return }
        offerPending = true
        Task { [weak self] in
            let resolution = await task.value
            self?.offer(slot, resolution: resolution)
        }
    }

    private func offer(_ slot: AdBreakSchedule.Slot, resolution: AdResolution) {
        breakLoads[slot.id] = nil
        offerPending = false
        guard !destroyed else { return }
        if let error = resolution.error {
            emit(
                AdEvent(
                    type: .adBreakFetchError,
                    adData: ["errorCode": String(error.code.rawValue), "message": error.message]))
            delegate?.adsManager(self, didReceive: error)
            continueAfterBreak(wasPostroll: slot.position == .postroll)
            return
        }
        let total = resolution.ads.count
        let ads = resolution.ads.enumerated().map { index, resolved in
            Ad(
                resolved: resolved,
                podInfo: AdPodInfo(
                    adPosition: index + 1, totalAds: total, podIndex: slot.podIndex, timeOffset: slot.cuePoint),
                preferences: rendering.mediaPreferences, uiElements: rendering.uiElements)
        }
        let first = schedule?.isFirstPlay(of: slot) ?? true
        let machine = makeMachine(
            ads: ads, resolved: resolution.ads, slot: slot, breakPosition: slot.breakPosition, announcesBreak: first)
        readyBreak = (machine, slot)
        if let firstAd = ads.first { emit(AdEvent(type: .loaded, ad: firstAd)) }
        if slot.position == .preroll { return }  // the app starts pre-rolls on `loaded`
        if services.resolver.settings.autoPlayAdBreaks {
            start()
        } else {
            emit(AdEvent(type: .adBreakReady, ad: ads.first))
        }
    }

    /// The content finished: the post-roll (if any) becomes due.
    func contentDidComplete() {
        guard !destroyed, !contentCompleted else { return }
        contentCompleted = true
        // A break playing, ready or being loaded goes on to the post-roll when it ends.
        guard schedule != nil, machine == nil, readyBreak == nil, !offerPending else { return }
        continueAfterBreak(wasPostroll: false)
    }

    /// Loads the ads of one break (a `VASTAdData` resolves locally, an
    /// `AdTagURI` is fetched), firing the break's error tracking and the
    /// wrappers' error URLs on failure.
    func loadBreak(_ slot: AdBreakSchedule.Slot) async -> AdResolution {
        await loadBreak(slot, services: services)
    }

    private func loadBreak(_ slot: AdBreakSchedule.Slot, services: LoaderServices) async -> AdResolution {
        let loader = BreakLoader(resolver: services.resolver, firstHopTimeout: request?.vastLoadTimeout ?? 8)
        let resolution = await loader.load(slot, vmapURL: vmapURL)
        if !resolution.errorPings.isEmpty { await services.fire(resolution.errorPings) }
        if let error = resolution.error {
            let beacons = BreakTracking.beacons(
                .error, for: slot, errorCode: error.vastErrorCode, contentPlayhead: contentTime,
                macros: services.resolver.macros)
            services.beaconQueue.enqueue(beacons)
        }
        return resolution
    }

    private func finishAllAds() {
        guard !allAdsCompletedSent else { return }
        allAdsCompletedSent = true
        emit(AdEvent(type: .allAdsCompleted))
    }

    // MARK: - Effects

    func run(_ inputs: [AdBreakMachine.Input]) {
        guard !destroyed, machine != nil else {
            if !destroyed, let input = inputs.first { emitLog("\(input) ignored: no ad is playing") }
            return
        }
        for input in inputs {
            guard !destroyed, var current = machine else { return }
            let effects = current.handle(input, contentPlayhead: contentTime)
            machine = current
            perform(effects)
        }
    }

    private func perform(_ effects: [AdBreakMachine.Effect]) {
        for effect in effects {
            guard !destroyed else { return }
            switch effect {
            case .requestContentPause: delegate?.adsManagerDidRequestContentPause(self)
            case .requestContentResume: delegate?.adsManagerDidRequestContentResume(self)
            case .emit(let event): emit(annotated(event))
            case .error(let error): delegate?.adsManager(self, didReceive: error)
            case .loadMedia(let url): display?.load(url, subtitles: nil)
            case .play: display?.play()
            case .pause: display?.pause()
            case .resetDisplay: display?.reset()
            case .startLoadTimer(let seconds): startLoadTimer(seconds)
            case .cancelLoadTimer:
                loadTimer?.cancel()
                loadTimer = nil
            case .send(let beacons): run(beacons)
            case .progress(let mediaTime, let totalTime):
                delegate?.adsManager(self, adDidProgressToTime: mediaTime, totalTime: totalTime)
            case .ui(let state):
                // Most ticks leave the UI as it was (the countdown moves once a
                // second): the delegate hears of changes only.
                guard state != uiState else { continue }
                uiState = state
                delegate?.adsManager(self, didUpdate: state)
            case .openClickThrough(let url):
                if let linkOpener {
                    linkOpener(url)
                } else {
                    emitLog("click-through \(url.absoluteString) (no link opener set)")
                }
            case .breakFinished: breakFinished()
            }
        }
    }

    private func run(_ beacons: [Beacon]) {
        guard !beacons.isEmpty else { return }
        // Journaled before this main-actor turn ends: an app killed right after the event loses no beacon.
        services.beaconQueue.enqueue(beacons)
    }

    private func startLoadTimer(_ seconds: TimeInterval) {
        loadTimer?.cancel()
        let clock = services.resolver.clock
        loadTimer = Task { [weak self] in
            do { try await clock.sleep(for: seconds) } catch { return }
            self?.run([.loadTimedOut])
        }
    }

    private func breakFinished() {
        if let slot = currentSlot {
            run(
                BreakTracking.beacons(
                    .breakEnd, for: slot, contentPlayhead: contentTime, macros: services.resolver.macros))
        }
        let wasPostroll = currentSlot?.position == .postroll
        machine = nil
        currentSlot = nil
        uiState = .hidden
        continueAfterBreak(wasPostroll: wasPostroll)
    }

    /// After a break (played or failed): the post-roll once the content has
    /// completed, and the end of all ads after it (or at once for a plain VAST).
    private func continueAfterBreak(wasPostroll: Bool) {
        if schedule == nil || wasPostroll {
            finishAllAds()
        } else if contentCompleted, let post = schedule?.postrolls().first {
            loadAndOffer(post)
        } else if contentCompleted {
            finishAllAds()
        }
    }

    /// Break events carry the VMAP break id (`adData["breakId"]`); a starting
    /// ad fills the companion slot its companions fit.
    private func annotated(_ event: AdEvent) -> AdEvent {
        var event = event
        if event.type == .adBreakStarted || event.type == .adBreakEnded, let slot = currentSlot {
            event.adData["breakId"] = slot.adBreak.breakID ?? String(slot.id)
        }
        if event.type == .started, let ad = event.ad { fillCompanionSlots(for: ad) }
        return event
    }

    private func fillCompanionSlots(for ad: Ad) {
        guard let slots = request?.adDisplayContainer?.companionSlots, !slots.isEmpty else { return }
        for slot in slots {
            if let companion = ad.companionAds.first(where: { $0.width == slot.width && $0.height == slot.height }) {
                slot.onFilled?(companion)
            }
        }
    }

    private func emit(_ event: AdEvent) {
        guard !destroyed else { return }
        // The stream first: a delegate may react (start() on `loaded`) and emit more.
        eventContinuation.yield(event)
        delegate?.adsManager(self, didReceive: event)
    }

    private func emitLog(_ message: String) {
        services.logger.log(.info, message)
        emit(AdEvent(type: .log, ad: machine?.currentAd, adData: ["message": message]))
    }

    // MARK: - Display events

    fileprivate func displayEvent(_ input: AdBreakMachine.Input) {
        if case .displayLoaded = input { delegate?.adsManagerAdPlaybackReady(self) }
        run([input])
    }

    /// Buffering changes no state and owes no beacon (VAST has no buffering
    /// event); it is passed on while a break plays, and dropped otherwise
    /// (a display may report late, after the break ended).
    fileprivate func displayBuffering(_ change: BufferingChange) {
        guard machine != nil else { return }
        switch change {
        case .started: delegate?.adsManagerAdDidStartBuffering(self)
        case .bufferedTo(let mediaTime): delegate?.adsManagerAdDidBufferToMediaTime(self, mediaTime: mediaTime)
        case .ready: delegate?.adsManagerAdPlaybackReady(self)
        }
    }
}

private enum BufferingChange {
    case started
    case bufferedTo(TimeInterval)
    case ready
}

/// Receives the display's events for the manager without making the manager
/// itself a public `VideoDisplayDelegate`, and without keeping it alive.
@MainActor
private final class DisplayProxy: VideoDisplayDelegate {
    weak var manager: AdsManager?

    func videoDisplayDidLoad(_ display: any VideoDisplay) { manager?.displayEvent(.displayLoaded) }
    func videoDisplayDidStart(_ display: any VideoDisplay) { manager?.displayEvent(.displayStarted) }
    func videoDisplayDidPause(_ display: any VideoDisplay) {}
    func videoDisplayDidResume(_ display: any VideoDisplay) {}
    func videoDisplayDidComplete(_ display: any VideoDisplay) { manager?.displayEvent(.displayCompleted) }
    func videoDisplayDidClick(_ display: any VideoDisplay) { manager?.displayEvent(.displayTapped) }
    func videoDisplay(_ display: any VideoDisplay, didReceiveError error: Error) {
        let code = (error as? VideoDisplayError)?.vastCode ?? .mediaDisplayError
        manager?.displayEvent(.displayFailed(code))
    }
    func videoDisplay(
        _ display: any VideoDisplay, didProgressToMediaTime mediaTime: TimeInterval, totalTime: TimeInterval
    ) {
        manager?.displayEvent(.displayProgressed(mediaTime: mediaTime, totalTime: totalTime))
    }
    func videoDisplay(_ display: any VideoDisplay, didReceiveTimedMetadata metadata: [String: String]) {}
    func videoDisplayDidStartBuffering(_ display: any VideoDisplay) { manager?.displayBuffering(.started) }
    func videoDisplay(_ display: any VideoDisplay, didBufferToMediaTime mediaTime: TimeInterval) {
        manager?.displayBuffering(.bufferedTo(mediaTime))
    }
    func videoDisplayIsPlaybackReady(_ display: any VideoDisplay) { manager?.displayBuffering(.ready) }
}

/// Errors a ``VideoDisplay`` reports, with the VAST code they map to.
public enum VideoDisplayError: Error, Sendable, Hashable {
    /// The media file was not found (401).
    case mediaNotFound
    /// The media file could not be decoded or shown (405).
    case cannotDisplay(String)

    public var vastCode: VASTErrorCode {
        switch self {
        case .mediaNotFound: return .mediaFileNotFound
        case .cannotDisplay: return .mediaDisplayError
        }
    }
}
