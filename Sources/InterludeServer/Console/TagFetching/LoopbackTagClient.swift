import Foundation
import Interlude

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

/// The console inspector's HTTP client when remote tags are not allowed:
/// plain HTTP/1.1 to loopback only. Every request, and every redirect it
/// follows, is checked by ``TagHostPolicy`` and connects to the very
/// addresses the check resolved, so neither a wrapper's `VASTAdTagURI`, a
/// `Location` header nor a DNS answer that changes between check and
/// connect can reach into a network. Bodies are bounded while they arrive;
/// the whole exchange (redirects included) is bounded by the request's timeout.
package struct LoopbackTagClient: HTTPClient {
    package let policy: TagHostPolicy
    /// Largest body accepted, bytes.
    package let maxResponseSize: Int
    /// Most redirects followed.
    package let maxRedirects: Int

    package init(policy: TagHostPolicy = TagHostPolicy(), maxResponseSize: Int = 4 * 1024 * 1024, maxRedirects: Int = 5)
    {
        self.policy = policy
        self.maxResponseSize = maxResponseSize
        self.maxRedirects = maxRedirects
    }

    package var enforcesTimeout: Bool { true }

    package func send(_ request: Interlude.HTTPRequest) async throws -> Interlude.HTTPResponse {
        let client = self
        // Blocking sockets on a dispatch thread, never on the concurrency pool.
        return try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global().async {
                do {
                    continuation.resume(returning: try client.exchange(request))
                } catch {
                    continuation.resume(throwing: error)
                }
            }
        }
    }

    /// The request and its redirects, synchronously.
    func exchange(_ request: Interlude.HTTPRequest) throws(HTTPClientError) -> Interlude.HTTPResponse {
        let deadline = Date().addingTimeInterval(max(0.1, request.timeout))
        var url = request.url
        var redirects = 0
        while true {
            let answer = try fetchOnce(url, request: request, deadline: deadline)
            guard [301, 302, 303, 307, 308].contains(answer.statusCode), let location = answer.headers["location"]
            else {
                return Interlude.HTTPResponse(
                    statusCode: answer.statusCode, headers: answer.headers, body: answer.body, url: url)
            }
            redirects += 1
            guard redirects <= maxRedirects else { throw HTTPClientError.tooManyRedirects }
            guard let next = URL(string: location.trimmingCharacters(in: .whitespaces), relativeTo: url)?.absoluteURL
            else {
                throw HTTPClientError.unreachable("redirect to an invalid Location '\(TagHostPolicy.clip(location))'")
            }
            url = next
        }
    }

    private func fetchOnce(_ url: URL, request: Interlude.HTTPRequest, deadline: Date) throws(HTTPClientError)
        -> Interlude.HTTPResponse
    {
        let target: (host: String, port: UInt16, addresses: [ResolvedAddress])
        do {
            target = try policy.addresses(for: url)
        } catch {
            if url.scheme?.lowercased() != "http", url.scheme?.lowercased() != "https" {
                throw HTTPClientError.unsupportedScheme(url.scheme ?? "")
            }
            throw HTTPClientError.unreachable("refused: \(error.message)")
        }
        let socket = try connect(target.addresses, port: target.port, host: target.host, deadline: deadline)
        defer { close(socket) }
        try write(requestHead(url, request: request), to: socket, deadline: deadline)
        var reader = TagResponseReader(socket: socket, deadline: deadline, maxBody: maxResponseSize)
        let (status, headers, body) = try reader.read(isHead: request.method == "HEAD")
        return Interlude.HTTPResponse(statusCode: status, headers: headers, body: Data(body), url: url)
    }

    private func requestHead(_ url: URL, request: Interlude.HTTPRequest) -> [UInt8] {
        var components = URLComponents(url: url, resolvingAgainstBaseURL: false)
        components?.fragment = nil
        let path = components?.percentEncodedPath ?? "/"
        let query = components?.percentEncodedQuery.map { "?" + $0 } ?? ""
        var host = url.host ?? ""
        if host.contains(":"), !host.hasPrefix("[") { host = "[\(host)]" }
        let authority = url.port.map { "\(host):\($0)" } ?? host
        var head = "\(request.method) \(path.isEmpty ? "/" : path)\(query) HTTP/1.1\r\nHost: \(authority)\r\n"
        for (name, value) in request.headers.sorted(by: { $0.key < $1.key })
        where Self.isHeaderSafe(name) && Self.isHeaderSafe(value)
            && !["host", "connection", "content-length"].contains(name.lowercased())
        {
            head += "\(name): \(value)\r\n"
        }
        if request.headers.keys.first(where: { $0.lowercased() == "user-agent" }) == nil {
            head += "User-Agent: Interlude-Console/1\r\n"
        }
        let body = request.body ?? Data()
        if !body.isEmpty { head += "Content-Length: \(body.count)\r\n" }
        head += "Accept: */*\r\nConnection: close\r\n\r\n"
        return Array(head.utf8) + [UInt8](body)
    }

    private static func isHeaderSafe(_ text: String) -> Bool {
        text.utf8.allSatisfy { $0 >= 0x20 && $0 != 0x7F }
    }

    private func connect(_ addresses: [ResolvedAddress], port: UInt16, host: String, deadline: Date)
        throws(HTTPClientError) -> Int32
    {
        var lastError: Int32 = 0
        for address in addresses {
            let remaining = deadline.timeIntervalSinceNow
            guard remaining > 0 else { throw HTTPClientError.timedOut }
            let descriptor = Self.socket(for: address, timeout: remaining)
            guard descriptor >= 0 else { continue }
            let connected = Self.withSockAddr(address, port: port) { pointer, length in
                InterruptibleSocketCalls.connect(descriptor, pointer, length, timeout: remaining) == 0
            }
            if connected { return descriptor }
            lastError = errno
            close(descriptor)
            if lastError == EAGAIN || lastError == EINPROGRESS || lastError == ETIMEDOUT {
                throw HTTPClientError.timedOut
            }
        }
        throw HTTPClientError.unreachable(
            "cannot connect to \(TagHostPolicy.clip(host)):\(port): \(String(cString: strerror(lastError)))")
    }

    private static func socket(for address: ResolvedAddress, timeout: TimeInterval) -> Int32 {
        let family: Int32
        switch address {
        case .v4: family = AF_INET
        case .v6: family = AF_INET6
        }
        let descriptor = systemSocket(family, streamSocket, 0)
        guard descriptor >= 0 else { return -1 }
        setTimeout(descriptor, timeout)
        var one: Int32 = 1
        #if canImport(Darwin)
            setsockopt(descriptor, SOL_SOCKET, SO_NOSIGPIPE, &one, socklen_t(MemoryLayout<Int32>.size))
        #endif
        setsockopt(descriptor, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
        return descriptor
    }

    /// Bounds each connect, send and receive by what is left of the deadline.
    static func setTimeout(_ descriptor: Int32, _ seconds: TimeInterval) {
        let clamped = max(0.001, seconds)
        var limit = timeval(
            tv_sec: .init(clamped.rounded(.down)), tv_usec: .init((clamped - clamped.rounded(.down)) * 1_000_000))
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(descriptor, SOL_SOCKET, SO_SNDTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
    }

    private static func withSockAddr<Result>(
        _ address: ResolvedAddress, port: UInt16, _ body: (UnsafePointer<sockaddr>, socklen_t) -> Result
    ) -> Result {
        switch address {
        case .v4(let bytes):
            var v4 = sockaddr_in()
            v4.sin_family = sa_family_t(AF_INET)
            v4.sin_port = port.bigEndian
            withUnsafeMutableBytes(of: &v4.sin_addr) { $0.copyBytes(from: bytes.prefix(4)) }
            #if canImport(Darwin)
                v4.sin_len = UInt8(MemoryLayout<sockaddr_in>.size)
            #endif
            return withUnsafePointer(to: &v4) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    body($0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
        case .v6(let bytes):
            var v6 = sockaddr_in6()
            v6.sin6_family = sa_family_t(AF_INET6)
            v6.sin6_port = port.bigEndian
            withUnsafeMutableBytes(of: &v6.sin6_addr) { $0.copyBytes(from: bytes.prefix(16)) }
            #if canImport(Darwin)
                v6.sin6_len = UInt8(MemoryLayout<sockaddr_in6>.size)
            #endif
            return withUnsafePointer(to: &v6) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    body($0, socklen_t(MemoryLayout<sockaddr_in6>.size))
                }
            }
        }
    }

    private func write(_ bytes: [UInt8], to socket: Int32, deadline: Date) throws(HTTPClientError) {
        var offset = 0
        while offset < bytes.count {
            guard deadline.timeIntervalSinceNow > 0 else { throw HTTPClientError.timedOut }
            let sent = bytes[offset...].withUnsafeBytes { buffer in
                InterruptibleSocketCalls.retrying { systemSend(socket, buffer.baseAddress, buffer.count, noSignal) }
            }
            guard sent > 0 else {
                if errno == EAGAIN || errno == EWOULDBLOCK { throw HTTPClientError.timedOut }
                throw HTTPClientError.unreachable("send failed: \(String(cString: strerror(errno)))")
            }
            offset += sent
        }
    }
}

#if canImport(Glibc)
    private let systemSocket = Glibc.socket
#else
    private let systemSocket = Darwin.socket
#endif
