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

    struct MediaFileReport: Codable, Equatable {
        var url: String
        var type: String?
        var delivery: String?
        var width: Int?
        var height: Int?
        var bitrate: Int?
    }

    struct AdReport: Codable, Equatable {
        var id: String?
        var sequence: Int?
        /// `inline` or `wrapper`.
        var kind: String
        var adSystem: String?
        var title: String?
        /// Seconds.
        var duration: Double?
        var skipOffset: String?
        var uiHideable: Bool?
        var vastAdTagURI: String?
        var mediaFiles: [MediaFileReport]
        var clickThrough: String?
        var impressions: Int
        /// Tracking URL counts per event type (linear, non-linear and companion).
        var trackingEvents: [String: Int]
        var errorURLs: [String]
        var playable: Bool
        /// Ids of the wrappers that led to this ad, outermost first (URL mode).
        var wrapperChain: [String]? = nil
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
    }

    struct VMAPReport: Codable, Equatable {
        var version: String
        var adBreaks: [AdBreakReport]
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

extension InspectionReport.AdReport {
    init(_ ad: Ad) {
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
    init(_ document: VMAPDocument) {
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
