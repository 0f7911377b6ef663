import Foundation
import InterludeVAST

/// A change in the display's buffering, passed on to the delegate.
enum BufferingChange {
    case started
    case bufferedTo(TimeInterval)
    case ready
}

/// The display's side: its reports, buffering, companions and what break
/// events carry.
extension AdsManager {
    /// Buffering changes no state and owes no beacon (VAST has no buffering
    /// event); it is passed on while a break plays, and dropped otherwise
    /// (a display may report late, after the break ended).
    func passOn(_ change: BufferingChange) {
        guard machine != nil, let delegate = delegateIfOpen else { return }
        switch change {
        case .started: delegate.adsManagerAdDidStartBuffering(self)
        case .bufferedTo(let mediaTime): delegate.adsManagerAdDidBufferToMediaTime(self, mediaTime: mediaTime)
        case .ready: delegate.adsManagerAdPlaybackReady(self)
        }
    }

    /// Break events carry the VMAP break id (`adData["breakId"]`); a starting
    /// ad fills the companion slot its companions fit.
    func annotated(_ event: AdEvent) -> AdEvent {
        var event = event
        if event.type == .adBreakStarted || event.type == .adBreakEnded, let slot = currentSlot {
            event.adData["breakId"] = slot.name
        }
        if event.type == .started, let ad = event.ad { fillCompanionSlots(for: ad) }
        return event
    }

    /// Each slot that a companion of the starting ad fits (same size) is
    /// filled, and the companion's `creativeView` beacons are sent as it is
    /// (the ad's shared ones once, with the first). An app that destroys
    /// the manager from ``CompanionAdSlot/onFilled`` stops the rest.
    private func fillCompanionSlots(for ad: Ad) {
        guard !closing, let slots = request?.adDisplayContainer?.companionSlots, !slots.isEmpty else { return }
        let macros = services.resolver.macros
        let values = adMacroValues(at: 0)
        let placement = CompanionPlacement(ad: ad, breakSerial: breakSerial, values: adMacroValues(at: nil))
        var sharedOwed = true
        for slot in slots {
            guard !closing else { return }
            guard let companion = ad.companionAds.first(where: { $0.width == slot.width && $0.height == slot.height })
            else { continue }
            // The wrappers' size-less tracking is about the inline ad's companions only.
            if sharedOwed, companion.isInline {
                sharedOwed = false
                let shared = ad.sharedCompanionViewTracking
                send(companion.beacons(shared, event: "companionCreativeView", values: values, macros: macros))
            }
            send(companion.viewBeacons(values: values, macros: macros))
            slot.fill(with: companion) { [weak self] clicked in self?.submit(.companionClicked(clicked, placement)) }
        }
    }

    /// The user clicked a companion (``CompanionAdSlot/clicked()``): its
    /// click tracking is sent and its click-through opened. The linear ad
    /// plays on; it may have ended already, and then the click's macros
    /// are its placement's with the ad's playhead unknown.
    func companionClicked(_ companion: CompanionAd, placement: CompanionPlacement) {
        let macros = services.resolver.macros
        var values: [VASTMacro: VASTMacroValue]
        if let playing = machine?.currentAd, placement.isPlacement(of: playing, breakSerial: breakSerial),
            machine?.tracker?.hasStarted == true
        {
            values = adMacroValues(at: machine?.mediaTime)
        } else {
            values = placement.values
            values[.contentPlayhead] = contentTime.map { .playhead(seconds: $0) } ?? .unknown
        }
        send(companion.clickBeacons(values: values, macros: macros))
        if let url = companion.clickThrough(values: values, macros: macros) {
            open(url)
        } else {
            emitLog("companion click: the companion has no http(s) click-through")
        }
    }

    /// The playing ad's macro values at `mediaTime` (nil: its playhead
    /// unknown); only the player's when no ad is playing.
    private func adMacroValues(at mediaTime: TimeInterval?) -> [VASTMacro: VASTMacroValue] {
        if let tracker = machine?.tracker { return tracker.macroValues(at: mediaTime, contentPlayhead: contentTime) }
        var values = PlayerMacros.values(limitAdTracking: services.resolver.settings.limitAdTracking)
        values[.contentPlayhead] = contentTime.map { .playhead(seconds: $0) } ?? .unknown
        return values
    }
}

/// Receives the display's events for the manager without making the manager
/// itself a public `VideoDisplayDelegate`, and without keeping it alive.
/// Each report is queued like every other input.
@MainActor
final class DisplayProxy: VideoDisplayDelegate {
    weak var manager: AdsManager?

    func videoDisplayDidLoad(_ display: any VideoDisplay) { manager?.submit(.display(.displayLoaded)) }
    func videoDisplayDidStart(_ display: any VideoDisplay) { manager?.submit(.display(.displayStarted)) }
    func videoDisplayDidPause(_ display: any VideoDisplay) {}
    func videoDisplayDidResume(_ display: any VideoDisplay) {}
    func videoDisplayDidComplete(_ display: any VideoDisplay) { manager?.submit(.display(.displayCompleted)) }
    func videoDisplayDidClick(_ display: any VideoDisplay) { manager?.submit(.display(.displayTapped)) }
    func videoDisplay(_ display: any VideoDisplay, didReceiveError error: Error) {
        let code = (error as? VideoDisplayError)?.vastCode ?? .mediaDisplayError
        manager?.submit(.display(.displayFailed(code)))
    }
    func videoDisplay(
        _ display: any VideoDisplay, didProgressToMediaTime mediaTime: TimeInterval, totalTime: TimeInterval
    ) {
        manager?.submit(.display(.displayProgressed(mediaTime: mediaTime, totalTime: totalTime)))
    }
    func videoDisplay(_ display: any VideoDisplay, didReceiveTimedMetadata metadata: [String: String]) {}
    func videoDisplayDidStartBuffering(_ display: any VideoDisplay) { manager?.submit(.buffering(.started)) }
    func videoDisplay(_ display: any VideoDisplay, didBufferToMediaTime mediaTime: TimeInterval) {
        manager?.submit(.buffering(.bufferedTo(mediaTime)))
    }
    func videoDisplayIsPlaybackReady(_ display: any VideoDisplay) { manager?.submit(.buffering(.ready)) }
}
