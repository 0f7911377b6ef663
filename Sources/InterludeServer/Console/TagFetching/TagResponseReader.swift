import Foundation
import Interlude

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Reads one HTTP/1.x response (the request said `Connection: close`): the
/// status, the headers (names lower-cased), and the body by length, chunks
/// or end of stream, never more than `maxBody` bytes, never past the deadline.
struct TagResponseReader {
    let socket: Int32
    let deadline: Date
    let maxBody: Int
    private var buffer: [UInt8] = []
    private var ended = false

    static let maxHead = 64 * 1024

    init(socket: Int32, deadline: Date, maxBody: Int) {
        self.socket = socket
        self.deadline = deadline
        self.maxBody = maxBody
    }

    mutating func read(isHead: Bool) throws(HTTPClientError) -> (Int, [String: String], [UInt8]) {
        var headEnd = find([13, 10, 13, 10], from: 0)
        while headEnd == nil {
            guard buffer.count < Self.maxHead else { throw HTTPClientError.unreachable("response head over 64 KiB") }
            guard try fill() else { throw HTTPClientError.unreachable("connection closed before an answer") }
            headEnd = find([13, 10, 13, 10], from: 0)
        }
        let head = String(decoding: buffer[..<headEnd!], as: UTF8.self)
        buffer.removeFirst(headEnd! + 4)
        let lines = head.components(separatedBy: "\r\n")
        let statusParts = lines[0].split(separator: " ", maxSplits: 2)
        guard statusParts.count >= 2, statusParts[0].hasPrefix("HTTP/1."), let status = Int(statusParts[1]),
            (100...999).contains(status)
        else {
            throw HTTPClientError.unreachable("not an HTTP answer: '\(String(lines[0].prefix(80)))'")
        }
        var headers: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            let name = line[..<colon].lowercased()
            let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            headers[name] = headers[name].map { $0 + ", " + value } ?? value
        }
        if isHead || status == 204 || status == 304 || (100..<200).contains(status) { return (status, headers, []) }
        if headers["transfer-encoding"]?.lowercased().contains("chunked") == true {
            return (status, headers, try readChunks())
        }
        if let lengthText = headers["content-length"] {
            guard let length = Int(lengthText), length >= 0 else {
                throw HTTPClientError.unreachable("bad Content-Length '\(String(lengthText.prefix(40)))'")
            }
            guard length <= maxBody else { throw HTTPClientError.responseTooLarge(limit: maxBody) }
            while buffer.count < length {
                guard try fill() else { throw HTTPClientError.unreachable("connection closed inside the body") }
            }
            return (status, headers, Array(buffer.prefix(length)))
        }
        while try fill() {}
        guard buffer.count <= maxBody else { throw HTTPClientError.responseTooLarge(limit: maxBody) }
        return (status, headers, buffer)
    }

    private mutating func readChunks() throws(HTTPClientError) -> [UInt8] {
        var body: [UInt8] = []
        while true {
            var lineEnd = find([13, 10], from: 0)
            while lineEnd == nil {
                guard buffer.count < Self.maxHead, try fill() else {
                    throw HTTPClientError.unreachable("connection closed inside a chunk")
                }
                lineEnd = find([13, 10], from: 0)
            }
            let sizeText = String(decoding: buffer[..<lineEnd!], as: UTF8.self).split(separator: ";").first ?? ""
            buffer.removeFirst(lineEnd! + 2)
            guard let size = Int(sizeText.trimmingCharacters(in: .whitespaces), radix: 16), size >= 0 else {
                throw HTTPClientError.unreachable("bad chunk size")
            }
            guard body.count + size <= maxBody else { throw HTTPClientError.responseTooLarge(limit: maxBody) }
            while buffer.count < size + 2 {
                guard try fill() else {
                    // A last chunk without its trailer CRLF still ends the body.
                    if size == 0 { return body }
                    throw HTTPClientError.unreachable("connection closed inside a chunk")
                }
            }
            body += buffer[..<size]
            buffer.removeFirst(size + 2)
            if size == 0 { return body }
        }
    }

    /// Reads more; false at end of stream. Past the deadline: timed out.
    private mutating func fill() throws(HTTPClientError) -> Bool {
        guard !ended else { return false }
        let remaining = deadline.timeIntervalSinceNow
        guard remaining > 0 else { throw HTTPClientError.timedOut }
        LoopbackTagClient.setTimeout(socket, remaining)
        var chunk = [UInt8](repeating: 0, count: 16 * 1024)
        let count = chunk.withUnsafeMutableBytes { bytes in
            InterruptibleSocketCalls.retrying { recv(socket, bytes.baseAddress, bytes.count, 0) }
        }
        if count < 0 {
            if errno == EAGAIN || errno == EWOULDBLOCK { throw HTTPClientError.timedOut }
            throw HTTPClientError.unreachable("receive failed: \(String(cString: strerror(errno)))")
        }
        if count == 0 {
            ended = true
            return false
        }
        buffer += chunk.prefix(count)
        // Head and body together may not exceed the limits by more than one read.
        guard buffer.count <= maxBody + Self.maxHead else { throw HTTPClientError.responseTooLarge(limit: maxBody) }
        return true
    }

    private func find(_ needle: [UInt8], from start: Int) -> Int? {
        guard buffer.count >= needle.count + start else { return nil }
        var index = start
        while index <= buffer.count - needle.count {
            if buffer[index] == needle[0], Array(buffer[index..<index + needle.count]) == needle { return index }
            index += 1
        }
        return nil
    }
}
