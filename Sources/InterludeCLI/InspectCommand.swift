import Foundation
import Interlude
import InterludeInspection
import InterludeVAST

/// `interlude inspect FILE|URL|-`: a readable report of an ad document or
/// playlist; `interlude inspect --scte35 HEX|BASE64`: a SCTE-35 section.
enum InspectCommand {
    struct Options {
        var path: String?
        var json = false
        var strict = false
        var verbose = false
        /// `--scte35`: the section to decode instead of a document.
        var scte35: String?
    }

    static let usage = """
        usage: interlude inspect [--json] [--strict] [--verbose] FILE|URL|-
               interlude inspect --scte35 HEX|BASE64 [--json]
        """

    static func parseOptions(_ arguments: [String]) -> Result<Options, UsageError> {
        var options = Options()
        var remaining = arguments[...]
        while let argument = remaining.popFirst() {
            switch argument {
            case "--json": options.json = true
            case "--strict": options.strict = true
            case "--verbose", "-v": options.verbose = true
            case "--scte35":
                guard let value = remaining.popFirst(), !value.hasPrefix("--") else {
                    return .failure(UsageError(message: "--scte35 needs a hex or base64 section"))
                }
                options.scte35 = value
            case "-": options.path = options.path == nil ? "-" : options.path
            case let flag where flag.hasPrefix("--"):
                return .failure(UsageError(message: "unknown option '\(flag)'"))
            default:
                guard options.path == nil else {
                    return .failure(UsageError(message: "only one FILE can be inspected"))
                }
                options.path = argument
            }
        }
        if options.scte35 != nil {
            guard options.path == nil else {
                return .failure(UsageError(message: "--scte35 decodes its own value: give no FILE with it"))
            }
            return .success(options)
        }
        guard options.path != nil else {
            return .failure(UsageError(message: "missing FILE (or - for standard input)"))
        }
        return .success(options)
    }

    struct UsageError: Error {
        var message: String
    }

    /// `clock` times the tag's fetches (tests pass a manual one, so a loaded
    /// machine cannot turn an in-memory answer into a timeout).
    static func run(
        arguments: [String], readStandardInput: @Sendable () -> Data, httpClient: (any HTTPClient)? = nil,
        clock: any AdClock = SystemClock()
    ) async -> CommandResult {
        let options: Options
        switch parseOptions(arguments) {
        case .success(let parsed): options = parsed
        case .failure(let error):
            return CommandResult(output: "", errorOutput: "interlude inspect: \(error.message)\n\(usage)", exitCode: 2)
        }
        if let section = options.scte35 {
            let report = SCTE35Inspection(text: section)
            return CommandResult(
                output: options.json ? report.json() : report.text(), exitCode: report.isValid ? 0 : 1)
        }
        let data: Data
        if options.path == "-" {
            data = readStandardInput()
        } else {
            let path = options.path!
            if path.hasPrefix("http://") || path.hasPrefix("https://") {
                guard let url = URL(string: path) else {
                    return CommandResult(
                        output: "", errorOutput: "interlude inspect: invalid URL '\(path)'", exitCode: 2)
                }
                // A stream URL is inspected as a playlist: named so, or answering
                // one where a VAST/VMAP document was expected.
                if Self.namesPlaylist(url), let result = await inspectStream(at: url, options: options, httpClient) {
                    return result
                }
                let resolution = await AdTagResolver(httpClient: httpClient, clock: clock).resolve(tagURL: url)
                let report = InspectionReport.make(from: resolution)
                if !report.playable, resolution.hops.count == 1, resolution.error?.code.rawValue == 100,
                    let result = await inspectStream(at: url, options: options, httpClient)
                {
                    return result
                }
                return CommandResult(
                    output: options.json ? report.json() : report.text(verbose: options.verbose),
                    exitCode: report.playable ? 0 : 1)
            }
            guard let contents = FileManager.default.contents(atPath: path) else {
                return CommandResult(output: "", errorOutput: "interlude inspect: cannot read '\(path)'", exitCode: 2)
            }
            data = contents
        }
        let bytes = [UInt8](data)
        if isPlaylist(bytes: bytes) {
            let playlist = inspectPlaylist(bytes: bytes, json: options.json)
            return CommandResult(output: playlist.output, exitCode: playlist.exitCode)
        }
        let report = InspectionReport.make(from: data, strict: options.strict)
        let output = options.json ? report.json() : report.text(verbose: options.verbose)
        return CommandResult(output: output, exitCode: report.playable ? 0 : 1)
    }

    /// True for a URL whose path ends in `.m3u8` or `.m3u`.
    static func namesPlaylist(_ url: URL) -> Bool {
        let path = url.path.lowercased()
        return path.hasSuffix(".m3u8") || path.hasSuffix(".m3u")
    }

    /// The playlist report of what `url` answers (its QUERYPARAM variables
    /// read from `url`), or nil when it answers no playlist.
    static func inspectStream(at url: URL, options: Options, _ httpClient: (any HTTPClient)?) async
        -> CommandResult?
    {
        let client = httpClient ?? URLSessionHTTPClient()
        guard let response = try? await client.send(HTTPRequest(url: url, timeout: 8)),
            (200..<300).contains(response.statusCode), isPlaylist(bytes: [UInt8](response.body))
        else { return nil }
        let playlist = InterludeCLI.inspectPlaylist(bytes: [UInt8](response.body), json: options.json, url: url)
        return CommandResult(output: playlist.output, exitCode: playlist.exitCode)
    }
}
