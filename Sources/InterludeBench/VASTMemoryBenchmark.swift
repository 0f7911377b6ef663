import Foundation
import InterludeVAST

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

#if os(Linux)
    /// glibc's `malloc_trim` (declared in <malloc.h>, which the Glibc module
    /// does not export).
    @_silgen_name("malloc_trim")
    func releaseFreeHeapMemory(_ padding: Int) -> Int32
#endif

/// `interlude-bench vast-memory`: peak resident memory added by parsing a
/// ~1 MiB document. The parse runs in a child process that has read only the
/// file, so the peak is the parser's and not the generator's.
enum VASTMemoryBenchmark {
    static func run(childFile: String?) -> Int32 {
        if let childFile { return measureInChild(path: childFile) }
        var adCount = 50
        var xml = VASTWriter().write(VASTBenchmark.generatedPod(adCount: adCount))
        while xml.utf8.count < 1_048_576 {
            adCount += 25
            xml = VASTWriter().write(VASTBenchmark.generatedPod(adCount: adCount))
        }
        let path = NSTemporaryDirectory() + "interlude-bench-1mib.xml"
        guard FileManager.default.createFile(atPath: path, contents: Data(xml.utf8)) else { return 1 }
        defer { try? FileManager.default.removeItem(atPath: path) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        process.arguments = ["vast-memory", path]
        let pipe = Pipe()
        process.standardOutput = pipe
        do { try process.run() } catch {
            FileHandle.standardError.write(Data("cannot start child: \(error)\n".utf8))
            return 1
        }
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        print("interlude-bench vast-memory — \(adCount)-ad pod, \(xml.utf8.count) bytes")
        print(output, terminator: "")
        return process.terminationStatus
    }

    /// A `/proc/self/status` field in bytes (Linux), e.g. `VmRSS`, `VmHWM`.
    static func procStatus(_ field: String) -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return nil }
        for line in status.split(separator: "\n") where line.hasPrefix(field + ":") {
            let digits = line.split(separator: " ").dropFirst().first { Int($0) != nil }
            return digits.flatMap { Int($0) }.map { $0 * 1024 }
        }
        return nil
    }

    static func measureInChild(path: String) -> Int32 {
        guard let data = FileManager.default.contents(atPath: path) else { return 1 }
        var bytes = [UInt8](repeating: 0, count: data.count)
        bytes.withUnsafeMutableBufferPointer { _ = data.copyBytes(to: $0) }
        #if os(Linux)
            // Give back what reading the file used, then reset the kernel's
            // peak-RSS mark, so the peak read afterwards is the parse's own.
            _ = releaseFreeHeapMemory(0)
            guard let clear = FileHandle(forWritingAtPath: "/proc/self/clear_refs") else { return 1 }
            clear.write(Data("5".utf8))
            try? clear.close()
            let before = procStatus("VmRSS") ?? 0
            guard let result = try? VASTParser().parse(bytes: bytes) else { return 1 }
            let peak = procStatus("VmHWM") ?? 0
        #else
            let before = 0
            guard let result = try? VASTParser().parse(bytes: bytes) else { return 1 }
            let peak = 0
        #endif
        guard case .vast(let vast) = result.document else { return 1 }
        let added = peak - before
        print("  ads parsed: \(vast.ads.count)")
        print(
            String(format: "  resident before the parse: %.2f MiB (runtime + the document)", Double(before) / 1_048_576)
        )
        print(
            String(
                format: "  peak resident memory added by the parse: %.2f MiB = %.2fx the document (target < 10x)",
                Double(added) / 1_048_576, Double(added) / Double(bytes.count)))
        return 0
    }
}
