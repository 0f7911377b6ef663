import Foundation

/// Runs scripts/bench-m3u8.py (Python `m3u8` package) on the benchmark files.
enum HLSBenchPython {
    struct Times: Decodable {
        var parse: Double
        var dump: Double
    }

    struct Report: Decodable {
        var version: String
        var files: [String: Times]
    }

    static func run(directory: URL) -> Report? {
        #if os(Linux) || os(macOS)
            let candidates = [
                ProcessInfo.processInfo.environment["INTERLUDE_M3U8_BENCH"],
                FileManager.default.currentDirectoryPath + "/scripts/bench-m3u8.py",
            ].compactMap { $0 }
            guard let script = candidates.first(where: { FileManager.default.fileExists(atPath: $0) }) else {
                return nil
            }
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = ["python3", script, directory.path]
            let output = Pipe()
            process.standardOutput = output
            process.standardError = FileHandle.standardError
            do {
                try process.run()
            } catch {
                return nil
            }
            let data = output.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            guard process.terminationStatus == 0 else { return nil }
            return try? JSONDecoder().decode(Report.self, from: data)
        #else
            return nil
        #endif
    }
}
