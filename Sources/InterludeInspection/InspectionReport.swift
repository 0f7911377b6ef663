import Foundation
import InterludeVAST

/// The inspector's view of a document: what `--json` prints and what the
/// text tree is drawn from. Field names are the documented JSON schema
/// (README, "inspect --json").
package struct InspectionReport: Codable, Equatable {
    package struct Problem: Codable, Equatable {
        package var severity: String
        package var code: Int
        package var message: String
        package var line: Int?
        package var column: Int?
    }

    package struct VASTReport: Codable, Equatable {
        package var version: String
        /// `pod`, `buffet`, `pod+buffet` or `empty`.
        package var structure: String
        package var errorURLs: [String]
        package var ads: [AdReport]
    }

    package struct AdBreakReport: Codable, Equatable {
        package var timeOffset: String
        package var breakTypes: [String]
        package var breakId: String?
        package var repeatAfter: String?
        /// `vastAdData`, `adTagURI`, `customAdData` or `none`.
        package var source: String
        package var adTagURI: String?
        package var vast: VASTReport?
        package var trackingEvents: [String: Int]
        /// Every break tracking URL with its event.
        package var tracking: [TrackingReport]? = nil
        /// `AdSource` attributes.
        package var adSourceID: String? = nil
        package var allowMultipleAds: Bool? = nil
        package var followRedirects: Bool? = nil
        /// `templateType` of an `AdTagURI` or `CustomAdData`.
        package var templateType: String? = nil
        /// The raw XML of `CustomAdData`.
        package var customAdData: String? = nil
        package var extensions: [ExtensionReport]? = nil
    }

    package struct VMAPReport: Codable, Equatable {
        package var version: String
        package var adBreaks: [AdBreakReport]
        package var extensions: [ExtensionReport]? = nil
    }

    /// `vast`, `vmap`, or `invalid`.
    package var kind: String
    package var playable: Bool
    package var vast: VASTReport?
    package var vmap: VMAPReport?
    package var error: Problem?
    package var diagnostics: [Problem]
    /// URL mode: every fetch made, in order.
    package var hops: [HopReport]? = nil
    /// URL mode: the ads after wrapper resolution, merged with their wrappers.
    package var resolvedAds: [AdReport]? = nil
    /// URL mode: Error URLs the chain owed a ping, as "CODE URL" (not sent by inspect).
    package var errorPings: [String]? = nil

    package static func make(from data: Data, strict: Bool) -> InspectionReport {
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

    package func json() -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(self) else { return "{}" }
        return String(decoding: data, as: UTF8.self)
    }
}

extension InspectionReport.Problem {
    package init(_ diagnostic: VASTDiagnostic) {
        self.init(
            severity: diagnostic.severity.rawValue, code: diagnostic.code.rawValue, message: diagnostic.message,
            line: diagnostic.line, column: diagnostic.column)
    }
}

extension InspectionReport.VASTReport {
    package init(_ document: VASTDocument) {
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
    package init(_ document: VMAPDocument) {
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
