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
    func sigtermStopsTheServerCleanlyAndKeepsItsBeacons() async throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let executable = try #require(Self.executable)
        // The process is waited for on a thread of its own, not on one of the
        // concurrency pool's (two, on a 2-core machine).
        let run = try await onOwnThread { try Self.startTrackAndTerminate(executable, dataDirectory: directory.url) }
        let bound = try #require(run.port, "no ready line in: \(run.log)")
        #expect(run.trackStatus == 204, "port \(bound)")
        #expect(run.terminationStatus == 0)
        #expect(run.afterTerminate.contains("server stopped"))
        let store = try InterludeServerStoreProbe.count(in: directory.url)
        #expect(store == 1)
    }

    /// What a server run gave: the port of its ready line (nil if it never
    /// printed one), a ping's status, and how it stopped after SIGTERM.
    struct Run: Sendable {
        var log = ""
        var port: UInt16?
        var trackStatus: Int?
        var terminationStatus: Int32 = -1
        var afterTerminate = ""
    }

    /// Starts the server, sends one tracking ping once it is ready, then
    /// SIGTERM; blocks until it has exited.
    static func startTrackAndTerminate(_ executable: (url: URL, prefix: [String]), dataDirectory: URL) throws -> Run {
        let launched = try ServeLaunch(executable, dataDirectory: dataDirectory)
        var run = Run(log: launched.log, port: launched.port)
        if let port = launched.port {
            run.trackStatus = try? Loopback.get("/track/proc/alpha/start", port: port).status
        }
        launched.process.terminate()  // SIGTERM
        run.afterTerminate = String(
            decoding: launched.errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        launched.process.waitUntilExit()
        run.terminationStatus = launched.process.terminationStatus
        return run
    }
}

/// An `interlude serve` process launched on a data directory (no media, any
/// port), with what it printed up to its ready line. Blocking: tests create
/// it on a thread of their own. Unchecked because one test owns it.
struct ServeLaunch: @unchecked Sendable {
    let process: Process
    /// The server's standard error, read up to the ready line.
    let errors: Pipe
    /// The port of the ready line; nil if the server closed its output first.
    let port: UInt16?
    let log: String

    /// Starts the server and reads its standard error until `isReady` holds
    /// for what it printed and a ready line gives the port, or the output
    /// closes. A server that never becomes ready is killed after 60 s, so it
    /// fails the test instead of hanging it.
    init(
        _ executable: (url: URL, prefix: [String]), dataDirectory: URL,
        isReady: (String) -> Bool = { _ in true }
    ) throws {
        process = Process()
        errors = Pipe()
        process.executableURL = executable.url
        process.arguments =
            executable.prefix + ["--port", "0", "--data-dir", dataDirectory.path, "--no-media", "--quiet"]
        process.standardError = errors
        try process.run()
        let pid = process.processIdentifier
        let watchdog = DispatchWorkItem { kill(pid, SIGKILL) }
        DispatchQueue.global().asyncAfter(deadline: .now() + 60, execute: watchdog)
        defer { watchdog.cancel() }
        var log = ""
        var port: UInt16?
        while port == nil {
            let data = errors.fileHandleForReading.availableData
            guard !data.isEmpty else { break }
            log += String(decoding: data, as: UTF8.self)
            if isReady(log), let range = log.range(of: "ready at http://127.0.0.1:") {
                port = UInt16(log[range.upperBound...].prefix { $0.isNumber })
            }
        }
        self.port = port
        self.log = log
    }
}

enum InterludeServerStoreProbe {
    static func count(in directory: URL) throws -> Int {
        let store = try BeaconStore(path: directory.appendingPathComponent("beacons.sqlite").path)
        defer { store.close() }
        return try store.count()
    }
}
