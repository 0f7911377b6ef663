import Foundation
import InterludeVAST

/// Plays the ads of one load: a VAST response (its ads as one break) or a
/// VMAP schedule (breaks loaded as the content reaches them). IMA's
/// `IMAAdsManager`.
@MainActor
public final class AdsManager {
    /// Cue points of a VMAP schedule in seconds (0 pre-roll, −1 post-roll);
    /// empty for a plain VAST response, as in IMA.
    public var adCuePoints: [TimeInterval] { schedule?.cuePoints ?? [] }

    /// The ads of a VAST response, with their pod positions. Empty for VMAP
    /// until a break loads.
    public private(set) var ads: [Ad]

    let resolvedAds: [ResolvedAd]
    private(set) var schedule: AdBreakSchedule?
    let services: LoaderServices
    let vmapURL: URL?
    let request: AdsRequest
    private(set) var contentCompleted = false

    init(
        resolvedAds: [ResolvedAd], schedule: AdBreakSchedule?, vmapURL: URL?, request: AdsRequest,
        services: LoaderServices
    ) {
        self.resolvedAds = resolvedAds
        self.schedule = schedule
        self.vmapURL = vmapURL
        self.request = request
        self.services = services
        let total = resolvedAds.count
        ads = resolvedAds.enumerated().map { index, resolved in
            Ad(
                resolved: resolved,
                podInfo: AdPodInfo(adPosition: index + 1, totalAds: total, podIndex: 0, timeOffset: 0))
        }
    }

    /// The content finished: the post-roll (if any) becomes due.
    func contentDidComplete() {
        contentCompleted = true
    }

    /// Loads the ads of one break of the schedule (a `VASTAdData` resolves
    /// locally, an `AdTagURI` is fetched), firing the break's error tracking
    /// and the wrappers' error URLs on failure.
    func loadBreak(_ slot: AdBreakSchedule.Slot) async -> AdResolution {
        let loader = BreakLoader(resolver: services.resolver, firstHopTimeout: request.vastLoadTimeout)
        let resolution = await loader.load(slot, vmapURL: vmapURL)
        await services.fire(resolution.errorPings)
        if let error = resolution.error {
            let beacons = BreakTracking.beacons(
                .error, for: slot, errorCode: error.vastErrorCode,
                contentPlayhead: request.contentPlayhead?.currentTime,
                macros: services.resolver.macros)
            await services.beaconQueue.enqueue(beacons)
        }
        return resolution
    }
}
