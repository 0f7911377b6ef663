import InterludeVAST

/// Each creative's pod VAST written once per position with stand-ins for
/// the stream and the ad ID, then spliced per decision: a pod's VAST differs
/// between viewers and breaks only in those two strings (the base URL is
/// already a stand-in), and writing XML was most of a decision's time.
final class PodVASTTemplates: Sendable {
    /// Stands in for the stream ID (the beacon session).
    static let sessionSentinel = "interlude-stream-5e1f"
    /// Stands in for the ad ID `{break}_ad{position}`.
    static let adSentinel = "interlude-ad-5e1f"

    struct Template: Sendable {
        var vast: String
        var beacons: [String: [String]]
    }

    private let cache = BoundedCache<String, Template>(limit: 4096)

    /// The VAST and per-event tracking URLs of `creative` at `position`, for
    /// `streamID` and `adID` (both URL- and XML-safe: a UUID and
    /// `[a-z0-9_-]`).
    func ad(
        _ creative: CatalogCreative, position: Int, streamID: String, adID: String, catalog: Catalog
    ) -> (vast: String, beacons: [String: [String]]) {
        let key = "\(creative.id)\n\(position)"
        let template =
            cache[key]
            ?? {
                let written = Self.write(
                    creative, position: position, session: Self.sessionSentinel, adID: Self.adSentinel,
                    catalog: catalog)
                let made = Template(vast: written.vast, beacons: written.beacons)
                cache.store(made, for: key)
                return made
            }()
        let splice = { (text: String) in
            text.replacingSentinel(Self.sessionSentinel, with: streamID).replacingSentinel(Self.adSentinel, with: adID)
        }
        return (splice(template.vast), template.beacons.mapValues { $0.map(splice) })
    }

    /// The VAST written directly (what a template splices back to).
    static func write(
        _ creative: CatalogCreative, position: Int, session: String, adID: String, catalog: Catalog
    ) -> (vast: String, beacons: [String: [String]]) {
        let links = ServerLinks(baseURL: DocumentTemplate.baseURLSentinel, session: session)
        let vastAd = AdDecisioner(catalog: catalog).inlineAd(
            creative, adID: adID, sequence: position, options: AdRequestOptions(), links: links)
        return (VASTWriter().write(VASTDocument(version: "4.2", ads: [vastAd])), PodDecisioner.beacons(of: vastAd))
    }
}

extension String {
    /// `self` with every `sentinel` replaced, by bytes (Foundation's search is slow on Linux).
    func replacingSentinel(_ sentinel: String, with replacement: String) -> String {
        let needle = Array(sentinel.utf8)
        let haystack = Array(utf8)
        guard let first = needle.first, haystack.count >= needle.count else { return self }
        var output: [UInt8] = []
        output.reserveCapacity(haystack.count)
        var index = 0
        while index < haystack.count {
            if haystack[index] == first, haystack.count - index >= needle.count,
                haystack[index..<index + needle.count].elementsEqual(needle)
            {
                output.append(contentsOf: replacement.utf8)
                index += needle.count
            } else {
                output.append(haystack[index])
                index += 1
            }
        }
        return String(decoding: output, as: UTF8.self)
    }
}
