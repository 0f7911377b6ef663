import Foundation
import InterludeHLS
import InterludeServer

/// An external live origin for VTP tests, served over loopback HTTP: a
/// two-variant channel (320x180, 640x360) on the test's clock whose breaks
/// are marked in one of the styles packagers use, as the vendors document
/// them (AWS Elemental / MediaTailor, Google DAI, RFC 8216bis DATERANGE).
/// Global segment n lasts 4 s and starts at `epoch + 4n`; the window is the
/// 6 segments ending at the last complete one. Breaks start at every
/// segment n with n mod 10 == 4 and last 2 segments (8 s).
struct FixtureLiveOrigin: Sendable {
    enum Style: String, CaseIterable, Sendable {
        /// `#EXT-X-CUE-OUT:DURATION=8` … `#EXT-X-CUE-IN` (Google DAI's documented form).
        case cueOutDuration
        /// `#EXT-X-CUE-OUT` (no duration) … `#EXT-X-CUE-IN`.
        case cueOutWithoutDuration
        /// Elemental: `#EXT-X-CUE-OUT:8.000`, `#EXT-X-CUE-OUT-CONT:4.000/8`, `#EXT-X-CUE-IN`.
        case elemental
        /// MediaTailor / SCTE-35 enhanced: OATCLS + ASSET + CUE-OUT, CUE-OUT-CONT with ElapsedTime, Duration, SCTE35; CUE-IN.
        case scte35Enhanced
        /// DATERANGE SCTE35-OUT, then the same ID with DURATION and SCTE35-IN.
        case dateRange
        /// EXT-OATCLS-SCTE35 alone (splice_insert out, then in).
        case oatcls
        /// EXT-X-SPLICEPOINT-SCTE35 alone.
        case splicePoint
        /// AWS Elemental MediaLive's "Adobe" style: one
        /// `#EXT-X-CUE:DURATION="8.000",ID="…",TYPE="SpliceOut",TIME="…"`, no
        /// continuation and no end marker.
        case adobe
        /// Adobe Primetime: `#EXT-X-CUE:TYPE=SpliceOut,ID=…,TIME=…` (duration not
        /// known), `#EXT-X-CUE-CONT:ID=…,AVAIL-DUR-ELAPSED=…`, `#EXT-X-CUE:TYPE=SpliceIn,…`.
        case adobePrimetime
        /// x9k3's `#EXT-X-SCTE35:CUE="…" ,CUE-OUT=YES `, `CUE-OUT=CONT` on each
        /// later segment, `CUE-IN=YES` at the end.
        case scte35Tag
        /// `#EXT-X-CUE-OUT` with no duration that never closes.
        case neverCloses
        /// A 16 s CUE-OUT break with another 8 s CUE-OUT starting inside it.
        case overlapping
    }

    static let segmentDuration = 4.0
    static let windowSize = 6
    static let profiles = [("180p", 320, 180), ("360p", 640, 360)]

    let epoch: Date
    let now: @Sendable () -> Date
    /// Where the ``Style/neverCloses`` break starts (a global segment number).
    var openBreakStart = 0

    func date(_ n: Int) -> Date { epoch.addingTimeInterval(Double(n) * Self.segmentDuration) }

    /// The last complete segment now.
    var edge: Int { Int((now().timeIntervalSince(epoch) / Self.segmentDuration + 1e-9).rounded(.down)) - 1 }

    func multivariant(style: Style) -> String {
        var text = "#EXTM3U\n#EXT-X-VERSION:3\n"
        for (id, width, height) in Self.profiles {
            text +=
                "#EXT-X-STREAM-INF:BANDWIDTH=900000,RESOLUTION=\(width)x\(height),CODECS=\"avc1.4d401f,mp4a.40.2\"\n"
            text += "\(style.rawValue)/\(id).m3u8\n"
        }
        return text
    }

    /// The window ending at segment `edge` in `profile`.
    func media(style: Style, profile: String, edge: Int) -> String {
        let first = max(0, edge - Self.windowSize + 1)
        var text = "#EXTM3U\n#EXT-X-VERSION:6\n#EXT-X-TARGETDURATION:4\n#EXT-X-MEDIA-SEQUENCE:\(first)\n"
        for n in first...max(first, edge) {
            text += "#EXT-X-PROGRAM-DATE-TIME:\(HLSDateFormat.format(date(n)))\n"
            text += markers(style: style, before: n)
            text += "#EXTINF:4.000,\n\(profile)/\(n).ts\n"
        }
        return text
    }

    private struct Break {
        var start: Int
        var length: Int
        var announced: Double?
    }

    private func breaks(style: Style, near n: Int) -> [Break] {
        let base = n - n % 10
        return [base - 10, base].flatMap { start -> [Break] in
            let first = start + 4
            switch style {
            case .neverCloses:
                return start == base ? [Break(start: openBreakStart, length: 1_000_000, announced: nil)] : []
            case .overlapping:
                return [
                    Break(start: first, length: 4, announced: 16), Break(start: first + 2, length: 2, announced: 8),
                ]
            default: return [Break(start: first, length: 2, announced: 8)]
            }
        }
    }

    private func markers(style: Style, before n: Int) -> String {
        var text = ""
        for adBreak in breaks(style: style, near: n) {
            let duration = Double(min(adBreak.length, 1000)) * Self.segmentDuration
            let eventID = UInt32(truncatingIfNeeded: adBreak.start)
            let out = SpliceInfoSection(
                command: .spliceInsert(
                    SpliceInsert(
                        eventID: eventID,
                        breakDuration: BreakDuration(autoReturn: true, duration: UInt64(duration * 90_000))
                    )))
            let back = SpliceInfoSection(command: .spliceInsert(SpliceInsert(eventID: eventID, isOutOfNetwork: false)))
            let total = String(format: "%.3f", duration)
            if n == adBreak.start {
                switch style {
                case .cueOutDuration: text += "#EXT-X-CUE-OUT:DURATION=\(Int(duration))\n"
                case .cueOutWithoutDuration, .neverCloses: text += "#EXT-X-CUE-OUT\n"
                case .elemental, .overlapping:
                    text += "#EXT-X-CUE-OUT:\(String(format: "%.3f", adBreak.announced ?? duration))\n"
                case .scte35Enhanced:
                    text += "#EXT-OATCLS-SCTE35:\(out.base64Encoded)\n#EXT-X-ASSET:CAID=0x0000000020FB6501\n"
                    text += "#EXT-X-CUE-OUT:\(total)\n"
                case .dateRange:
                    text +=
                        "#EXT-X-DATERANGE:ID=\"splice-\(adBreak.start)\",START-DATE=\"\(HLSDateFormat.format(date(adBreak.start)))\",PLANNED-DURATION=\(total),SCTE35-OUT=\(out.hexEncoded)\n"
                case .oatcls: text += "#EXT-OATCLS-SCTE35:\(out.base64Encoded)\n"
                case .splicePoint: text += "#EXT-X-SPLICEPOINT-SCTE35:\(out.base64Encoded)\n"
                case .adobe:
                    text +=
                        "#EXT-X-CUE:DURATION=\"\(total)\",ID=\"\(eventID)\",TYPE=\"SpliceOut\",TIME=\"\(Double(adBreak.start) * Self.segmentDuration)\"\n"
                case .adobePrimetime:
                    text +=
                        "#EXT-X-CUE:TYPE=SpliceOut,ID=\(eventID),TIME=\(Double(adBreak.start) * Self.segmentDuration)\n"
                case .scte35Tag: text += "#EXT-X-SCTE35:CUE=\"\(out.base64Encoded)\" ,CUE-OUT=YES \n"
                }
            }
            if n > adBreak.start, n < adBreak.start + adBreak.length {
                let elapsed = String(format: "%.3f", Double(n - adBreak.start) * Self.segmentDuration)
                switch style {
                case .elemental: text += "#EXT-X-CUE-OUT-CONT:\(elapsed)/\(Int(duration))\n"
                case .adobePrimetime: text += "#EXT-X-CUE-CONT:ID=\(eventID),AVAIL-DUR-ELAPSED=\(elapsed)\n"
                case .scte35Tag: text += "#EXT-X-SCTE35:CUE=\"\(out.base64Encoded)\" ,CUE-OUT=CONT,ELAPSED=\(elapsed)\n"
                case .scte35Enhanced:
                    text += "#EXT-X-CUE-OUT-CONT:ElapsedTime=\(elapsed),Duration=\(total),SCTE35=\(out.base64Encoded)\n"
                default: break
                }
            }
            if n == adBreak.start + adBreak.length {
                switch style {
                case .cueOutDuration, .cueOutWithoutDuration, .elemental, .scte35Enhanced, .overlapping:
                    text += "#EXT-X-CUE-IN\n"
                case .dateRange:
                    text +=
                        "#EXT-X-DATERANGE:ID=\"splice-\(adBreak.start)\",START-DATE=\"\(HLSDateFormat.format(date(adBreak.start)))\",DURATION=\(total),SCTE35-IN=\(back.hexEncoded)\n"
                case .oatcls: text += "#EXT-OATCLS-SCTE35:\(back.base64Encoded)\n"
                case .splicePoint: text += "#EXT-X-SPLICEPOINT-SCTE35:\(back.base64Encoded)\n"
                case .adobePrimetime:
                    text +=
                        "#EXT-X-CUE:TYPE=SpliceIn,ID=\(eventID),TIME=\(Double(adBreak.start + adBreak.length) * Self.segmentDuration)\n"
                case .scte35Tag: text += "#EXT-X-SCTE35:CUE=\"\(back.base64Encoded)\" ,CUE-IN=YES \n"
                case .neverCloses, .adobe: break
                }
            }
        }
        return text
    }

    /// Serves `/fixture/{style}.m3u8`, `/fixture/{style}/{profile}.m3u8`,
    /// `/fixture/vod.m3u8`, `/fixture/vod/{profile}.m3u8` (a 24 s VOD
    /// encrypted with AES-128) and `/fixture/delta/{profile}.m3u8` (a delta
    /// update with EXT-X-SKIP) and `/fixture/nested.m3u8` (a multivariant
    /// whose variants are itself) on an ephemeral loopback port.
    func serve() throws -> HTTPServer {
        try HTTPServer.start(host: "127.0.0.1", port: 0, configuration: HTTPServer.Configuration(threadCount: 1)) {
            request in
            let parts = request.path.split(separator: "/").map(String.init)
            guard parts.first == "fixture", parts.count >= 2 else { return HTTPError.notFound("no fixture").response }
            let name = parts[1].replacingOccurrences(of: ".m3u8", with: "")
            if parts.count == 2, name == "vod" {
                var text = "#EXTM3U\n"
                for (id, width, height) in Self.profiles {
                    text += "#EXT-X-STREAM-INF:BANDWIDTH=900000,RESOLUTION=\(width)x\(height)\nvod/\(id).m3u8\n"
                }
                return .text(text, contentType: "application/vnd.apple.mpegurl")
            }
            if parts.count == 3, name == "vod" {
                let profile = parts[2].replacingOccurrences(of: ".m3u8", with: "")
                var text = "#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:4\n#EXT-X-PLAYLIST-TYPE:VOD\n"
                text +=
                    "#EXT-X-KEY:METHOD=AES-128,URI=\"https://keys.example.com/k1\",IV=0x00000000000000000000000000000001\n"
                for n in 0..<6 { text += "#EXTINF:4.000,\n\(profile)/\(n).ts\n" }
                return .text(text + "#EXT-X-ENDLIST\n", contentType: "application/vnd.apple.mpegurl")
            }
            if parts.count == 3, name == "delta" {
                let text = """
                    #EXTM3U
                    #EXT-X-VERSION:9
                    #EXT-X-TARGETDURATION:4
                    #EXT-X-SERVER-CONTROL:CAN-SKIP-UNTIL=24
                    #EXT-X-MEDIA-SEQUENCE:100
                    #EXT-X-SKIP:SKIPPED-SEGMENTS=3
                    #EXTINF:4.000,
                    a/103.ts

                    """
                return .text(text, contentType: "application/vnd.apple.mpegurl")
            }
            if name == "nested" {
                // Its variants are itself: a multivariant where a media playlist belongs.
                return .text(
                    multivariant(style: .oatcls).replacingOccurrences(of: "oatcls/180p.m3u8", with: "nested.m3u8")
                        .replacingOccurrences(of: "oatcls/360p.m3u8", with: "nested.m3u8"),
                    contentType: "application/vnd.apple.mpegurl")
            }
            if parts.count == 2, name == "delta" {
                return .text(
                    multivariant(style: .oatcls).replacingOccurrences(of: "oatcls/", with: "delta/"),
                    contentType: "application/vnd.apple.mpegurl")
            }
            guard let style = Style(rawValue: name) else { return HTTPError.notFound("no style \(name)").response }
            if parts.count == 2 {
                return .text(multivariant(style: style), contentType: "application/vnd.apple.mpegurl")
            }
            let profile = parts[2].replacingOccurrences(of: ".m3u8", with: "")
            return .text(
                media(style: style, profile: profile, edge: edge), contentType: "application/vnd.apple.mpegurl")
        }
    }
}
