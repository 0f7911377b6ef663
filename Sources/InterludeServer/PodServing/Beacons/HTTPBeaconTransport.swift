import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

#if canImport(Glibc)
    private let streamSocket = Int32(SOCK_STREAM.rawValue)
    private let noSignal = Int32(MSG_NOSIGNAL)
    private let systemSend = Glibc.send
#else
    private let streamSocket = SOCK_STREAM
    private let noSignal: Int32 = 0  // Darwin: SO_NOSIGPIPE on the socket instead
    private let systemSend = Darwin.send
#endif

/// The default ``BeaconTransport``: plain HTTP/1.1 over kept-alive sockets
/// for `http` URLs (the collector, loopback trackers), `URLSession` for
/// `https`. Foundation's Linux `URLSession` stalls for half a second on some
/// new loopback connections (measured), which a tracker pixel cannot afford
/// at thousands a second; a beacon needs no more HTTP than a GET and a status.
public final class HTTPBeaconTransport: BeaconTransport {
    /// Seconds a connect, a write or a read may take.
    public let timeout: Double
    /// Idle kept-alive sockets by `host:port`.
    private let idle = Locked<[String: [Int32]]>([:])
    private let secure: URLSessionBeaconTransport

    public init(timeout: Double = 5) {
        self.timeout = timeout
        secure = URLSessionBeaconTransport()
    }

    deinit {
        for sockets in idle.withLock({ $0.values }) { for socket in sockets { close(socket) } }
    }

    public func send(url: String, idempotencyKey: String) throws(BeaconTransportError) -> Int {
        guard url.hasPrefix("http://") else { return try secure.send(url: url, idempotencyKey: idempotencyKey) }
        guard let parts = Self.split(url) else { throw BeaconTransportError("no host in \(url.prefix(200))") }
        let request = Array(
            ("GET \(parts.target) HTTP/1.1\r\nHost: \(parts.authority)\r\nUser-Agent: Interlude-SSB/1\r\n"
                + "Idempotency-Key: \(idempotencyKey)\r\nAccept: */*\r\n\r\n").utf8)
        let key = "\(parts.host):\(parts.port)"
        // A kept-alive socket the server has since closed fails before any
        // answer: try once more on a new one (the idempotency key makes a repeat harmless).
        if let reused = idle.withLock({ $0[key]?.popLast() }) {
            if let status = try? exchange(request, on: reused, key: key) { return status }
        }
        let fresh = try connect(host: parts.host, port: parts.port)
        return try exchange(request, on: fresh, key: key)
    }

    /// `http://host[:port]/path?query` into its parts (the target as sent:
    /// already percent-encoded); nil without a host or with a bad port.
    static func split(_ url: String) -> (host: String, port: Int, authority: String, target: String)? {
        let rest = url.utf8.dropFirst("http://".count)
        let slash = rest.firstIndex(of: UInt8(ascii: "/"))
        let query = rest.firstIndex(of: UInt8(ascii: "?"))
        let end = [slash, query].compactMap { $0 }.min() ?? rest.endIndex
        let authority = String(decoding: rest[..<end], as: UTF8.self)
        var target = String(decoding: rest[end...], as: UTF8.self)
        if !target.hasPrefix("/") { target = "/" + target }
        if let fragment = target.firstIndex(of: "#") { target = String(target[..<fragment]) }
        var host = authority
        var port = 80
        if authority.hasPrefix("[") {
            // An IPv6 literal, possibly with a port after the bracket.
            guard let close = authority.firstIndex(of: "]") else { return nil }
            host = String(authority[authority.index(after: authority.startIndex)..<close])
            let after = authority[authority.index(after: close)...]
            if after.hasPrefix(":") {
                guard let number = Int(after.dropFirst()), (1...65_535).contains(number) else { return nil }
                port = number
            }
        } else if let colon = authority.lastIndex(of: ":") {
            host = String(authority[..<colon])
            guard let number = Int(authority[authority.index(after: colon)...]), (1...65_535).contains(number) else {
                return nil
            }
            port = number
        }
        guard !host.isEmpty, !host.contains("@") else { return nil }
        return (host, port, authority, target)
    }

    /// Sends the request, reads the answer, and keeps the socket when the
    /// server lets it; closes it on any failure.
    private func exchange(_ request: [UInt8], on socket: Int32, key: String) throws(BeaconTransportError) -> Int {
        do {
            try write(request, to: socket)
            var reader = ResponseReader(socket: socket)
            let (status, keepAlive) = try reader.readResponse()
            if keepAlive {
                idle.withLock { $0[key, default: []].append(socket) }
            } else {
                close(socket)
            }
            return status
        } catch {
            close(socket)
            throw error
        }
    }

    private func connect(host: String, port: Int) throws(BeaconTransportError) -> Int32 {
        var hints = addrinfo()
        hints.ai_socktype = streamSocket
        hints.ai_family = AF_UNSPEC
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, String(port), &hints, &list)
        guard status == 0, let first = list else {
            throw BeaconTransportError("cannot resolve \(host): \(String(cString: gai_strerror(status)))")
        }
        defer { freeaddrinfo(list) }
        var lastError: Int32 = 0
        var entry: UnsafeMutablePointer<addrinfo>? = first
        while let address = entry {
            let socket = Self.makeSocket(family: address.pointee.ai_family, timeout: timeout)
            if socket >= 0 {
                // SO_SNDTIMEO bounds connect too (Linux and Darwin).
                if InterruptibleSocketCalls.connect(
                    socket, address.pointee.ai_addr, address.pointee.ai_addrlen, timeout: timeout) == 0
                {
                    return socket
                }
                lastError = errno
                close(socket)
            }
            entry = address.pointee.ai_next
        }
        throw BeaconTransportError("cannot connect to \(host):\(port): \(String(cString: strerror(lastError)))")
    }

    private static func makeSocket(family: Int32, timeout: Double) -> Int32 {
        let descriptor = socket(family, streamSocket, 0)
        guard descriptor >= 0 else { return -1 }
        var limit = timeval(tv_sec: .init(timeout), tv_usec: .init((timeout - timeout.rounded(.down)) * 1_000_000))
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(descriptor, SOL_SOCKET, SO_SNDTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        var one: Int32 = 1
        setsockopt(descriptor, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
        #if canImport(Darwin)
            setsockopt(descriptor, SOL_SOCKET, SO_NOSIGPIPE, &one, socklen_t(MemoryLayout<Int32>.size))
        #endif
        return descriptor
    }

    private func write(_ bytes: [UInt8], to socket: Int32) throws(BeaconTransportError) {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes[offset...].withUnsafeBytes { buffer in
                InterruptibleSocketCalls.retrying { systemSend(socket, buffer.baseAddress, buffer.count, noSignal) }
            }
            guard sent > 0 else { throw BeaconTransportError("send failed: \(String(cString: strerror(errno)))") }
            offset += sent
        }
    }
}

/// Reads one HTTP/1.1 response from a socket: the status, the body
/// (discarded, at most 1 MiB) by length, chunks or close, and whether the
/// connection may be used again.
private struct ResponseReader {
    let socket: Int32
    var buffer: [UInt8] = []

    static let maxBody = 1 << 20
    static let maxHead = 64 * 1024

    init(socket: Int32) { self.socket = socket }

    mutating func readResponse() throws(BeaconTransportError) -> (status: Int, keepAlive: Bool) {
        var headEnd = find([13, 10, 13, 10])
        while headEnd == nil {
            guard buffer.count < Self.maxHead else { throw BeaconTransportError("response head over 64 KiB") }
            guard try fill() else { throw BeaconTransportError("connection closed before an answer") }
            headEnd = find([13, 10, 13, 10])
        }
        let head = String(decoding: buffer[..<headEnd!], as: UTF8.self)
        buffer.removeFirst(headEnd! + 4)
        let lines = head.components(separatedBy: "\r\n")
        let statusParts = lines[0].split(separator: " ")
        guard statusParts.count >= 2, statusParts[0].hasPrefix("HTTP/1."), let status = Int(statusParts[1]) else {
            throw BeaconTransportError("bad status line '\(lines[0].prefix(80))'")
        }
        var headers: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(
                in: .whitespaces)
        }
        var keepAlive = statusParts[0] == "HTTP/1.1" && headers["connection"]?.lowercased() != "close"
        if status == 204 || status == 304 || (100..<200).contains(status) {
            return (status, keepAlive)
        }
        if headers["transfer-encoding"]?.lowercased().contains("chunked") == true {
            try skipChunks()
        } else if let lengthText = headers["content-length"], let length = Int(lengthText), length >= 0 {
            guard length <= Self.maxBody else { return (status, false) }
            while buffer.count < length {
                guard try fill() else { throw BeaconTransportError("connection closed inside the body") }
            }
            buffer.removeFirst(length)
        } else {
            keepAlive = false
        }
        return (status, keepAlive && buffer.isEmpty)
    }

    private mutating func skipChunks() throws(BeaconTransportError) {
        var total = 0
        while true {
            var lineEnd = find([13, 10])
            while lineEnd == nil {
                guard try fill() else { throw BeaconTransportError("connection closed inside a chunk") }
                lineEnd = find([13, 10])
            }
            let sizeText = String(decoding: buffer[..<lineEnd!], as: UTF8.self).split(separator: ";").first ?? ""
            buffer.removeFirst(lineEnd! + 2)
            guard let size = Int(sizeText.trimmingCharacters(in: .whitespaces), radix: 16), size >= 0 else {
                throw BeaconTransportError("bad chunk size")
            }
            total += size
            guard total <= Self.maxBody else { throw BeaconTransportError("body over 1 MiB") }
            while buffer.count < size + 2 {
                guard try fill() else { throw BeaconTransportError("connection closed inside a chunk") }
            }
            buffer.removeFirst(size + 2)
            if size == 0 { return }
        }
    }

    /// Reads more; false at end of stream.
    private mutating func fill() throws(BeaconTransportError) -> Bool {
        var chunk = [UInt8](repeating: 0, count: 16 * 1024)
        let count = chunk.withUnsafeMutableBytes { bytes in
            InterruptibleSocketCalls.retrying { recv(socket, bytes.baseAddress, bytes.count, 0) }
        }
        if count < 0 { throw BeaconTransportError("recv failed: \(String(cString: strerror(errno)))") }
        if count == 0 { return false }
        buffer += chunk.prefix(count)
        return true
    }

    private func find(_ needle: [UInt8]) -> Int? {
        guard buffer.count >= needle.count else { return nil }
        for start in 0...(buffer.count - needle.count) where buffer[start] == needle[0] {
            if Array(buffer[start..<start + needle.count]) == needle { return start }
        }
        return nil
    }
}
