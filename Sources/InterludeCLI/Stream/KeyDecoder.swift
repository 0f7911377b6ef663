import Foundation

/// A user's command in `interlude stream`.
enum StreamAction: Equatable {
    /// Seek by this many seconds.
    case seek(TimeInterval)
    case togglePause
    case learnMore
    case quit
}

/// Turns keys into actions: `b`/`f` and the arrow keys (`ESC [ D`, `ESC [ C`,
/// as a terminal in raw mode sends them) seek, `p` or space pause, `l` is
/// Learn More, `q` quits; anything else is ignored.
struct KeyDecoder {
    private var escape: [Character] = []

    mutating func feed(_ key: Character) -> StreamAction? {
        if !escape.isEmpty {
            escape.append(key)
            if escape.count == 2 {
                if key == "[" || key == "O" { return nil }
                escape = []
                return Self.plain(key)
            }
            escape = []
            switch key {
            case "C": return .seek(10)
            case "D": return .seek(-10)
            default: return nil
            }
        }
        if key == "\u{1B}" {
            escape = [key]
            return nil
        }
        return Self.plain(key)
    }

    private static func plain(_ key: Character) -> StreamAction? {
        switch key {
        case "f", ".", ">": .seek(10)
        case "b", ",", "<": .seek(-10)
        case "p", " ": .togglePause
        case "l": .learnMore
        case "q": .quit
        default: nil
        }
    }
}
