import CMicroHTTPD
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

#if canImport(Glibc)
    private let openFilesResource = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
#else
    private let openFilesResource = RLIMIT_NOFILE
#endif

/// A libmicrohttpd pointer handed between threads.
///
/// `@unchecked Sendable` is safe here: ``ServerCore`` only dereferences a
/// connection handle off the polling thread through `MHD_resume_connection`,
/// which libmicrohttpd documents as callable from any thread, and only while
/// the handle sits in `State.suspended` under the state lock — a suspended
/// connection cannot be freed, and removal under the lock means it is resumed
/// at most once. The daemon handle is used by `stop()` only, once.
struct MHDHandle: @unchecked Sendable {
    let pointer: OpaquePointer
}

/// The state shared by the polling threads, the resume timers and `shutdown`.
final class ServerCore: Sendable {
    struct State {
        /// One daemon listening with its own thread pool, or (direct path)
        /// one per polling thread, fed by the front.
        var daemons: [MHDHandle] = []
        /// Grace period over: delays and drips finish at once.
        var hurrying = false
        var suspended: [ObjectIdentifier: MHDHandle] = [:]
        /// Deferred answers produced and not yet sent, by request.
        var deferredAnswers: [ObjectIdentifier: HTTPResponse] = [:]
    }

    let configuration: HTTPServer.Configuration
    /// The most connections open at once (below the descriptor limit).
    let effectiveConnectionLimit: Int
    let handler: @Sendable (HTTPRequest) -> HTTPResponse
    let state = Locked(State())
    /// Requests begun and not completed. An atomic, not `state`: it changes
    /// twice per request on every polling thread, which then need not take
    /// the lock the timers and deferred answers hold.
    let inFlight = ServerAtomic<Int>(0)
    /// Stopped accepting; answers carry `Connection: close`. Read once per answer.
    let draining = ServerAtomic<Bool>(false)
    /// Timers for delayed and dripped answers; never the polling threads.
    let timerQueue = DispatchQueue(label: "interlude.http.timers")
    /// Where deferred answers run: threads of their own, so an answer that
    /// blocks (a store call) or callers that hold the shared concurrency
    /// pool never keep another deferred answer from finishing.
    let deferredExecutor = DispatchTaskExecutor(label: "interlude.http.deferred")
    /// Which daemon gets the next connection the direct path hands on.
    let nextDaemon = ServerAtomic<Int>(0)
    /// Connections the direct path accepted and are still open (its own and
    /// those handed to the daemons): it accepts only below the limit, and
    /// leaves the rest waiting in the backlog, as libmicrohttpd does.
    let openConnections = ServerAtomic<Int>(0)
    #if os(Linux)
        /// The direct path's listener and loops, when it runs.
        let front = Locked<DirectFront?>(nil)
    #endif

    init(configuration: HTTPServer.Configuration, handler: @escaping @Sendable (HTTPRequest) -> HTTPResponse) {
        self.configuration = configuration
        effectiveConnectionLimit = Self.connectionLimit(configuration)
        self.handler = handler
    }

    var logger: any ServerLogger { configuration.logger }

    /// Starts the daemon listening on `address` (nil: a daemon without a
    /// listening socket, for the direct path to hand connections to).
    func startDaemon(address: SocketAddress?, connectionLimit: Int) -> OpaquePointer? {
        // TURBO also skips the shutdown(SHUT_WR) before close, so that a reset
        // fault (SO_LINGER 0) really sends RST instead of FIN then RST.
        var flags =
            MHD_USE_AUTO_INTERNAL_THREAD.rawValue | MHD_ALLOW_SUSPEND_RESUME.rawValue | MHD_USE_TURBO.rawValue
        if let address, address.isIPv6 {
            flags |= address.isIPv6Any ? MHD_USE_DUAL_STACK.rawValue : MHD_USE_IPv6.rawValue
        }
        if address == nil { flags |= MHD_USE_NO_LISTEN_SOCKET.rawValue }
        // Each daemon holds a +1 reference to the core, released in stop().
        let unmanaged = Unmanaged.passRetained(self)
        let cls = unmanaged.toOpaque()
        let timeout = configuration.connectionTimeoutSeconds
        let memoryLimit = connectionMemoryLimit
        let threads = configuration.threadCount
        // Only daemons fed by the direct path count their closes: it holds
        // the connection limit for the daemons and itself.
        let countingCloses: MHD_NotifyConnectionCallback = { cls, _, _, code in
            if code.rawValue == 1 {  // MHD_CONNECTION_NOTIFY_CLOSED
                ServerCore.from(cls).connectionClosed()
            }
        }
        let start = { (sockAddr: UnsafePointer<sockaddr>?) in
            interlude_mhd_start(
                flags, sockAddr,
                { cls, connection, _, method, version, upload, uploadSize, context in
                    ServerCore.from(cls).access(
                        connection: connection, method: method, version: version, upload: upload,
                        uploadSize: uploadSize, context: context)
                }, cls,
                { cls, _, context, termination in
                    ServerCore.from(cls).completed(context: context, termination: termination)
                }, cls,
                { cls, uri, _ in ServerCore.from(cls).begin(uri: uri) }, cls,
                sockAddr == nil ? countingCloses : nil, cls,
                UInt32(connectionLimit), UInt32(max(1, timeout)), memoryLimit, UInt32(max(1, threads)))
        }
        let daemon = address.map { $0.withSockAddr { start($0) } } ?? start(nil)
        guard let daemon else {
            unmanaged.release()
            return nil
        }
        state.withLock { $0.daemons.append(MHDHandle(pointer: daemon)) }
        return daemon
    }

    /// Gives `socket`, at the first byte of a request, to the next daemon,
    /// which then owns (and closes) it.
    func handOff(socket: Int32, address: inout sockaddr_storage, length: socklen_t) {
        let daemons = state.withLock { $0.daemons }
        guard !daemons.isEmpty else {
            close(socket)
            connectionClosed()
            return
        }
        let daemon = daemons[nextDaemon.add(1, ordering: .relaxed).newValue % daemons.count]
        let added = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                MHD_add_connection(daemon.pointer, socket, $0, length)
            }
        }
        // Refused (out of memory): libmicrohttpd closed the socket, and will
        // not report its close.
        if added != .YES { connectionClosed() }
    }

    /// A connection of the direct path's count ended (closed by the loops or
    /// by a daemon); a loop waiting at the connection limit may accept again.
    func connectionClosed() {
        // Sequentially consistent, as the loops' pause (DirectLoop.paused).
        let before = openConnections.subtract(1, ordering: .sequentiallyConsistent).oldValue
        #if os(Linux)
            if before >= effectiveConnectionLimit { front.withLock { $0 }?.capacityFreed() }
        #endif
    }

    static func from(_ cls: UnsafeMutableRawPointer?) -> ServerCore {
        Unmanaged<ServerCore>.fromOpaque(cls!).takeUnretainedValue()
    }

    /// Each connection's memory pool: twice the largest header block
    /// allowed, so oversized headers still reach our 431 and the answer's
    /// own headers fit beside them. Not more: libmicrohttpd 0.9.75 zeroes the
    /// whole pool between keep-alive requests, so a 64 KiB pool cost a
    /// 64 KiB `memset` per request (5 % of a live playlist's samples in the
    /// "Live breaks decided ahead" profile, BENCHMARKS.md).
    var connectionMemoryLimit: Int { max(32 * 1024, configuration.maxHeaderBytes * 2) }

    /// Above the descriptor limit libmicrohttpd answers every request with
    /// `Connection: close` (measured), so stay well below it.
    static func connectionLimit(_ configuration: HTTPServer.Configuration) -> Int {
        var limit = rlimit()
        guard getrlimit(openFilesResource, &limit) == 0 else { return configuration.maxConnections }
        var available = Int(clamping: limit.rlim_cur) - 64
        #if os(Linux)
            // The direct path's own descriptors: its listener, an epoll and
            // an eventfd per loop, and about as many per daemon. The files it
            // sends from are shared per loop; when they cannot be opened the
            // viewer gets a 503, never a cut answer.
            if !configuration.directPrefixes.isEmpty { available -= 1 + 4 * max(1, configuration.threadCount) }
        #endif
        return max(1, min(configuration.maxConnections, available))
    }

    // MARK: Suspension

    /// Suspends `connection` and resumes it after `milliseconds`.
    /// Must be called from the access handler or a content reader.
    func suspend(_ connection: OpaquePointer, key: ObjectIdentifier, milliseconds: Int) {
        let hurrying = state.withLock { state -> Bool in
            guard !state.hurrying else { return true }
            state.suspended[key] = MHDHandle(pointer: connection)
            return false
        }
        guard !hurrying else { return }
        MHD_suspend_connection(connection)
        timerQueue.asyncAfter(deadline: .now() + .milliseconds(max(0, milliseconds))) { [self] in
            resume(key: key)
        }
    }

    /// Resumes a suspended connection once; later calls do nothing.
    func resume(key: ObjectIdentifier) {
        let handle = state.withLock { $0.suspended.removeValue(forKey: key) }
        if let handle { MHD_resume_connection(handle.pointer) }
    }

    var isHurrying: Bool { state.withLock { $0.hurrying } }

    /// Parks `connection` until `pending` has produced its answer. During
    /// shutdown (or if shutdown comes first) the request gets a 503 instead.
    func startDeferred(_ pending: HTTPDeferredAnswer, connection: OpaquePointer, key: ObjectIdentifier) {
        let hurrying = state.withLock { state -> Bool in
            guard !state.hurrying else { return true }
            state.suspended[key] = MHDHandle(pointer: connection)
            return false
        }
        guard !hurrying else { return }
        MHD_suspend_connection(connection)
        if let start = pending.start {
            // Only the first call counts: a later one must not reach another
            // request that got this one's freed context address as its key.
            let completed = Locked(false)
            start { [self] response in
                let first = completed.withLock { done -> Bool in
                    defer { done = true }
                    return !done
                }
                if first { finishDeferred(key: key, with: response) }
            }
            return
        }
        Task(executorPreference: deferredExecutor) { [self] in
            finishDeferred(key: key, with: await pending.produce())
        }
    }

    /// Hands a parked request its answer and resumes it; later calls for the
    /// same request do nothing.
    private func finishDeferred(key: ObjectIdentifier, with response: HTTPResponse) {
        let handle = state.withLock { state -> MHDHandle? in
            // Gone when shutdown resumed it already: the request was answered 503.
            guard let handle = state.suspended.removeValue(forKey: key) else { return nil }
            state.deferredAnswers[key] = response
            return handle
        }
        if let handle { MHD_resume_connection(handle.pointer) }
    }

    /// The deferred answer of request `key`, once (nil when there is none).
    func takeDeferredAnswer(key: ObjectIdentifier) -> HTTPResponse? {
        state.withLock { $0.deferredAnswers.removeValue(forKey: key) }
    }

    // MARK: Shutdown

    func stop() {
        draining.store(true, ordering: .sequentiallyConsistent)
        let daemons = state.withLock { $0.daemons }
        guard !daemons.isEmpty else { return }
        #if os(Linux)
            // Taken out first: closes reported after this (by the daemons as
            // they stop) must not wake loops whose descriptors are closed.
            let front = front.withLock { front in
                defer { front = nil }
                return front
            }
            front?.stopAccepting()
        #endif
        // A daemon without a listening socket has none to give back (-1).
        let listenSockets = daemons.map { MHD_quiesce_daemon($0.pointer) }
        waitForInFlight(seconds: configuration.shutdownGraceSeconds)
        #if os(Linux)
            // Its connections between requests close; answers still going are cut.
            front?.stop()
        #endif
        // libmicrohttpd must not be stopped with suspended connections:
        // finish every delayed or dripping answer now.
        let suspended = state.withLock { state -> [MHDHandle] in
            state.hurrying = true
            defer { state.suspended.removeAll() }
            return Array(state.suspended.values)
        }
        for handle in suspended { MHD_resume_connection(handle.pointer) }
        waitForInFlight(seconds: 2)
        for daemon in daemons { MHD_stop_daemon(daemon.pointer) }
        for listenSocket in listenSockets where listenSocket >= 0 { close(listenSocket) }
        state.withLock { $0.daemons = [] }
        for _ in daemons { Unmanaged.passUnretained(self).release() }
        logger.message(.info, "server stopped")
    }

    private func waitForInFlight(seconds: Double) {
        let deadline = Date().addingTimeInterval(seconds)
        while inFlight.load(ordering: .acquiring) > 0, Date() < deadline {
            usleep(2_000)
        }
    }
}
