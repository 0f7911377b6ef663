import Foundation
import InterludeVAST

/// Breaks: the plain VAST break, the VMAP schedule as the content plays,
/// loading and offering breaks, and what follows a break.
extension AdsManager {
    func begin() {
        if schedule != nil {
            startSchedule()
        } else {
            prepareStandaloneBreak()
        }
    }

    /// A VAST response: its ads are one break, ready at once (`loaded`).
    private func prepareStandaloneBreak() {
        ads = Self.makeAds(resolvedAds, podIndex: 0, timeOffset: 0, rendering: rendering)
        guard let first = ads.first else { return finishAllAds() }
        let machine = makeMachine(
            ads: ads, resolved: resolvedAds, breakPosition: .preroll, announcesBreak: true, firstAdAnnounced: true)
        readyBreak = ReadyBreak(machine: machine, slot: nil)
        emit(AdEvent(type: .loaded, ad: first))
    }

    private func startSchedule() {
        guard var schedule, let vmap else { return }
        if let after = rendering.playAdsAfterTime {
            schedule = AdBreakSchedule(vmap: vmap, contentDuration: request?.contentDuration, playAdsAfterTime: after)
        }
        if schedule.hasMidrolls, request?.contentPlayhead == nil {
            // IMA's CONTENT_PLAYHEAD_MISSING: without the playhead no mid-roll can come due.
            let message = "the VMAP schedules mid-rolls but the request has no content playhead: they will not play"
            schedule.dropMidrolls(reason: message)
            services.logger.log(.warning, message)
            delegateIfOpen?.adsManager(
                self, didReceive: AdError(type: .playingFailed, code: .contentPlayheadMissing, message: message))
        }
        self.schedule = schedule
        emit(
            AdEvent(
                type: .cuepointsChanged,
                adData: ["cuepoints": schedule.cuePoints.map { String($0) }.joined(separator: ",")]))
        dueSlots = schedule.pendingPrerolls
        offerNext()
        watchContent()
    }

    /// Polls the content playhead on the injected clock to find due breaks,
    /// until all ads have completed.
    private func watchContent() {
        guard request?.contentPlayhead != nil, !allAdsCompletedSent else { return }
        let clock = services.resolver.clock
        contentWatcher = Task { [weak self] in
            while !Task.isCancelled {
                do { try await clock.sleep(for: 0.25) } catch { return }
                guard let self else { return }  // released without destroy(): stop polling
                self.submit(.contentTick)
            }
        }
    }

    func contentTick() {
        guard machine == nil, readyBreak == nil, loadingSlot == nil, dueSlots.isEmpty, var schedule,
            let now = contentTime
        else { return }
        if rendering.enablePreloading {
            for slot in schedule.slotsToPrefetch(at: now, lead: 5) { prefetch(slot) }
        }
        let due = schedule.contentProgressed(to: now)
        self.schedule = schedule
        guard !due.isEmpty else { return }
        dueSlots = due
        offerNext()
    }

    /// Offers the next due break, unless one plays, waits or loads.
    private func offerNext() {
        guard machine == nil, readyBreak == nil, loadingSlot == nil, !dueSlots.isEmpty else { return }
        loadAndOffer(dueSlots.removeFirst())
    }

    private func prefetch(_ slot: AdBreakSchedule.Slot) {
        guard breakLoads[slot.id] == nil else { return }
        breakLoads[slot.id] = Task { [weak self] in
            guard let self else { return AdResolution() }
            return await self.loadBreak(slot)
        }
    }

    /// Loads a break (or takes its prefetch) and offers it when it arrives.
    private func loadAndOffer(_ slot: AdBreakSchedule.Slot) {
        schedule?.markPlayed(slot.id)
        prefetch(slot)
        guard let task = breakLoads[slot.id] else { return }
        loadingSlot = slot
        Task { [weak self] in
            let resolution = await task.value
            self?.submit(.offer(slot, resolution))
        }
    }

    /// A break arrived: with `autoPlayAdBreaks` its first ad is announced
    /// (`loaded`) and a mid- or post-roll starts (a pre-roll waits for
    /// `start()`, as IMA's guide has the app call it on `loaded`); without,
    /// `adBreakReady` is all until `start()`.
    func offer(_ slot: AdBreakSchedule.Slot, resolution: AdResolution) {
        breakLoads[slot.id] = nil
        guard loadingSlot?.id == slot.id else { return }  // discarded while it loaded
        loadingSlot = nil
        if let error = resolution.error {
            emit(
                AdEvent(
                    type: .adBreakFetchError,
                    adData: [
                        "errorCode": String(error.code.rawValue), "message": error.message ?? "", "breakId": slot.name,
                    ]))
            delegateIfOpen?.adsManager(self, didReceive: error)
            continueAfterBreak()
            return
        }
        let autoPlay = services.resolver.settings.autoPlayAdBreaks
        let ads = Self.makeAds(resolution.ads, podIndex: slot.podIndex, timeOffset: slot.cuePoint, rendering: rendering)
        let machine = makeMachine(
            ads: ads, resolved: resolution.ads, breakPosition: slot.breakPosition,
            announcesBreak: schedule?.isFirstPlay(of: slot) ?? true, firstAdAnnounced: autoPlay)
        readyBreak = ReadyBreak(machine: machine, slot: slot)
        guard autoPlay else {
            emit(AdEvent(type: .adBreakReady, ad: ads.first, adData: ["breakId": slot.name]))
            return
        }
        if let first = ads.first { emit(AdEvent(type: .loaded, ad: first)) }
        if slot.position != .preroll { inbox.append(.autoStart(slotID: slot.id)) }
    }

    /// Plays the ready break (`start()`).
    func startReadyBreak() {
        guard machine == nil else { return emitLog("start() ignored: a break is already playing") }
        guard let ready = readyBreak else { return emitLog("start() ignored: no ad break is ready") }
        readyBreak = nil
        machine = ready.machine
        currentSlot = ready.slot
        breakSerial += 1
        if let slot = ready.slot {
            send(
                BreakTracking.beacons(
                    .breakStart, for: slot, contentPlayhead: contentTime, macros: services.resolver.macros))
        }
        if inBackground { run(.enteredBackground) }
        // The app may have set the volume before the break: it is the mute/unmute baseline.
        run(.volumeChanged(volume))
        run(.start)
    }

    /// `discardAdBreak()`: the playing break ends; a ready or loading one is
    /// dropped before it plays.
    func discard() {
        if machine != nil { return run(.discard) }
        if readyBreak != nil {
            readyBreak = nil
            return continueAfterBreak()
        }
        if loadingSlot != nil {
            // Its answer is dropped when it comes (`offer`).
            loadingSlot = nil
            return continueAfterBreak()
        }
        emitLog("discardAdBreak() ignored: no ad break is playing, ready or loading")
    }

    func contentCompletedNow() {
        guard !contentCompleted else { return }
        contentCompleted = true
        // A break playing, ready, loading or due goes on to the post-roll when it is over.
        guard schedule != nil, machine == nil, readyBreak == nil, loadingSlot == nil, dueSlots.isEmpty else { return }
        continueAfterBreak()
    }

    /// The machine's `breakFinished`: break tracking, then what comes next.
    func breakFinished() {
        if let slot = currentSlot {
            send(
                BreakTracking.beacons(
                    .breakEnd, for: slot, contentPlayhead: contentTime, macros: services.resolver.macros))
        }
        // An image of an earlier break may still be open; a tap in this one replaces it.
        iconFallbackAd = machine?.iconFallbackAd ?? iconFallbackAd
        machine = nil
        currentSlot = nil
        uiState = .hidden
        continueAfterBreak()
    }

    /// After a break (played, failed or discarded): the next due break, the
    /// post-rolls once the content has completed, and the end of all ads
    /// after them (at once for a plain VAST response).
    func continueAfterBreak() {
        guard !allAdsCompletedSent else { return }
        guard let schedule else { return finishAllAds() }
        if !dueSlots.isEmpty { return offerNext() }
        guard contentCompleted else { return }
        let postrolls = schedule.postrolls()
        guard !postrolls.isEmpty else { return finishAllAds() }
        dueSlots = postrolls
        offerNext()
    }

    private func finishAllAds() {
        guard !allAdsCompletedSent else { return }
        allAdsCompletedSent = true
        contentWatcher?.cancel()
        contentWatcher = nil
        emit(AdEvent(type: .allAdsCompleted))
    }

    /// Loads the ads of one break (a `VASTAdData` resolves locally, an
    /// `AdTagURI` is fetched with every request macro filled), firing the
    /// break's error tracking and the wrappers' error URLs on failure.
    func loadBreak(_ slot: AdBreakSchedule.Slot) async -> AdResolution {
        let context = AdRequestContext(
            contentPlayhead: contentTime, mimeTypes: rendering.mediaPreferences.mimeTypes,
            contentURL: request?.contentURL, companionSlots: CompanionSlotSize.sizes(of: request?.adDisplayContainer))
        let services = self.services
        let loader = BreakLoader(resolver: services.resolver, firstHopTimeout: request?.vastLoadTimeout ?? 8)
        let resolution = await loader.load(slot, vmapURL: vmapURL, request: context)
        if !resolution.errorPings.isEmpty { await services.fire(resolution.errorPings) }
        if let error = resolution.error {
            let beacons = BreakTracking.beacons(
                .error, for: slot, errorCode: error.vastErrorCode, contentPlayhead: contentTime,
                macros: services.resolver.macros)
            services.beaconQueue.enqueue(beacons)
        }
        return resolution
    }
}
