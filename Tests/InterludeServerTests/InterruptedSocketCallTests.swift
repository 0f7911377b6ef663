// Linux only: Synchronization's Atomic and Mutex need macOS 15, and the
// package supports macOS 13.
#if os(Linux)
    import Foundation
    import Interlude
    import InterludeServerTestSupport
    import Synchronization
    import Testing

    @testable import InterludeServer

    #if canImport(Glibc)
        import Glibc
    #elseif canImport(Darwin)
        import Darwin
    #endif

    /// Signals that interrupt a blocked socket call (`EINTR`) are not failures:
    /// the server's beacon transport, the console's tag client and the tests'
    /// loopback client finish their exchange. A CI run once lost ten VTP tests
    /// to a `recv` interrupted while ffmpeg children exited.
    @Suite(.serialized)
    struct InterruptedSocketCallTests {
        @Test func aBeaconIsSentThoughSignalsInterruptItsCalls() async throws {
            let outcome = try await exchangeUnderSignals(answer: "HTTP/1.1 204 No Content\r\nContent-Length: 0\r\n\r\n")
            {
                port in
                try HTTPBeaconTransport(timeout: 5).send(
                    url: "http://127.0.0.1:\(port)/beacon", idempotencyKey: "interrupted-1")
            }
            #expect(outcome == 204)
        }

        @Test func aTagIsFetchedThoughSignalsInterruptItsCalls() async throws {
            let outcome = try await exchangeUnderSignals(answer: "HTTP/1.1 200 OK\r\nContent-Length: 6\r\n\r\n<VAST>") {
                port in
                let response = try LoopbackTagClient().exchange(
                    Interlude.HTTPRequest(url: URL(string: "http://127.0.0.1:\(port)/tag")!, timeout: 5))
                return "\(response.statusCode) \(String(decoding: response.body, as: UTF8.self))"
            }
            #expect(outcome == "200 <VAST>")
        }

        @Test func theLoopbackTestClientReadsThoughSignalsInterruptItsCalls() async throws {
            let outcome = try await exchangeUnderSignals(answer: "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok") {
                port in
                let response = try LoopbackConnection(port: port).request("GET", "/")
                return "\(response.status) \(String(decoding: response.body, as: UTF8.self))"
            }
            #expect(outcome == "200 ok")
        }
    }

    /// Counts signals handled, from the handler itself (lock-free, so safe there).
    private let handledSignals = Atomic<Int>(0)

    /// Runs `client` against a one-shot server on its own thread while another
    /// thread sends that thread SIGUSR2 (handled without `SA_RESTART`) every
    /// half millisecond. The server reads the request, then answers only after
    /// 40 more signals were handled, so they land while the client waits in
    /// `recv`.
    private func exchangeUnderSignals<T: Sendable>(
        answer: String, client: @escaping @Sendable (UInt16) throws -> T
    ) async throws -> T {
        try await onOwnThread { try exchangeUnderSignalsBlocking(answer: answer, client: client) }
    }

    private func exchangeUnderSignalsBlocking<T: Sendable>(
        answer: String, client: @escaping @Sendable (UInt16) throws -> T
    ) throws -> T {
        var action = sigaction()
        #if canImport(Glibc)
            action.__sigaction_handler.sa_handler = { _ in handledSignals.add(1, ordering: .relaxed) }
        #else
            action.__sigaction_u.__sa_handler = { _ in handledSignals.add(1, ordering: .relaxed) }
        #endif
        action.sa_flags = 0  // no SA_RESTART: blocked calls return EINTR
        sigemptyset(&action.sa_mask)
        var previous = sigaction()
        sigaction(SIGUSR2, &action, &previous)
        defer { sigaction(SIGUSR2, &previous, nil) }

        let listener = try OneShotServer(answer: answer)
        let target = Mutex<pthread_t?>(nil)
        let done = Atomic<Bool>(false)
        let result = Mutex<Result<T, any Error>?>(nil)
        let finished = DispatchSemaphore(value: 0)
        let port = listener.port
        Thread {
            // Threads may start with signals blocked (Foundation's do); this one
            // stands for any thread of an app, which receives them.
            var mask = sigset_t()
            sigemptyset(&mask)
            sigaddset(&mask, SIGUSR2)
            pthread_sigmask(SIG_UNBLOCK, &mask, nil)
            target.withLock { $0 = pthread_self() }
            let outcome = Result { try client(port) }
            done.store(true, ordering: .sequentiallyConsistent)
            result.withLock { $0 = outcome }
            finished.signal()
        }.start()
        Thread {
            while !done.load(ordering: .sequentiallyConsistent) {
                if let thread = target.withLock({ $0 }) { pthread_kill(thread, SIGUSR2) }
                usleep(500)
            }
        }.start()
        listener.serveOnce(afterSignals: 40, unlessGivenUp: done)
        #expect(finished.wait(timeout: .now() + 20) == .success, "the client never finished")
        let outcome = try #require(result.withLock { $0 })
        return try outcome.get()
    }

    /// A loopback listener that answers one request with fixed bytes.
    private final class OneShotServer: Sendable {
        let descriptor: Int32
        let port: UInt16
        let answer: String

        init(answer: String) throws {
            self.answer = answer
            let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            self.descriptor = descriptor
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            var length = socklen_t(MemoryLayout<sockaddr_in>.size)
            let bound = withUnsafeMutablePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    bind(descriptor, $0, length) == 0 && listen(descriptor, 4) == 0
                        && getsockname(descriptor, $0, &length) == 0
                }
            }
            guard bound else { throw LoopbackError("cannot listen", code: errno) }
            port = UInt16(bigEndian: address.sin_port)
        }

        deinit { close(descriptor) }

        /// Accepts one connection, reads the request head, waits for `count`
        /// more handled signals (or for the client to give up), answers and
        /// closes.
        func serveOnce(afterSignals count: Int, unlessGivenUp clientDone: borrowing Atomic<Bool>) {
            var waiting = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            while poll(&waiting, 1, 50) <= 0 {
                if clientDone.load(ordering: .sequentiallyConsistent) { return }  // it failed before connecting
            }
            let connection = accept(descriptor, nil, nil)
            guard connection >= 0 else { return }
            defer { close(connection) }
            var request: [UInt8] = []
            var chunk = [UInt8](repeating: 0, count: 4096)
            while !(request.count >= 4 && request.suffix(4) == [13, 10, 13, 10]) {
                let got = InterruptibleSocketCalls.retrying { recv(connection, &chunk, chunk.count, 0) }
                guard got > 0 else { return }
                request += chunk.prefix(got)
            }
            let goal = handledSignals.load(ordering: .relaxed) + count
            while handledSignals.load(ordering: .relaxed) < goal, !clientDone.load(ordering: .sequentiallyConsistent) {
                usleep(200)
            }
            let bytes = Array(answer.utf8)
            _ = bytes.withUnsafeBytes { buffer in
                InterruptibleSocketCalls.retrying {
                    send(connection, buffer.baseAddress, buffer.count, Int32(MSG_NOSIGNAL))
                }
            }
        }
    }
#endif
