/// Splits playlist bytes into lines (LF or CRLF, RFC 8216bis 4.1) without
/// copying, rejecting control bytes and over-long lines as it goes.
struct HLSLineReader {
    /// One non-blank line: its bytes without the terminator and surrounding
    /// whitespace, and its 1-based number.
    struct Line {
        var start: Int
        var end: Int
        var number: Int
        /// True when the line holds `{`, so may hold a variable reference.
        var mayReferenceVariable: Bool
    }

    let bytes: UnsafeBufferPointer<UInt8>
    let maximumLineLength: Int
    private var position = 0
    private var number = 0

    init(bytes: UnsafeBufferPointer<UInt8>, maximumLineLength: Int) {
        self.bytes = bytes
        self.maximumLineLength = maximumLineLength
    }

    /// True when the input starts with a UTF-8 byte-order mark, which RFC
    /// 8216bis 4.1 forbids but Windows tools write.
    var startsWithByteOrderMark: Bool {
        bytes.count >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF
    }

    /// Steps over a leading byte-order mark, so the first line is read as it is meant.
    mutating func skipByteOrderMark() {
        if position == 0, startsWithByteOrderMark { position = 3 }
    }

    /// The next non-blank line, or nil at the end.
    mutating func next() throws(HLSError) -> Line? {
        while position < bytes.count {
            number += 1
            let lineStart = position
            var index = position
            var hasBrace = false
            // Eight bytes at a time while none is a control byte, `{` or
            // non-ASCII: the common case for a whole line.
            if let base = bytes.baseAddress {
                let raw = UnsafeRawPointer(base)
                while index + 8 <= bytes.count {
                    let word = raw.loadUnaligned(fromByteOffset: index, as: UInt64.self)
                    let belowSpace = (word &- 0x2020_2020_2020_2020) & ~word & 0x8080_8080_8080_8080
                    let braces = word ^ 0x7B7B_7B7B_7B7B_7B7B
                    let isBrace = (braces &- 0x0101_0101_0101_0101) & ~braces & 0x8080_8080_8080_8080
                    if belowSpace | isBrace | (word & 0x8080_8080_8080_8080) != 0 { break }
                    index += 8
                }
            }
            while index < bytes.count {
                let byte = bytes[index]
                // One comparison covers the usual bytes, 0x20 (space) to 0x7A (z).
                if byte &- 0x20 < 0x5B {
                    index += 1
                    continue
                }
                if byte == 0x0A { break }
                if byte == UInt8(ascii: "{") { hasBrace = true }
                // Tabs and CR are whitespace; any other control byte means
                // the input is not a playlist (binary data, UTF-16…).
                if byte < 0x20, byte != 0x09, byte != 0x0D {
                    throw HLSError(.binaryData, "control byte 0x\(HLSHex.encode([byte])) in line", line: number)
                }
                index += 1
            }
            position = index + 1
            if index - lineStart > maximumLineLength {
                throw HLSError(.lineTooLong, "line longer than \(maximumLineLength) bytes", line: number)
            }
            var start = lineStart
            var end = index
            while start < end, Self.isWhitespace(bytes[start]) { start += 1 }
            while end > start, Self.isWhitespace(bytes[end - 1]) { end -= 1 }
            if start < end { return Line(start: start, end: end, number: number, mayReferenceVariable: hasBrace) }
        }
        return nil
    }

    static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0D
    }
}
