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
        var vast: SplicedText
        var beacons: [String: [SplicedText]]
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
                let split = { (text: String) in
                    SplicedText(text, standIns: [Self.sessionSentinel, Self.adSentinel])
                }
                let made = Template(vast: split(written.vast), beacons: written.beacons.mapValues { $0.map(split) })
                cache.store(made, for: key)
                return made
            }()
        let values = [streamID, adID]
        return (template.vast.filled(with: values), template.beacons.mapValues { $0.map { $0.filled(with: values) } })
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

/// A text cut once at its stand-ins, so each fill is one pass of copies
/// (splicing by search took a tenth of a live reload that met a new break).
struct SplicedText: Sendable {
    /// The text between stand-ins: one more than ``holes``.
    private let literals: [[UInt8]]
    /// Which stand-in (index into the fill's values) sits after each literal but the last.
    private let holes: [Int]

    /// `text` cut at every occurrence of any of `standIns` (non-empty, none a prefix of another).
    init(_ text: String, standIns: [String]) {
        let haystack = Array(text.utf8)
        let needles = standIns.map { Array($0.utf8) }
        var literals: [[UInt8]] = []
        var holes: [Int] = []
        var literalStart = 0
        var index = 0
        search: while index < haystack.count {
            for (which, needle) in needles.enumerated()
            where !needle.isEmpty && haystack[index] == needle[0] && haystack.count - index >= needle.count
                && haystack[index..<index + needle.count].elementsEqual(needle)
            {
                literals.append(Array(haystack[literalStart..<index]))
                holes.append(which)
                index += needle.count
                literalStart = index
                continue search
            }
            index += 1
        }
        literals.append(Array(haystack[literalStart...]))
        self.literals = literals
        self.holes = holes
    }

    /// The text with stand-in `i` replaced by `values[i]`.
    func filled(with values: [String]) -> String {
        var size = literals.reduce(0) { $0 + $1.count }
        for hole in holes { size += values[hole].utf8.count }
        var output: [UInt8] = []
        output.reserveCapacity(size)
        for (index, literal) in literals.enumerated() {
            output.append(contentsOf: literal)
            if index < holes.count { output.append(contentsOf: values[holes[index]].utf8) }
        }
        return String(decoding: output, as: UTF8.self)
    }
}
