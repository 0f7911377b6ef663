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
    /// filled, and the companion's `creativeView` beacons are sent.
    private func fillCompanionSlots(for ad: Ad) {
        guard !closing, let slots = request?.adDisplayContainer?.companionSlots, !slots.isEmpty else { return }
        for slot in slots {
            guard let companion = ad.companionAds.first(where: { $0.width == slot.width && $0.height == slot.height })
            else { continue }
            slot.fill(with: companion) { [weak self] clicked in self?.submit(.companionClicked(clicked)) }
            send(companion.viewBeacons(macros: services.resolver.macros, limitAdTracking: limitAdTracking))
        }
    }

    /// The user clicked a companion (``CompanionAdSlot/clicked()``): its
    /// click tracking is sent and its click-through opened. The linear ad
    /// plays on; it may have ended already.
    func companionClicked(_ companion: CompanionAd) {
        let macros = services.resolver.macros
        send(companion.clickBeacons(macros: macros, limitAdTracking: limitAdTracking))
        if let url = companion.clickThrough(macros: macros, limitAdTracking: limitAdTracking) {
            open(url)
        } else {
            emitLog("companion click: the companion has no http(s) click-through")
        }
    }

    private var limitAdTracking: Bool { services.resolver.settings.limitAdTracking }
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
