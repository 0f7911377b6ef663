import Foundation

/// An ad break of a VOD stream, in stream time (ads included). IMA's `IMACuepoint`.
public struct Cuepoint: Sendable, Hashable, Codable {
    /// Seconds into the stream where the break starts. IMA's `startTime`.
    public var startTime: TimeInterval
    /// Seconds into the stream where the break ends. IMA's `endTime`.
    public var endTime: TimeInterval
    /// Whether the break has played (it counts as played once the playhead
    /// enters it). IMA's `isPlayed`.
    public var isPlayed: Bool

    /// A cuepoint from `startTime` to `endTime` stream seconds. Interlude's
    /// own (IMA's cuepoints come only from the SDK): for tests and for
    /// apps that draw a seek bar from stored cuepoints.
    public init(startTime: TimeInterval, endTime: TimeInterval, isPlayed: Bool) {
        self.startTime = startTime
        self.endTime = endTime
        self.isPlayed = isPlayed
    }

    /// The cuepoints as the `cuepoints` value of a `cuepointsChanged`
    /// event's `adData`: a JSON array of `{"start","end","played"}`.
    static func adDataValue(_ cuepoints: [Cuepoint]) -> String {
        "[" + cuepoints.map { $0.adDataPrefix + ($0.isPlayed ? "true}" : "false}") }.joined(separator: ",") + "]"
    }

    /// The entry up to its `played` value: `{"start":80,"end":110,"played":`.
    var adDataPrefix: String {
        "{\"start\":" + Self.number(startTime) + ",\"end\":" + Self.number(endTime) + ",\"played\":"
    }

    /// The list from prefixes made once (a VOD stream's breaks never move;
    /// only `played` changes when one plays).
    static func adDataValue(prefixes: [String], played: [Bool]) -> String {
        var text = "["
        for (index, prefix) in prefixes.enumerated() {
            if index > 0 { text += "," }
            text += prefix
            text += played[index] ? "true}" : "false}"
        }
        return text + "]"
    }

    /// Seconds with at most three decimals, no trailing zeros (`12`, `12.5`),
    /// from whole milliseconds (no `String(format:)`: every break's first
    /// play writes the whole list).
    static func number(_ seconds: TimeInterval) -> String {
        guard seconds.isFinite, abs(seconds) < 1e12 else { return "0" }
        let milliseconds = Int64((seconds * 1000).rounded())
        let sign = milliseconds < 0 ? "-" : ""
        let whole = abs(milliseconds) / 1000
        var fraction = abs(milliseconds) % 1000
        guard fraction != 0 else { return sign + String(whole) }
        var digits = 3
        while fraction % 10 == 0 {
            fraction /= 10
            digits -= 1
        }
        let text = String(fraction)
        return sign + String(whole) + "." + String(repeating: "0", count: digits - text.count) + text
    }
}
