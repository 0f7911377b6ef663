import Foundation
import InterludeServer

@testable import InterludeHLS

/// Runs the Python oracles under scripts/ (`m3u8`, `threefive`). The test
/// command installs both (scripts/install-deps.sh); without them the
/// oracle tests are skipped, and say so.
enum PythonOracle {
    static let scripts = Fixture.packageRoot.appendingPathComponent("scripts")

    /// True when `python3` can import `module`.
    static func has(_ module: String) -> Bool {
        (try? run(["-c", "import \(module)"])) != nil
    }

    /// Runs `python3 arguments…` and returns its standard output; throws when it fails.
    static func run(_ arguments: [String]) throws -> Data {
        // posix_spawn, not Foundation's `Process` (its `run()` crashes now and then on Linux).
        let outcome = try ChildProcess.run("/usr/bin/env", ["python3"] + arguments)
        guard outcome.status == 0 else {
            throw OracleFailure(message: String(decoding: outcome.errors, as: UTF8.self))
        }
        return Data(outcome.output)
    }

    struct OracleFailure: Error, CustomStringConvertible {
        var message: String
        var description: String { message }
    }

    /// Decodes the scripts' snake_case JSON into camelCase properties.
    static var snakeCaseDecoder: JSONDecoder {
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        return decoder
    }

    /// A fresh temporary directory.
    static func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("interlude-oracle-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}

/// What scripts/m3u8-oracle.py reports for one playlist.
struct M3U8Report: Decodable {
    struct Segment: Decodable {
        var uri: String
        var duration: Double
        var discontinuity: Bool
        var programDateTime: String?
        var cueOutStart: Bool
        var cueIn: Bool
        var dateranges: [String]
        var keyMethod: String?
        var initSection: String?
    }

    var mediaSequence: UInt64?
    var discontinuitySequence: UInt64?
    var targetDuration: Double?
    var isEndlist: Bool
    var segments: [Segment]
}

struct M3U8Run: Decodable {
    var files: [String: M3U8Report]
}
