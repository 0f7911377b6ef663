import Foundation
import Interlude
import InterludeServer

/// What one pod-serving stream of the demo owed and what arrived: per
/// break and ad, the app's events (from the `StreamManager`), the media
/// verifications (sent by the SDK, accepted by the server) and the
/// server-side beacons (in the collector), each checked owed and arrived
/// exactly once. Pure: built from what the demo gathered.
struct PodStreamReport {
    /// Which decided breaks the stream owes.
    enum Owing {
        /// Every break the server decided (VOD: the demo plays them all).
        case everyBreak
        /// Breaks with any sign of having played: an app event, a
        /// verification or a beacon (live: the window at the join can hold
        /// a break behind the playhead, and the last reload one after the stop).
        case breaksWithEvidence
    }

    /// Something owed that did not arrive exactly once (or arrived unowed).
    struct Problem: Hashable, Comparable {
        var what: String
        var owed: Int
        var got: Int

        static func < (lhs: Problem, rhs: Problem) -> Bool { lhs.what < rhs.what }

        var text: String {
            owed == 0
                ? "✘ not owed: \(what) (got \(got))"
                : (got < owed
                    ? "✘ missing: \(what) (owed \(owed), got \(got))"
                    : "✘ too many: \(what) (owed \(owed), got \(got))")
        }
    }

    /// The app events every ad owes, once each.
    static let adEventTypes: [AdEvent.EventType] = [.started, .firstQuartile, .midpoint, .thirdQuartile, .complete]

    let label: String
    let streamID: String
    let decisions: [PodBreakDecision]
    let owedBreaks: [PodBreakDecision]
    let appEvents: [AdEvent]
    let verificationsSent: [String: Int]
    let verified: Set<String>
    let beaconCounts: [BeaconKey: Int]
    let owedBeacons: [BeaconKey: Int]
    /// Further lines (the seek) and their problems.
    let notes: [String]
    private(set) var problems: [Problem] = []

    /// A collector beacon: the ad ID and event of its `/track/{session}/{ad}/{event}` URL.
    struct BeaconKey: Hashable, Comparable {
        var ad: String
        var event: String
        static func < (lhs: BeaconKey, rhs: BeaconKey) -> Bool { (lhs.ad, lhs.event) < (rhs.ad, rhs.event) }
    }

    init(
        label: String, streamID: String, decisions: [PodBreakDecision], appEvents: [AdEvent],
        verificationsSent: [String: Int], verified: Set<String>, beacons: [InterludeServer.Beacon], owing: Owing,
        notes: [String] = [], extraProblems: [Problem] = []
    ) {
        self.label = label
        self.streamID = streamID
        self.decisions = decisions
        self.appEvents = appEvents.filter { $0.type != .log }
        self.verificationsSent = verificationsSent
        self.verified = verified
        self.notes = notes
        var counts: [BeaconKey: Int] = [:]
        for beacon in beacons { counts[BeaconKey(ad: beacon.ad, event: beacon.event), default: 0] += 1 }
        beaconCounts = counts

        let appBreakIDs = Set(appEvents.compactMap { $0.adData["breakId"] })
        let appAdIDs = Set(appEvents.compactMap { $0.ad?.adID })
        let beaconAds = Set(beacons.map(\.ad))
        func hasEvidence(_ decision: PodBreakDecision) -> Bool {
            appBreakIDs.contains(decision.breakID)
                || decision.ads.contains { appAdIDs.contains($0.adID) || beaconAds.contains($0.adID) }
                || decision.events.contains { verificationsSent[$0.id] != nil || verified.contains($0.id) }
        }
        owedBreaks = owing == .everyBreak ? decisions : decisions.filter(hasEvidence)

        var owedBeacons: [BeaconKey: Int] = [:]
        for ad in owedBreaks.flatMap(\.ads) {
            for event in ad.events {
                for url in ad.beacons[event.type.rawValue] ?? [] {
                    if let key = Self.beaconKey(ofTrackingURL: url) { owedBeacons[key, default: 0] += 1 }
                }
            }
        }
        self.owedBeacons = owedBeacons
        problems = extraProblems + checkApp() + checkVerifications() + checkBeacons()
        problems.sort()
    }

    /// The ad and event of a tracking URL `…/track/{session}/{ad}/{event}?…`.
    static func beaconKey(ofTrackingURL url: String) -> BeaconKey? {
        guard let range = url.range(of: "/track/") else { return nil }
        let path = url[range.upperBound...].prefix { $0 != "?" && $0 != "#" }
        let parts = path.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 3, !parts[1].isEmpty, !parts[2].isEmpty else { return nil }
        return BeaconKey(
            ad: parts[1].removingPercentEncoding ?? parts[1], event: parts[2].removingPercentEncoding ?? parts[2])
    }

    var isComplete: Bool { !owedBreaks.isEmpty && problems.isEmpty }

    // MARK: - Checks

    private func appCount(ad: String, _ type: AdEvent.EventType) -> Int {
        appEvents.filter { $0.type == type && $0.ad?.adID == ad }.count
    }

    private func appCount(break id: String, _ type: AdEvent.EventType) -> Int {
        appEvents.filter { $0.type == type && $0.adData["breakId"] == id }.count
    }

    private func checkApp() -> [Problem] {
        var problems: [Problem] = []
        var owedAds = Set<String>()
        var owedBreakIDs = Set<String>()
        for decision in owedBreaks {
            owedBreakIDs.insert(decision.breakID)
            for type in [AdEvent.EventType.adBreakStarted, .adBreakEnded] {
                let got = appCount(break: decision.breakID, type)
                if got != 1 {
                    problems.append(
                        Problem(what: "app event \(typeString(type)) of \(decision.breakID)", owed: 1, got: got))
                }
            }
            for ad in decision.ads {
                owedAds.insert(ad.adID)
                for type in Self.adEventTypes {
                    let got = appCount(ad: ad.adID, type)
                    if got != 1 {
                        problems.append(Problem(what: "app event \(typeString(type)) of \(ad.adID)", owed: 1, got: got))
                    }
                }
            }
        }
        // Ad events for ads no owed break has.
        var unowed: [String: Int] = [:]
        for event in appEvents where Self.adEventTypes.contains(event.type) {
            let ad = event.ad?.adID ?? "?"
            if !owedAds.contains(ad) { unowed["app event \(event.typeString) of \(ad)", default: 0] += 1 }
        }
        for event in appEvents where event.type == .adBreakStarted || event.type == .adBreakEnded {
            let id = event.adData["breakId"] ?? "?"
            if !owedBreakIDs.contains(id) { unowed["app event \(event.typeString) of \(id)", default: 0] += 1 }
        }
        problems += unowed.map { Problem(what: $0.key, owed: 0, got: $0.value) }
        return problems
    }

    private func checkVerifications() -> [Problem] {
        var problems: [Problem] = []
        var owedIDs = Set<String>()
        for ad in owedBreaks.flatMap(\.ads) {
            for event in ad.events {
                owedIDs.insert(event.id)
                let sent = verificationsSent[event.id] ?? 0
                if sent != 1 {
                    problems.append(
                        Problem(what: "verification \(event.type.rawValue) of \(ad.adID) sent", owed: 1, got: sent))
                }
                if !verified.contains(event.id) {
                    problems.append(
                        Problem(what: "verification \(event.type.rawValue) of \(ad.adID) accepted", owed: 1, got: 0))
                }
            }
        }
        for (id, count) in verificationsSent where !owedIDs.contains(id) {
            problems.append(Problem(what: "verification \(id)", owed: 0, got: count))
        }
        return problems
    }

    private func checkBeacons() -> [Problem] {
        var problems: [Problem] = []
        for key in Set(owedBeacons.keys).union(beaconCounts.keys) {
            let owed = owedBeacons[key] ?? 0
            let got = beaconCounts[key] ?? 0
            if owed != got { problems.append(Problem(what: "beacon \(key.event) of \(key.ad)", owed: owed, got: got)) }
        }
        return problems
    }

    private func typeString(_ type: AdEvent.EventType) -> String { AdEvent(type: type).typeString }

    // MARK: - Text

    /// The report's lines: each owed break and ad with what arrived, the
    /// events the app received in order, then the verdict.
    func text() -> String {
        var lines = ["", "\(label) — stream \(streamID)"]
        let skipped = decisions.filter { decision in !owedBreaks.contains { $0.breakID == decision.breakID } }
        if !skipped.isEmpty {
            lines.append(
                "  decided but not reached (behind the join point or after the stop): "
                    + skipped.map(\.breakID).joined(separator: ", "))
        }
        for decision in owedBreaks {
            let started = appCount(break: decision.breakID, .adBreakStarted)
            let ended = appCount(break: decision.breakID, .adBreakEnded)
            let slate = decision.slateDuration > 0 ? " + \(Self.seconds(decision.slateDuration)) s slate" : ""
            lines.append(
                "  break \(decision.breakID) (\(decision.ads.count) ads, \(Self.seconds(decision.duration)) s\(slate)): "
                    + "\(mark(started, 1)) AD_BREAK_STARTED×\(started)  \(mark(ended, 1)) AD_BREAK_ENDED×\(ended)")
            for ad in decision.ads {
                let app = Self.adEventTypes.map { type -> String in
                    let got = appCount(ad: ad.adID, type)
                    return "\(mark(got, 1))\(typeString(type))"
                }
                lines.append(
                    "    ad \(ad.position) \(ad.adID) \(ad.creativeID) (\(Self.seconds(ad.duration)) s)  app: "
                        + app.joined(separator: " "))
                let verifications = ad.events.map { event -> String in
                    let sent = verificationsSent[event.id] ?? 0
                    let ok = sent == 1 && verified.contains(event.id)
                    return "\(ok ? "✔" : "✘")\(event.type.rawValue)"
                }
                lines.append("      verified (sent once, accepted): " + verifications.joined(separator: " "))
                let keys = owedBeacons.keys.filter { $0.ad == ad.adID }.sorted()
                let beacons = keys.map { key -> String in
                    let got = beaconCounts[key] ?? 0
                    return "\(mark(got, owedBeacons[key] ?? 0))\(key.event)×\(got)"
                }
                lines.append("      server-side beacons: " + beacons.joined(separator: " "))
            }
        }
        lines += notes.map { "  " + $0 }
        lines.append(contentsOf: wrapped("  events the app received (\(appEvents.count)): ", appEvents.map(Self.label)))
        let owedApp = owedBreaks.count * 2 + owedBreaks.flatMap(\.ads).count * Self.adEventTypes.count
        let owedVerifications = owedBreaks.flatMap(\.events).count
        let owedBeaconTotal = owedBeacons.values.reduce(0, +)
        if isComplete {
            lines.append(
                "✔ \(owedBreaks.count) breaks, \(owedBreaks.flatMap(\.ads).count) ads: \(owedApp) app events, "
                    + "\(owedVerifications) verifications and \(owedBeaconTotal) server-side beacons, "
                    + "each owed and arrived exactly once")
        } else if owedBreaks.isEmpty {
            lines.append("✘ no break played")
        }
        lines += problems.map(\.text)
        return lines.joined(separator: "\n")
    }

    private func mark(_ got: Int, _ owed: Int) -> String { got == owed ? "✔" : "✘" }

    static func label(_ event: AdEvent) -> String {
        if let id = event.adData["breakId"], !adEventTypes.contains(event.type) {
            return "\(event.typeString)(\(id))"
        }
        if let ad = event.ad { return "\(event.typeString)(\(ad.adID))" }
        return event.typeString
    }

    static func seconds(_ milliseconds: Int) -> String {
        milliseconds % 1000 == 0 ? String(milliseconds / 1000) : String(format: "%.3f", Double(milliseconds) / 1000)
    }

    private func wrapped(_ prefix: String, _ words: [String], width: Int = 110) -> [String] {
        var lines: [String] = []
        var line = prefix
        for word in words {
            if line.count + word.count + 1 > width, line != prefix, !line.allSatisfy({ $0 == " " }) {
                lines.append(line)
                line = String(repeating: " ", count: 4)
            }
            line += (line.hasSuffix(" ") ? "" : " ") + word
        }
        lines.append(line)
        return lines
    }
}
