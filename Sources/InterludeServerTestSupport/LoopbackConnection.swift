import Foundation
import InterludeServer

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

#if canImport(Glibc)
    private let systemSend = Glibc.send
    private let noSignal = Int32(MSG_NOSIGNAL)
    private let streamSocket = Int32(SOCK_STREAM.rawValue)
#else
    private let systemSend = Darwin.send
    private let noSignal: Int32 = 0  // Darwin: SO_NOSIGPIPE on the socket instead
    private let streamSocket = SOCK_STREAM
#endif

/// Why a loopback exchange failed.
public struct LoopbackError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What failed.
    public var message: String
    /// `errno` of the failing call (e.g. `ECONNRESET`), 0 when none.
    public var code: Int32
    public init(_ message: String, code: Int32 = 0) {
        self.message = message
        self.code = code
    }
    public var description: String { "\(message) (errno \(code))" }
}

/// One TCP connection to a loopback server, with blocking reads bounded by
/// a receive timeout so that a broken server fails a test instead of hanging it.
public final class LoopbackConnection {
    private let descriptor: Int32
    private var buffer: [UInt8] = []
    /// `Host` header value for ``request(_:_:headers:body:)``.
    private let hostHeader: String

    /// Connects to `host:port` (IPv4 or IPv6 literal).
    public init(port: UInt16, host: String = "127.0.0.1", timeoutSeconds: Int = 15) throws(LoopbackError) {
        guard let address = SocketAddress(host: host, port: port) else {
            throw LoopbackError("not an IP address: \(host)")
        }
        let descriptor = socket(address.isIPv6 ? AF_INET6 : AF_INET, streamSocket, 0)
        guard descriptor >= 0 else { throw LoopbackError("socket failed", code: errno) }
        var timeout = timeval(tv_sec: .init(timeoutSeconds), tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(descriptor, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        #if canImport(Darwin)
            var one: Int32 = 1
            setsockopt(descriptor, SOL_SOCKET, SO_NOSIGPIPE, &one, socklen_t(MemoryLayout<Int32>.size))
        #endif
        let connected = address.withSockAddr {
            InterruptibleSocketCalls.connect(descriptor, $0, address.length, timeout: Double(timeoutSeconds))
        }
        guard connected == 0 else {
            let code = errno
            close(descriptor)
            throw LoopbackError("connect to \(host):\(port) failed", code: code)
        }
        self.descriptor = descriptor
        self.hostHeader = "\(address.displayHost):\(port)"
    }

    deinit { close(descriptor) }

    /// Changes how long a read waits before failing with `EAGAIN`.
    public func setReceiveTimeout(milliseconds: Int) {
        var timeout = timeval(tv_sec: .init(milliseconds / 1000), tv_usec: .init(milliseconds % 1000 * 1000))
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    }

    /// Sends bytes as they are.
    public func send(_ bytes: [UInt8]) throws(LoopbackError) {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes[offset...].withUnsafeBytes { buffer in
                InterruptibleSocketCalls.retrying { systemSend(descriptor, buffer.baseAddress, buffer.count, noSignal) }
            }
            guard sent > 0 else { throw LoopbackError("send failed", code: errno) }
            offset += sent
        }
    }

    /// Sends a text as UTF-8.
    public func send(_ text: String) throws(LoopbackError) { try send(Array(text.utf8)) }

    /// Reads until the peer closes; throws on reset or timeout.
    public func readToEnd() throws(LoopbackError) -> [UInt8] {
        while try fill() {}
        defer { buffer = [] }
        return buffer
    }

    /// Closes the sending side (the server reads end of file); reading goes on.
    public func shutdownSending() {
        _ = shutdown(descriptor, Int32(SHUT_WR))
    }

    /// Reads until the peer closes or fails, returning what arrived and the
    /// errno that ended it (0 for an orderly close).
    public func readUntilClosed() -> (bytes: [UInt8], errorCode: Int32) {
        do {
            return (try readToEnd(), 0)
        } catch {
            return (buffer, error.code)
        }
    }

    /// Sends a request and reads one response (keeps the connection open
    /// unless the response closes it).
    public func request(
        _ method: String = "GET", _ target: String, headers: [(String, String)] = [], body: [UInt8] = []
    ) throws(LoopbackError) -> LoopbackResponse {
        var head = "\(method) \(target) HTTP/1.1\r\n"
        if !headers.contains(where: { $0.0.lowercased() == "host" }) { head += "Host: \(hostHeader)\r\n" }
        for (name, value) in headers { head += "\(name): \(value)\r\n" }
        if !body.isEmpty { head += "Content-Length: \(body.count)\r\n" }
        head += "\r\n"
        do {
            try send(Array(head.utf8) + body)
        } catch  where error.code == ECONNRESET || error.code == EPIPE {
            // A server may answer early (413 for a body over its limit) and
            // close while the body is still on its way; real clients then
            // read the answer that arrived, and so does this one.
            guard let early = try? readResponse(toHead: method == "HEAD") else { throw error }
            return early
        }
        return try readResponse(toHead: method == "HEAD")
    }

    /// Reads one response: head, then a body by Content-Length, chunked
    /// coding, or until close.
    public func readResponse(toHead headOnly: Bool = false) throws(LoopbackError) -> LoopbackResponse {
        var headEnd = Self.find([13, 10, 13, 10], in: buffer)
        while headEnd == nil {
            guard try fill() else { throw LoopbackError("connection closed before a response head") }
            headEnd = Self.find([13, 10, 13, 10], in: buffer)
        }
        let headText = String(decoding: buffer[..<headEnd!], as: UTF8.self)
        buffer.removeFirst(headEnd! + 4)
        var response = try LoopbackResponse(head: headText)
        if headOnly || response.status == 204 || response.status == 304 { return response }
        if response.headers["Transfer-Encoding"]?.lowercased() == "chunked" {
            response.body = try readChunked()
        } else if let length = response.headers["Content-Length"].flatMap(Int.init) {
            while buffer.count < length {
                guard try fill() else { break }
            }
            response.body = Array(buffer.prefix(length))
            buffer.removeFirst(response.body.count)
        } else {
            response.body = try readToEnd()
        }
        return response
    }

    private func readChunked() throws(LoopbackError) -> [UInt8] {
        var body: [UInt8] = []
        while true {
            var lineEnd = Self.find([13, 10], in: buffer)
            while lineEnd == nil {
                guard try fill() else { return body }
                lineEnd = Self.find([13, 10], in: buffer)
            }
            let sizeText = String(decoding: buffer[..<lineEnd!], as: UTF8.self).split(separator: ";").first ?? ""
            buffer.removeFirst(lineEnd! + 2)
            let size = Int(sizeText.trimmingCharacters(in: .whitespaces), radix: 16) ?? 0
            while buffer.count < size + 2 {
                guard try fill() else { return body + buffer }
            }
            if size == 0 { return body }
            body += buffer.prefix(size)
            buffer.removeFirst(size + 2)
        }
    }

    /// Reads more bytes into the buffer; false at end of stream.
    private func fill() throws(LoopbackError) -> Bool {
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        let count = chunk.withUnsafeMutableBytes { bytes in
            InterruptibleSocketCalls.retrying { recv(descriptor, bytes.baseAddress, bytes.count, 0) }
        }
        if count < 0 { throw LoopbackError("recv failed", code: errno) }
        if count == 0 { return false }
        buffer += chunk.prefix(count)
        return true
    }

    static func find(_ needle: [UInt8], in haystack: [UInt8]) -> Int? {
        guard haystack.count >= needle.count else { return nil }
        for start in 0...(haystack.count - needle.count) where haystack[start] == needle[0] {
            if Array(haystack[start..<start + needle.count]) == needle { return start }
        }
        return nil
    }
}

/// A response read by ``LoopbackConnection``.
public struct LoopbackResponse: Sendable {
    /// Status code.
    public var status: Int
    /// Header fields.
    public var headers: HTTPHeaders
    /// The body bytes (decoded from chunks when chunked).
    public var body: [UInt8]

    init(head: String) throws(LoopbackError) {
        let lines = head.components(separatedBy: "\r\n")
        let parts = lines[0].split(separator: " ")
        guard parts.count >= 2, let status = Int(parts[1]) else { throw LoopbackError("bad status line '\(lines[0])'") }
        self.status = status
        var headers = HTTPHeaders()
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers.add(String(line[..<colon]), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
        }
        self.headers = headers
        self.body = []
    }

    /// The body as UTF-8 text.
    public var text: String { String(decoding: body, as: UTF8.self) }
    /// The body as `Data`.
    public var data: Data { Data(body) }
}

/// One-shot requests on fresh connections.
public enum Loopback {
    /// `GET` (or another method) on a new connection.
    public static func get(
        _ target: String, port: UInt16, method: String = "GET", headers: [(String, String)] = [], body: [UInt8] = []
    ) throws(LoopbackError) -> LoopbackResponse {
        let connection = try LoopbackConnection(port: port)
        return try connection.request(method, target, headers: headers + [("Connection", "close")], body: body)
    }

    /// Sends raw bytes and returns whatever comes back before the server closes.
    public static func exchange(_ bytes: [UInt8], port: UInt16) throws(LoopbackError) -> [UInt8] {
        let connection = try LoopbackConnection(port: port)
        try connection.send(bytes)
        return connection.readUntilClosed().bytes
    }
}
