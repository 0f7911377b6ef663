import Foundation
import InterludeVAST

/// One thing for the manager to handle, in arrival order.
enum ManagerInput {
    /// `initialize(with:)`: announce the first break.
    case begin
    /// The app's `start()`.
    case start
    /// A due VMAP break starts by itself (`autoPlayAdBreaks`) unless the app
    /// started it already (on `loaded`).
    case autoStart(slotID: Int)
    /// An input for the playing break's machine (the app's calls, timers).
    case machine(AdBreakMachine.Input)
    /// The machine's own `proceed`, for the break it came from (by serial):
    /// a break that ended meanwhile does not pass it to the next.
    case proceed(breakSerial: Int)
    /// A report of the display (dropped when no break plays).
    case display(AdBreakMachine.Input)
    case buffering(BufferingChange)
    case volume(Float)
    case discard
    case background
    case foreground
    case offer(AdBreakSchedule.Slot, AdResolution)
    case contentTick
    case contentComplete
    case log(String)
    /// The user clicked a companion in its slot.
    case companionClicked(CompanionAd, CompanionPlacement)
    /// The app closed an icon's fallback image.
    case iconFallbackImageClosed
    case destroy
}

extension AdsManager {
    /// Queues `input`; handles it (and all that it queues) now unless an
    /// input is being handled already: then it waits its turn.
    func submit(_ input: ManagerInput) {
        guard !closing else { return }
        inbox.append(input)
        drain()
    }

    /// Handles queued inputs in order until none is left.
    func drain() {
        guard !isHandling else { return }
        isHandling = true
        defer { isHandling = false }
        var next = 0
        while next < inbox.count, !destroyed {
            let input = inbox[next]
            next += 1
            handle(input)
        }
        inbox.removeAll(keepingCapacity: true)
    }

    private func handle(_ input: ManagerInput) {
        switch input {
        case .begin: begin()
        case .start: startReadyBreak()
        case .autoStart(let slotID):
            if machine == nil, let slot = readyBreak?.slot, slot.id == slotID { startReadyBreak() }
        case .machine(let input): run(input)
        case .proceed(let serial):
            if serial == breakSerial, machine != nil { run(.proceed) }
        case .display(let input):
            guard machine != nil else { return }  // a late report, after the break ended
            if case .displayLoaded = input { delegateIfOpen?.adsManagerAdPlaybackReady(self) }
            run(input)
        case .buffering(let change): passOn(change)
        case .volume(let level):
            if machine != nil { run(.volumeChanged(level)) }
        case .discard: discard()
        case .background:
            appInBackground = true
            guard !services.resolver.settings.enableBackgroundPlayback else { return }
            inBackground = true
            if machine != nil { run(.enteredBackground) }
        case .foreground:
            appInBackground = false
            guard !services.resolver.settings.enableBackgroundPlayback else { return }
            inBackground = false
            if machine != nil { run(.enteredForeground) }
        case .offer(let slot, let resolution): offer(slot, resolution: resolution)
        case .contentTick: contentTick()
        case .contentComplete: contentCompletedNow()
        case .log(let message): emitLog(message)
        case .companionClicked(let companion, let placement): companionClicked(companion, placement: placement)
        case .iconFallbackImageClosed:
            if machine?.iconFallbackAd != nil { return run(.iconFallbackImageClosed) }
            guard let ad = iconFallbackAd else {
                return emitLog("iconFallbackImageClosed() ignored: no icon fallback image is open")
            }
            iconFallbackAd = nil
            emit(AdEvent(type: .iconFallbackImageClosed, ad: ad))
        case .destroy: tearDown()
        }
    }

    /// Hands `input` to the playing break's machine and performs what it decides.
    func run(_ input: AdBreakMachine.Input) {
        guard var current = machine else {
            return emitLog("\(input) ignored: no ad is playing")
        }
        // In the background the display's last measure is stale, and whether the video is on
        // screen (picture in picture, AirPlay) cannot be told: unknown, which breaks a run in view.
        current.visibleFraction = appInBackground ? nil : displayIfOpen?.visibleFraction
        let effects = current.handle(input, contentPlayhead: contentTime)
        machine = current
        perform(effects)
    }

    /// The delegate, unless the app destroyed the manager.
    var delegateIfOpen: (any AdsManagerDelegate)? { closing ? nil : delegate }
    /// The display, unless the app destroyed the manager.
    private var displayIfOpen: (any VideoDisplay)? { closing ? nil : display }

    private func perform(_ effects: [AdBreakMachine.Effect]) {
        let closedBefore = closing
        for effect in effects {
            guard !destroyed else { return }
            // The app destroyed the manager from a call of this batch (`onFilled`, a delegate
            // method): what the batch owes after that (an icon's view, never shown) is not sent.
            // What it owed before, and inputs the app queued before destroying, still go.
            if case .send = effect, closing, !closedBefore { continue }
            switch effect {
            case .requestContentPause: delegateIfOpen?.adsManagerDidRequestContentPause(self)
            case .requestContentResume: delegateIfOpen?.adsManagerDidRequestContentResume(self)
            case .emit(let event): emit(annotated(event))
            case .error(let error): delegateIfOpen?.adsManager(self, didReceive: error)
            case .loadMedia(let url): displayIfOpen?.load(url, subtitles: nil)
            case .play: displayIfOpen?.play()
            case .pause: displayIfOpen?.pause()
            case .resetDisplay: displayIfOpen?.reset()
            case .startLoadTimer(let seconds): startLoadTimer(seconds)
            case .cancelLoadTimer:
                loadTimer?.cancel()
                loadTimer = nil
            case .send(let beacons): send(beacons)
            case .progress(let mediaTime, let totalTime):
                delegateIfOpen?.adsManager(self, adDidProgressToTime: mediaTime, totalTime: totalTime)
            case .ui(let state):
                // Most ticks leave the UI as it was (the countdown moves once a
                // second): the delegate hears of changes only.
                guard state != uiState else { continue }
                uiState = state
                delegateIfOpen?.adsManager(self, didUpdate: state)
            case .openClickThrough(let url): open(url)
            case .proceed: inbox.append(.proceed(breakSerial: breakSerial))
            case .breakFinished: breakFinished()
            }
        }
    }

    /// Opens a click-through with the app's link opener (nothing after `destroy`).
    func open(_ url: URL) {
        guard !closing else { return }
        if let linkOpener {
            linkOpener(url)
        } else {
            emitLog("click-through \(url.absoluteString) (no link opener set)")
        }
    }

    func send(_ beacons: [Beacon]) {
        guard !beacons.isEmpty else { return }
        // Journaled before this main-actor turn ends: an app killed right after the event loses no beacon.
        services.beaconQueue.enqueue(beacons)
    }

    private func startLoadTimer(_ seconds: TimeInterval) {
        loadTimer?.cancel()
        let clock = services.resolver.clock
        loadTimer = Task { [weak self] in
            do { try await clock.sleep(for: seconds) } catch { return }
            guard !Task.isCancelled else { return }
            self?.submit(.machine(.loadTimedOut))
        }
    }

    func emit(_ event: AdEvent) {
        guard !destroyed, !closing else { return }
        // The stream first: a delegate may react (start() on `loaded`) and emit more.
        eventContinuation.yield(event)
        delegate?.adsManager(self, didReceive: event)
    }

    func emitLog(_ message: String) {
        services.logger.log(.info, message)
        emit(AdEvent(type: .log, ad: machine?.currentAd, adData: ["message": message]))
    }
}
