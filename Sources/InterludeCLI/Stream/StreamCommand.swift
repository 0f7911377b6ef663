import Foundation
import Interlude

/// `interlude stream live [CHANNEL] | vod [TITLE] | URL`: registers a
/// pod-serving stream through the SDK (`AdsLoader.loadStream`), plays the
/// VTP's stitched stream with `HLSStreamDisplay`, and draws stream time,
/// content time, the cuepoints bar and the custom ad UI in the terminal.
enum StreamCommand {
    /// What to play and how.
    struct Options: Equatable {
        /// Which registration the stream needs.
        enum Kind: Equatable {
            /// A livestream (`PodStreamRequest`) of this custom asset key.
            case live(customAssetKey: String)
            /// A VOD stream (`PodVODStreamRequest`); the VTP knows the content.
            case vod
        }

        var kind: Kind
        /// The pod-serving API's base URL (`StreamRequest.serverURL`).
        var serverURL: URL
        /// The VTP's manifest URL with `[[STREAMID]]` where the stream ID goes.
        var template: String
        var networkCode = "interlude"
        var apiKey: String?
        /// Stream seconds per wall second.
        var speed: Double = 1
        var language = "en"
        var json = false
        /// Snapback (a seek over an unplayed break plays it first); VOD only.
        var snapback = true

        /// The manifest URL for a stream ID (the seed's custom VTP handler).
        func manifestURL(streamID: String) -> URL? {
            URL(string: template.replacingOccurrences(of: StreamCommand.streamIDMacro, with: streamID))
        }

        var isLive: Bool {
            if case .live = kind { return true }
            return false
        }
    }

    static let streamIDMacro = "[[STREAMID]]"
    /// `interlude serve`'s default address.
    static let defaultServer = "http://127.0.0.1:8080"
    /// The built-in channel and title of `interlude serve`.
    static let defaultChannel = "interlude-live"
    static let defaultTitle = "interlude-film"

    static let usage = """
        usage: interlude stream live [CHANNEL] [options]   a livestream (custom asset key CHANNEL, default interlude-live)
               interlude stream vod [TITLE] [options]      a VOD stream of TITLE (default interlude-film)
               interlude stream URL [options]              a VTP manifest template with [[STREAMID]]
          options: --server URL (default http://127.0.0.1:8080; for a URL: its own server), --network CODE (interlude),
                   --api-key KEY, --live KEY | --vod (what a URL plays, when its path does not say), --speed N (1),
                   --language TAG (en), --no-snapback, --json (events, verifications and errors as JSON lines)
          keys: ←/b back 10 s · →/f forward 10 s · p or space pause · l learn more · q quit
        """

    /// Reads the arguments after `stream`.
    static func parse(_ arguments: [String]) -> Result<Options, PlayCommand.UsageFailure> {
        typealias Failure = PlayCommand.UsageFailure
        var reader = ArgumentReader(arguments)
        var positionals: [String] = []
        var server: String?
        var network = "interlude"
        var apiKey: String?
        var declared: Options.Kind?
        var playback = PlayCommand.Options()
        var json = false
        var snapback = true
        do throws(Failure) {
            while let argument = reader.next() {
                if argument == "--content-duration" { throw Failure(message: "unknown option '\(argument)'") }
                if try reader.readPlaybackFlag(argument, into: &playback, limits: .stream) { continue }
                switch argument {
                case "--server": server = try reader.value(of: argument, "a URL")
                case "--network":
                    network = try reader.value(of: argument, "a network code")
                    guard isSafeName(network) else { throw Failure(message: "'\(network)' is not a network code") }
                case "--api-key": apiKey = try reader.value(of: argument, "a key")
                case "--live":
                    let key = try reader.value(of: argument, "a custom asset key")
                    guard isSafeName(key) else { throw Failure(message: "'\(key)' is not a custom asset key") }
                    declared = .live(customAssetKey: key)
                case "--vod": declared = .vod
                case "--json": json = true
                case "--no-snapback": snapback = false
                default:
                    if argument.hasPrefix("-") { throw Failure(message: "unknown option '\(argument)'") }
                    positionals.append(argument)
                }
            }
            guard let first = positionals.first else { throw Failure(message: "say live, vod or a URL") }
            guard positionals.count <= 2, positionals.count == 1 || first == "live" || first == "vod" else {
                throw Failure(message: "unexpected argument '\(positionals.last!)'")
            }
            let serverText = server ?? defaultServer
            guard let serverURL = URL(string: serverText), serverURL.isHTTPOrHTTPS, serverURL.host != nil else {
                throw Failure(message: "--server needs an http(s) URL, got '\(serverText)'")
            }
            let base = serverText.hasSuffix("/") ? String(serverText.dropLast()) : serverText
            var options: Options
            switch first {
            case "live", "vod":
                let name = positionals.count == 2 ? positionals[1] : (first == "live" ? defaultChannel : defaultTitle)
                guard isSafeName(name) else {
                    throw Failure(message: "'\(name)' is not a \(first == "live" ? "channel" : "title") name")
                }
                if declared != nil { throw Failure(message: "--live and --vod go with a URL") }
                let path = first == "live" ? "live" : "video"
                options = Options(
                    kind: first == "live" ? .live(customAssetKey: name) : .vod, serverURL: serverURL,
                    template: "\(base)/vtp/stream_id/\(streamIDMacro)/\(path)/\(name).m3u8")
            default:
                guard first.contains(streamIDMacro) else {
                    throw Failure(message: "'\(first)' is not live, vod or a URL template with \(streamIDMacro)")
                }
                let filled = first.replacingOccurrences(of: streamIDMacro, with: "stream")
                guard let url = URL(string: filled), url.isHTTPOrHTTPS, let host = url.host, !host.isEmpty else {
                    throw Failure(message: "'\(first)' is not an http(s) URL")
                }
                guard let kind = declared ?? kind(ofTemplatePath: url.path) else {
                    throw Failure(
                        message: "cannot tell whether '\(first)' is live or VOD: add --live CUSTOM_ASSET_KEY or --vod")
                }
                var ownServer = URLComponents()
                ownServer.scheme = url.scheme
                ownServer.host = host
                ownServer.port = url.port
                let serverURLForTemplate = server == nil ? (ownServer.url ?? serverURL) : serverURL
                options = Options(kind: kind, serverURL: serverURLForTemplate, template: first)
            }
            options.networkCode = network
            options.apiKey = apiKey
            options.speed = playback.speed
            options.language = playback.language
            options.json = json
            options.snapback = snapback
            return .success(options)
        } catch {
            return .failure(error)
        }
    }

    /// The kind a template's path names in `interlude serve`'s VTP shape:
    /// `…/live/{custom asset key}.m3u8` or `…/video/{content}.m3u8`.
    static func kind(ofTemplatePath path: String) -> Options.Kind? {
        let parts = path.split(separator: "/").map(String.init)
        guard parts.count >= 2, let file = parts.last, file.hasSuffix(".m3u8") else { return nil }
        let name = String(file.dropLast(".m3u8".count))
        switch parts[parts.count - 2] {
        case "live": return isSafeName(name) ? .live(customAssetKey: name) : nil
        case "video": return .vod
        default: return nil
        }
    }

    /// 1–64 of `A–Z a–z 0–9 - _ .`, as the server's IDs are.
    static func isSafeName(_ text: String) -> Bool {
        !text.isEmpty && text.utf8.count <= 64
            && text.unicodeScalars.allSatisfy {
                ($0.isASCII && CharacterSet.alphanumerics.contains($0)) || $0 == "-" || $0 == "_" || $0 == "."
            } && text != "." && text != ".."
    }

    @MainActor
    static func run(arguments: [String]) async -> Int32 {
        let options: Options
        switch parse(arguments) {
        case .success(let parsed): options = parsed
        case .failure(let failure):
            InterludeCommand.writeError("interlude stream: \(failure.message)\n\(usage)")
            return 2
        }
        let session = StreamSession(
            options: options, output: TerminalOutput(json: options.json, command: "interlude stream"),
            endsOnSignals: true)
        return await session.run()
    }
}
