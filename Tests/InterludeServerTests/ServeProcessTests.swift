import Foundation
import InterludeServer
import InterludeServerTestSupport
import InterludeTestSupport
import Testing

/// `interlude serve` as people run it: a separate process stopped by a signal.
@Suite struct ServeProcessTests {
    /// The built executable and the arguments that select `serve`:
    /// `interlude serve` in the main package, `interlude-server-dev` in the
    /// scratch one. Nil (test skipped) when neither has been built.
    static let executable: (url: URL, prefix: [String])? = {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        for configuration in ["debug", "release"] {
            let directory = root.appendingPathComponent(".build/\(configuration)")
            for (name, prefix) in [("interlude", ["serve"]), ("interlude-server-dev", [])] {
                let url = directory.appendingPathComponent(name)
                var isDirectory: ObjCBool = false
                if FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), !isDirectory.boolValue,
                    FileManager.default.isExecutableFile(atPath: url.path)
                {
                    return (url, prefix)
                }
            }
        }
        return nil
    }()

    @Test(.enabled(if: executable != nil))
    func sigtermStopsTheServerCleanlyAndKeepsItsBeacons() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let process = Process()
        let executable = try #require(Self.executable)
        process.executableURL = executable.url
        process.arguments =
            executable.prefix + ["--port", "0", "--data-dir", directory.url.path, "--no-media", "--quiet"]
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        // A server that never becomes ready must fail this test, not hang it.
        let pid = process.processIdentifier
        let watchdog = DispatchWorkItem { kill(pid, SIGKILL) }
        DispatchQueue.global().asyncAfter(deadline: .now() + 60, execute: watchdog)
        defer { watchdog.cancel() }
        defer {
            if process.isRunning {
                process.terminate()
                process.waitUntilExit()
            }
        }
        var log = ""
        var port: UInt16?
        while port == nil {
            let data = errors.fileHandleForReading.availableData
            guard !data.isEmpty else { break }
            log += String(decoding: data, as: UTF8.self)
            if let range = log.range(of: "ready at http://127.0.0.1:") {
                port = UInt16(log[range.upperBound...].prefix { $0.isNumber })
            }
        }
        let bound = try #require(port, "no ready line in: \(log)")
        #expect(try Loopback.get("/track/proc/alpha/start", port: bound).status == 204)
        process.terminate()  // SIGTERM
        let rest = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        #expect(String(decoding: rest, as: UTF8.self).contains("server stopped"))
        let store = try InterludeServerStoreProbe.count(in: directory.url)
        #expect(store == 1)
    }
}

enum InterludeServerStoreProbe {
    static func count(in directory: URL) throws -> Int {
        let store = try BeaconStore(path: directory.appendingPathComponent("beacons.sqlite").path)
        defer { store.close() }
        return try store.count()
    }
}
