import Foundation
import Interlude
import InterludePlayer

/// `interlude play URL`: a terminal player for a VAST or VMAP tag, showing
/// the content timeline, the ad break and the ad UI drawn from `AdUIState`
/// (the custom UI when the ad allows it, else the built-in UI's ad label,
/// skip button and Learn more).
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
          keys: s skip · l learn more · i tap the ad's icon (AdChoices) · p pause/resume · space tap (resumes a paused ad) · q quit
        """

    static func parse(_ arguments: [String]) -> Result<Options, UsageFailure> {
        var options = Options()
        var reader = ArgumentReader(arguments)
        do throws(UsageFailure) {
            while let argument = reader.next() {
                if try reader.readPlaybackFlag(argument, into: &options, limits: .play) { continue }
                switch argument {
                case "--json":
                    options.json = true
                default:
                    if argument.hasPrefix("--") { throw UsageFailure(message: "unknown option '\(argument)'") }
                    guard options.tag == nil else { throw UsageFailure(message: "only one URL can be played") }
                    guard let url = URL(string: argument), url.isHTTPOrHTTPS else {
                        throw UsageFailure(message: "'\(argument)' is not an http(s) URL")
                    }
                    options.tag = url
                }
            }
        } catch {
            return .failure(error)
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
        let session = PlaySession(options: options, output: output, httpClient: httpClient, endsOnSignals: true)
        return await session.run()
    }
}
