import CMicroHTTPD
import Foundation

/// An answer as the direct path sends it (``ServerCore`` on Linux): the
/// response head's bytes, then the body as runs of memory and of files, so
/// that file runs go out with `sendfile` (the page cache handed to the
/// socket) and only the memory between them is copied by the kernel.
struct DirectAnswer: Sendable {
    /// A piece of the bytes on the wire.
    enum Run: Sendable, Hashable {
        /// Bytes in memory, sent with `sendmsg`.
        case memory(SharedBytes.Slice)
        /// `length` bytes of the file at `path` from `offset`, sent with `sendfile`.
        case file(path: String, offset: UInt64, length: UInt64)

        var count: Int {
            switch self {
            case .memory(let slice): slice.range.count
            case .file(_, _, let length): Int(length)
            }
        }
    }

    /// Status sent.
    let status: Int
    /// Body bytes declared in `Content-Length`.
    let bodyLength: Int
    /// The connection stays open after this answer.
    let keepAlive: Bool
    /// The head, then the body.
    private(set) var runs: [Run]
    /// For each of `runs`, the same bytes in memory when the body was
    /// memory slices (a tagged segment): what a file run is sent from when
    /// its file cannot be opened or `sendfile` refuses it. Nil for a body
    /// that exists only as a file.
    let memoryRuns: [Run]?

    /// The answer to `response`. `keepAlive` is what the request allows;
    /// a `Connection: close` the response sets ends the connection too.
    /// The delivery must be ``HTTPResponse/Delivery/immediate`` (the
    /// direct path's routes answer at once; the caller checks).
    init(_ response: HTTPResponse, keepAlive: Bool, date: String) {
        var keepAlive = keepAlive
        var head = "HTTP/1.1 \(response.status) \(Self.reasonPhrase(response.status))\r\n"
        for field in response.headers {
            // As libmicrohttpd does, a field that would split the head is dropped.
            guard !Self.breaksHead(field.name), !Self.breaksHead(field.value) else { continue }
            if HTTPHeaders.namesMatch(field.name, "Content-Length") || HTTPHeaders.namesMatch(field.name, "Date") {
                continue
            }
            if HTTPHeaders.namesMatch(field.name, "Connection") {
                if field.value.lowercased().contains("close") { keepAlive = false }
                continue
            }
            head += "\(field.name): \(field.value)\r\n"
        }
        let (bodyRuns, bodyMemory) = Self.runs(of: response.body)
        let bodyLength = bodyRuns.reduce(0) { $0 + $1.count }
        head += "Date: \(date)\r\n"
        // RFC 9110 §8.6: none on 1xx and 204 (whose body is empty).
        if response.status >= 200, response.status != 204 { head += "Content-Length: \(bodyLength)\r\n" }
        if !keepAlive { head += "Connection: close\r\n" }
        head += "\r\n"
        status = response.status
        self.bodyLength = bodyLength
        self.keepAlive = keepAlive
        let headRun = Run.memory(SharedBytes(Array(head.utf8)).whole)
        runs = [headRun] + bodyRuns
        memoryRuns = bodyMemory.map { [headRun] + $0 }
    }

    /// Run `index` is sent from memory from now on (same bytes, so an
    /// offset into it stays right); false when there is no memory copy.
    mutating func sendFromMemory(run index: Int) -> Bool {
        guard let memoryRuns, memoryRuns.indices.contains(index) else { return false }
        runs[index] = memoryRuns[index]
        return true
    }

    /// Every file run is sent from memory; false when the body exists only as a file.
    mutating func sendAllFromMemory() -> Bool {
        guard let memoryRuns else { return false }
        runs = memoryRuns
        return true
    }

    private static func runs(of body: HTTPResponse.Body) -> ([Run], [Run]?) {
        switch body {
        case .bytes(let bytes):
            let runs: [Run] = bytes.isEmpty ? [] : [.memory(SharedBytes(bytes).whole)]
            return (runs, runs)
        case .file(let path, let offset, let length):
            return (length == 0 ? [] : [.file(path: path, offset: offset, length: length)], nil)
        case .parts(let parts):
            let nonEmpty = parts.filter { !$0.range.isEmpty }
            let runs = nonEmpty.map { part -> Run in
                guard let file = part.bytes.file else { return .memory(part) }
                return .file(path: file, offset: UInt64(part.range.lowerBound), length: UInt64(part.range.count))
            }
            return (runs, nonEmpty.map { .memory($0) })
        }
    }

    private static func breaksHead(_ text: String) -> Bool {
        text.utf8.contains { $0 == 0x0D || $0 == 0x0A || $0 == 0 }
    }

    /// The reason phrase libmicrohttpd would send.
    static func reasonPhrase(_ status: Int) -> String {
        guard (100...999).contains(status), let phrase = MHD_get_reason_phrase_for(UInt32(status)) else {
            return "Unknown"
        }
        return String(cString: phrase)
    }

    /// `Sun, 06 Dec 2026 19:20:00 GMT` (RFC 9110 §5.6.7) for `seconds` since 1970.
    static func httpDate(_ seconds: Int) -> String {
        var time = time_t(seconds)
        var parts = tm()
        gmtime_r(&time, &parts)
        let days = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return
            "\(days[Int(parts.tm_wday) % 7]), \(two(parts.tm_mday)) \(months[Int(parts.tm_mon) % 12]) "
            + "\(parts.tm_year + 1900) \(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec)) GMT"
    }
}
