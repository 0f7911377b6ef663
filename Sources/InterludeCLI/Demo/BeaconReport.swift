import Foundation
import Interlude
import InterludeServer

/// What the collector should have received for the events a session saw,
/// and what it did receive.
struct BeaconReport {
    struct Key: Hashable, Comparable {
        var ad: String
        var event: String
        static func < (lhs: Key, rhs: Key) -> Bool { (lhs.ad, lhs.event) < (rhs.ad, rhs.event) }
    }

    var expected: [Key]
    var counts: [Key: Int]
    var order: [Key]

    init(expected: [Key], received: [InterludeServer.Beacon]) {
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

    /// Each ad that started owes impression, creativeView and start; each quartile,
    /// complete and skip it reached owes that event; each VMAP break owes
    /// breakStart and breakEnd (under the ad id `break-{breakId}`).
    static func expectedBeacons(from events: [AdEvent]) -> [Key] {
        var keys: [Key] = []
        for event in events {
            let ad = event.ad?.adID ?? ""
            switch event.type {
            // The reference server's ads carry creativeView tracking; it fires with the first frame.
            case .started:
                keys += [
                    Key(ad: ad, event: "impression"), Key(ad: ad, event: "creativeView"), Key(ad: ad, event: "start"),
                ]
            case .firstQuartile: keys.append(Key(ad: ad, event: "firstQuartile"))
            case .midpoint: keys.append(Key(ad: ad, event: "midpoint"))
            case .thirdQuartile: keys.append(Key(ad: ad, event: "thirdQuartile"))
            case .complete: keys.append(Key(ad: ad, event: "complete"))
            case .skipped: keys.append(Key(ad: ad, event: "skip"))
            case .adBreakStarted:
                if let id = event.adData["breakId"] { keys.append(Key(ad: "break-\(id)", event: "breakStart")) }
            case .adBreakEnded:
                if let id = event.adData["breakId"] { keys.append(Key(ad: "break-\(id)", event: "breakEnd")) }
            default: break
            }
        }
        return keys
    }

    /// How many times each key is owed (a creative that plays in two breaks owes twice).
    var owed: [Key: Int] { expected.reduce(into: [:]) { $0[$1, default: 0] += 1 } }
    var missing: [Key] { owed.keys.filter { (counts[$0] ?? 0) < owed[$0]! }.sorted() }
    var duplicated: [Key] { owed.keys.filter { (counts[$0] ?? 0) > owed[$0]! }.sorted() }
    var isComplete: Bool { !expected.isEmpty && missing.isEmpty && duplicated.isEmpty }

    func text() -> String {
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
