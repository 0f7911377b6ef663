import Foundation
import Interlude

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What the terminal player shows at one moment.
struct TerminalFrame: Equatable {
    var contentTime: TimeInterval
    var contentDuration: TimeInterval
    var contentPlaying: Bool
    var cuePoints: [TimeInterval]
    var inBreak: Bool
    var breakLabel: String
    var ui: AdUIState
    var adTime: TimeInterval
    var adDuration: TimeInterval
    var adPaused: Bool
    var lastEvent: String

    /// The lines of the screen.
    func lines(width: Int = 60) -> [String] {
        var lines: [String] = []
        let state = contentPlaying ? "▶" : "❚❚"
        lines.append(
            "content \(state) \(clock(contentTime)) / \(clock(contentDuration))  \(timeline(width: width - 30))")
        if inBreak {
            // Either UI fills the same fields: the custom UI's texts, or the built-in UI's as IMA shows them.
            let shown = ui.isCustomUIVisible || ui.isBuiltInUIVisible
            var ad = "AD BREAK (\(breakLabel))"
            if ui.isBuiltInUIVisible { ad += "  [built-in UI]" }
            if shown && ui.countdownVisible && !ui.countdownText.isEmpty { ad += "  \(ui.countdownText)" }
            if adPaused { ad += "  ❚❚ paused" }
            lines.append(ad)
            var buttons: [String] = []
            if shown && ui.skipButtonVisible && !ui.skipButtonTitle.isEmpty {
                buttons.append(ui.skipButtonEnabled ? "[ \(ui.skipButtonTitle) (s) ]" : "( \(ui.skipButtonTitle) )")
            }
            if shown && ui.learnMoreVisible { buttons.append("[ \(ui.learnMoreTitle) (l) ]") }
            // Icons (AdChoices, …) show in either UI; `i` taps the first.
            for (position, icon) in ui.icons.enumerated() {
                let name = icon.program.isEmpty ? "icon" : icon.program
                buttons.append(position == 0 ? "[ \(name) (i) ]" : "[ \(name) ]")
            }
            lines.append(buttons.joined(separator: "   "))
        } else {
            lines.append("")
            lines.append("")
        }
        lines.append("last event: \(lastEvent)")
        lines.append("keys: s skip · l learn more · i icon · p pause · space tap · q quit")
        return lines
    }

    /// Content state without the bar (for pipes).
    var contentSummary: String {
        "content \(contentPlaying ? "▶" : "❚❚") \(clock(contentTime)) / \(clock(contentDuration))"
    }

    private func timeline(width: Int) -> String {
        let cells = max(10, width)
        guard contentDuration > 0 else { return "" }
        var bar = Array(repeating: Character("-"), count: cells)
        let played = Int((contentTime / contentDuration * Double(cells)).rounded(.down))
        for index in 0..<min(played, cells) { bar[index] = "=" }
        for cue in cuePoints {
            let position = cue < 0 ? cells - 1 : min(cells - 1, Int(cue / contentDuration * Double(cells)))
            bar[position] = "|"
        }
        return "[" + String(bar) + "]"
    }

    private func clock(_ seconds: TimeInterval) -> String {
        let total = Int(max(0, seconds).rounded(.down))
        return String(format: "%02d:%02d", total / 60, total % 60)
    }
}

/// Writes frames: redrawn in place on a terminal, one line per change in a
/// pipe, or JSON lines.
final class TerminalOutput: @unchecked Sendable {
    // Written from the main actor only (frames) and from the beacon observer (JSON lines): `lock` guards both.
    private let lock = NSLock()
    let json: Bool
    let isTerminal = isatty(STDOUT_FILENO) != 0
    private var drawnLines = 0
    private var lastPipeLine = ""

    /// The command named in failure messages.
    let command: String

    init(json: Bool, command: String = "interlude play") {
        self.json = json
        self.command = command
    }

    func begin(title: String) {
        guard !json else { return }
        write(title + "\n")
    }

    func draw(_ frame: TerminalFrame) {
        let lines = frame.lines()
        // A pipe gets a line whenever what it shows changes: the ad
        // line and the event, or the content time (whole seconds) between breaks.
        let body = frame.inBreak ? Array(lines.dropFirst()) : [frame.contentSummary] + lines.dropFirst()
        let line = body.filter { !$0.isEmpty && !$0.hasPrefix("keys:") }.joined(separator: " | ")
        draw(lines: lines, pipeLine: line)
    }

    /// Draws `lines` in place on a terminal; in a pipe writes `pipeLine`
    /// when `pipeKey` (default: the line itself) differs from the last one written.
    func draw(lines: [String], pipeLine: String, pipeKey: String? = nil) {
        lock.withLock {
            if isTerminal {
                var text = drawnLines > 0 ? "\u{1B}[\(drawnLines)A" : ""
                for line in lines { text += "\u{1B}[2K" + line + "\n" }
                drawnLines = lines.count
                writeUnlocked(text)
            } else {
                let key = pipeKey ?? pipeLine
                if key != lastPipeLine {
                    lastPipeLine = key
                    writeUnlocked(pipeLine + "\n")
                }
            }
        }
    }

    /// Writes `text` below the frame; the next frame is drawn under it.
    func note(_ text: String) {
        guard !json else { return }
        lock.withLock {
            drawnLines = 0
            writeUnlocked(text.hasSuffix("\n") ? text : text + "\n")
        }
    }

    func jsonLine(_ fields: [String: String]) {
        guard json else { return }
        let data =
            (try? JSONSerialization.data(withJSONObject: fields, options: [.sortedKeys, .withoutEscapingSlashes]))
            ?? Data()
        write(String(decoding: data, as: UTF8.self) + "\n")
    }

    func failure(_ message: String) {
        FileHandle.standardError.write(Data((command + ": " + message + "\n").utf8))
    }

    func end() {
        guard !json else { return }
        write("done\n")
    }

    private func write(_ text: String) { lock.withLock { writeUnlocked(text) } }

    private func writeUnlocked(_ text: String) {
        FileHandle.standardOutput.write(Data(text.utf8))
    }
}
