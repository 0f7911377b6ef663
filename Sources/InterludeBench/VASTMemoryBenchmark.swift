import Foundation
import InterludeVAST

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
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

    static func maxResidentBytes() -> Int {
        var usage = rusage()
        #if os(Linux)
            getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
            return Int(usage.ru_maxrss) * 1024  // Linux reports KiB
        #else
            getrusage(RUSAGE_SELF, &usage)
            return Int(usage.ru_maxrss)  // Darwin reports bytes
        #endif
    }

    static func measureInChild(path: String) -> Int32 {
        guard let data = FileManager.default.contents(atPath: path) else { return 1 }
        let bytes = [UInt8](data)
        let before = maxResidentBytes()
        guard let result = try? VASTParser().parse(bytes: bytes) else { return 1 }
        let after = maxResidentBytes()
        guard case .vast(let vast) = result.document else { return 1 }
        let added = after - before
        print("  ads parsed: \(vast.ads.count)")
        print(String(format: "  process peak RSS: %.2f MiB", Double(after) / 1_048_576))
        print(String(format: "  peak RSS added by the parse: %.2f MiB = %.2fx the document (target < 10x)",
            Double(added) / 1_048_576, Double(added) / Double(bytes.count)))
        return 0
    }
}
