import Foundation
import InterludeHLS

/// Picks the variant stream of a multivariant playlist to play.
enum HLSVariantSelector {
    /// The variant `choice` names among `playlist`'s variants (URIs
    /// resolved against `url`), or why there is none.
    static func choose(
        _ choice: HLSStreamDisplay.VariantChoice, from playlist: MultivariantPlaylist, url: URL
    ) -> Result<HLSStreamDisplay.Variant, HLSStreamError> {
        let variants = playlist.variants
        var resolved: [(index: Int, variant: VariantStream, url: URL)] = []
        for (index, variant) in variants.enumerated() {
            if let absolute = URL(string: variant.uri, relativeTo: url)?.absoluteURL, absolute.isHTTPOrHTTPS {
                resolved.append((index, variant, absolute))
            }
        }
        guard !resolved.isEmpty else {
            let reason = variants.isEmpty ? "lists no variant streams" : "lists no variant with an http(s) URI"
            return .failure(
                HLSStreamError(.noVariant, "the multivariant playlist \(url.absoluteString) \(reason)", url: url))
        }
        let picked: (index: Int, variant: VariantStream, url: URL)?
        switch choice {
        case .index(let wanted):
            picked = resolved.first { $0.index == wanted }
            guard picked != nil else {
                return .failure(
                    HLSStreamError(
                        .noVariant,
                        "the multivariant playlist \(url.absoluteString) has no usable variant at index \(wanted) (it has \(variants.count))",
                        url: url))
            }
        case .uri(let wanted):
            picked = resolved.first { $0.variant.uri == wanted || $0.url.absoluteString == wanted }
            guard picked != nil else {
                return .failure(
                    HLSStreamError(
                        .noVariant, "the multivariant playlist \(url.absoluteString) has no variant \"\(wanted)\"",
                        url: url))
            }
        case .highestBandwidth(let maximumBandwidth, let maximumResolution):
            let fitting = resolved.filter { candidate in
                let bandwidth = candidate.variant.bandwidth ?? 0
                if let maximumBandwidth, bandwidth > maximumBandwidth { return false }
                if let maximumResolution, let resolution = candidate.variant.resolution,
                    resolution.width > maximumResolution.width || resolution.height > maximumResolution.height
                {
                    return false
                }
                return true
            }
            // The first of equals wins: the playlist's own order breaks ties.
            if let best = fitting.max(by: { ($0.variant.bandwidth ?? 0) < ($1.variant.bandwidth ?? 0) }) {
                picked = fitting.first { ($0.variant.bandwidth ?? 0) == (best.variant.bandwidth ?? 0) }
            } else {
                picked = resolved.min { ($0.variant.bandwidth ?? 0) < ($1.variant.bandwidth ?? 0) }
            }
        }
        guard let picked else {
            return .failure(HLSStreamError(.noVariant, "no variant of \(url.absoluteString) fits", url: url))
        }
        return .success(
            HLSStreamDisplay.Variant(
                index: picked.index, url: picked.url, bandwidth: picked.variant.bandwidth,
                averageBandwidth: picked.variant.averageBandwidth, resolution: picked.variant.resolution,
                codecs: picked.variant.codecs))
    }
}
