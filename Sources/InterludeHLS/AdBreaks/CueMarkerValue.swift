/// Reads the values of the non-standard CUE markers, whose syntax varies by
/// packager: `#EXT-X-CUE-OUT:30`, `#EXT-X-CUE-OUT:DURATION=30`,
/// `#EXT-X-CUE-OUT:177.100,SignalID=…` (Adobe), `#EXT-X-CUE-OUT-CONT:ElapsedTime=5,Duration=30,SCTE35=…`
/// (MediaTailor, Elemental SCTE-35 enhanced), `#EXT-X-CUE-OUT-CONT: 8.308/30` (Elemental).
enum CueMarkerValue {
    /// The duration of a CUE-OUT, nil when it has none.
    static func duration(_ text: String?) -> Double? {
        guard let text, !text.isEmpty else { return nil }
        if let value = decimal(text) { return value }
        if let first = text.split(separator: ",", maxSplits: 1).first, let value = decimal(String(first)) {
            return value
        }
        return field("DURATION", in: text).flatMap(decimal)
    }

    /// Elapsed time and total duration of a CUE-OUT-CONT.
    static func continuation(_ text: String?) -> (elapsed: Double?, duration: Double?) {
        guard let text, !text.isEmpty else { return (nil, nil) }
        let slash = text.split(separator: "/", maxSplits: 1)
        if slash.count == 2, let elapsed = decimal(String(slash[0])) {
            // `5.005/177.100,SignalID=…`: the total ends at the first comma.
            let total = slash[1].split(separator: ",", maxSplits: 1).first.map(String.init) ?? ""
            return (elapsed, decimal(total))
        }
        return (
            field("ELAPSEDTIME", in: text).flatMap(decimal),
            field("DURATION", in: text).flatMap(decimal)
        )
    }

    /// A decimal with the blanks some packagers write around it.
    private static func decimal(_ text: String) -> Double? {
        HLSNumberFormat.parseDecimal(Substring(text).trimmingWhitespace())
    }

    /// The value of `name=` (case-insensitive) in a comma-separated list.
    static func field(_ name: String, in text: String) -> String? {
        for item in text.split(separator: ",") {
            let pair = item.split(separator: "=", maxSplits: 1)
            if pair.count == 2, pair[0].trimmingWhitespace().uppercased() == name {
                var value = pair[1].trimmingWhitespace()
                if value.hasPrefix("\""), value.hasSuffix("\""), value.count >= 2 {
                    value = String(value.dropFirst().dropLast())
                }
                return value
            }
        }
        return nil
    }
}

extension Substring {
    func trimmingWhitespace() -> String {
        String(drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
    }
}
