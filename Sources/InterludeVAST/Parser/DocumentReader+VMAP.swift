import Foundation

extension DocumentReader {
    mutating func readVMAPRoot(_ root: Int) throws(VASTError) -> VMAPDocument {
        let version = attribute("version", root)?.trimmingXMLWhitespace() ?? ""
        if version.isEmpty {
            violation("<VMAP> has no version attribute", at: root, code: .vmapSchemaError)
        } else if version.split(separator: ".").first != "1" {
            throw error(.vmapUnsupportedVersion, "VMAP version \(version) is not supported (1.0 is)", at: root)
        }
        var document = VMAPDocument(version: version)
        for child in tree.childIndices(of: root) {
            let child = Int(child)
            switch name(child) {
            case "AdBreak":
                if let adBreak = try readAdBreak(child) { document.adBreaks.append(adBreak) }
            case "Extensions":
                document.extensions.append(contentsOf: extensions(child))
            default:
                break
            }
        }
        return document
    }

    /// A `timeOffset`: as VMAP writes it, or read as a violation when it
    /// says plainly what it means (`Start`, `END`, bare seconds, unpadded
    /// `H:M:S`), since dropping the break loses its ads.
    mutating func breakTimeOffset(_ raw: String, at element: Int) -> BreakTimeOffset? {
        let trimmed = raw.trimmingXMLWhitespace()
        if let offset = BreakTimeOffset(parsing: trimmed) { return offset }
        let lowered = trimmed.lowercased()
        if lowered == "start" || lowered == "end" {
            violation(
                "<AdBreak> timeOffset \"\(raw)\" is spelt \(lowered) in VMAP; read as it", at: element,
                code: .vmapSchemaError)
            return lowered == "start" ? .start : .end
        }
        guard let time = Self.looseTime(trimmed) else { return nil }
        violation(
            "<AdBreak> timeOffset \"\(raw)\" is not HH:MM:SS(.mmm); read as \(formatNumber(time.seconds)) s",
            at: element, code: .vmapSchemaError)
        return .time(time)
    }

    /// A VAST written inside `<VASTAdData>` as text (CDATA) rather than as
    /// elements, as some servers write it: VMAP 1.0 wants the elements, so
    /// this is a violation, but the break keeps its ads. Nil when the text
    /// is no VAST; a VAST that does not read is a violation too.
    mutating func readVASTText(_ element: Int) -> VASTDocument? {
        let embedded = text(element).trimmingXMLWhitespace()
        guard embedded.hasPrefix("<VAST") || embedded.hasPrefix("<?xml") else { return nil }
        do {
            let result = try VASTParser(options: .init(mode: mode)).parseVAST(Data(embedded.utf8))
            violation(
                "<VASTAdData> holds its VAST as text, not as elements; read as it", at: element,
                code: .vmapAdResponseExtractionError)
            for diagnostic in result.diagnostics {
                violation("embedded VAST: \(diagnostic.message)", at: element, code: diagnostic.code)
            }
            return result.document
        } catch {
            violation("embedded VAST: \(error.message)", at: element, code: .vmapAdResponseExtractionError)
            return nil
        }
    }

    mutating func readAdBreak(_ element: Int) throws(VASTError) -> AdBreak? {
        guard let rawOffset = attribute("timeOffset", element) else {
            violation("<AdBreak> has no timeOffset; dropped", at: element, code: .vmapSchemaError)
            return nil
        }
        guard let timeOffset = breakTimeOffset(rawOffset, at: element) else {
            violation(
                "<AdBreak> timeOffset \"\(rawOffset)\" is not start, end, HH:MM:SS, n% or #n; dropped",
                at: element, code: .vmapSchemaError)
            return nil
        }
        var breakTypes: [AdBreak.BreakType] = []
        if let rawTypes = attribute("breakType", element) {
            breakTypes = rawTypes.split(separator: ",")
                .map { String($0).trimmingXMLWhitespace() }
                .filter { !$0.isEmpty }
                .map(AdBreak.BreakType.init(rawValue:))
        }
        if breakTypes.isEmpty { violation("<AdBreak> has no breakType", at: element, code: .vmapSchemaError) }
        var adBreak = AdBreak(
            timeOffset: timeOffset, breakTypes: breakTypes, breakID: attribute("breakId", element),
            repeatAfter: attribute("repeatAfter", element).flatMap { time($0, at: element, what: "repeatAfter") })
        for child in tree.childIndices(of: element) {
            let child = Int(child)
            switch name(child) {
            case "AdSource": adBreak.adSource = try readAdSource(child)
            case "TrackingEvents":
                for tracking in tree.childIndices(of: child) where name(Int(tracking)) == "Tracking" {
                    let tracking = Int(tracking)
                    guard let event = attribute("event", tracking), let url = urlText(tracking) else {
                        violation(
                            "break <Tracking> needs an event and a URL; ignored", at: tracking, code: .vmapSchemaError)
                        continue
                    }
                    adBreak.trackingEvents.append(BreakTrackingEvent(event: .init(rawValue: event), url: url))
                }
            case "Extensions": adBreak.extensions.append(contentsOf: extensions(child))
            default: break
            }
        }
        return adBreak
    }

    mutating func readAdSource(_ element: Int) throws(VASTError) -> AdSource {
        var source = AdSource(
            id: attribute("id", element), allowMultipleAds: boolAttribute("allowMultipleAds", element),
            followRedirects: boolAttribute("followRedirects", element), content: nil)
        for child in tree.childIndices(of: element) {
            let child = Int(child)
            switch name(child) {
            case "VASTAdData", "VASTData":
                guard let vast = tree.childIndices(of: child).first(where: { name(Int($0)) == "VAST" }) else {
                    if let embedded = readVASTText(child) {
                        source.content = .vastAdData(embedded)
                    } else {
                        violation("<VASTAdData> holds no <VAST>", at: child, code: .vmapAdResponseExtractionError)
                    }
                    continue
                }
                do {
                    source.content = .vastAdData(try readVASTRoot(Int(vast)))
                } catch {
                    // A bad embedded ad response spoils its break, not the schedule.
                    violation(
                        "embedded VAST: \(error.message)", at: Int(vast), code: .vmapAdResponseExtractionError)
                }
            case "AdTagURI":
                if let url = urlText(child) {
                    source.content = .adTagURI(templateType: attribute("templateType", child), url: url)
                } else {
                    violation("<AdTagURI> is empty", at: child, code: .vmapAdResponseError)
                }
            case "CustomAdData":
                source.content = .customAdData(
                    templateType: attribute("templateType", child), rawXML: tree.rawContent(of: child))
            default:
                break
            }
        }
        if source.content == nil {
            warn(.vmapAdResponseError, "<AdSource> holds no usable ad response", at: element)
        }
        return source
    }
}
