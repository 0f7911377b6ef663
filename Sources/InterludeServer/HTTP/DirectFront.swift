#if os(Linux)
    import CMicroHTTPD
    import Foundation
    import Glibc
    import Synchronization

    /// The direct path: the server's own listening socket and epoll loops in
    /// front of libmicrohttpd. Each loop peeks at a connection's next request
    /// head; a plain GET under one of ``HTTPServer/Configuration/directPrefixes``
    /// is answered here (the head with `sendmsg`, file runs of the body with
    /// `sendfile`), anything else hands the connection, at that request's
    /// first byte, to a libmicrohttpd daemon, which keeps it to the end.
    ///
    /// Why: libmicrohttpd 0.9.75 sends a body either from one descriptor or
    /// from memory, and a tagged ad segment is both (the conditioned file
    /// with a viewer's ID3 packets between its bytes), so it was copied into
    /// the socket whole: 44 % of the server's samples under load.
    ///
    /// `@unchecked Sendable`: `listenSocket` and `loops` are set in `init`
    /// and not changed; each loop's connections are touched by its thread only.
    final class DirectFront: @unchecked Sendable {
        let listenSocket: Int32
        let loops: [DirectLoop]

        /// Listens on `address` and starts `threads` loops answering for `core`.
        init(address: SocketAddress, threads: Int, core: ServerCore) throws(HTTPServerError) {
            listenSocket = try Self.listen(on: address)
            var loops: [DirectLoop] = []
            do {
                for index in 0..<max(1, threads) {
                    loops.append(
                        try DirectLoop(index: index, listenSocket: listenSocket, core: core))
                }
            } catch {
                // Loops never started close their descriptors as they go.
                close(listenSocket)
                throw error
            }
            self.loops = loops
            for loop in loops {
                loop.front = self
                loop.start()
            }
        }

        /// The port bound (the system's choice for port 0).
        var port: UInt16 {
            var storage = sockaddr_storage()
            var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
            let result = withUnsafeMutablePointer(to: &storage) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(listenSocket, $0, &length) }
            }
            guard result == 0 else { return 0 }
            let family = storage.ss_family
            return withUnsafePointer(to: &storage) { pointer in
                if family == sa_family_t(AF_INET6) {
                    return pointer.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) {
                        UInt16(bigEndian: $0.pointee.sin6_port)
                    }
                }
                return pointer.withMemoryRebound(to: sockaddr_in.self, capacity: 1) {
                    UInt16(bigEndian: $0.pointee.sin_port)
                }
            }
        }

        /// New connections are refused from now on (the listening socket is
        /// shut down; loops stop accepting).
        func stopAccepting() {
            _ = shutdown(listenSocket, Int32(SHUT_RDWR))
            for loop in loops { loop.wake() }
        }

        /// The loop holding the fewest connections, `accepting` when it is
        /// one of them: a loop accepts whatever is pending when it wakes, so
        /// without this one loop could hold most connections while the other
        /// idles, and its viewers wait twice as long.
        func leastLoaded(preferring accepting: DirectLoop) -> DirectLoop {
            var best = accepting
            var fewest = accepting.heldCount.load(ordering: .relaxed)
            for loop in loops where loop !== accepting {
                let held = loop.heldCount.load(ordering: .relaxed)
                if held < fewest {
                    best = loop
                    fewest = held
                }
            }
            return best
        }

        /// A connection closed: loops waiting at the connection limit accept again.
        func capacityFreed() {
            for loop in loops where loop.isPaused { loop.wake() }
        }

        /// Closes every connection the loops hold and waits for their threads.
        func stop() {
            stopAccepting()
            for loop in loops { loop.requestStop() }
            // A loop's epoll and eventfd close with its last reference, so a
            // wake from another thread (capacityFreed) never hits a closed
            // or reused descriptor.
            for loop in loops { loop.waitUntilStopped() }
            close(listenSocket)
        }

        private static func listen(on address: SocketAddress) throws(HTTPServerError) -> Int32 {
            let family = address.isIPv6 ? AF_INET6 : AF_INET
            let descriptor = socket(
                family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
            guard descriptor >= 0 else { throw failure("socket", address) }
            var one: Int32 = 1
            _ = setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
            if address.isIPv6 {
                // `::` serves IPv4 too (dual stack), as libmicrohttpd did.
                var only: Int32 = address.isIPv6Any ? 0 : 1
                _ = setsockopt(descriptor, Int32(IPPROTO_IPV6), IPV6_V6ONLY, &only, socklen_t(MemoryLayout<Int32>.size))
            }
            let bound = address.withSockAddr { bind(descriptor, $0, address.length) }
            guard bound == 0, Glibc.listen(descriptor, SOMAXCONN) == 0 else {
                let error = failure("bind", address)
                close(descriptor)
                throw error
            }
            return descriptor
        }

        private static func failure(_ call: String, _ address: SocketAddress) -> HTTPServerError {
            HTTPServerError(
                message: "cannot listen on \(address.displayHost) (\(call): \(String(cString: strerror(errno))))")
        }
    }
#endif
