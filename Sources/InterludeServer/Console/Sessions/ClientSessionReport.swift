import Foundation
internal import InterludeFormatting
import InterludeVAST

/// `GET /api/console/sessions/{id}`: a client-side session's beacons in
/// arrival order against the ads of the document it was served, with what
/// was owed and not received (the rule of ``BeaconReport``, as `interlude
/// demo` checks it, applied to the playback the beacons themselves prove).
struct ClientSessionReport: Encodable, Sendable {
    struct AdSlot: Encodable, Sendable, Hashable {
        var id: String
        var title: String
        /// Seconds.
        var duration: Double
        /// 1-based place in its break.
        var position: Int
    }

    struct BreakSlot: Encodable, Sendable, Hashable {
        var id: String
        /// VMAP `timeOffset` (`start`, `00:00:30.000`, `end`).
        var timeOffset: String
        var ads: [AdSlot]
    }

    struct Expectation: Encodable, Sendable, Hashable {
        var ad: String
        var event: String
        var owed: Int
        var received: Int
    }

    var session: String
    /// `vmap`, `vast` or `wrapper/{depth}`; nil when this process served it nothing.
    var document: String?
    /// The document's URL as served (without the session parameter).
    var documentURL: String?
    var servedAt: String?
    var breaks: [BreakSlot]
    var beacons: [Beacon]
    /// Every owed beacon, in schedule order, with how many arrived.
    var expectations: [Expectation]
    var missing: [Expectation]
    var duplicated: [Expectation]
    /// Received beacons no ad of the document accounts for.
    var unexpected: [Expectation]
    var errors: Int

    /// Events that only a started ad sends.
    static let playbackEvents: Set<String> = [
        "impression", "creativeView", "start", "firstQuartile", "midpoint", "thirdQuartile", "complete", "skip",
        "pause", "resume", "mute", "unmute", "rewind", "fullscreen", "exitFullscreen", "click",
    ]
    static let progress = ["firstQuartile", "midpoint", "thirdQuartile", "complete"]

    init(
        session: String, served: SessionDocuments.Served?, beacons: [Beacon], decisioner: AdDecisioner
    ) {
        self.session = session
        self.beacons = beacons
        document = served?.route
        servedAt = served.map { ISO8601Timestamp.string(from: $0.servedAt) }
        breaks = served.map { Self.breaks(of: $0, session: session, decisioner: decisioner) } ?? []
        documentURL = served.map { served in
            let query = served.options.queryParameters.map { "\($0.0)=\(ServerLinks.encode($0.1))" }
            return "\(served.baseURL)/\(served.route)" + (query.isEmpty ? "" : "?" + query.joined(separator: "&"))
        }
        errors = beacons.filter { $0.event == "error" }.count
        let report = BeaconReport(
            expected: Self.milestones(breaks: breaks, beacons: beacons).flatMap(BeaconReport.owed(by:)),
            received: beacons)
        let owed = report.owed
        var seen: Set<BeaconReport.Key> = []
        expectations = report.expected.compactMap { key in
            guard seen.insert(key).inserted else { return nil }
            return Expectation(ad: key.ad, event: key.event, owed: owed[key] ?? 0, received: report.counts[key] ?? 0)
        }
        missing = expectations.filter { $0.received < $0.owed }
        duplicated = expectations.filter { $0.received > $0.owed }
        let known = Set(breaks.flatMap { $0.ads.map(\.id) } + breaks.map { "break-\($0.id)" })
        unexpected = report.order.filter { !known.contains($0.ad) }.map {
            Expectation(ad: $0.ad, event: $0.event, owed: 0, received: report.counts[$0] ?? 0)
        }
    }

    /// The ads of each break, decided again from the stored options (the
    /// decisioner is pure, so these are the ads that were served).
    static func breaks(of served: SessionDocuments.Served, session: String, decisioner: AdDecisioner) -> [BreakSlot] {
        let links = ServerLinks(baseURL: served.baseURL, session: session)
        if served.route == "vmap" {
            var options = served.options
            options.embed = true
            guard let vmap = try? decisioner.vmap(options, links: links) else { return [] }
            return vmap.adBreaks.map { adBreak in
                var ads: [AdSlot] = []
                if case .vastAdData(let vast) = adBreak.adSource?.content { ads = slots(vast) }
                return BreakSlot(id: adBreak.breakID ?? "", timeOffset: adBreak.timeOffset.formatted, ads: ads)
            }
        }
        guard let vast = try? decisioner.vast(served.options, links: links) else { return [] }
        return [BreakSlot(id: served.route, timeOffset: "start", ads: slots(vast))]
    }

    private static func slots(_ vast: VASTDocument) -> [AdSlot] {
        vast.ads.enumerated().map { index, ad in
            var title = ""
            if case .inLine(let inLine) = ad.content { title = inLine.adTitle ?? "" }
            return AdSlot(
                id: ad.id ?? "", title: title, duration: ad.linear?.duration?.seconds ?? 0, position: index + 1)
        }
    }

    /// The playback the beacons prove: an ad with any playback beacon
    /// started; its furthest quartile implies the ones before; a break
    /// started when any of its ads did (or it sent breakStart) and ended
    /// when it sent breakEnd, a later break started, or every started ad
    /// of it completed, was skipped or failed. The k-th use of an ad id
    /// (a creative in two breaks) counts as played once k beacons of it arrived.
    static func milestones(breaks: [BreakSlot], beacons: [Beacon]) -> [BeaconReport.Milestone] {
        var counts: [BeaconReport.Key: Int] = [:]
        var playbackCounts: [String: Int] = [:]
        for beacon in beacons {
            counts[BeaconReport.Key(ad: beacon.ad, event: beacon.event), default: 0] += 1
        }
        for (ad, events) in Dictionary(grouping: beacons, by: \.ad) {
            // How many separate plays an ad id had: the most of any one playback event.
            let byEvent = Dictionary(grouping: events.filter { playbackEvents.contains($0.event) }, by: \.event)
            playbackCounts[ad] = byEvent.values.map(\.count).max() ?? 0
        }
        var uses: [String: Int] = [:]
        var started: [Bool] = []
        var perBreak: [[BeaconReport.Milestone]] = []
        var endedByAds: [Bool] = []
        for adBreak in breaks {
            var milestones: [BeaconReport.Milestone] = []
            var anyStarted = false
            var allEnded = true
            for ad in adBreak.ads {
                uses[ad.id, default: 0] += 1
                let use = uses[ad.id]!
                guard (playbackCounts[ad.id] ?? 0) >= use else { continue }
                anyStarted = true
                milestones.append(.started(ad: ad.id))
                let reached = progress.lastIndex { (counts[BeaconReport.Key(ad: ad.id, event: $0)] ?? 0) >= use }
                if let reached {
                    for event in progress[...reached] {
                        switch event {
                        case "firstQuartile": milestones.append(.firstQuartile(ad: ad.id))
                        case "midpoint": milestones.append(.midpoint(ad: ad.id))
                        case "thirdQuartile": milestones.append(.thirdQuartile(ad: ad.id))
                        default: milestones.append(.complete(ad: ad.id))
                        }
                    }
                }
                let skipped = (counts[BeaconReport.Key(ad: ad.id, event: "skip")] ?? 0) >= use
                if skipped { milestones.append(.skipped(ad: ad.id)) }
                let failed = (counts[BeaconReport.Key(ad: ad.id, event: "error")] ?? 0) >= use
                if !(skipped || failed || reached == progress.count - 1) { allEnded = false }
            }
            let key = "break-\(adBreak.id)"
            let breakStarted = anyStarted || (counts[BeaconReport.Key(ad: key, event: "breakStart")] ?? 0) > 0
            started.append(breakStarted)
            endedByAds.append(anyStarted && allEnded)
            perBreak.append(milestones)
        }
        var result: [BeaconReport.Milestone] = []
        for (index, adBreak) in breaks.enumerated() where started[index] {
            let key = "break-\(adBreak.id)"
            let laterStarted = started[(index + 1)...].contains(true)
            let ended =
                (counts[BeaconReport.Key(ad: key, event: "breakEnd")] ?? 0) > 0 || laterStarted || endedByAds[index]
            // VMAP break tracking exists only for VMAP breaks.
            let isVMAPBreak = !adBreak.id.isEmpty && adBreak.id != "vast" && !adBreak.id.hasPrefix("wrapper/")
            if isVMAPBreak { result.append(.breakStarted(breakID: adBreak.id)) }
            result += perBreak[index]
            if isVMAPBreak, ended { result.append(.breakEnded(breakID: adBreak.id)) }
        }
        return result
    }
}
