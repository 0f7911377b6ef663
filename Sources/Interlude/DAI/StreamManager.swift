import Foundation

/// Plays one registered pod-serving stream: turns the VOD break timeline
/// or live timed metadata into the same ad events, progress calls and
/// custom-UI state client-side ads give, pings media verification through
/// the loader's ``BeaconQueue``, and maps stream ⇄ content time. IMA's
/// `IMAStreamManager`. The decisions are a pure timeline's; this class
/// runs their effects (display, HTTP, timers, delegate) and nothing after
/// ``destroy()``.
///
/// ```swift
/// manager.delegate = self
/// manager.initialize(with: nil)
/// // live: display.loadStream(url, subtitles: []); display.play()
/// // VOD:  manager.loadThirdPartyStream(url, streamSubtitles: [])
/// ```
@MainActor
public final class StreamManager {
    /// Hears events, errors, progress and UI changes. IMA's `delegate`.
    @exclusivity(unchecked) public weak var delegate: (any StreamManagerDelegate)? {
        didSet { delegateChanges &+= 1 }
    }
    /// The stream's ID from the registration: hand it to your VTP handler.
    /// IMA's `streamId`.
    public private(set) var streamId: String?
    /// Every event from the first access on, also as a stream (for
    /// SwiftUI and `for await`; take it before ``initialize(with:)`` to
    /// miss nothing). The newest 1,000 unread events are kept, so a long
    /// live stream nobody reads from does not grow. Finished by ``destroy()``.
    /// Interlude's own (IMA has only the delegate's
    /// `streamManager:didReceiveAdEvent:`, which gets the same events).
    public var events: AsyncStream<AdEvent> {
        if let eventStream { return eventStream }
        let (stream, continuation) = AsyncStream.makeStream(
            of: AdEvent.self, bufferingPolicy: .bufferingNewest(1000))
        if destroyed { continuation.finish() }
        eventStream = stream
        eventContinuation = continuation
        return stream
    }
    /// The custom UI as it should look now (hidden in content and in
    /// picture in picture). Interlude's own: IMA leaves the countdown and
    /// Learn More of a custom UI to the app, from the progress calls.
    @exclusivity(unchecked) public private(set) var uiState: AdUIState = .hidden
    /// Opens click-through pages (``clicked()``); without one the click is
    /// only logged. Interlude's own: IMA opens them itself, in an in-app
    /// browser over the ad display container's view controller.
    public var linkOpener: (@MainActor (URL) -> Void)?
    /// Ours (IMA leaves it to the app): a seek from A to B over an unplayed
    /// break plays the break from its start, then resumes at B; and while a
    /// break plays for the first time (`adBreakStarted` … `adBreakEnded`)
    /// seeks are refused. VOD only. Default false.
    public var isSnapbackEnabled = false {
        didSet { timeline.snapback = isSnapbackEnabled }
    }
    /// Whether this is a livestream (``PodStreamRequest``). Interlude's
    /// own: an IMA app knows it from the request it made.
    public let isLive: Bool

    /// The VOD breaks as cuepoints, after `cuepointsChanged`; empty for a
    /// livestream. IMA's `cuepoints`.
    public var cuepoints: [Cuepoint] { timeline.cuepoints }

    // Dynamic exclusivity checks are off (`@exclusivity(unchecked)`) for the
    // stored properties a report, an event or a batch of effects touches:
    // the checks were about 5 % of a report's time, and none can ever fire.
    // The manager is main-actor isolated, so accesses can only overlap by
    // nesting on the main thread, and none nests: these properties are
    // modified by assignment or by calls into value types (`StreamTimeline`,
    // `TimedMetadataQueue`, arrays and sets) that run no manager or app code
    // (the timeline's only closure reads the clock; `popDue`'s reads a copy
    // of `heldEventIDs`); app code (delegate, link opener, display) runs only
    // from `perform()`, after the effects were swapped out of `effects` and
    // with no access open, and whatever it calls back in (a seek, a report,
    // `destroy()`) starts its accesses afresh. Keep it so: a property
    // modified while code that may reach the manager runs inside the access
    // must lose the attribute.
    let registration: StreamRegistration
    let services: LoaderServices
    /// The loader's clock, read about once a second of reports (`StreamTimeline.ClockSample`).
    let clock: any AdClock
    var request: StreamRequest?
    var display: (any VideoDisplay)?
    let displayProxy = StreamDisplayProxy()
    /// Made on the first read of ``events``: until then no event is copied into a buffer nobody reads.
    var eventStream: AsyncStream<AdEvent>?
    @exclusivity(unchecked) var eventContinuation: AsyncStream<AdEvent>.Continuation?
    @exclusivity(unchecked) var timeline: StreamTimeline
    @exclusivity(unchecked) var metadataQueue = TimedMetadataQueue()
    /// The event IDs sent for media verification, so that none is sent
    /// twice: the API answers a repeat with 404 (already verified), and one
    /// ID comes due again when a display reports a frame twice at different
    /// times (without presentation times, or from two renditions a frame
    /// apart) or the metadata does not know it.
    var verifiedEventIDs = RecentSet<String>(capacity: 1_024)
    @exclusivity(unchecked) var metadata = PodMetadata()
    var rendering = AdsRenderingSettings()
    /// Reused for every report, so a progress tick allocates nothing.
    @exclusivity(unchecked) var effects: [StreamTimeline.Effect] = []

    var initialized = false
    @exclusivity(unchecked) var destroyed = false
    var thirdPartyStreamRequested = false
    @exclusivity(unchecked) var streamLoadedSent = false
    @exclusivity(unchecked) var streamStartedSent = false
    @exclusivity(unchecked) var isStreamPlaying = false
    @exclusivity(unchecked) var playingBackup = false
    /// Ad events come from timed metadata: live, or a VOD stream whose metadata has no timeline.
    @exclusivity(unchecked) var usesTimedMetadata: Bool
    /// VOD: the timeline is in.
    var timelineReady = false
    /// VOD: the display has reported the stream loaded.
    var displayHasLoaded = false
    /// VOD: the stream went to the display (early, while the timeline was pending, or once it came).
    var streamSentToDisplay = false
    /// The stream URL given to ``loadThirdPartyStream(_:streamSubtitles:)``, loaded once the timeline is in.
    var pendingStream: (url: URL, subtitles: [[String: String]]?)?
    var pollTask: Task<Void, Never>?
    @exclusivity(unchecked) var fetchTask: Task<Void, Never>?
    /// Parameters for the next metadata poll (``replaceAdTagParameters(_:)``).
    var pendingAdTagParameters: [String: String]?
    /// Live IDs waiting for the metadata fetch they started.
    @exclusivity(unchecked) var heldEventIDs: Set<String> = []
    var lastUnknownIDFetch: TimeInterval?
    var rejectedMetadataCount = 0
    var ignoredVODMetadata = false
    var pictureInPictureToken: UInt64?
    @exclusivity(unchecked) var isPictureInPictureActive = false
    /// The UI the timeline last asked for (shown again when picture in picture ends).
    @exclusivity(unchecked) var timelineUI: AdUIState = .hidden
    /// Counts the times ``delegate`` was set: `perform()` keeps the delegate
    /// it loaded for a batch of effects until this changes.
    @exclusivity(unchecked) var delegateChanges = 0

    init(registration: StreamRegistration, request: StreamRequest, services: LoaderServices) {
        self.registration = registration
        self.services = services
        clock = services.resolver.clock
        self.request = request
        isLive = request.isLive
        usesTimedMetadata = request.isLive
        streamId = registration.streamID
        display = request.videoDisplay
        timeline = StreamTimeline()
        if !request.isLive { timeline = StreamTimeline(vod: PodMetadata()) }
        displayProxy.manager = self
    }

    // MARK: - IMA API

    /// Starts watching the display with `settings` (`disableUi` shows the
    /// custom UI; default rendering when nil). A livestream's metadata is
    /// fetched now and polled while it plays. Call once. IMA's `initializeWithAdsRenderingSettings:`.
    public func initialize(with settings: AdsRenderingSettings? = nil) {
        guard !destroyed else { return }
        guard !initialized else { return emitLog("initialize(with:) ignored: already initialized") }
        initialized = true
        rendering = settings ?? AdsRenderingSettings()
        timeline.disableUi = rendering.disableUi
        timeline.uiElements = rendering.uiElements
        timeline.strings = AdUIStrings.forLanguage(services.resolver.settings.language)
        timeline.snapback = isSnapbackEnabled
        display?.delegate = displayProxy
        if let proxy = request?.pictureInPictureProxy {
            isPictureInPictureActive = proxy.isPictureInPictureActive
            pictureInPictureToken = proxy.addObserver { [weak self] active in self?.pictureInPictureChanged(active) }
        }
        if isLive {
            fetchMetadata()
            startPolling()
        }
    }

    /// VOD: fetches the stream's break timeline from the metadata URL, then
    /// loads `url` (with ``StreamRequest/manifestURLSuffix``) in the display
    /// and plays it — the app does not start playback itself.
    /// `streamLoaded` comes when the display has loaded it. A livestream
    /// given here is loaded and played as it is. Call once, after
    /// ``initialize(with:)``. IMA's `loadThirdPartyStream:streamSubtitles:`.
    public func loadThirdPartyStream(_ url: URL, streamSubtitles: [[String: String]]?) {
        guard !destroyed else {
            return services.logger.log(.warning, "loadThirdPartyStream ignored: the stream manager was destroyed")
        }
        guard initialized else { return emitLog("loadThirdPartyStream ignored: call initialize(with:) first") }
        guard !thirdPartyStreamRequested else { return emitLog("loadThirdPartyStream ignored: already called") }
        guard url.isHTTPOrHTTPS || url.isFileURL else {
            return emitLog("loadThirdPartyStream ignored: \(url.absoluteString) is not an http(s) or file URL")
        }
        thirdPartyStreamRequested = true
        let streamURL = Self.appending(suffix: request?.manifestURLSuffix, to: url)
        if isLive {
            display?.loadStream(streamURL, subtitles: streamSubtitles)
            display?.play()
            return
        }
        pendingStream = (streamURL, streamSubtitles)
        fetchTimeline()
    }

    /// Content time (ads removed) of a stream time; identity for a
    /// livestream. IMA's `contentTimeForStreamTime:`.
    public func contentTime(forStreamTime streamTime: TimeInterval) -> TimeInterval {
        timeline.contentTime(forStreamTime: streamTime)
    }

    /// Stream time (ads included) of a content time, for bookmarks: seek
    /// there on `streamLoaded`. Identity for a livestream. IMA's `streamTimeForContentTime:`.
    public func streamTime(forContentTime contentTime: TimeInterval) -> TimeInterval {
        timeline.streamTime(forContentTime: contentTime)
    }

    /// The last cuepoint that starts before `streamTime`, played or not (nil
    /// when none does). IMA's `previousCuepointForStreamTime:`.
    public func previousCuepoint(forStreamTime streamTime: TimeInterval) -> Cuepoint? {
        timeline.previousCuepoint(forStreamTime: streamTime)
    }

    /// Livestream: targeting for the ads of later breaks, sent as query
    /// parameters of the next metadata poll (and of each one after it until
    /// one succeeds). IMA's `replaceAdTagParameters:`.
    public func replaceAdTagParameters(_ adTagParameters: [String: String]) {
        guard !destroyed else { return }
        guard isLive else { return emitLog("replaceAdTagParameters ignored: only livestreams take new parameters") }
        pendingAdTagParameters = adTagParameters
    }

    /// Stops everything: stream playback, polling, timers, display
    /// observation and pending effects. After this no event, beacon or
    /// display command comes from this manager, and it holds nothing of the
    /// app's. IMA's `destroy`.
    public func destroy() {
        guard !destroyed else { return }
        destroyed = true
        pollTask?.cancel()
        pollTask = nil
        fetchTask?.cancel()
        fetchTask = nil
        display?.reset()
        if display?.delegate === displayProxy { display?.delegate = nil }
        if let token = pictureInPictureToken { request?.pictureInPictureProxy?.removeObserver(token) }
        pictureInPictureToken = nil
        display = nil
        request = nil
        delegate = nil
        linkOpener = nil
        displayProxy.manager = nil
        pendingStream = nil
        metadataQueue.removeAllPending()
        heldEventIDs.removeAll()
        timeline = StreamTimeline()
        metadata = PodMetadata()
        eventContinuation?.finish()
    }

    // MARK: - Interlude additions

    /// Seeks the stream to `streamTime` seconds through the display, with
    /// the snapback rules when ``isSnapbackEnabled`` is on (refused, false,
    /// while a break plays for the first time). Seeks made on the player
    /// directly are noticed too and get the same rules. Interlude's own: an
    /// IMA app seeks its player (`IMAVideoDisplay`'s `seekStreamToTime:`)
    /// and applies snapback itself.
    @discardableResult
    public func seekStream(to streamTime: TimeInterval) -> Bool {
        guard !destroyed, !playingBackup else { return false }
        effects.removeAll(keepingCapacity: true)
        let accepted = timeline.seekRequested(to: streamTime, into: &effects)
        perform()
        return accepted
    }

    /// The user chose Learn More: emits `clicked` and opens the playing ad's
    /// click-through (through ``linkOpener``). Logged when no ad with one
    /// plays. Interlude's own, for a custom UI: in IMA the SDK's own UI takes
    /// the tap, and the event is `kIMAAdEvent_CLICKED` (``AdEvent/EventType/clicked``).
    public func clicked() {
        guard !destroyed else { return }
        effects.removeAll(keepingCapacity: true)
        timeline.clicked(into: &effects)
        perform()
    }

    // MARK: - Effects

    /// Carries out ``effects``: events, delegate calls, UI, verification, seeks.
    func perform() {
        guard !effects.isEmpty else { return }
        // Verification and click-tracking pings, sent together at the end.
        var verifications: [Beacon] = []
        // Swapped, not copied: a delegate may call back in (a seek) while
        // these run, and the buffer is reused by the next report.
        var pending: [StreamTimeline.Effect] = []
        swap(&pending, &effects)
        defer {
            pending.removeAll(keepingCapacity: true)
            if effects.isEmpty { effects = pending }
        }
        // Taken from the end of the reversed list: each effect is moved out,
        // not copied (an event's ad holds dozens of references).
        pending.reverse()
        // The delegate loaded once for the batch (a weak load and its release cost more
        // than a progress call), and again after a call in the batch set another (or none).
        var listener = delegate
        var listenerChanges = delegateChanges
        while let effect = pending.popLast() {
            // Verifications of what fired before a destroy (the app may destroy from a delegate call) still go.
            guard !destroyed else { break }
            if listenerChanges != delegateChanges {
                listener = delegate
                listenerChanges = delegateChanges
            }
            switch consume effect {
            case .emit(let event): emit(event, to: listener)
            case .progress(let progress):
                listener?.streamManager(
                    self, adDidProgressToTime: progress.time, adDuration: progress.adDuration,
                    adPosition: progress.adPosition, totalAds: progress.totalAds,
                    adBreakDuration: progress.adBreakDuration, adPeriodDuration: progress.adPeriodDuration)
            case .ui(let state): publish(state, to: listener)
            case .verify(let eventID):
                if verifiedEventIDs.insert(eventID) { verifications.append(verificationBeacon(for: eventID)) }
            case .seekStream(let time): display?.seekStream(to: time)
            case .openClickThrough(let url):
                if let linkOpener {
                    linkOpener(url)
                } else {
                    emitLog("click-through \(url.absoluteString) (no link opener set)")
                }
            case .clickTracking(let urls): verifications += clickBeacons(urls)
            case .log(let message): emitLog(message)
            }
        }
        enqueue(verifications)
    }

    func publish(_ state: AdUIState) { publish(state, to: delegate) }

    /// `listener`: the ``delegate``, as `perform()` holds it for a batch.
    func publish(_ state: AdUIState, to listener: (any StreamManagerDelegate)?) {
        timelineUI = state
        let shown = isPictureInPictureActive ? AdUIState.hidden : state
        guard shown != uiState else { return }
        uiState = shown
        listener?.streamManager(self, didUpdate: shown)
    }

    private func pictureInPictureChanged(_ active: Bool) {
        guard !destroyed else { return }
        isPictureInPictureActive = active
        emitLog(active ? "picture in picture started: the ad UI is hidden" : "picture in picture ended")
        publish(timelineUI)
    }

    func emit(_ event: AdEvent) { emit(event, to: delegate) }

    /// `listener`: the ``delegate``, as `perform()` holds it for a batch.
    func emit(_ event: AdEvent, to listener: (any StreamManagerDelegate)?) {
        guard !destroyed else { return }
        eventContinuation?.yield(event)
        listener?.streamManager(self, didReceive: event)
    }

    func emitLog(_ message: String) {
        services.logger.log(.info, "stream \(registration.streamID): \(message)")
        emit(AdEvent(type: .log, ad: timeline.currentSlot?.ad, adData: ["message": message]))
    }

    func report(_ error: AdError) {
        guard !destroyed else { return }
        services.logger.log(.error, "stream \(registration.streamID): \(error)")
        delegate?.streamManager(self, didReceive: error)
    }

    /// `url` with `suffix` added to its query (`?` or `&` as needed).
    static func appending(suffix: String?, to url: URL) -> URL {
        guard var suffix = suffix?.trimmingWhitespace, !suffix.isEmpty else { return url }
        while suffix.first == "?" || suffix.first == "&" { suffix.removeFirst() }
        guard !suffix.isEmpty else { return url }
        let text = url.absoluteString
        let joined = text + (url.query == nil ? "?" : (text.hasSuffix("&") || text.hasSuffix("?") ? "" : "&")) + suffix
        return URL(string: joined) ?? url
    }
}
