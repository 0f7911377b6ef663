import Foundation
import InterludeVAST

/// Fills one pod from the catalog's pod rules. Pure: the same stream, break,
/// duration and catalog give the same decision in every process, which is
/// what lets two servers decide a break without talking to each other (the
/// store keeps whichever writes first, and both wrote the same).
public struct PodDecisioner: Sendable {
    /// Creatives and pod rules.
    public var catalog: Catalog
    /// Milliseconds each creative plays for in a pod (the conditioned media's
    /// duration); nil leaves the creative out of pods.
    public var adDuration: @Sendable (CatalogCreative) -> Int?
    /// Each creative's VAST, written once and spliced per ad.
    let templates = PodVASTTemplates()

    public init(catalog: Catalog, adDuration: @escaping @Sendable (CatalogCreative) -> Int? = Self.catalogDuration) {
        self.catalog = catalog
        self.adDuration = adDuration
    }

    /// The catalog's own duration, in milliseconds.
    public static let catalogDuration: @Sendable (CatalogCreative) -> Int? = { Int(($0.duration * 1000).rounded()) }

    /// Most creatives searched exhaustively for the best fill (2^16 subsets);
    /// beyond it, first fit in rotation order.
    static let exhaustiveLimit = 16

    /// Where slate goes in a pod.
    public enum Slate: Sendable, Hashable {
        /// After the ads, to `requestedDuration` (live `fill`).
        case toRequestedDuration
        /// Only an empty pod is slate, all of it (live `content`: the
        /// stitcher returns to content after the last ad).
        case onlyWhenEmpty
        /// Never: the pod is its ads, possibly none (VOD).
        case never
    }

    /// Decides `breakID` of `stream` for a pod of `requestedDuration` ms.
    public func decide(
        stream: PodStream, breakID: String, requestedDuration: Int, slate: Slate, at now: Date
    ) -> PodBreakDecision {
        let digest = PodEventID.breakDigest(streamID: stream.id, breakID: breakID)
        let chosen = choose(digest: digest, requestedDuration: requestedDuration)
        var ads: [PodAd] = []
        var offset = 0
        for (index, pick) in chosen.enumerated() {
            let ad = makeAd(
                pick.creative, duration: pick.duration, position: index + 1, offset: offset, stream: stream,
                breakID: breakID, digest: digest)
            ads.append(ad)
            offset += pick.duration
        }
        let duration =
            switch slate {
            case .toRequestedDuration: requestedDuration
            case .onlyWhenEmpty: ads.isEmpty ? requestedDuration : offset
            case .never: offset
            }
        return PodBreakDecision(
            streamID: stream.id, breakID: breakID, breakDigest: digest, requestedDuration: requestedDuration,
            duration: duration,
            slateDuration: duration - offset, ads: ads, targeting: stream.targeting, decidedAt: now)
    }

    /// The creatives of the pod in play order: the most ad time that fits in
    /// `requestedDuration` with at most `maxAds` ads and no creative twice;
    /// ties go to the creatives earliest in a rotation that starts at a
    /// place chosen by the break digest (so viewers and breaks vary).
    func choose(digest: String, requestedDuration: Int) -> [(creative: CatalogCreative, duration: Int)] {
        let rules = catalog.podServing.podRules
        let eligible = rules.eligibleCreatives(in: catalog).compactMap { creative -> (CatalogCreative, Int)? in
            guard let duration = adDuration(creative), duration > 0, duration <= requestedDuration else { return nil }
            return (creative, duration)
        }
        guard !eligible.isEmpty else { return [] }
        let start = Int(UInt64(digest.prefix(8), radix: 16).map { $0 % UInt64(eligible.count) } ?? 0)
        let rotated = Array(eligible[start...] + eligible[..<start])
        let maxAds = rules.maxAds
        guard rotated.count <= Self.exhaustiveLimit else {
            var picked: [(CatalogCreative, Int)] = []
            var total = 0
            for candidate in rotated where picked.count < maxAds && total + candidate.1 <= requestedDuration {
                picked.append(candidate)
                total += candidate.1
            }
            return picked.map { (creative: $0.0, duration: $0.1) }
        }
        var bestMask = 0
        var bestTotal = 0
        for mask in 1..<(1 << rotated.count) {
            guard mask.nonzeroBitCount <= maxAds else { continue }
            var total = 0
            for index in rotated.indices where mask & (1 << index) != 0 { total += rotated[index].1 }
            guard total <= requestedDuration else { continue }
            if total > bestTotal || (total == bestTotal && Self.comesFirst(mask, bestMask)) {
                bestTotal = total
                bestMask = mask
            }
        }
        return rotated.indices.filter { bestMask & (1 << $0) != 0 }.map {
            (creative: rotated[$0].0, duration: rotated[$0].1)
        }
    }

    /// True when the indices in `lhs` are lexicographically before those in
    /// `rhs` (earliest differing rotation index wins).
    private static func comesFirst(_ lhs: Int, _ rhs: Int) -> Bool {
        let difference = lhs ^ rhs
        guard difference != 0 else { return false }
        let lowest = difference & -difference
        return lhs & lowest != 0
    }

    private func makeAd(
        _ creative: CatalogCreative, duration: Int, position: Int, offset: Int, stream: PodStream, breakID: String,
        digest: String
    ) -> PodAd {
        let adID = "\(breakID)_ad\(position)"
        let written = templates.ad(creative, position: position, streamID: stream.id, adID: adID, catalog: catalog)
        let events = PodEventType.allCases.map { type in
            PodAdEvent(
                type: type,
                id: PodEventID.make(streamID: stream.id, breakDigest: digest, position: position, type: type),
                offset: type.offset(inAdOf: duration))
        }
        return PodAd(
            position: position, adID: adID, creativeID: creative.id, title: creative.title,
            advertiser: creative.advertiser, clickThrough: creative.clickThrough, duration: duration, offset: offset,
            events: events, vast: written.vast, beacons: written.beacons)
    }

    /// The URLs server-side beaconing fires per event, as IMA does for a
    /// stitched ad: impressions and `creativeView` with `start`, then each
    /// quartile's and `complete`'s tracking.
    static func beacons(of ad: Ad) -> [String: [String]] {
        guard case .inLine(let inLine) = ad.content else { return [:] }
        var tracking: [TrackingEventType: [String]] = [:]
        for creative in inLine.creatives {
            guard case .linear(let linear) = creative.kind else { continue }
            for event in linear.trackingEvents { tracking[event.event, default: []].append(event.url) }
        }
        var beacons: [String: [String]] = [:]
        beacons[PodEventType.start.rawValue] =
            inLine.impressions.map(\.url) + (tracking[.creativeView] ?? []) + (tracking[.start] ?? [])
        beacons[PodEventType.firstQuartile.rawValue] = tracking[.firstQuartile] ?? []
        beacons[PodEventType.midpoint.rawValue] = tracking[.midpoint] ?? []
        beacons[PodEventType.thirdQuartile.rawValue] = tracking[.thirdQuartile] ?? []
        beacons[PodEventType.complete.rawValue] = tracking[.complete] ?? []
        return beacons
    }
}
