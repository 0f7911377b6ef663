import Foundation
import Interlude
import InterludeVAST

extension InspectionReport {
    /// One fetch of a wrapper chain.
    package struct HopReport: Codable, Equatable {
        package var url: String
        package var depth: Int
        package var seconds: Double
        package var status: Int?
        package var bytes: Int
        package var failure: String?
        /// Where HTTP redirects led, when not `url`.
        package var redirectedTo: String? = nil
    }

    /// The report for a fetched tag: every hop, then the merged ads (or the VMAP schedule).
    package static func make(from resolution: AdResolution) -> InspectionReport {
        var report = InspectionReport(kind: "vast", playable: false, vast: nil, vmap: nil, error: nil, diagnostics: [])
        report.hops = resolution.hops.map {
            HopReport(
                url: $0.url.absoluteString, depth: $0.depth, seconds: $0.duration, status: $0.statusCode,
                bytes: $0.bytes, failure: $0.failure, redirectedTo: $0.redirectedTo?.absoluteString)
        }
        if let vmap = resolution.vmap {
            let vmapReport = VMAPReport(vmap)
            report.kind = "vmap"
            report.vmap = vmapReport
            report.playable = vmapReport.adBreaks.contains { adBreak in
                adBreak.source == "adTagURI" || (adBreak.vast?.ads.contains(where: \.playable) ?? false)
            }
        } else if let error = resolution.error {
            report.kind = "invalid"
            report.error = Problem(
                severity: "error", code: error.code.rawValue, message: error.message ?? error.description)
        } else {
            report.resolvedAds = resolution.ads.map(AdReport.init(resolved:))
            report.playable = report.resolvedAds?.contains(where: \.playable) ?? false
        }
        report.errorPings = resolution.errorPings.map { "\($0.code.rawValue) \($0.url)" }
        return report
    }

    package func hopLines() -> [String] {
        guard let hops, !hops.isEmpty else { return [] }
        var lines = ["wrapper chain (\(hops.count) fetch\(hops.count == 1 ? "" : "es")):"]
        for hop in hops {
            let status = hop.status.map(String.init) ?? "---"
            let milliseconds = Int((hop.seconds * 1000).rounded())
            var line = "  [\(hop.depth)] \(status) \(milliseconds) ms \(hop.bytes) B \(hop.url)"
            if let failure = hop.failure { line += " — \(failure)" }
            lines.append(line)
            if let redirectedTo = hop.redirectedTo { lines.append("      redirected to \(redirectedTo)") }
        }
        return lines
    }
}

extension InspectionReport.AdReport {
    /// The merged view of an inline ad and its wrappers: counts, impressions
    /// and error URLs are the whole chain's (all of them fire); `creatives`
    /// are the inline ad's, and `wrappers` lists each wrapper with its own.
    package init(resolved: ResolvedAd) {
        self.init(resolved.ad)
        var tracking: [String: Int] = [:]
        for event in resolved.linearTrackingEvents { tracking[event.event.rawValue, default: 0] += 1 }
        trackingEvents = tracking
        impressions = resolved.impressions.count
        impressionURLs = nonEmpty(resolved.impressions.map { InspectionReport.URLReport(id: $0.id, url: $0.url) })
        errorURLs = resolved.errorURLs
        clickThrough = resolved.clickThrough
        uiHideable = resolved.uiHideable
        wrapperChain = resolved.wrappers.map { hop in hop.ad.id ?? "(no id)" }
        wrappers = nonEmpty(resolved.wrappers.map { InspectionReport.AdReport($0.ad) })
    }
}
