import Foundation
internal import InterludeFormatting

extension InspectionReport {
    /// The report as an indented tree for people; `verbose` adds every URL
    /// and attribute under each ad (what the JSON holds).
    package func text(verbose: Bool = false) -> String {
        var lines: [String] = hopLines()
        if let resolvedAds {
            lines.append("\(resolvedAds.count) ad(s) after wrapper resolution:")
            lines.append(contentsOf: InspectionReport.VASTReport.adLines(resolvedAds, indent: "  ", verbose: verbose))
        } else if let vast {
            lines.append("VAST \(vast.version.isEmpty ? "(no version)" : vast.version): \(vast.structureSummary)")
            lines.append(contentsOf: vast.treeLines(indent: "  ", verbose: verbose))
        } else if let vmap {
            lines.append(
                "VMAP \(vmap.version.isEmpty ? "(no version)" : vmap.version): \(vmap.adBreaks.count) ad break(s)")
            for (index, adBreak) in vmap.adBreaks.enumerated() {
                var header =
                    "  break \(index + 1) at \(adBreak.timeOffset) [\(adBreak.breakTypes.joined(separator: ","))]"
                if let id = adBreak.breakId { header += " id \(id)" }
                if let repeatAfter = adBreak.repeatAfter { header += " repeats every \(repeatAfter)" }
                lines.append(header)
                switch adBreak.source {
                case "adTagURI": lines.append("    source: ad tag \(adBreak.adTagURI ?? "")")
                case "vastAdData":
                    if let vast = adBreak.vast {
                        lines.append("    source: embedded VAST \(vast.version): \(vast.structureSummary)")
                        lines.append(contentsOf: vast.treeLines(indent: "      ", verbose: verbose))
                    }
                case "customAdData": lines.append("    source: custom ad data")
                default: lines.append("    source: none")
                }
                if !adBreak.trackingEvents.isEmpty {
                    lines.append("    break tracking: \(countsText(adBreak.trackingEvents))")
                }
                if verbose { lines.append(contentsOf: adBreak.detailLines(indent: "    ")) }
            }
            if verbose {
                for ext in vmap.extensions ?? [] { lines.append(contentsOf: ext.lines(indent: "  ")) }
            }
        } else {
            lines.append("not a usable ad document")
        }
        if let errorPings, !errorPings.isEmpty {
            lines.append("error URLs owed a ping (code URL):")
            lines.append(contentsOf: errorPings.map { "  " + $0 })
        }
        if let error {
            lines.append("")
            lines.append("error \(error.code): \(error.message)\(locationText(error.line, error.column))")
        }
        if !diagnostics.isEmpty {
            lines.append("")
            lines.append("\(diagnostics.count) finding(s):")
            for problem in diagnostics {
                lines.append(
                    "  \(problem.severity) \(problem.code): \(problem.message)\(locationText(problem.line, problem.column))"
                )
            }
        }
        lines.append("")
        lines.append(playable ? "result: playable" : "result: no playable ad")
        return lines.joined(separator: "\n")
    }
}

private func locationText(_ line: Int?, _ column: Int?) -> String {
    guard let line else { return "" }
    return " (line \(line)\(column.map { ", column \($0)" } ?? ""))"
}

private func countsText(_ counts: [String: Int]) -> String {
    counts.keys.sorted().map { "\($0) ×\(counts[$0]!)" }.joined(separator: ", ")
}

extension InspectionReport.VASTReport {
    package var structureSummary: String {
        let count = ads.count
        let noun = count == 1 ? "ad" : "ads"
        switch structure {
        case "pod": return "pod of \(count) \(noun)"
        case "buffet": return "buffet of \(count) \(noun)"
        case "pod+buffet":
            let podSize = ads.filter { $0.sequence != nil }.count
            return "pod of \(podSize) and buffet of \(count - podSize)"
        default: return errorURLs.isEmpty ? "no ads" : "no ads (\(errorURLs.count) error URL(s))"
        }
    }

    package func treeLines(indent: String, verbose: Bool = false) -> [String] {
        var lines: [String] = []
        for url in errorURLs { lines.append(indent + "error URL: \(url)") }
        return lines + Self.adLines(ads, indent: indent, verbose: verbose)
    }

    package static func adLines(_ ads: [InspectionReport.AdReport], indent: String, verbose: Bool = false) -> [String] {
        var lines: [String] = []
        for ad in ads {
            var header = indent + "ad \(ad.id ?? "(no id)")"
            if let sequence = ad.sequence { header += " #\(sequence)" }
            header += " (\(ad.kind))"
            lines.append(header)
            let inner = indent + "  "
            if let system = ad.adSystem { lines.append(inner + "system: \(system)") }
            if let title = ad.title { lines.append(inner + "title: \(title)") }
            if let duration = ad.duration {
                lines.append(inner + "duration: \(DecimalText.string(duration, .upTo(3))) s")
            }
            lines.append(inner + "skip offset: \(ad.skipOffset ?? "not skippable")")
            lines.append(inner + "UI hideable: \(ad.uiHideable.map { $0 ? "yes" : "no" } ?? "not stated")")
            if let uri = ad.vastAdTagURI { lines.append(inner + "wraps: \(uri)") }
            if let chain = ad.wrapperChain, !chain.isEmpty {
                lines.append(inner + "via wrappers: \(chain.joined(separator: " → "))")
            }
            // The summary; --verbose lists every attribute under the creative.
            for file in verbose ? [] : ad.mediaFiles {
                var description = inner + "media: \(file.type ?? "?")"
                if let width = file.width, let height = file.height { description += " \(width)x\(height)" }
                if let bitrate = file.bitrate ?? file.maxBitrate { description += " \(bitrate) kbps" }
                description += " \(file.url)"
                lines.append(description)
            }
            if let click = ad.clickThrough { lines.append(inner + "click-through: \(click)") }
            lines.append(inner + "impressions: \(ad.impressions)")
            if !ad.trackingEvents.isEmpty { lines.append(inner + "tracking: \(countsText(ad.trackingEvents))") }
            for url in ad.errorURLs { lines.append(inner + "error URL: \(url)") }
            if !ad.playable, ad.kind == "inline" {
                lines.append(
                    inner
                        + (ad.mediaFiles.isEmpty
                            ? "not playable: no media file"
                            : "not playable: no media file of a type the SDK plays (VAST error 403)"))
            } else if !ad.playable {
                lines.append(inner + "not playable: no media file")
            }
            guard verbose else { continue }
            lines.append(contentsOf: ad.detailLines(indent: inner))
            for (index, wrapper) in (ad.wrappers ?? []).enumerated() {
                lines.append(inner + "wrapper \(index + 1) of the chain:")
                lines.append(contentsOf: adLines([wrapper], indent: inner + "  ", verbose: true))
            }
        }
        return lines
    }
}
