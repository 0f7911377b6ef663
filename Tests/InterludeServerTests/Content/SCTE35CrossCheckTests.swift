import Foundation
import Testing

@testable import InterludeServer

/// The live origin's SCTE-35 sections decoded by `threefive` (PyPI), an
/// independent decoder, through `scripts/check-scte35.py`. Skipped when
/// python3 or threefive is missing.
@Suite(.enabled(if: Threefive.available, "python3 with threefive not installed; SCTE-35 cross-check skipped"))
struct SCTE35CrossCheckTests {

    @Test func threefiveDecodesTheBreakSignalsToTheCatalogsValues() async throws {
        let channel = try #require(LiveWindowTests.library.liveChannel("test-live"))
        var cases: [[String: Any]] = []
        for index in [0, 1, 7, 1000, 123_456] {
            let liveBreak = try #require(channel.liveBreak(index))
            let ptsOut = Double(channel.pts(ofSegment: liveBreak.firstSequence)) / 90_000
            let ptsIn = Double(channel.pts(ofSegment: liveBreak.endSequence)) / 90_000
            // Provider Placement Opportunity Start (0x34) with the break's 8 s, End (0x35) without.
            cases.append([
                "hex": channel.spliceOut(liveBreak).hexEncoded, "pts": ptsOut, "type": 0x34, "event": index + 1,
                "duration": 8.0,
            ])
            cases.append([
                "hex": channel.spliceIn(liveBreak).hexEncoded, "pts": ptsIn, "type": 0x35, "event": index + 1,
                "duration": NSNull(),
            ])
        }
        let input = try JSONSerialization.data(withJSONObject: cases)
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
            "../../../scripts/check-scte35.py"
        ).standardizedFileURL.path
        let python = try #require(Threefive.python)
        // The decoder runs on a thread of its own: a wait here would hold one of the pool's two threads.
        let (status, output) = try await onOwnThread { try Threefive.run(python, script, input: input) }
        #expect(status == 0, "\(output)")
        #expect(output.components(separatedBy: "\n").filter { $0.hasPrefix("ok  ") }.count == cases.count)
        #expect(!output.contains("BAD"))
    }
}

enum Threefive {
    static let python = MediaGenerator.findExecutable("python3")
    static let available: Bool = {
        guard let python else { return false }
        return FFmpegTool.run(python, ["-c", "import threefive"]).status == 0
    }()

    /// Runs `script` with `input` on its standard input; its exit status and
    /// its output (standard error included). Blocks until it exits.
    static func run(_ python: String, _ script: String, input: Data) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments = [script]
        let stdin = Pipe()
        let stdout = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = stdout
        try process.run()
        stdin.fileHandleForWriting.write(input)
        try stdin.fileHandleForWriting.close()
        let output = String(decoding: stdout.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, output)
    }
}
