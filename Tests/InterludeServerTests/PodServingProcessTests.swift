import Foundation
import InterludeServerTestSupport
import InterludeTestSupport
import Testing

@testable import InterludeServer

/// Two `interlude serve` processes on one data directory, as people would
/// run them behind a load balancer: either answers any request of a stream
/// the other registered, and each event verifies once across both.
@Suite struct PodServingProcessTests {
    /// A running `interlude serve`, stopped by SIGTERM.
    final class ServeProcess {
        let process = Process()
        let port: UInt16
        private let errors = Pipe()

        init(dataDirectory: URL) throws {
            let executable = try #require(ServeProcessTests.executable)
            process.executableURL = executable.url
            process.arguments =
                executable.prefix + ["--port", "0", "--data-dir", dataDirectory.path, "--no-media", "--quiet"]
            process.standardError = errors
            try process.run()
            let pid = process.processIdentifier
            // A server that never becomes ready must fail the test, not hang it.
            let watchdog = DispatchWorkItem { kill(pid, SIGKILL) }
            DispatchQueue.global().asyncAfter(deadline: .now() + 60, execute: watchdog)
            defer { watchdog.cancel() }
            var log = ""
            var port: UInt16?
            while port == nil {
                let data = errors.fileHandleForReading.availableData
                guard !data.isEmpty else { break }
                log += String(decoding: data, as: UTF8.self)
                // The banner's pod-serving lines follow the ready line; the VOD template is the last.
                if log.contains("VTP template (interlude-film)"),
                    let range = log.range(of: "ready at http://127.0.0.1:")
                {
                    port = UInt16(log[range.upperBound...].prefix { $0.isNumber })
                }
            }
            self.port = try #require(port, "no ready line in: \(log)")
            #expect(log.contains("/ssai/pods/api/v1/network/interlude/custom_asset/interlude-live/stream"))
            #expect(log.contains("/vtp/stream_id/[[STREAMID]]/live/interlude-live.m3u8"))
            #expect(log.contains("/vtp/stream_id/[[STREAMID]]/video/interlude-film.m3u8"))
        }

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
    func twoServeProcessesOnOneDataDirectoryServeOneStream() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let first = try ServeProcess(dataDirectory: directory.url)
        let second = try ServeProcess(dataDirectory: directory.url)
        defer {
            _ = first.stop()
            _ = second.stop()
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
        #expect(first.stop() == 0)
        #expect(second.stop() == 0)
        // Both stopped cleanly; the shared store holds every verification once.
        let store = try SQLiteSessionStore(path: directory.url.appendingPathComponent("streams.sqlite").path)
        defer { store.close() }
        #expect(try store.activity(streamID: id).verifiedEvents.count == events.count)
    }
}
