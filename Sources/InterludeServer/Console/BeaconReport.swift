import Foundation
import Interlude

/// What the collector should have received for the events a session saw,
/// and what it did receive.
package struct BeaconReport: Sendable {
    package struct Key: Sendable, Hashable, Comparable {
        package var ad: String
        package var event: String
        package init(ad: String, event: String) {
            self.ad = ad
            self.event = event
        }
        package static func < (lhs: Key, rhs: Key) -> Bool { (lhs.ad, lhs.event) < (rhs.ad, rhs.event) }
    }

    package var expected: [Key]
    package var counts: [Key: Int]
    package var order: [Key]

    package init(expected: [Key], received: [Beacon]) {
        self.expected = expected
        var counts: [Key: Int] = [:]
        var order: [Key] = []
        for beacon in received {
            let key = Key(ad: beacon.ad, event: beacon.event)
            if counts[key] == nil { order.append(key) }
            counts[key, default: 0] += 1
        }
        self.counts = counts
        self.order = order
    }

    /// A point of playback that owes beacons.
    package enum Milestone: Sendable, Hashable {
        case started(ad: String)
        case firstQuartile(ad: String)
        case midpoint(ad: String)
        case thirdQuartile(ad: String)
        case complete(ad: String)
        case skipped(ad: String)
        case breakStarted(breakID: String)
        case breakEnded(breakID: String)
    }

    /// Each ad that started owes impression, creativeView and start; each quartile,
    /// complete and skip it reached owes that event; each VMAP break owes
    /// breakStart and breakEnd (under the ad id `break-{breakId}`).
    package static func owed(by milestone: Milestone) -> [Key] {
        switch milestone {
        // The reference server's ads carry creativeView tracking; it fires with the first frame.
        case .started(let ad):
            [Key(ad: ad, event: "impression"), Key(ad: ad, event: "creativeView"), Key(ad: ad, event: "start")]
        case .firstQuartile(let ad): [Key(ad: ad, event: "firstQuartile")]
        case .midpoint(let ad): [Key(ad: ad, event: "midpoint")]
        case .thirdQuartile(let ad): [Key(ad: ad, event: "thirdQuartile")]
        case .complete(let ad): [Key(ad: ad, event: "complete")]
        case .skipped(let ad): [Key(ad: ad, event: "skip")]
        case .breakStarted(let id): [Key(ad: "break-\(id)", event: "breakStart")]
        case .breakEnded(let id): [Key(ad: "break-\(id)", event: "breakEnd")]
        }
    }

    /// What the events a session's player emitted owe (``owed(by:)`` for each).
    package static func expectedBeacons(from events: [AdEvent]) -> [Key] {
        events.flatMap { event -> [Key] in
            let ad = event.ad?.adID ?? ""
            let milestone: Milestone
            switch event.type {
            case .started: milestone = .started(ad: ad)
            case .firstQuartile: milestone = .firstQuartile(ad: ad)
            case .midpoint: milestone = .midpoint(ad: ad)
            case .thirdQuartile: milestone = .thirdQuartile(ad: ad)
            case .complete: milestone = .complete(ad: ad)
            case .skipped: milestone = .skipped(ad: ad)
            case .adBreakStarted:
                guard let id = event.adData["breakId"] else { return [] }
                milestone = .breakStarted(breakID: id)
            case .adBreakEnded:
                guard let id = event.adData["breakId"] else { return [] }
                milestone = .breakEnded(breakID: id)
            default: return []
            }
            return owed(by: milestone)
        }
    }

    /// How many times each key is owed (a creative that plays in two breaks owes twice).
    package var owed: [Key: Int] { expected.reduce(into: [:]) { $0[$1, default: 0] += 1 } }
    package var missing: [Key] { owed.keys.filter { (counts[$0] ?? 0) < owed[$0]! }.sorted() }
    package var duplicated: [Key] { owed.keys.filter { (counts[$0] ?? 0) > owed[$0]! }.sorted() }
    package var isComplete: Bool { !expected.isEmpty && missing.isEmpty && duplicated.isEmpty }

    package func text() -> String {
        var lines = [
            "", "beacon report — what the collector received, per ad (✔ as owed, ✘ not as owed, · not checked)",
        ]
        let owed = self.owed
        var ads: [String] = []
        for key in order where !ads.contains(key.ad) { ads.append(key.ad) }
        for ad in ads {
            let events = order.filter { $0.ad == ad }.map { key -> String in
                let count = counts[key] ?? 0
                let mark = owed[key].map { count == $0 ? "✔" : "✘" } ?? "·"
                return "\(mark) \(key.event)×\(count)"
            }
            lines.append("  \(ad): " + events.joined(separator: "  "))
        }
        let total = counts.values.reduce(0, +)
        if isComplete {
            lines.append(
                "✔ every expected impression, creativeView, quartile, complete, skip and break beacon (\(expected.count)) "
                    + "arrived exactly once; "
                    + "\(total) beacons in all")
        } else {
            for key in missing {
                lines.append("✘ missing: \(key.ad) \(key.event) (owed \(owed[key]!), got \(counts[key] ?? 0))")
            }
            for key in duplicated {
                lines.append("✘ too many: \(key.ad) \(key.event) (owed \(owed[key]!), got \(counts[key] ?? 0))")
            }
        }
        return lines.joined(separator: "\n")
    }
}
