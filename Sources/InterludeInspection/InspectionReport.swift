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

    package struct MediaFileReport: Codable, Equatable {
        package var url: String
        package var type: String?
        package var delivery: String?
        package var width: Int?
        package var height: Int?
        package var bitrate: Int?
    }

    package struct AdReport: Codable, Equatable {
        package var id: String?
        package var sequence: Int?
        /// `inline` or `wrapper`.
        package var kind: String
        package var adSystem: String?
        package var title: String?
        /// Seconds.
        package var duration: Double?
        package var skipOffset: String?
        package var uiHideable: Bool?
        package var vastAdTagURI: String?
        package var mediaFiles: [MediaFileReport]
        package var clickThrough: String?
        package var impressions: Int
        /// Tracking URL counts per event type (linear, non-linear and companion).
        package var trackingEvents: [String: Int]
        package var errorURLs: [String]
        package var playable: Bool
        /// Ids of the wrappers that led to this ad, outermost first (URL mode).
        package var wrapperChain: [String]? = nil
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
    }

    package struct VMAPReport: Codable, Equatable {
        package var version: String
        package var adBreaks: [AdBreakReport]
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

extension InspectionReport.AdReport {
    package init(_ ad: Ad) {
        let linear = ad.linear
        var tracking: [String: Int] = [:]
        for creative in ad.creatives {
            switch creative.kind {
            case .linear(let linear):
                for event in linear.trackingEvents { tracking[event.event.rawValue, default: 0] += 1 }
            case .nonLinearAds(let ads):
                for event in ads.trackingEvents { tracking[event.event.rawValue, default: 0] += 1 }
            case .companionAds(let ads):
                for event in ads.companions.flatMap(\.trackingEvents) {
                    tracking[event.event.rawValue, default: 0] += 1
                }
            case nil:
                break
            }
        }
        let mediaFiles = (linear?.mediaFiles ?? []).map {
            InspectionReport.MediaFileReport(
                url: $0.url, type: $0.type, delivery: $0.delivery?.rawValue, width: $0.width, height: $0.height,
                bitrate: $0.bitrate ?? $0.maxBitrate)
        }
        switch ad.content {
        case .inLine(let inLine):
            let hasNonLinear = ad.creatives.contains { !($0.nonLinearAds?.nonLinears.isEmpty ?? true) }
            self.init(
                id: ad.id, sequence: ad.sequence, kind: "inline", adSystem: inLine.adSystem?.name,
                title: inLine.adTitle, duration: linear?.duration?.seconds, skipOffset: linear?.skipOffset?.formatted,
                uiHideable: ad.uiHideable, vastAdTagURI: nil, mediaFiles: mediaFiles,
                clickThrough: linear?.videoClicks?.clickThrough?.url, impressions: inLine.impressions.count,
                trackingEvents: tracking, errorURLs: inLine.errors,
                playable: !mediaFiles.isEmpty || hasNonLinear)
        case .wrapper(let wrapper):
            self.init(
                id: ad.id, sequence: ad.sequence, kind: "wrapper", adSystem: wrapper.adSystem?.name, title: nil,
                duration: nil, skipOffset: linear?.skipOffset?.formatted, uiHideable: ad.uiHideable,
                vastAdTagURI: wrapper.vastAdTagURI, mediaFiles: mediaFiles,
                clickThrough: linear?.videoClicks?.clickThrough?.url, impressions: wrapper.impressions.count,
                trackingEvents: tracking, errorURLs: wrapper.errors, playable: wrapper.vastAdTagURI != nil)
        }
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
                switch adBreak.adSource?.content {
                case .vastAdData(let document):
                    source = "vastAdData"
                    vast = InspectionReport.VASTReport(document)
                case .adTagURI(_, let url):
                    source = "adTagURI"
                    adTagURI = url
                case .customAdData:
                    source = "customAdData"
                case nil:
                    break
                }
                return InspectionReport.AdBreakReport(
                    timeOffset: adBreak.timeOffset.formatted, breakTypes: adBreak.breakTypes.map(\.rawValue),
                    breakId: adBreak.breakID, repeatAfter: adBreak.repeatAfter?.formatted, source: source,
                    adTagURI: adTagURI, vast: vast, trackingEvents: tracking)
            })
    }
}
