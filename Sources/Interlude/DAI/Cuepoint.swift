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

    public init(startTime: TimeInterval, endTime: TimeInterval, isPlayed: Bool) {
        self.startTime = startTime
        self.endTime = endTime
        self.isPlayed = isPlayed
    }

    /// The cuepoints as the `cuepoints` value of a `cuepointsChanged`
    /// event's `adData`: a JSON array of `{"start","end","played"}`.
    static func adDataValue(_ cuepoints: [Cuepoint]) -> String {
        let items = cuepoints.map { cuepoint in
            "{\"start\":\(number(cuepoint.startTime)),\"end\":\(number(cuepoint.endTime)),\"played\":\(cuepoint.isPlayed)}"
        }
        return "[" + items.joined(separator: ",") + "]"
    }

    /// Seconds with at most three decimals, no trailing zeros (`12`, `12.5`).
    private static func number(_ seconds: TimeInterval) -> String {
        let milliseconds = (seconds * 1000).rounded()
        if milliseconds.truncatingRemainder(dividingBy: 1000) == 0 { return String(Int64(milliseconds / 1000)) }
        var text = String(format: "%.3f", milliseconds / 1000)
        while text.hasSuffix("0") { text.removeLast() }
        return text
    }
}
