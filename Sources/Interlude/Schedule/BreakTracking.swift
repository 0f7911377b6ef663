import Foundation
import InterludeVAST

/// VMAP break tracking: `breakStart`, `breakEnd` and `error` URLs of a
/// break, filled with macros.
public enum BreakTracking {
    public static func beacons(
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
                template: tracking.url, values: values, event: event.rawValue,
                adID: "break-\(slot.adBreak.breakID ?? String(slot.id))", macros: macros)
        }
    }
}

/// Loads the ads of one VMAP break through the wrapper resolver.
struct BreakLoader: Sendable {
    var resolver: WrapperResolver
    var firstHopTimeout: TimeInterval

    func load(_ slot: AdBreakSchedule.Slot, vmapURL: URL?) async -> AdResolution {
        switch slot.adBreak.adSource?.content {
        case .vastAdData(let vast)?:
            return await resolver.resolve(vast: vast, documentURL: vmapURL)
        case .adTagURI(_, let template)?:
            guard let url = URL.lenient(resolver.macros.fill(template), relativeTo: vmapURL) else {
                return AdResolution(
                    error: AdError(
                        type: .loadingFailed, code: .vastInvalidURL, message: "invalid AdTagURI '\(template)'"))
            }
            return await resolver.resolve(tagURL: url, timeout: firstHopTimeout)
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
