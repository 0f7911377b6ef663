import Foundation

@testable import InterludeServer

/// ffprobe and ffmpeg for tests that check real media; `available` is false
/// (and such tests are skipped with a message) when they are not installed.
enum FFmpegTool {
    static let ffmpeg = MediaGenerator.findExecutable("ffmpeg")
    static let ffprobe = MediaGenerator.findExecutable("ffprobe")
    static var available: Bool { ffmpeg != nil && ffprobe != nil }
    static let skipMessage = "ffmpeg/ffprobe not installed (apt-get install ffmpeg); real-media tests skipped"

    /// Runs a tool; returns its exit status, stdout and stderr.
    static func run(_ executable: String, _ arguments: [String]) -> (status: Int32, output: Data, errors: String) {
        // Not Foundation's Process: its run() crashes now and then on Linux (see ChildProcess).
        guard let outcome = try? ChildProcess.run(executable, arguments) else {
            return (-1, Data(), "cannot run \(executable)")
        }
        return (outcome.status, Data(outcome.output), String(decoding: outcome.errors, as: UTF8.self))
    }

    /// One stream as ffprobe reports it.
    struct Stream: Decodable {
        var codecType: String
        var codecName: String?
        var profile: String?
        var level: Int?
        var width: Int?
        var height: Int?
        var rFrameRate: String?
        var sampleRate: String?
        var channels: Int?
        var channelLayout: String?
        var startTime: String?
        var nbReadFrames: String?
    }

    struct Probe: Decodable {
        struct Format: Decodable { var duration: String? }
        var streams: [Stream]
        var format: Format?
        func stream(_ type: String) -> Stream? { streams.first { $0.codecType == type } }
    }

    /// ffprobe's streams and format of `file`; `countFrames` reads every frame.
    static func probe(_ file: URL, countFrames: Bool = false) throws -> Probe {
        var arguments = ["-v", "error", "-show_streams", "-show_format", "-of", "json"]
        if countFrames { arguments += ["-count_frames", "-select_streams", "v"] }
        let result = run(ffprobe!, arguments + [file.path])
        guard result.status == 0 else { throw MediaError("ffprobe failed on \(file.path): \(result.errors)") }
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        return try decoder.decode(Probe.self, from: result.output)
    }

    /// Decodes `files` in order (concat protocol) with `-v error`; returns what ffmpeg reported.
    static func decodeErrors(_ files: [URL]) -> String {
        let input = "concat:" + files.map(\.path).joined(separator: "|")
        let result = run(ffmpeg!, ["-v", "error", "-nostdin", "-i", input, "-f", "null", "-"])
        return result.status == 0 ? result.errors : "exit \(result.status): \(result.errors)"
    }
}
