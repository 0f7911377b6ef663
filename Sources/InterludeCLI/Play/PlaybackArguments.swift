import Foundation

/// Reads a command line one argument at a time. `play` and `demo` read the
/// playback flags they share (`--speed`, `--content-duration`,
/// `--language`) through ``readPlaybackFlag(_:into:limits:)``, so both
/// check them alike.
struct ArgumentReader {
    /// What each command allows for the shared flags.
    struct PlaybackLimits {
        var maxSpeed: Double
        /// Content shorter than this is refused (the demo's schedule needs 35 s).
        var minContentDuration: TimeInterval

        static let play = PlaybackLimits(maxSpeed: 1000, minContentDuration: 0)
        static let demo = PlaybackLimits(maxSpeed: 100, minContentDuration: 35)
        /// `interlude stream`: an HLS player faster than 100× only outruns its downloads.
        static let stream = PlaybackLimits(maxSpeed: 100, minContentDuration: 0)
    }

    private let arguments: [String]
    private var index = 0

    init(_ arguments: [String]) { self.arguments = arguments }

    /// The next argument, or nil at the end.
    mutating func next() -> String? {
        guard index < arguments.count else { return nil }
        defer { index += 1 }
        return arguments[index]
    }

    /// The value after `flag`, or a usage failure naming it.
    mutating func value(of flag: String, _ requirement: String) throws(PlayCommand.UsageFailure) -> String {
        guard let value = next() else { throw PlayCommand.UsageFailure(message: "\(flag) needs \(requirement)") }
        return value
    }

    /// Reads `flag` (and its value) into `options` when it is a shared
    /// playback flag; false when it is not one.
    mutating func readPlaybackFlag(_ flag: String, into options: inout PlayCommand.Options, limits: PlaybackLimits)
        throws(PlayCommand.UsageFailure) -> Bool
    {
        switch flag {
        case "--speed":
            let requirement = "a number between 0 and \(Int(limits.maxSpeed))"
            let text = try value(of: flag, requirement)
            guard let speed = Double(text), speed > 0, speed <= limits.maxSpeed else {
                throw PlayCommand.UsageFailure(message: "\(flag) needs \(requirement), got '\(text)'")
            }
            options.speed = speed
        case "--content-duration":
            let requirement =
                limits.minContentDuration > 0
                ? "a number of seconds, at least \(Int(limits.minContentDuration))" : "a number of seconds"
            let text = try value(of: flag, requirement)
            guard let seconds = Double(text), seconds > max(0, limits.minContentDuration - 1e-9), seconds < 86_400 * 7
            else { throw PlayCommand.UsageFailure(message: "\(flag) needs \(requirement), got '\(text)'") }
            options.contentDuration = seconds
        case "--language":
            options.language = try value(of: flag, "a language tag")
        default:
            return false
        }
        return true
    }
}
