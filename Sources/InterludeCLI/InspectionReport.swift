import Foundation
import InterludeVAST

/// The inspector's view of a document: what `--json` prints and what the
/// text tree is drawn from. Field names are the documented JSON schema
/// (README, "inspect --json").
struct InspectionReport: Codable, Equatable {
    struct Problem: Codable, Equatable {
        var severity: String
        var code: Int
        var message: String
        var line: Int?
        var column: Int?
    }

    struct VASTReport: Codable, Equatable {
        var version: String
        /// `pod`, `buffet`, `pod+buffet` or `empty`.
        var structure: String
        var errorURLs: [String]
        var ads: [AdReport]
    }

    struct AdBreakReport: Codable, Equatable {
        var timeOffset: String
        var breakTypes: [String]
        var breakId: String?
        var repeatAfter: String?
        /// `vastAdData`, `adTagURI`, `customAdData` or `none`.
        var source: String
        var adTagURI: String?
        var vast: VASTReport?
        var trackingEvents: [String: Int]
        /// Every break tracking URL with its event.
        var tracking: [TrackingReport]? = nil
        /// `AdSource` attributes.
        var adSourceID: String? = nil
        var allowMultipleAds: Bool? = nil
        var followRedirects: Bool? = nil
        /// `templateType` of an `AdTagURI` or `CustomAdData`.
        var templateType: String? = nil
        /// The raw XML of `CustomAdData`.
        var customAdData: String? = nil
        var extensions: [ExtensionReport]? = nil
    }

    struct VMAPReport: Codable, Equatable {
        var version: String
        var adBreaks: [AdBreakReport]
        var extensions: [ExtensionReport]? = nil
    }

    /// `vast`, `vmap`, or `invalid`.
    var kind: String
    var playable: Bool
    var vast: VASTReport?
    var vmap: VMAPReport?
    var error: Problem?
    var diagnostics: [Problem]
    /// URL mode: every fetch made, in order.
    var hops: [HopReport]? = nil
    /// URL mode: the ads after wrapper resolution, merged with their wrappers.
    var resolvedAds: [AdReport]? = nil
    /// URL mode: Error URLs the chain owed a ping, as "CODE URL" (not sent by inspect).
    var errorPings: [String]? = nil

    static func make(from data: Data, strict: Bool) -> InspectionReport {
        let parser = VASTParser(options: .init(mode: strict ? .strict : .lenient))
        do {
            let result = try parser.parse(data)
            let diagnostics = result.diagnostics.map(Problem.init)
            switch result.document {
            case .vast(let vast):
                let report = VASTReport(vast)
                return InspectionReport(
                    kind: "vast", playable: report.ads.contains(where: \.playable), vast: report, vmap: nil,
                    error: nil, diagnostics: diagnostics)
            case .vmap(let vmap):
                let report = VMAPReport(vmap)
                let playable = report.adBreaks.contains { adBreak in
                    adBreak.source == "adTagURI" || (adBreak.vast?.ads.contains(where: \.playable) ?? false)
                }
                return InspectionReport(
                    kind: "vmap", playable: playable, vast: nil, vmap: report, error: nil, diagnostics: diagnostics)
            }
        } catch {
            return InspectionReport(
                kind: "invalid", playable: false, vast: nil, vmap: nil,
                error: Problem(
                    severity: "error", code: error.code.rawValue, message: error.message, line: error.line,
                    column: error.column),
                diagnostics: error.diagnostics.dropFirst().map(Problem.init))
        }
    }

    func json() -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(self) else { return "{}" }
        return String(decoding: data, as: UTF8.self)
    }
}

extension InspectionReport.Problem {
    init(_ diagnostic: VASTDiagnostic) {
        self.init(
            severity: diagnostic.severity.rawValue, code: diagnostic.code.rawValue, message: diagnostic.message,
            line: diagnostic.line, column: diagnostic.column)
    }
}

extension InspectionReport.VASTReport {
    init(_ document: VASTDocument) {
        let sequenced = document.ads.filter { $0.sequence != nil }.count
        let structure: String
        switch (sequenced, document.ads.count - sequenced) {
        case (0, 0): structure = "empty"
        case (_, 0): structure = "pod"
        case (0, _): structure = "buffet"
        default: structure = "pod+buffet"
        }
        self.init(
            version: document.version, structure: structure, errorURLs: document.errors,
            ads: document.ads.map(InspectionReport.AdReport.init))
    }
}

extension InspectionReport.VMAPReport {
    init(_ document: VMAPDocument) {
        self.init(
            version: document.version,
            adBreaks: document.adBreaks.map { adBreak in
                var tracking: [String: Int] = [:]
                for event in adBreak.trackingEvents { tracking[event.event.rawValue, default: 0] += 1 }
                var source = "none"
                var adTagURI: String?
                var vast: InspectionReport.VASTReport?
                var templateType: String?
                var customAdData: String?
                switch adBreak.adSource?.content {
                case .vastAdData(let document):
                    source = "vastAdData"
                    vast = InspectionReport.VASTReport(document)
                case .adTagURI(let template, let url):
                    source = "adTagURI"
                    adTagURI = url
                    templateType = template
                case .customAdData(let template, let rawXML):
                    source = "customAdData"
                    templateType = template
                    customAdData = rawXML
                case nil:
                    break
                }
                return InspectionReport.AdBreakReport(
                    timeOffset: adBreak.timeOffset.formatted, breakTypes: adBreak.breakTypes.map(\.rawValue),
                    breakId: adBreak.breakID, repeatAfter: adBreak.repeatAfter?.formatted, source: source,
                    adTagURI: adTagURI, vast: vast, trackingEvents: tracking,
                    tracking: nonEmpty(
                        adBreak.trackingEvents.map {
                            InspectionReport.TrackingReport(
                                event: $0.event.rawValue, url: $0.url, offset: nil, offsetSeconds: nil)
                        }),
                    adSourceID: adBreak.adSource?.id, allowMultipleAds: adBreak.adSource?.allowMultipleAds,
                    followRedirects: adBreak.adSource?.followRedirects, templateType: templateType,
                    customAdData: customAdData,
                    extensions: nonEmpty(adBreak.extensions.map(InspectionReport.ExtensionReport.init)))
            },
            extensions: nonEmpty(document.extensions.map(InspectionReport.ExtensionReport.init)))
    }
}
