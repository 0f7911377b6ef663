import Foundation
import InterludeVAST

/// VMAP break tracking: `breakStart`, `breakEnd` and `error` URLs of a
/// break, filled with macros.
enum BreakTracking {
    static func beacons(
        _ event: BreakTrackingEvent.Event, for slot: AdBreakSchedule.Slot, errorCode: VASTErrorCode? = nil,
        contentPlayhead: TimeInterval?, macros: VASTMacroFiller
    ) -> [Beacon] {
        var values: [VASTMacro: VASTMacroValue] = [
            .breakPosition: .value(String(slot.breakPosition.rawValue)),
            .contentPlayhead: contentPlayhead.map { .playhead(seconds: $0) } ?? .unknown,
        ]
        if let errorCode { values[.errorCode] = .value(String(errorCode.rawValue)) }
        return slot.adBreak.trackingEvents.filter { $0.event == event }.compactMap { tracking in
            Beacon(
                template: tracking.url, values: values, event: event.rawValue, adID: "break-\(slot.name)",
                macros: macros)
        }
    }
}

/// Loads the ads of one VMAP break through the wrapper resolver, with the
/// break's `AdSource` rules (`allowMultipleAds`, `followRedirects`; absent
/// means allowed) and every request macro filled in its tag.
struct BreakLoader: Sendable {
    var resolver: WrapperResolver
    var firstHopTimeout: TimeInterval

    /// `request` carries the content playhead and MIME types; the slot sets
    /// the break position and the source's rules.
    func load(_ slot: AdBreakSchedule.Slot, vmapURL: URL?, request: AdRequestContext) async -> AdResolution {
        var request = request
        request.breakPosition = slot.breakPosition
        request.allowMultipleAds = slot.adBreak.adSource?.allowMultipleAds ?? true
        request.followRedirects = slot.adBreak.adSource?.followRedirects ?? true
        switch slot.adBreak.adSource?.content {
        case .vastAdData(let vast)?:
            return await resolver.resolve(vast: vast, documentURL: vmapURL, request: request)
        case .adTagURI(_, let template)?:
            guard let url = resolver.tagURL(template, relativeTo: vmapURL, request: request, adCount: 1) else {
                return AdResolution(
                    error: AdError(
                        type: .loadingFailed, code: .vastInvalidURL, message: "invalid AdTagURI '\(template)'"))
            }
            return await resolver.resolve(tagURL: url, timeout: firstHopTimeout, request: request)
        case .customAdData(let templateType, _)?:
            return AdResolution(
                error: AdError(
                    type: .loadingFailed, code: .vastMalformedResponse,
                    message: "CustomAdData of template type '\(templateType ?? "none")' is not supported (VMAP 1005)"))
        case nil:
            return AdResolution(
                error: AdError(type: .loadingFailed, code: .vastEmptyResponse, message: "the break has no ad source"))
        }
    }
}
