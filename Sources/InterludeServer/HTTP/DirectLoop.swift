#if os(Linux)
    import CMicroHTTPD
    import Foundation
    import Glibc
    import Synchronization

    /// One thread of the direct path: an edge-triggered epoll over the
    /// listening socket (shared, `EPOLLEXCLUSIVE`), a wake-up eventfd and the
    /// connections it accepted and has not handed on. Serving is in
    /// `DirectLoop+Serving.swift`.
    ///
    /// `@unchecked Sendable`: the members marked "loop thread only" are
    /// touched by the loop's thread alone; the rest are atomics, locked, or
    /// set before the thread starts.
    final class DirectLoop: @unchecked Sendable {
        let index: Int
        let listenSocket: Int32
        unowned let core: ServerCore
        let epoll: Int32
        let wakeup: Int32
        private let stopping = Atomic<Bool>(false)
        /// Connections this loop holds or has been handed and not yet registered.
        let heldCount = Atomic<Int>(0)
        /// Connections another loop accepted for this one; `closed` once
        /// this loop has taken its last, after which nothing is put there.
        private let inbox = Locked<(connections: [DirectConnection], closed: Bool)>(([], false))
        /// Set by the front before the thread starts; the front outlives it.
        unowned(unsafe) var front: DirectFront?
        /// Left connections in the backlog at the connection limit. Read and
        /// written sequentially consistent with `ServerCore.openConnections`:
        /// a loop stores this then reads the count, a closing thread lowers
        /// the count then reads this, and one of them must see the other.
        private let paused = Atomic<Bool>(false)
        private let finished = DispatchSemaphore(value: 0)
        private var started = false

        // Loop thread only:
        var connections: [Int32: DirectConnection] = [:]
        /// Connections that stopped with requests left (a pipelining client
        /// over its turn): served again before the loop waits.
        var ready: [DirectConnection] = []
        var files = DirectFileTable()
        private var accepting = true
        /// `accept` ran out of descriptors or memory: when to try again, since
        /// the edge-triggered listener may not signal the waiting backlog again.
        private var acceptRetryAt: UInt64?
        private var lastSweep: UInt64 = 0
        private var dateSecond = -1
        private var dateText = ""
        let peekCapacity: Int
        let peekBuffer: UnsafeMutableRawBufferPointer

        /// Requests one connection is answered in a row before the others
        /// on this loop get their turn.
        static let requestsPerTurn = 16
        /// Peeks a request head may take to arrive whole before the
        /// connection goes to libmicrohttpd, which reads it incrementally
        /// (a peek reads it from the start each time).
        static let peeksPerHead = 4
        /// How long a closing connection waits for its client to close.
        static let closingNanoseconds: UInt64 = 2_000_000_000

        init(index: Int, listenSocket: Int32, core: ServerCore) throws(HTTPServerError) {
            self.index = index
            self.listenSocket = listenSocket
            self.core = core
            peekCapacity = max(1024, core.configuration.maxHeaderBytes)
            peekBuffer = UnsafeMutableRawBufferPointer.allocate(byteCount: peekCapacity, alignment: 16)
            epoll = epoll_create1(Int32(EPOLL_CLOEXEC))
            wakeup = eventfd(0, Int32(EFD_NONBLOCK) | Int32(EFD_CLOEXEC))
            let edge = UInt32(EPOLLIN.rawValue) | UInt32(EPOLLET.rawValue)
            guard epoll >= 0, wakeup >= 0,
                interlude_epoll_control(epoll, EPOLL_CTL_ADD, wakeup, UInt32(EPOLLIN.rawValue)) == 0,
                interlude_epoll_control(
                    epoll, EPOLL_CTL_ADD, listenSocket, edge | UInt32(EPOLLEXCLUSIVE.rawValue)) == 0
            else {
                // deinit closes what was opened.
                throw HTTPServerError(
                    message: "cannot start the direct path (epoll: \(String(cString: strerror(errno))))")
            }
        }

        deinit {
            if epoll >= 0 { close(epoll) }
            if wakeup >= 0 { close(wakeup) }
            peekBuffer.deallocate()
        }

        func start() {
            started = true
            let thread = Thread { [self] in run() }
            thread.name = "interlude.http.direct.\(index)"
            thread.start()
        }

        var isPaused: Bool { paused.load(ordering: .sequentiallyConsistent) }

        func wake() {
            var one: UInt64 = 1
            _ = write(wakeup, &one, 8)
        }

        /// Asks the loop to close its connections and end.
        func requestStop() {
            stopping.store(true, ordering: .releasing)
            wake()
        }

        func waitUntilStopped() {
            if started { finished.wait() }
        }

        private func run() {
            interlude_block_sigpipe()
            var descriptors = [Int32](repeating: 0, count: 128)
            var events = [UInt32](repeating: 0, count: 128)
            while !stopping.load(ordering: .acquiring) {
                let timeout: Int32 = !ready.isEmpty ? 0 : acceptRetryAt != nil ? 100 : 1000
                let count = interlude_epoll_wait(epoll, &descriptors, &events, 128, timeout)
                let now = DispatchTime.now().uptimeNanoseconds
                for item in 0..<max(0, Int(count)) {
                    let descriptor = descriptors[item]
                    if descriptor == wakeup {
                        var value: UInt64 = 0
                        _ = read(wakeup, &value, 8)
                        for connection in inbox.withLock(Self.takeAll) { register(connection, now: now) }
                        if paused.exchange(false, ordering: .sequentiallyConsistent) { acceptAll(now: now) }
                    } else if descriptor == listenSocket {
                        acceptAll(now: now)
                    } else if let connection = connections[descriptor] {
                        let hangUp =
                            UInt32(EPOLLRDHUP.rawValue) | UInt32(EPOLLHUP.rawValue) | UInt32(EPOLLERR.rawValue)
                        service(connection, now: now, hungUp: events[item] & hangUp != 0)
                    }
                }
                serveReady(now: now)
                if core.draining.load(ordering: .relaxed), accepting { stopAcceptingHere() }
                if let retryAt = acceptRetryAt, now >= retryAt { acceptAll(now: now) }
                if now &- lastSweep >= 1_000_000_000 {
                    lastSweep = now
                    // A backstop for a wake lost at the connection limit.
                    if paused.exchange(false, ordering: .sequentiallyConsistent) { acceptAll(now: now) }
                    closeIdle(now: now)
                }
            }
            for connection in Array(connections.values) { drop(connection) }
            files.closeAll()
            // Handed over as the loop stopped: never registered here.
            let leftovers = inbox.withLock { inbox -> [DirectConnection] in
                inbox.closed = true
                return Self.takeAll(&inbox)
            }
            for connection in leftovers {
                close(connection.socket)
                core.connectionClosed()
            }
            finished.signal()
        }

        private static func takeAll(_ inbox: inout (connections: [DirectConnection], closed: Bool))
            -> [DirectConnection]
        {
            defer { inbox.connections = [] }
            return inbox.connections
        }

        // MARK: Accepting

        private func acceptAll(now: UInt64) {
            let wasBackingOff = acceptRetryAt != nil
            acceptRetryAt = nil
            while accepting {
                // At the limit the connection waits in the backlog, as with
                // libmicrohttpd; a close wakes this loop (capacityFreed).
                if core.openConnections.load(ordering: .sequentiallyConsistent) >= core.effectiveConnectionLimit {
                    paused.store(true, ordering: .sequentiallyConsistent)
                    // A close between the check and the store would not wake us.
                    guard
                        core.openConnections.load(ordering: .sequentiallyConsistent) < core.effectiveConnectionLimit
                    else { return }
                    paused.store(false, ordering: .sequentiallyConsistent)
                }
                var address = sockaddr_storage()
                var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
                let socket = withUnsafeMutablePointer(to: &address) {
                    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { interlude_accept(listenSocket, $0, &length) }
                }
                if socket < 0 {
                    let code = interlude_errno()
                    switch DirectAcceptFailure(errno: code) {
                    case .retry:
                        continue
                    case .backlogEmpty:
                        return
                    case .backOff:
                        // Logged once a spell, not every 100 ms.
                        if !wasBackingOff {
                            core.logger.message(
                                .warning, "cannot accept a connection: \(String(cString: strerror(code)))")
                        }
                        acceptRetryAt = now + 100_000_000
                        return
                    case .listenerClosed:
                        stopAcceptingHere()
                        return
                    }
                }
                core.openConnections.add(1, ordering: .sequentiallyConsistent)
                var one: Int32 = 1
                _ = setsockopt(socket, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
                let connection = DirectConnection(socket: socket, address: address, addressLength: length, now: now)
                let target = front?.leastLoaded(preferring: self) ?? self
                target.heldCount.add(1, ordering: .relaxed)
                if target === self {
                    register(connection, now: now)
                } else if !target.adopt(connection) {
                    target.heldCount.subtract(1, ordering: .relaxed)
                    close(socket)
                    core.connectionClosed()
                }
            }
        }

        /// Takes a connection another loop accepted (any thread); false when
        /// this loop has stopped and the caller keeps it.
        private func adopt(_ connection: DirectConnection) -> Bool {
            let taken = inbox.withLock { inbox -> Bool in
                guard !inbox.closed else { return false }
                inbox.connections.append(connection)
                return true
            }
            if taken { wake() }
            return taken
        }

        /// Starts watching a connection counted in `heldCount`, and serves what it sent.
        private func register(_ connection: DirectConnection, now: UInt64) {
            let events =
                UInt32(EPOLLIN.rawValue) | UInt32(EPOLLOUT.rawValue) | UInt32(EPOLLRDHUP.rawValue)
                | UInt32(EPOLLET.rawValue)
            guard interlude_epoll_control(epoll, EPOLL_CTL_ADD, connection.socket, events) == 0 else {
                heldCount.subtract(1, ordering: .relaxed)
                close(connection.socket)
                core.connectionClosed()
                return
            }
            connections[connection.socket] = connection
            service(connection, now: now)
        }

        private func stopAcceptingHere() {
            guard accepting else { return }
            accepting = false
            acceptRetryAt = nil
            _ = interlude_epoll_control(epoll, EPOLL_CTL_DEL, listenSocket, 0)
        }

        /// Serves the connections put aside with requests left, each for one more turn.
        private func serveReady(now: UInt64) {
            guard !ready.isEmpty else { return }
            let turn = ready
            ready = []
            // A connection closed since (and its descriptor perhaps reused) is skipped.
            for connection in turn where connections[connection.socket] === connection {
                service(connection, now: now)
            }
        }

        /// Connections idle (or stalled mid-answer) longer than the server's
        /// timeout, and closing ones whose client has not closed in time.
        private func closeIdle(now: UInt64) {
            let limit = UInt64(max(1, core.configuration.connectionTimeoutSeconds)) * 1_000_000_000
            for connection in Array(connections.values) {
                if let since = connection.closingSince {
                    if now &- since > Self.closingNanoseconds { closeConnection(connection) }
                } else if now &- connection.lastActivity > limit {
                    drop(connection)
                }
            }
        }

        func date(now: UInt64) -> String {
            let second = Int(Date().timeIntervalSince1970)
            if second != dateSecond {
                dateSecond = second
                dateText = DirectAnswer.httpDate(second)
            }
            return dateText
        }
    }
#endif
