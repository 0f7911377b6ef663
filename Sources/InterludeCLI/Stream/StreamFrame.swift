import Foundation
import Interlude

/// What `interlude stream` shows at one moment: a pure value, drawn as
/// lines (a terminal) or as one summary line (a pipe).
struct StreamFrame: Equatable {
    enum Phase: Equatable {
        case loading, playing, paused, buffering, ended
    }

    var isLive: Bool
    var phase: Phase
    var streamTime: TimeInterval
    /// VOD: the stitched stream's length; 0 for live.
    var streamDuration: TimeInterval
    var contentTime: TimeInterval
    /// VOD: the content's length; 0 for live.
    var contentDuration: TimeInterval
    var speed: Double
    /// VOD: the manager's cuepoints; live: the breaks played so far (an
    /// open one ends at the playhead).
    var cuepoints: [Cuepoint]
    /// Between `adPeriodStarted` and `adPeriodEnded`.
    var inBreak: Bool
    var ui: AdUIState
    var lastEvent: String

    /// Seconds of stream a live bar spans.
    static let liveBarSpan: TimeInterval = 120
    static let keysLine = "keys: ←/b −10 s · →/f +10 s · p pause · l learn more · q quit"

    /// The lines of the screen.
    func lines(width: Int = 72) -> [String] {
        [
            statusLine, "\(bar(cells: max(10, width - 26)))  \(playedSummary)", adLine, "last event: \(lastEvent)",
            Self.keysLine,
        ]
    }

    /// One line for a pipe: written when ``pipeKey`` changes (an ad, its
    /// countdown's second, an event), with the stream time of the change.
    var pipeLine: String {
        "[\(Self.clock(streamTime))] " + (adLine.isEmpty ? "content" : adLine) + " | last event: \(lastEvent)"
    }

    /// What a pipe line is written for (not the time itself).
    var pipeKey: String { adLine + "|" + lastEvent + "|" + playedSummary }

    var statusLine: String {
        let symbol =
            switch phase {
            case .loading: "…"
            case .playing: "▶"
            case .paused: "❚❚"
            case .buffering: "⧗"
            case .ended: "■"
            }
        let rate = speed == 1 ? "" : "  \(Self.number(speed))×"
        if isLive {
            return "stream \(symbol) \(Self.clock(streamTime)) (live)   content \(Self.clock(contentTime))\(rate)"
        }
        return "stream \(symbol) \(Self.clock(streamTime)) / \(Self.clock(streamDuration))   "
            + "content \(Self.clock(contentTime)) / \(Self.clock(contentDuration))\(rate)"
    }

    /// The custom ad UI: the countdown ("Ad 1 of 3 (12s)") and Learn More,
    /// or the built-in UI's fields; "AD BREAK" where no UI shows (slate,
    /// the moment before an ad starts); empty in content.
    var adLine: String {
        let shown = ui.isCustomUIVisible || ui.isBuiltInUIVisible
        guard shown || inBreak else { return "" }
        var line = "AD"
        if ui.isBuiltInUIVisible { line += " [built-in UI]" }
        if shown && ui.countdownVisible && !ui.countdownText.isEmpty { line += "  \(ui.countdownText)" }
        if shown && ui.learnMoreVisible { line += "   [ \(ui.learnMoreTitle) (l) ]" }
        if !shown { line += " BREAK" }
        if phase == .paused { line += "  ❚❚ paused" }
        return line
    }

    /// "breaks played 1/4" (VOD) or "breaks played 2" (live).
    var playedSummary: String {
        let played = cuepoints.filter(\.isPlayed).count
        return isLive ? "breaks played \(played)" : "breaks played \(played)/\(cuepoints.count)"
    }

    /// The cuepoints bar: `=` content played, `-` content ahead, `#` a
    /// played break, `:` a break not played yet, `|` the playhead. VOD spans
    /// the whole stream; live the last minutes around the playhead.
    func bar(cells: Int) -> String {
        let (start, span) = barRange
        guard span > 0 else { return "[" + String(repeating: "-", count: cells) + "]" }
        func cell(_ time: TimeInterval) -> Int { Int(((time - start) / span * Double(cells)).rounded(.down)) }
        var bar = (0..<cells).map { index -> Character in
            start + (Double(index) + 0.5) / Double(cells) * span <= streamTime ? "=" : "-"
        }
        for cue in cuepoints {
            let end = max(cue.startTime, cue.endTime)
            guard end >= start, cue.startTime <= start + span else { continue }
            let first = max(0, min(cells - 1, cell(cue.startTime)))
            let last = end > cue.startTime ? max(first, min(cells - 1, cell(end - 1e-9))) : first
            for index in first...last { bar[index] = cue.isPlayed ? "#" : ":" }
        }
        let head = min(cells - 1, max(0, cell(streamTime)))
        if phase != .ended { bar[head] = "|" }
        return "[" + String(bar) + "]"
    }

    private var barRange: (start: TimeInterval, span: TimeInterval) {
        if isLive {
            let start = max(0, streamTime - Self.liveBarSpan * 0.75)
            return (start, Self.liveBarSpan)
        }
        return (0, streamDuration)
    }

    static func clock(_ seconds: TimeInterval) -> String {
        let total = Int(max(0, seconds.isFinite ? seconds : 0).rounded(.down))
        return total >= 3600
            ? String(format: "%d:%02d:%02d", total / 3600, total / 60 % 60, total % 60)
            : String(format: "%02d:%02d", total / 60, total % 60)
    }

    static func number(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String(format: "%g", value)
    }
}
