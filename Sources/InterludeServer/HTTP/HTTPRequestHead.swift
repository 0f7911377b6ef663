import Foundation

/// A request head as the direct path reads it from a peek at the socket
/// (``ServerCore`` on Linux): enough to tell whether the request is one the
/// direct path answers, and to answer it. Anything out of the ordinary is
/// left to libmicrohttpd, which reads the same bytes from the socket again,
/// so this parser only has to be right about what it accepts, never to
/// answer a malformed request itself.
struct HTTPRequestHead: Sendable, Hashable {
    /// What a peek at the start of a connection's next request shows.
    enum Reading: Sendable, Hashable {
        /// No blank line yet: wait for more bytes.
        case incomplete
        /// A GET under one of the direct prefixes, plain enough to answer here.
        case direct(HTTPRequestHead)
        /// Everything else: the connection goes to libmicrohttpd.
        case other
    }

    /// The request target, as sent.
    let target: String
    /// Header fields, values trimmed.
    let headers: HTTPHeaders
    /// Bytes of the head, blank line included: what the direct path consumes.
    let byteCount: Int
    /// The connection stays open after the answer (HTTP/1.1 without `Connection: close`).
    let keepAlive: Bool

    /// The most header fields the direct path reads; more goes to libmicrohttpd.
    static let maxFields = 100

    /// Reads `bytes` (the start of the unread input). `maxHeadBytes` is the
    /// server's head limit: a longer head is libmicrohttpd's to refuse.
    static func read(_ bytes: UnsafeRawBufferPointer, directPrefixes: [String], maxHeadBytes: Int) -> Reading {
        guard let end = blankLine(in: bytes) else {
            // Either more is coming, or the head is too long or uses bare
            // LFs: libmicrohttpd decides those.
            if bytes.count >= maxHeadBytes || bytes.contains(0) || hasBareLineFeed(bytes) { return .other }
            // A request line that is not a direct GET is libmicrohttpd's at
            // once: its head may take long to come, and each wait re-reads it.
            if let lineEnd = bytes.firstIndex(of: 0x0A),
                parseRequestLine(bytes[0..<lineEnd], directPrefixes: directPrefixes) == nil
            {
                return .other
            }
            return .incomplete
        }
        guard end <= maxHeadBytes else { return .other }
        // Through the last line's CR: every line then ends with its CR.
        let head = UnsafeRawBufferPointer(rebasing: bytes[0..<(end - 3)])
        var lines = head.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)[...]
        guard let requestLine = lines.popFirst(),
            let (target, minorVersion) = parseRequestLine(requestLine, directPrefixes: directPrefixes)
        else { return .other }
        var headers = HTTPHeaders()
        var keepAlive = minorVersion == 1
        guard lines.count <= maxFields else { return .other }
        for line in lines {
            guard let (name, value) = parseField(line) else { return .other }
            switch name.lowercased() {
            case "content-length":
                guard value == "0" else { return .other }
            case "transfer-encoding", "expect", "upgrade":
                return .other
            case "connection":
                let options = value.lowercased().split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
                if options.contains("close") { keepAlive = false }
            default:
                break
            }
            headers.add(name, value)
        }
        // RFC 9112 §3.2 asks for exactly one Host in HTTP/1.1: anything
        // else is libmicrohttpd's to judge.
        let hosts = headers.fields.filter { HTTPHeaders.namesMatch($0.name, "Host") }.count
        guard hosts == 1 || (minorVersion == 0 && hosts == 0) else { return .other }
        return .direct(HTTPRequestHead(target: target, headers: headers, byteCount: end, keepAlive: keepAlive))
    }

    /// The offset just past the first `\r\n\r\n`, or nil.
    private static func blankLine(in bytes: UnsafeRawBufferPointer) -> Int? {
        guard bytes.count >= 4 else { return nil }
        var index = 3
        while index < bytes.count {
            if bytes[index] == 0x0A, bytes[index - 1] == 0x0D, bytes[index - 2] == 0x0A, bytes[index - 3] == 0x0D {
                return index + 1
            }
            index += 1
        }
        return nil
    }

    /// A line ended by a bare line feed, which RFC 9112 lets a server accept
    /// (libmicrohttpd does): not for this parser, and such a head may never
    /// hold the `\r\n\r\n` it waits for.
    private static func hasBareLineFeed(_ bytes: UnsafeRawBufferPointer) -> Bool {
        for index in 0..<bytes.count where bytes[index] == 0x0A && (index == 0 || bytes[index - 1] != 0x0D) {
            return true
        }
        return false
    }

    /// `GET /target HTTP/1.x\r`: the target when it is under a direct prefix, and x.
    private static func parseRequestLine(_ line: Slice<UnsafeRawBufferPointer>, directPrefixes: [String]) -> (
        String, Int
    )? {
        guard line.last == 0x0D else { return nil }
        let parts = line.dropLast().split(separator: 0x20, omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].elementsEqual("GET".utf8) else { return nil }
        let version = parts[2]
        guard version.count == 8, version.starts(with: "HTTP/1.".utf8), let minor = version.last,
            minor == UInt8(ascii: "0") || minor == UInt8(ascii: "1")
        else { return nil }
        // Visible ASCII only (RFC 9112 §3.2): anything else is libmicrohttpd's to judge.
        guard !parts[1].isEmpty, parts[1].allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else { return nil }
        guard directPrefixes.contains(where: { parts[1].starts(with: $0.utf8) }) else { return nil }
        return (String(decoding: parts[1], as: UTF8.self), Int(minor - UInt8(ascii: "0")))
    }

    /// `Name: value\r` with a token name; nil for anything else (folded
    /// lines, space before the colon, control bytes).
    private static func parseField(_ line: Slice<UnsafeRawBufferPointer>) -> (String, String)? {
        guard line.last == 0x0D, let colon = line.firstIndex(of: UInt8(ascii: ":")), colon > line.startIndex else {
            return nil
        }
        let name = line[line.startIndex..<colon]
        guard name.allSatisfy(isTokenByte) else { return nil }
        let value = line[line.index(after: colon)..<line.index(before: line.endIndex)]
        guard value.allSatisfy({ $0 == 0x09 || ($0 >= 0x20 && $0 != 0x7F) }) else { return nil }
        let trimmed = value.drop { $0 == 0x20 || $0 == 0x09 }.reversed().drop { $0 == 0x20 || $0 == 0x09 }.reversed()
        return (String(decoding: name, as: UTF8.self), String(decoding: trimmed, as: UTF8.self))
    }

    /// RFC 9110 §5.6.2 `tchar`.
    private static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"):
            true
        default:
            "!#$%&'*+-.^_`|~".utf8.contains(byte)
        }
    }
}
