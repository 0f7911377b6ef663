import Foundation
import InterludeHLS

/// True when `bytes` look like an HLS playlist rather than XML (VAST/VMAP):
/// the first non-blank character (after a UTF-8 BOM) is `#`.
func isPlaylist(bytes: [UInt8]) -> Bool {
    var index = 0
    if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { index = 3 }
    while index < bytes.count, [0x20, 0x09, 0x0D, 0x0A].contains(bytes[index]) { index += 1 }
    return index < bytes.count && bytes[index] == UInt8(ascii: "#")
}

/// `interlude inspect` for a playlist: a summary, the ad breaks and the
/// validation findings, as text or as JSON (`json: true`). The exit code is 0
/// when the playlist parsed and has no error findings, 1 otherwise. `url`,
/// where it came from, gives QUERYPARAM variables their values.
func inspectPlaylist(bytes: [UInt8], json: Bool, url: URL? = nil) -> (output: String, exitCode: Int32) {
    let report = PlaylistInspectionReport(bytes: bytes, url: url)
    let exitCode: Int32 = report.isValid ? 0 : 1
    if json {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(report) else { return ("{}\n", 1) }
        return (String(decoding: data, as: UTF8.self) + "\n", exitCode)
    }
    return (report.text, exitCode)
}

/// The JSON document of `interlude inspect --json` for a playlist.
struct PlaylistInspectionReport: Codable, Equatable {
    struct Rendition: Codable, Equatable {
        var type: String?
        var groupID: String?
        var name: String?
        var language: String?
        var uri: String?
    }

    struct Variant: Codable, Equatable {
        var bandwidth: UInt64?
        var resolution: String?
        var codecs: String?
        var uri: String
    }

    struct AdBreak: Codable, Equatable {
        var style: String
        var id: String?
        var startTime: Double
        var plannedDuration: Double?
        var actualDuration: Double?
        var firstSegment: Int
        var segmentCount: Int
        var isComplete: Bool
        var scte35Out: String?
        var line: Int
    }

    struct Finding: Codable, Equatable {
        var severity: String
        var rule: String
        var message: String
        var line: Int
    }

    /// `media`, `multivariant`, or `invalid` when the playlist did not parse.
    var kind: String
    var version: Int?
    var targetDuration: Int?
    var mediaSequence: UInt64?
    var discontinuitySequence: UInt64?
    var playlistType: String?
    var hasEndList: Bool?
    var segmentCount: Int?
    var totalDuration: Double?
    var renditions: [Rendition]?
    var variants: [Variant]?
    var adBreaks: [AdBreak]
    var findings: [Finding]

    var isValid: Bool { kind != "invalid" && !findings.contains { $0.severity == "error" } }

    init(bytes: [UInt8], url: URL? = nil) {
        adBreaks = []
        findings = []
        var playlist: HLSPlaylist
        let skipped: [HLSError]
        do {
            // Every bad line is reported, not only the first: the rest is still inspected.
            let parse = try HLSParser().parseRecovering(bytes)
            playlist = parse.playlist
            skipped = parse.skippedLineErrors
        } catch {
            kind = "invalid"
            findings = [Finding(severity: "error", rule: error.code.name, message: error.message, line: error.line)]
            return
        }
        let syntax = skipped.map { error in
            // A byte-order mark is stepped over, not a line skipped.
            let suffix = error.code == .byteOrderMark ? "" : " (line skipped)"
            return Finding(severity: "error", rule: error.code.name, message: error.message + suffix, line: error.line)
        }
        findings =
            syntax
            + HLSValidator.validate(playlist).map {
                Finding(severity: $0.severity.rawValue, rule: $0.rule.name, message: $0.message, line: $0.line)
            }
        // URIs are shown with their variables' values (RFC 8216bis 4.3): a
        // reference that cannot be resolved here (IMPORT needs the
        // multivariant playlist, QUERYPARAM the URL) is a warning and the
        // text stays as written.
        do throws(HLSError) {
            playlist = try Self.resolvingVariables(playlist, url: url)
        } catch {
            findings.append(
                Finding(
                    severity: "warning", rule: error.code.name,
                    message: "variables shown unresolved: \(error.message)", line: error.line))
        }
        switch playlist {
        case .media(let media):
            kind = "media"
            version = media.version
            targetDuration = media.targetDuration
            mediaSequence = media.mediaSequence
            discontinuitySequence = media.discontinuitySequence
            playlistType = media.playlistType
            hasEndList = media.hasEndList
            segmentCount = media.segments.count
            totalDuration = (media.totalDuration * 1000).rounded() / 1000
            adBreaks = media.adBreaks.map { adBreak in
                AdBreak(
                    style: adBreak.style.name, id: adBreak.id, startTime: adBreak.startTime,
                    plannedDuration: adBreak.plannedDuration,
                    actualDuration: adBreak.actualDuration.map { ($0 * 1000).rounded() / 1000 },
                    firstSegment: adBreak.segmentRange.lowerBound,
                    segmentCount: adBreak.segmentRange.count, isComplete: adBreak.isComplete,
                    scte35Out: adBreak.scte35Out.map { "0x" + HLSHex.encode($0) }, line: adBreak.line)
            }
        case .multivariant(let multivariant):
            kind = "multivariant"
            version = multivariant.version
            renditions = multivariant.renditions.map {
                Rendition(type: $0.type, groupID: $0.groupID, name: $0.name, language: $0.language, uri: $0.uri)
            }
            variants = multivariant.variants.map {
                Variant(
                    bandwidth: $0.bandwidth, resolution: $0.resolution.map { "\($0.width)x\($0.height)" },
                    codecs: $0.codecs, uri: $0.uri)
            }
        }
    }

    /// `playlist` with its variable references replaced, QUERYPARAM values
    /// read from `url`'s query; unchanged when it defines no variable.
    static func resolvingVariables(_ playlist: HLSPlaylist, url: URL?) throws(HLSError) -> HLSPlaylist {
        let query = url.map(HLSQueryParameters.values(in:)) ?? [:]
        switch playlist {
        case .media(let media):
            guard !media.definitions.isEmpty else { return playlist }
            return .media(try media.resolvingVariables(queryParameters: query))
        case .multivariant(let multivariant):
            guard multivariant.tags.contains(where: { !$0.isComment && $0.name == HLSTagName.define }) else {
                return playlist
            }
            return .multivariant(try multivariant.resolvingVariables(queryParameters: query))
        }
    }

    /// The human-readable form.
    var text: String {
        var lines: [String] = []
        func optional<T>(_ value: T?) -> String { value.map { "\($0)" } ?? "-" }
        switch kind {
        case "media":
            lines.append("HLS media playlist")
            lines.append("  version:                \(optional(version))")
            lines.append("  target duration:        \(optional(targetDuration)) s")
            lines.append("  media sequence:         \(optional(mediaSequence))")
            lines.append("  discontinuity sequence: \(optional(discontinuitySequence))")
            lines.append("  type:                   \(playlistType ?? (hasEndList == true ? "ended" : "live"))")
            lines.append("  segments:               \(optional(segmentCount)), \(optional(totalDuration)) s")
            lines.append("Ad breaks: \(adBreaks.count)")
            for adBreak in adBreaks {
                let end = adBreak.isComplete ? "actual \(optional(adBreak.actualDuration)) s" : "open"
                lines.append(
                    "  line \(adBreak.line): \(adBreak.style)\(adBreak.id.map { " \"\($0)\"" } ?? "") at \(adBreak.startTime) s, planned \(optional(adBreak.plannedDuration)) s, \(end), segments \(adBreak.firstSegment)..<\(adBreak.firstSegment + adBreak.segmentCount)"
                )
                if let scte35 = adBreak.scte35Out { lines.append("    SCTE-35: \(scte35)") }
            }
        case "multivariant":
            lines.append("HLS multivariant playlist")
            lines.append("  version: \(optional(version))")
            lines.append("Renditions: \(renditions?.count ?? 0)")
            for rendition in renditions ?? [] {
                lines.append(
                    "  \(optional(rendition.type)) group \(optional(rendition.groupID)) \"\(optional(rendition.name))\" \(rendition.language ?? "") \(rendition.uri ?? "")"
                )
            }
            lines.append("Variants: \(variants?.count ?? 0)")
            for variant in variants ?? [] {
                lines.append(
                    "  \(optional(variant.bandwidth)) bit/s \(variant.resolution ?? "") \(variant.codecs ?? "") \(variant.uri)"
                )
            }
        default:
            lines.append("Not a valid HLS playlist")
        }
        lines.append("Findings: \(findings.count)")
        for finding in findings {
            lines.append("  line \(finding.line): \(finding.severity): \(finding.message) [\(finding.rule)]")
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
