import Foundation

/// The `interlude` command line: dispatches subcommands.
enum InterludeCommand {
    static let usage = """
        usage: interlude <command> [options]

        commands:
          inspect FILE|URL|-
                           read a VAST or VMAP document (or an HLS playlist) and report
                           its ads, breaks, warnings and errors; a URL is fetched and
                           its wrapper chain followed (each hop, then the merged ads)
                           options: --json (machine-readable, every URL and attribute),
                           --verbose (the same as text), --strict (schema enforced)
          inspect --scte35 HEX|BASE64
                           decode a SCTE-35 splice_info_section (commands, descriptors,
                           CRC checked); options: --json
          serve            run the reference ad stack (VAST, VMAP, wrappers, media, beacons,
                           fault routes); options: --host, --port, --data-dir, --catalog,
                           --threads, --no-media, --quiet
          play URL         play a VAST or VMAP tag in the terminal with its ad UI (the custom
                           UI when the ad allows it, else the built-in one)
                           options: --speed N, --content-duration S, --language TAG, --json
          stream live [CHANNEL] | vod [TITLE] | URL
                           register a pod-serving stream through the SDK and play the VTP's
                           stitched stream (HLS) with the custom ad UI; URL: a template with
                           [[STREAMID]]; options: --server URL, --network CODE, --speed N,
                           --language TAG, --json, --live KEY | --vod, --no-snapback
          demo             the whole system: client-side ads (the ad stack's VMAP in the terminal
                           player), then a pod-serving live and VOD stream, one report of every
                           event, verification and beacon; options: --only client|live|vod,
                           --speed N (2), --stream-speed N (4), --live-speed N (2),
                           --content-duration S (60), --language TAG, --data-dir DIR,
                           --no-media (skip generating the client-side creatives with ffmpeg)
          help             show this text

        exit status: 0 ok (inspect: at least one playable ad), 1 none or invalid, 2 usage error
        """

    @MainActor
    static func run(arguments: [String]) async -> Int32 {
        guard let command = arguments.first else {
            writeError(usage)
            return 2
        }
        let rest = Array(arguments.dropFirst())
        switch command {
        case "inspect":
            let result = await InspectCommand.run(
                arguments: rest, readStandardInput: { FileHandle.standardInput.readDataToEndOfFile() })
            if !result.output.isEmpty { writeOutput(result.output) }
            if !result.errorOutput.isEmpty { writeError(result.errorOutput) }
            return result.exitCode
        case "serve":
            return ServeCommand.run(arguments: rest)
        case "play":
            return await PlayCommand.run(arguments: rest)
        case "demo":
            return await DemoCommand.run(arguments: rest)
        case "stream":
            return await StreamCommand.run(arguments: rest)
        case "help", "--help", "-h":
            writeOutput(usage)
            return 0
        default:
            writeError("interlude: unknown command '\(command)'\n\n" + usage)
            return 2
        }
    }

    static func writeOutput(_ text: String) {
        FileHandle.standardOutput.write(Data((text.hasSuffix("\n") ? text : text + "\n").utf8))
    }

    static func writeError(_ text: String) {
        FileHandle.standardError.write(Data((text.hasSuffix("\n") ? text : text + "\n").utf8))
    }
}

/// What a subcommand produced: text for stdout and stderr, and the exit status.
struct CommandResult: Equatable {
    var output: String
    var errorOutput: String = ""
    var exitCode: Int32
}
