import CMicroHTTPD
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// An HTTP/1.1 server on GNU libmicrohttpd: a request goes in, a response
/// comes out. Runs its own polling threads; handlers are called on them and
/// must be quick (slow answers use ``HTTPResponse/Delivery`` instead of
/// blocking).
///
/// ```swift
/// let server = try HTTPServer.start(host: "127.0.0.1", port: 0) { request in .noContent }
/// print(server.port)   // the ephemeral port the system chose
/// server.shutdown()
/// ```
public final class HTTPServer: Sendable {
    /// Limits and threading.
    public struct Configuration: Sendable {
        /// Largest request head (request line + headers) answered normally;
        /// larger gets 431. Default 16 KiB.
        public var maxHeaderBytes: Int
        /// Largest request body; larger gets 413. Default 1 MiB.
        public var maxBodyBytes: Int
        /// Most simultaneous connections (capped below the descriptor limit,
        /// since libmicrohttpd above it falls back to `Connection: close`). Default 1024.
        public var maxConnections: Int
        /// Seconds a connection may stay idle before it is closed. Default 30.
        public var connectionTimeoutSeconds: Int
        /// Polling threads. Default: one per processor.
        public var threadCount: Int
        /// Seconds ``HTTPServer/shutdown()`` waits for requests in flight. Default 10.
        public var shutdownGraceSeconds: Double
        /// Receives the access log and server messages. Default: silent.
        public var logger: any ServerLogger
        /// Request targets starting with one of these are answered on the
        /// direct path when their request is a plain `GET` (Linux): the
        /// server's own loop sends the answer, memory with `sendmsg` and
        /// file bytes with `sendfile`, instead of libmicrohttpd, which
        /// copies a body of memory and file runs (a tagged ad segment) into
        /// the socket whole. Routes under these prefixes must answer with
        /// ``HTTPResponse/Delivery/immediate``. Empty (the default): every
        /// connection is libmicrohttpd's, as on other platforms.
        public var directPrefixes: [String]

        public init(
            maxHeaderBytes: Int = 16 * 1024, maxBodyBytes: Int = 1024 * 1024, maxConnections: Int = 1024,
            connectionTimeoutSeconds: Int = 30, threadCount: Int = ProcessInfo.processInfo.activeProcessorCount,
            shutdownGraceSeconds: Double = 10, logger: any ServerLogger = SilentLogger(),
            directPrefixes: [String] = []
        ) {
            self.directPrefixes = directPrefixes
            self.maxHeaderBytes = maxHeaderBytes
            self.maxBodyBytes = maxBodyBytes
            self.maxConnections = maxConnections
            self.connectionTimeoutSeconds = connectionTimeoutSeconds
            self.threadCount = threadCount
            self.shutdownGraceSeconds = shutdownGraceSeconds
            self.logger = logger
        }
    }

    /// The address the server listens on, as given.
    public let host: String
    /// The bound port (the chosen one when started with port 0).
    public let port: UInt16
    let core: ServerCore
    private let shutdownLock = Locked<Bool>(false)

    private init(host: String, port: UInt16, core: ServerCore) {
        self.host = host
        self.port = port
        self.core = core
    }

    /// Starts listening on `host:port` (port 0: an ephemeral port, read it
    /// from ``port``). Throws when the address is invalid or cannot be bound.
    public static func start(
        host: String, port: UInt16, configuration: Configuration = Configuration(),
        handler: @escaping @Sendable (HTTPRequest) -> HTTPResponse
    ) throws(HTTPServerError) -> HTTPServer {
        guard let address = SocketAddress(host: host, port: port) else {
            throw HTTPServerError(message: "'\(host)' is not an IP address or localhost")
        }
        let core = ServerCore(configuration: configuration, handler: handler)
        #if os(Linux)
            if !configuration.directPrefixes.isEmpty {
                return try startDirect(host: host, address: address, core: core)
            }
        #endif
        let daemon = core.startDaemon(address: address, connectionLimit: core.effectiveConnectionLimit)
        guard let daemon else {
            throw HTTPServerError(message: "cannot listen on \(host):\(port) (\(String(cString: strerror(errno))))")
        }
        let boundPort = interlude_mhd_bound_port(daemon)
        configuration.logger.message(.info, "listening on \(address.displayHost):\(boundPort)")
        return HTTPServer(host: host, port: boundPort, core: core)
    }

    #if os(Linux)
        /// The direct path: our listener in front of one daemon per polling
        /// thread, each without a listening socket (libmicrohttpd's thread
        /// pool needs one), so together they poll as the pool did.
        private static func startDirect(host: String, address: SocketAddress, core: ServerCore)
            throws(HTTPServerError) -> HTTPServer
        {
            let threads = max(1, core.configuration.threadCount)
            // The front holds the limit for all of them; a daemon refusing a
            // connection it is handed (its own count lags its close reports)
            // would close it unanswered, so theirs is set above the total.
            let daemonLimit = core.effectiveConnectionLimit + 64 + threads
            for _ in 0..<threads {
                guard core.startDaemon(address: nil, connectionLimit: daemonLimit) != nil
                else {
                    let message = String(cString: strerror(errno))
                    core.stop()
                    throw HTTPServerError(message: "cannot start the HTTP daemons (\(message))")
                }
            }
            // The daemons first: the loops hand connections on from their first accept.
            let front: DirectFront
            do {
                front = try DirectFront(address: address, threads: threads, core: core)
            } catch {
                core.stop()
                throw error
            }
            core.front.withLock { $0 = front }
            let boundPort = front.port
            core.configuration.logger.message(.info, "listening on \(address.displayHost):\(boundPort)")
            return HTTPServer(host: host, port: boundPort, core: core)
        }
    #endif

    /// Requests received and not yet finished.
    public var requestsInFlight: Int { core.inFlight.load(ordering: .acquiring) }

    /// Stops accepting connections, lets requests in flight finish (up to
    /// ``Configuration/shutdownGraceSeconds``, then delayed answers are sent
    /// at once), and stops the threads. Safe to call more than once; later
    /// calls wait for the first to finish.
    public func shutdown() {
        shutdownLock.withLock { done in
            guard !done else { return }
            done = true
            core.stop()
        }
    }

    deinit { shutdown() }
}

/// Why a server could not start.
public struct HTTPServerError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong, for people.
    public var message: String
    public init(message: String) { self.message = message }
    public var description: String { message }
}
