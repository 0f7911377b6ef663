import Foundation

/// A compact line format for ``LiveStitchState``, for stores that keep one
/// state per viewer's rendition and read it on every reload: written and
/// read by hand, about ten times cheaper than `JSONEncoder`/`JSONDecoder`
/// on the same state, and exact (numbers in Swift's shortest round-trip
/// form), so a decoded state equals the one encoded.
///
/// Version 1, one record a line, fields separated by one space:
/// ```
/// interlude-live-stitch-state 1
/// settled <throughSequence> <sequenceOffset> <discontinuityOffset>
/// break <originStart> <replaced 0|1> <discontinuityBase> <encrypted 0|1> <slateSegmentDuration>
///       <anchorSequence> <anchorElapsed> <startDate|-> <plannedDuration|-> <style> <scte35 hex|->
///       <end: originCount,contentDuration,outputCount,added,removed|-> <breakID>
/// marker <source marker line of the break above>
/// ```
/// (a `break` record is one line). Dates are seconds since the reference
/// date; the style, break ID and markers are percent-escaped (`%`, space,
/// CR, LF). No IMA counterpart.
extension LiveStitchState {
    /// The first line of every state in this format (then the version).
    public static let textFormatMagic = "interlude-live-stitch-state"

    /// The state in the line format, version 1.
    public var text: String {
        var out = "\(Self.textFormatMagic) 1\nsettled \(settled.throughSequence) \(settled.sequenceOffset) "
        out += "\(settled.discontinuityOffset)\n"
        for record in breaks {
            let request = record.request
            out += "break \(request.originStartSequence) \(record.isReplaced ? 1 : 0) "
            out += "\(record.originDiscontinuityBase) \(record.contentIsEncrypted ? 1 : 0) "
            out += "\(record.slateSegmentDuration) \(record.anchor.sequence) \(record.anchor.elapsed) "
            out += request.startDate.map { "\($0.timeIntervalSinceReferenceDate)" } ?? "-"
            out += " "
            out += request.plannedDuration.map { "\($0)" } ?? "-"
            out += " \(Self.escaped(request.style.name)) "
            out += request.scte35Out.map(Self.hex) ?? "-"
            out += " "
            if let end = record.end {
                out += "\(end.originCount),\(end.contentDuration),\(end.outputCount),"
                out += "\(end.discontinuitiesAdded),\(end.originDiscontinuitiesRemoved)"
            } else {
                out += "-"
            }
            out += " \(Self.escaped(request.breakID))\n"
            for marker in record.sourceMarkers { out += "marker \(Self.escaped(marker))\n" }
        }
        return out
    }

    /// Reads a state written by ``text``; throws on anything else (another
    /// version, a truncated or altered state), never traps.
    public init(text: String) throws(HLSError) {
        self.init()
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false)[...]
        if lines.last == "" { lines = lines.dropLast() }
        guard let header = lines.popFirst(), header == "\(Self.textFormatMagic) 1" else {
            throw Self.unreadable("not a version 1 state", line: 1)
        }
        guard let first = lines.popFirst() else { throw Self.unreadable("no settled line", line: 2) }
        let settledFields = first.split(separator: " ", omittingEmptySubsequences: false)
        guard settledFields.count == 4, settledFields[0] == "settled", let through = UInt64(settledFields[1]),
            let sequenceOffset = Int64(settledFields[2]), let discontinuityOffset = Int64(settledFields[3])
        else { throw Self.unreadable("bad settled line", line: 2) }
        settled.throughSequence = through
        settled.sequenceOffset = sequenceOffset
        settled.discontinuityOffset = discontinuityOffset
        var number = 2
        for line in lines {
            number += 1
            if line.hasPrefix("marker ") {
                guard !breaks.isEmpty, let marker = Self.unescaped(line.dropFirst(7)) else {
                    throw Self.unreadable("bad marker line", line: number)
                }
                breaks[breaks.count - 1].sourceMarkers.append(marker)
                continue
            }
            guard let record = Self.record(line) else { throw Self.unreadable("bad break line", line: number) }
            if let last = breaks.last, last.originStart >= record.originStart {
                throw Self.unreadable("breaks out of order", line: number)
            }
            breaks.append(record)
        }
    }

    private static func record(_ line: Substring) -> LiveBreakRecord? {
        let fields = line.split(separator: " ", omittingEmptySubsequences: false)
        guard fields.count == 14, fields[0] == "break", let start = UInt64(fields[1]),
            let replaced = flag(fields[2]), let base = UInt64(fields[3]), let encrypted = flag(fields[4]),
            let slate = Double(fields[5]), slate.isFinite, let anchorSequence = UInt64(fields[6]),
            let elapsed = Double(fields[7]), elapsed.isFinite, let startDate = optional(fields[8], Double.init),
            let planned = optional(fields[9], Double.init), let style = unescaped(fields[10]),
            let scte35 = optional(fields[11], bytes), let end = optional(fields[12], self.end),
            let breakID = unescaped(fields[13])
        else { return nil }
        let request = LiveBreakRequest(
            breakID: breakID, originStartSequence: start,
            startDate: startDate.map { Date(timeIntervalSinceReferenceDate: $0) }, plannedDuration: planned,
            style: AdMarkerStyle(style), scte35Out: scte35)
        return LiveBreakRecord(
            request: request, isReplaced: replaced, originDiscontinuityBase: base, contentIsEncrypted: encrypted,
            slateSegmentDuration: slate, sourceMarkers: [],
            anchor: ElapsedAnchor(sequence: anchorSequence, elapsed: elapsed),
            end: end)
    }

    private static func end(_ field: Substring) -> LiveBreakRecord.End? {
        let parts = field.split(separator: ",", omittingEmptySubsequences: false)
        guard parts.count == 5, let originCount = Int(parts[0]), let duration = Double(parts[1]), duration.isFinite,
            let outputCount = Int(parts[2]), let added = Int(parts[3]), let removed = Int(parts[4])
        else { return nil }
        return LiveBreakRecord.End(
            originCount: originCount, contentDuration: duration, outputCount: outputCount,
            discontinuitiesAdded: added, originDiscontinuitiesRemoved: removed)
    }

    /// Nil when the field does not parse; `.some(nil)` for `-`.
    private static func optional<T>(_ field: Substring, _ parse: (Substring) -> T?) -> T?? {
        if field == "-" { return .some(nil) }
        guard let value = parse(field) else { return nil }
        return .some(value)
    }

    private static func flag(_ field: Substring) -> Bool? {
        switch field {
        case "0": false
        case "1": true
        default: nil
        }
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)

    private static func hex(_ bytes: [UInt8]) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count * 2)
        for byte in bytes {
            out.append(hexDigits[Int(byte >> 4)])
            out.append(hexDigits[Int(byte & 0xF)])
        }
        return String(decoding: out, as: UTF8.self)
    }

    private static func bytes(_ field: Substring) -> [UInt8]? {
        let digits = Array(field.utf8)
        guard digits.count % 2 == 0 else { return nil }
        var out: [UInt8] = []
        out.reserveCapacity(digits.count / 2)
        var index = 0
        while index < digits.count {
            guard let high = nibble(digits[index]), let low = nibble(digits[index + 1]) else { return nil }
            out.append(high << 4 | low)
            index += 2
        }
        return out
    }

    private static func nibble(_ digit: UInt8) -> UInt8? {
        switch digit {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): digit - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): digit - UInt8(ascii: "a") + 10
        default: nil
        }
    }

    private static func escaped(_ value: String) -> String {
        guard value.utf8.contains(where: { $0 == 0x25 || $0 == 0x20 || $0 == 0x0A || $0 == 0x0D }) else {
            return value
        }
        var out: [UInt8] = []
        for byte in value.utf8 {
            switch byte {
            case 0x25, 0x20, 0x0A, 0x0D:
                out.append(0x25)
                out.append(hexDigits[Int(byte >> 4)])
                out.append(hexDigits[Int(byte & 0xF)])
            default: out.append(byte)
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Nil on a broken escape or an unescaped space.
    private static func unescaped(_ field: Substring) -> String? {
        let utf8 = Array(field.utf8)
        guard utf8.contains(0x25) || utf8.contains(0x20) else { return String(field) }
        var out: [UInt8] = []
        var index = 0
        while index < utf8.count {
            let byte = utf8[index]
            if byte == 0x20 { return nil }
            if byte == 0x25 {
                guard index + 2 < utf8.count, let high = nibble(utf8[index + 1]), let low = nibble(utf8[index + 2])
                else { return nil }
                out.append(high << 4 | low)
                index += 3
            } else {
                out.append(byte)
                index += 1
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    private static func unreadable(_ reason: String, line: Int) -> HLSError {
        HLSError(.invalidEncoding, "unreadable live stitch state: \(reason)", line: line)
    }
}
