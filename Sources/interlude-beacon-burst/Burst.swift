import Foundation

#if canImport(Glibc)
    import Glibc
    private let streamSocket = Int32(SOCK_STREAM.rawValue)
    private let noSignal = Int32(MSG_NOSIGNAL)
#elseif canImport(Darwin)
    import Darwin
    private let streamSocket = SOCK_STREAM
    private let noSignal: Int32 = 0  // Darwin: SO_NOSIGPIPE on the socket instead
#endif

/// Results of one connection's share.
final class Tally: @unchecked Sendable {
    // @unchecked Sendable: each Tally is written by exactly one worker thread
    // and read by the main thread only after `group.wait()` has joined it.
    var answered204 = 0
    var other = 0
    var failed = false
}

/// One connection's blocking request loop (nonisolated: runs on worker threads).
enum Burst {
    static func connectLoopback(port: UInt16) -> Int32 {
        let descriptor = socket(AF_INET, streamSocket, 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        inet_pton(AF_INET, "127.0.0.1", &address.sin_addr)
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        var one: Int32 = 1
        setsockopt(descriptor, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
        #if canImport(Darwin)
            setsockopt(descriptor, SOL_SOCKET, SO_NOSIGPIPE, &one, socklen_t(MemoryLayout<Int32>.size))
        #endif
        return result == 0 ? descriptor : -1
    }

    static func run(port: UInt16, session: String, worker: Int, count: Int, tally: Tally) {
        let descriptor = connectLoopback(port: port)
        guard descriptor >= 0 else {
            tally.failed = true
            return
        }
        defer { close(descriptor) }
        var buffer = [UInt8](repeating: 0, count: 4096)
        for index in 0..<count {
            let request =
                "GET /track/\(session)/ad-\(worker)/impression?idk=\(worker)-\(index)&cb=1 HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
            let bytes = Array(request.utf8)
            guard bytes.withUnsafeBytes({ send(descriptor, $0.baseAddress, $0.count, noSignal) }) == bytes.count else {
                tally.failed = true
                return
            }
            // A 204 has no body: the response ends at the blank line.
            var received: [UInt8] = []
            while !(received.count >= 4 && received.suffix(4) == [13, 10, 13, 10]) {
                let got = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
                guard got > 0 else {
                    tally.failed = true
                    return
                }
                received += buffer.prefix(got)
            }
            if received.starts(with: Array("HTTP/1.1 204".utf8)) { tally.answered204 += 1 } else { tally.other += 1 }
        }
    }
}
