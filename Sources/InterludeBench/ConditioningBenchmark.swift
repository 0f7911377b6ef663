import Foundation
import InterludeServer

/// `interlude-bench conditioning [--catalog default|test]`: makes a
/// catalog's stream media cold with ``MediaBuilder`` (probing, checks,
/// manifests, atomic moves included) and, in the same run, the same ffmpeg
/// command lines on a plain pool of the same width with nothing else — the
/// reference. Then times a second `AdServer.start` on the built directory
/// (everything cached). Prints the figures; exit 1 on a failure.
enum ConditioningBenchmark {
    static func run(arguments: [String]) -> Int32 {
        let catalog: Catalog
        let name = arguments.drop(while: { $0 != "--catalog" }).dropFirst().first ?? "default"
        switch name {
        case "default": catalog = .builtIn
        case "test": catalog = .podServingTest
        case let other:
            FileHandle.standardError.write(Data("interlude-bench conditioning: unknown catalog '\(other)'\n".utf8))
            return 2
        }
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("interlude-bench-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let ours = root.appendingPathComponent("builder")
        let reference = root.appendingPathComponent("reference")
        do {
            let font = MediaGenerator.findFont()
            let width = ProcessInfo.processInfo.activeProcessorCount
            print(
                "conditioning benchmark: \(catalog == .builtIn ? "default" : "test") catalog, \(width) ffmpeg at once")

            // The reference first: the same commands, made by the builder's planner for an empty directory.
            let referencePlan = MediaPlan(catalog: catalog, dataDirectory: reference, fontFile: font)
            let referenceBuilder = try MediaBuilder.system(dataDirectory: reference)
            for folder in ["media", "content", "conditioned"] {
                try FileManager.default.createDirectory(
                    at: reference.appendingPathComponent(folder), withIntermediateDirectories: true)
            }
            let phases = referenceBuilder.commandPhases(referencePlan)
            let commands = phases.reduce(0) { $0 + $1.count }
            let referenceStart = Date()
            for phase in phases {
                try runPlain(phase, ffmpeg: referenceBuilder.ffmpegPath, width: width)
            }
            let referenceSeconds = Date().timeIntervalSince(referenceStart)
            print(String(format: "  plain ffmpeg, %d commands:        %7.1f s", commands, referenceSeconds))

            let plan = MediaPlan(catalog: catalog, dataDirectory: ours, fontFile: font)
            let report = try MediaBuilder.system(dataDirectory: ours).build(plan)
            print(
                String(
                    format: "  MediaBuilder, %d made:             %7.1f s  (%.2fx the reference)", report.made,
                    report.seconds, report.seconds / referenceSeconds))

            var starts: [Double] = []
            for _ in 0..<3 {
                let began = Date()
                let server = try AdServer.start(
                    .init(
                        host: "127.0.0.1", port: 0, dataDirectory: ours, catalog: catalog, http: .init(threadCount: 2)))
                starts.append(Date().timeIntervalSince(began))
                server.shutdown()
            }
            print(
                String(
                    format: "  second start (AdServer.start, all cached), best of 3: %.3f s (runs: %@)",
                    starts.min() ?? 0,
                    starts.map { String(format: "%.3f", $0) }.joined(separator: ", ")))
            return 0
        } catch {
            FileHandle.standardError.write(Data("interlude-bench conditioning: \(error)\n".utf8))
            return 1
        }
    }

    /// The commands on `width` threads, one ffmpeg each, nothing else.
    static func runPlain(_ commands: [MediaBuilder.Command], ffmpeg: String, width: Int) throws {
        let next = NSLock()
        nonisolated(unsafe) var index = 0
        nonisolated(unsafe) var failure: String?
        DispatchQueue.concurrentPerform(iterations: width) { _ in
            while true {
                next.lock()
                let mine = index
                index += 1
                next.unlock()
                guard mine < commands.count else { return }
                do {
                    try commands[mine].prepare()
                } catch {
                    next.withLock { failure = "\(error)" }
                    return
                }
                let process = Process()
                process.executableURL = URL(fileURLWithPath: ffmpeg)
                process.arguments = commands[mine].arguments
                process.standardInput = FileHandle.nullDevice
                process.standardOutput = FileHandle.nullDevice
                process.standardError = FileHandle.nullDevice
                do {
                    try process.run()
                    process.waitUntilExit()
                } catch {
                    next.withLock { failure = "\(error)" }
                    return
                }
                if process.terminationStatus != 0 {
                    next.withLock { failure = "ffmpeg exited \(process.terminationStatus)" }
                    return
                }
                do {
                    try commands[mine].moveIntoPlace?()
                } catch {
                    next.withLock { failure = "\(error)" }
                    return
                }
            }
        }
        if let failure { throw MediaError(failure) }
    }
}
