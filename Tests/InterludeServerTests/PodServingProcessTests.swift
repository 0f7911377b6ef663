import Foundation
import InterludeServerTestSupport
import InterludeTestSupport
import Testing

@testable import InterludeServer

/// Two `interlude serve` processes on one data directory, as people would
/// run them behind a load balancer: either answers any request of a stream
/// the other registered, and each event verifies once across both.
@Suite struct PodServingProcessTests {
    /// A running `interlude serve`, stopped by SIGTERM. Starting and
    /// stopping block for seconds, so tests do both on a thread of their own
    /// (``start(dataDirectory:)``, ``stopped()``): a wait on one of the
    /// concurrency pool's threads (two, on a 2-core machine) starves every
    /// other test meanwhile. Unchecked because one test owns it and hands it
    /// between threads only through those awaits.
    final class ServeProcess: @unchecked Sendable {
        let process: Process
        let port: UInt16
        /// What the server printed up to its ready line: the start banner.
        let banner: String
        private let errors: Pipe

        /// A server on `dataDirectory`, started and ready.
        static func start(dataDirectory: URL) async throws -> ServeProcess {
            let executable = try #require(ServeProcessTests.executable)
            let launched = try await onOwnThread {
                // The banner's pod-serving lines follow the ready line; the VOD template is the last.
                let launched = try ServeLaunch(executable, dataDirectory: dataDirectory) {
                    $0.contains("VTP template (interlude-film)")
                }
                if launched.port == nil, launched.process.isRunning { launched.process.terminate() }
                return launched
            }
            let port = try #require(launched.port, "no ready line in: \(launched.log)")
            return ServeProcess(process: launched.process, errors: launched.errors, port: port, banner: launched.log)
        }

        private init(process: Process, errors: Pipe, port: UInt16, banner: String) {
            self.process = process
            self.errors = errors
            self.port = port
            self.banner = banner
        }

        /// Stops the server (SIGTERM) and waits for it on a thread of its own; its exit status.
        func stopped() async throws -> Int32 {
            try await onOwnThread { self.stop() }
        }

        /// Stops the server and waits for it, blocking: for `defer`, where nothing can be awaited.
        func stop() -> Int32 {
            if process.isRunning {
                process.terminate()
                _ = errors.fileHandleForReading.readDataToEndOfFile()
                process.waitUntilExit()
            }
            return process.terminationStatus
        }
    }

    @Test(.enabled(if: ServeProcessTests.executable != nil))
    func twoServeProcessesOnOneDataDirectoryServeOneStream() async throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let first = try await ServeProcess.start(dataDirectory: directory.url)
        defer { _ = first.stop() }
        let second = try await ServeProcess.start(dataDirectory: directory.url)
        defer { _ = second.stop() }
        for server in [first, second] {
            #expect(server.banner.contains("/ssai/pods/api/v1/network/interlude/custom_asset/interlude-live/stream"))
            #expect(server.banner.contains("/vtp/stream_id/[[STREAMID]]/live/interlude-live.m3u8"))
            #expect(server.banner.contains("/vtp/stream_id/[[STREAMID]]/video/interlude-film.m3u8"))
        }
        let id = try PodServingTest.register(port: first.port)
        let pod = "/linear/pods/v1/hls/network/interlude/custom_asset/interlude-live/pod/4"
        let fromSecond = try Loopback.get("\(pod)/profile/540p.m3u8?stream_id=\(id)&pd=45000", port: second.port)
        #expect(fromSecond.status == 200, "\(fromSecond.text)")
        let fromFirst = try Loopback.get("\(pod)/profile/540p.m3u8?stream_id=\(id)&pd=45000", port: first.port)
        #expect(fromFirst.body == fromSecond.body)
        let metadata = try PodServingTest.json(try Loopback.get("/pods/v1/streams/\(id)/metadata", port: first.port))
        let tags = try #require(metadata["tags"] as? [String: [String: String]])
        #expect(!tags.isEmpty)
        // Every event: verified on one process, already verified on the other.
        let report = try PodServingTest.json(try Loopback.get("/api/streams/\(id)", port: second.port))
        let breaks = try #require(report["breaks"] as? [[String: Any]])
        let events = breaks.flatMap { ($0["ads"] as? [[String: Any]]) ?? [] }.flatMap {
            (($0["events"] as? [[String: Any]]) ?? []).compactMap { $0["id"] as? String }
        }
        #expect(events.count == tags.count)
        for (index, event) in events.enumerated() {
            let (here, there) = index % 2 == 0 ? (first, second) : (second, first)
            #expect(try PodServingTest.verify(id, event, port: here.port) == 204)
            #expect(try PodServingTest.verify(id, event, port: there.port) == 404)
        }
        #expect(try await first.stopped() == 0)
        #expect(try await second.stopped() == 0)
        // Both stopped cleanly; the shared store holds every verification once.
        let store = try SQLiteSessionStore(path: directory.url.appendingPathComponent("streams.sqlite").path)
        defer { store.close() }
        #expect(try store.activity(streamID: id).verifiedEvents.count == events.count)
    }
}
