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
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return (-1, Data(), "cannot run \(executable)") }
        // Read stderr on another thread so neither pipe fills and blocks the tool.
        let errorData = Locked(Data())
        let reader = Thread { errorData.withLock { $0 = errors.fileHandleForReading.readDataToEndOfFile() } }
        reader.start()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        while reader.isExecuting || !reader.isFinished { usleep(1000) }
        return (process.terminationStatus, data, String(decoding: errorData.withLock { $0 }, as: UTF8.self))
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
