import Foundation
import Interlude
import InterludePlayer

/// `interlude play URL`: a terminal player for a VAST or VMAP tag, showing
/// the content timeline, the ad break and the custom UI (countdown, skip
/// button, Learn More) drawn from `AdUIState`.
enum PlayCommand {
    struct Options {
        var tag: URL?
        var speed: Double = 1
        var contentDuration: TimeInterval = 60
        var json = false
        var language = "en"
        /// Presses `s` by itself the first time a skip button enables (the demo).
        var autoSkip = false
        /// Settings' session identifier (the demo's session).
        var sessionID: String?
    }

    static let usage = """
        usage: interlude play [--speed N] [--content-duration SECONDS] [--language TAG] [--json] URL
          keys: s skip · l learn more · p pause/resume · space tap (resumes a paused ad) · q quit
        """

    static func parse(_ arguments: [String]) -> Result<Options, UsageFailure> {
        var options = Options()
        var index = 0
        func value(_ flag: String) -> String? {
            index += 1
            return index < arguments.count ? arguments[index] : nil
        }
        while index < arguments.count {
            let argument = arguments[index]
            switch argument {
            case "--speed":
                guard let text = value(argument), let speed = Double(text), speed > 0, speed <= 1000 else {
                    return .failure(UsageFailure(message: "--speed needs a number between 0 and 1000"))
                }
                options.speed = speed
            case "--content-duration":
                guard let text = value(argument), let seconds = Double(text), seconds > 0, seconds < 86_400 * 7 else {
                    return .failure(UsageFailure(message: "--content-duration needs a number of seconds"))
                }
                options.contentDuration = seconds
            case "--language":
                guard let tag = value(argument) else {
                    return .failure(UsageFailure(message: "--language needs a tag"))
                }
                options.language = tag
            case "--json":
                options.json = true
            default:
                if argument.hasPrefix("--") { return .failure(UsageFailure(message: "unknown option '\(argument)'")) }
                guard options.tag == nil else { return .failure(UsageFailure(message: "only one URL can be played")) }
                guard let url = URL(string: argument), url.isHTTPOrHTTPS else {
                    return .failure(UsageFailure(message: "'\(argument)' is not an http(s) URL"))
                }
                options.tag = url
            }
            index += 1
        }
        guard options.tag != nil else { return .failure(UsageFailure(message: "missing the tag URL")) }
        return .success(options)
    }

    struct UsageFailure: Error {
        var message: String
    }

    @MainActor
    static func run(arguments: [String], httpClient: (any HTTPClient)? = nil) async -> Int32 {
        let options: Options
        switch parse(arguments) {
        case .success(let parsed): options = parsed
        case .failure(let failure):
            InterludeCommand.writeError("interlude play: \(failure.message)\n\(usage)")
            return 2
        }
        let output = TerminalOutput(json: options.json)
        let session = PlaySession(options: options, output: output, httpClient: httpClient)
        return await session.run()
    }
}
