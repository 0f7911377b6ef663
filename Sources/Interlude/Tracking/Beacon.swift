import Foundation
import InterludeVAST

/// One tracking ping owed to a server: a filled URL and what it reports.
public struct Beacon: Sendable, Hashable, Codable {
    /// The URL with its macros filled, ready to request.
    public var url: String
    /// The event reported (`impression`, `start`, `firstQuartile`, `error`, …).
    public var event: String
    /// The ad the beacon belongs to; beacons of one ad are sent in order.
    public var adID: String
    /// Sent as the `Idempotency-Key` header, so a retry after an ambiguous
    /// failure is not counted twice by a collector that honours it.
    public var idempotencyKey: String
    /// When the beacon became due (wall clock), for the maximum age.
    public var createdAt: Date

    public init(url: String, event: String, adID: String, idempotencyKey: String = UUID().uuidString, createdAt: Date) {
        self.url = url
        self.event = event
        self.adID = adID
        self.idempotencyKey = idempotencyKey
        self.createdAt = createdAt
    }

    /// The beacon a tracking URL template owes, its macros filled with
    /// `values`; nil for what is never sent (`about:blank`, `javascript:`, empty).
    init?(
        template: String, values: [VASTMacro: VASTMacroValue] = [:], event: String, adID: String,
        macros: VASTMacroFiller
    ) {
        let trimmed = template.trimmingWhitespace
        guard trimmed.isHTTPURLString else { return nil }
        self.init(url: macros.fill(trimmed, with: values), event: event, adID: adID, createdAt: macros.now())
    }
}

/// Where in the content a break sits, for `[BREAKPOSITION]`.
public enum BreakPosition: Int, Sendable, Hashable {
    case preroll = 1
    case midroll = 2
    case postroll = 3
    case standalone = 4
}
