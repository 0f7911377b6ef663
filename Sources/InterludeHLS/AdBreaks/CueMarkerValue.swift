/// Reads the values of the non-standard CUE markers, whose syntax varies by
/// packager: `#EXT-X-CUE-OUT:30`, `#EXT-X-CUE-OUT:DURATION=30`,
/// `#EXT-X-CUE-OUT:177.100,SignalID=…` (Adobe), `#EXT-X-CUE-OUT-CONT:ElapsedTime=5,Duration=30,SCTE35=…`
/// (MediaTailor, Elemental SCTE-35 enhanced), `#EXT-X-CUE-OUT-CONT: 8.308/30` (Elemental),
/// `#EXT-X-CUE:DURATION="201.467",ID="0",TYPE="SpliceOut",TIME="414.171"` and
/// `#EXT-X-CUE-CONT:ID=1,AVAIL-DUR-ELAPSED=5.8` (Adobe).
enum CueMarkerValue {
    /// The duration of a CUE-OUT, nil when it has none. `0` (or less) is
    /// none too, as in Adobe's `EXT-X-CUE`: a packager that does not know the
    /// avail's length writes it, and the break then runs to its CUE-IN.
    static func duration(_ text: String?) -> Double? {
        guard let text, !text.isEmpty else { return nil }
        if let value = decimal(text) { return positive(value) }
        if let first = text.split(separator: ",", maxSplits: 1).first, let value = decimal(String(first)) {
            return positive(value)
        }
        return field("DURATION", in: text).flatMap(decimal).flatMap(positive)
    }

    /// `value` when it is a length a break can have.
    static func positive(_ value: Double) -> Double? { value.isFinite && value > 0 ? value : nil }

    /// Elapsed time and total duration of a CUE-OUT-CONT.
    static func continuation(_ text: String?) -> (elapsed: Double?, duration: Double?) {
        guard let text, !text.isEmpty else { return (nil, nil) }
        let slash = text.split(separator: "/", maxSplits: 1)
        if slash.count == 2, let elapsed = decimal(String(slash[0])) {
            // `5.005/177.100,SignalID=…`: the total ends at the first comma.
            let total = slash[1].split(separator: ",", maxSplits: 1).first.map(String.init) ?? ""
            return (elapsed, decimal(total).flatMap(positive))
        }
        return (
            (field("ELAPSEDTIME", in: text) ?? field("AVAIL-DUR-ELAPSED", in: text)).flatMap(decimal),
            field("DURATION", in: text).flatMap(decimal).flatMap(positive)
        )
    }

    /// What an Adobe `EXT-X-CUE` does: start a break (`TYPE=SpliceOut`, with
    /// its `DURATION` when known: 0 or none means not known), end one
    /// (`TYPE=SpliceIn`), or nothing (`SpliceInsert` marks a splice point
    /// that opens no break, or an unknown type).
    enum AdobeCue: Equatable {
        case spliceOut(duration: Double?)
        case spliceIn
        case other
    }

    static func adobeCue(_ text: String?) -> AdobeCue {
        guard let text, let type = field("TYPE", in: text) else { return .other }
        if type.caseInsensitiveEquals("SpliceOut") {
            let duration = field("DURATION", in: text).flatMap(decimal)
            return .spliceOut(duration: duration.flatMap { $0.isFinite && $0 > 0 ? $0 : nil })
        }
        return type.caseInsensitiveEquals("SpliceIn") ? .spliceIn : .other
    }

    /// What an `EXT-X-SCTE35` says: its `CUE` payload, whether it starts
    /// (`CUE-OUT=YES`), continues (`CUE-OUT=CONT`) or ends (`CUE-IN=YES`) a
    /// break, or leaves that to the payload (neither), and the `DURATION` and
    /// `ELAPSED` seconds when written. Blanks around values are allowed:
    /// x9k3 writes `CUE="…" ,CUE-OUT=YES `.
    struct SCTE35Tag: Equatable {
        enum State: Equatable {
            case out
            case continuation
            case back
            case fromPayload
        }

        /// What the tag does to a break.
        enum Effect: Equatable {
            case start
            case continuation
            case end
        }

        var payload: [UInt8]?
        /// The payload decoded, when it is a valid section.
        var section: SpliceInfoSection?
        var state: State
        var duration: Double?
        var elapsed: Double?

        /// `state`, with `fromPayload` read from the payload; nil when the tag
        /// says neither out nor in (no payload, an unreadable one, another
        /// command); a cancel reads as an end (of the event it names).
        var effect: Effect? {
            switch state {
            case .out: return .start
            case .continuation: return .continuation
            case .back: return .end
            case .fromPayload:
                guard let section else { return nil }
                return section.isCueOut ? .start : section.isCueIn || section.isCancellation ? .end : nil
            }
        }
    }

    static func scte35Tag(_ text: String?) -> SCTE35Tag {
        guard let text else { return SCTE35Tag(payload: nil, state: .fromPayload) }
        let payload = field("CUE", in: text).flatMap(MediaPlaylist.payloadBytes)
        let state: SCTE35Tag.State
        if field("CUE-IN", in: text)?.uppercased() == "YES" {
            state = .back
        } else {
            switch field("CUE-OUT", in: text)?.uppercased() {
            case "YES": state = .out
            case "CONT": state = .continuation
            default: state = .fromPayload
            }
        }
        let nonNegative = { (value: Double) -> Double? in value.isFinite && value >= 0 ? value : nil }
        return SCTE35Tag(
            payload: payload, section: payload.flatMap(SpliceInfoSection.init(cueBytes:)), state: state,
            duration: field("DURATION", in: text).flatMap(decimal).flatMap(positive),
            elapsed: field("ELAPSED", in: text).flatMap(decimal).flatMap(nonNegative))
    }

    /// A decimal with the blanks some packagers write around it. The plain
    /// form is tried first: a live window holds one of these per segment.
    static func decimal(_ text: String) -> Double? {
        if let value = HLSNumberFormat.parseDecimal(text) { return value }
        let trimmed = Substring(text).trimmingWhitespace()
        return trimmed.utf8.count == text.utf8.count ? nil : HLSNumberFormat.parseDecimal(String(trimmed))
    }

    /// The value of `name=` (`name` upper-case; matched case-insensitively)
    /// in a comma-separated list. A blank outside quotes that comes before
    /// another `NAME=` separates fields too: x9k3's README writes
    /// `CUE="…" CUE-OUT=YES`, and the payload would otherwise swallow the rest.
    static func field(_ name: String, in text: String) -> String? {
        var result: String?
        forEachField(in: text) { key, value in
            guard key.utf8.count == name.utf8.count, key.uppercased() == name else { return true }
            var value = value
            if value.count >= 2, value.first == "\"", value.last == "\"" {
                value = value.dropFirst().dropLast()
            }
            result = String(value)
            return false
        }
        return result
    }

    /// Calls `body` with each `key=value` field's trimmed key and value, in
    /// order, until it returns false; items without `=` are skipped.
    private static func forEachField(in text: String, _ body: (Substring, Substring) -> Bool) {
        let utf8 = text.utf8
        var itemStart = utf8.startIndex
        var index = itemStart
        var inQuotes = false
        func emit(_ end: String.Index) -> Bool {
            let item = Substring(text[itemStart..<end])
            guard let equals = item.firstIndex(of: "=") else { return true }
            return body(item[..<equals].trimmingWhitespace(), item[item.index(after: equals)...].trimmingWhitespace())
        }
        while index < utf8.endIndex {
            let byte = utf8[index]
            if byte == UInt8(ascii: "\"") {
                inQuotes.toggle()
            } else if !inQuotes, byte == UInt8(ascii: ",") {
                guard emit(index) else { return }
                itemStart = utf8.index(after: index)
            } else if !inQuotes, byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t"),
                let next = keyStart(after: index, in: utf8), text[itemStart..<index].contains("=")
            {
                guard emit(index) else { return }
                itemStart = next
                index = next
                continue
            }
            index = utf8.index(after: index)
        }
        _ = emit(utf8.endIndex)
    }

    /// Where a `NAME=` begins after the blanks at `index`, nil when what
    /// follows the blanks is not a name and `=`.
    private static func keyStart(after index: String.Index, in utf8: String.UTF8View) -> String.Index? {
        var position = index
        while position < utf8.endIndex, utf8[position] == UInt8(ascii: " ") || utf8[position] == UInt8(ascii: "\t") {
            position = utf8.index(after: position)
        }
        let start = position
        while position < utf8.endIndex {
            let byte = utf8[position]
            let isNameByte =
                (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
                || (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z"))
                || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || byte == UInt8(ascii: "-")
                || byte == UInt8(ascii: "_")
            if byte == UInt8(ascii: "=") { return position > start ? start : nil }
            guard isNameByte else { return nil }
            position = utf8.index(after: position)
        }
        return nil
    }
}

extension String {
    fileprivate func caseInsensitiveEquals(_ other: String) -> Bool {
        utf8.count == other.utf8.count && lowercased() == other.lowercased()
    }
}

extension Substring {
    /// The text without leading and trailing spaces and tabs.
    func trimmingWhitespace() -> Substring {
        var start = startIndex
        var end = endIndex
        while start < end, self[start] == " " || self[start] == "\t" { start = index(after: start) }
        while end > start {
            let before = index(before: end)
            guard self[before] == " " || self[before] == "\t" else { break }
            end = before
        }
        return self[start..<end]
    }
}
