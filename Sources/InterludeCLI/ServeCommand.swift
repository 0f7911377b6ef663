import Dispatch
import Foundation
import InterludeServer

/// `interlude serve [--host H] [--port P] [--data-dir DIR] [--catalog FILE] [--no-media] [--quiet] [--console-allow-remote-tags]`:
/// runs the reference ad server until SIGINT or SIGTERM.
public enum ServeCommand {
    /// Parsed command-line options.
    public struct Options: Sendable, Hashable {
        /// `--host`.
        public var host = "127.0.0.1"
        /// `--port`.
        public var port: UInt16 = 8080
        /// `--data-dir`.
        public var dataDirectory = "interlude-data"
        /// `--catalog`; nil: the built-in catalog.
        public var catalogPath: String?
        /// false with `--no-media`.
        public var generatesMedia = true
        /// false with `--quiet`.
        public var logsAccess = true
        /// `--help`.
        public var showsHelp = false
        /// `--threads`: HTTP polling threads; nil: one per processor.
        public var threads: Int?
        /// `--console-allow-remote-tags`: the console's inspector may fetch from any host.
        public var consoleAllowsRemoteTags = false
        public init() {}
    }

    /// A command line that cannot be used.
    public struct UsageError: Error, Sendable, Hashable, CustomStringConvertible {
        /// What is wrong with the command line.
        public var message: String
        public var description: String { message }
    }

    /// The help text.
    public static let usage = """
        usage: interlude serve [--host ADDRESS] [--port PORT] [--data-dir DIR] [--catalog FILE] [--threads N] [--no-media] [--quiet]
                             [--console-allow-remote-tags]

          --host ADDRESS   listen address (default 127.0.0.1; 0.0.0.0 or :: for all)
          --port PORT      listen port (default 8080; 0 picks a free one)
          --data-dir DIR   media and beacon database (default ./interlude-data)
          --catalog FILE   catalog JSON (default: the built-in catalog)
          --threads N      HTTP threads (default: one per processor)
          --no-media       do not generate media with ffmpeg
          --quiet          no access log
          --console-allow-remote-tags
                           let the web console's tag inspector fetch from any host
                           (default: loopback only, every wrapper hop and redirect checked)
        """

    /// Reads the arguments that follow `serve`.
    public static func parse(_ arguments: [String]) throws(UsageError) -> Options {
        var options = Options()
        var remaining = arguments[...]
        func value(for flag: String) throws(UsageError) -> String {
            guard let value = remaining.popFirst(), !value.hasPrefix("--") else {
                throw UsageError(message: "\(flag) needs a value")
            }
            return value
        }
        while let argument = remaining.popFirst() {
            switch argument {
            case "--host": options.host = try value(for: argument)
            case "--port":
                let text = try value(for: argument)
                guard let port = UInt16(text) else {
                    throw UsageError(message: "--port must be 0–65535, got '\(text)'")
                }
                options.port = port
            case "--data-dir": options.dataDirectory = try value(for: argument)
            case "--catalog": options.catalogPath = try value(for: argument)
            case "--threads":
                let text = try value(for: argument)
                guard let threads = Int(text), (1...64).contains(threads) else {
                    throw UsageError(message: "--threads must be 1–64, got '\(text)'")
                }
                options.threads = threads
            case "--no-media": options.generatesMedia = false
            case "--quiet": options.logsAccess = false
            case "--console-allow-remote-tags": options.consoleAllowsRemoteTags = true
            case "--help", "-h": options.showsHelp = true
            default: throw UsageError(message: "unknown argument '\(argument)'")
            }
        }
        return options
    }

    /// Runs the server; returns the process exit status (0 after a clean
    /// shutdown, 1 when it cannot start, 2 for a bad command line).
    public static func run(arguments: [String]) -> Int32 {
        let options: Options
        do {
            options = try parse(arguments)
        } catch {
            standardError("interlude serve: \(error.message)\n\n\(usage)")
            return 2
        }
        if options.showsHelp {
            FileHandle.standardOutput.write(Data((usage + "\n").utf8))
            return 0
        }
        let catalog: Catalog
        if let path = options.catalogPath {
            do {
                catalog = try Catalog.load(from: URL(fileURLWithPath: path))
            } catch {
                standardError("interlude serve: \(error.message)")
                return 1
            }
        } else {
            catalog = .builtIn
        }
        let logger = StandardErrorLogger(logsAccess: options.logsAccess)
        let configuration = AdServer.Configuration(
            host: options.host, port: options.port,
            dataDirectory: URL(fileURLWithPath: options.dataDirectory, isDirectory: true), catalog: catalog,
            generatesMedia: options.generatesMedia,
            http: HTTPServer.Configuration(
                threadCount: options.threads ?? ProcessInfo.processInfo.activeProcessorCount, logger: logger),
            buildProgress: { event in
                // One line rewritten in place on a terminal; a line per job started in a log file.
                if isatty(STDERR_FILENO) == 1 {
                    let done = event.finished == event.total && event.phase == .finished
                    standardError("\r\u{1B}[K" + "media: \(event)" + (done ? "\n" : ""), newline: false)
                } else if event.phase == .started {
                    standardError("media: \(event)")
                }
            }, console: ConsoleOptions(allowsRemoteTags: options.consoleAllowsRemoteTags))
        // Signals are handled from before the start, so that one arriving
        // right after the ready line is never the default (fatal) action.
        let signals = TerminationSignals()
        let server: AdServer
        do {
            server = try AdServer.start(configuration)
        } catch {
            standardError("interlude serve: \(error.message)")
            return 1
        }
        signals.beginServing()
        standardError("interlude serve: ready at \(server.baseURL)  (try \(server.baseURL)/vast?pod=3)")
        for line in originLines(server) { standardError("  " + line) }
        for line in server.podServingGuide { standardError("  " + line) }
        standardError("  web console  \(server.baseURL)/console")
        signals.waitForSignal()
        standardError("interlude serve: shutting down (finishing requests in flight)")
        server.shutdown()
        return 0
    }

    /// The origin URLs of the catalog's content, for the start banner.
    static func originLines(_ server: AdServer) -> [String] {
        let media = server.media
        var lines = media.titleIDs.map { "VOD origin   \(server.baseURL)/origin/vod/\($0).m3u8" }
        lines += media.channelIDs.map { id in
            let signaling = media.liveChannel(id)?.settings.signaling == .cue ? "CUE-OUT/IN" : "DATERANGE SCTE-35"
            return "live origin  \(server.baseURL)/origin/live/\(id).m3u8  (\(signaling))"
        }
        if !media.isComplete { lines.append("(stream media not made: started with --no-media; segments answer 404)") }
        return lines
    }

    private static func standardError(_ text: String, newline: Bool = true) {
        FileHandle.standardError.write(Data((text + (newline ? "\n" : "")).utf8))
    }
}
