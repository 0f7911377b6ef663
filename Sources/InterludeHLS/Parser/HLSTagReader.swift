import Foundation

/// Turns one `#…` line into an ``HLSTag``, checking the value grammar of the
/// tags whose values are numbers, dates or attribute lists.
enum HLSTagReader {
    /// A tag as read, with what the builder needs without reading it again.
    struct ReadTag {
        var tag: HLSTag
        var traits: HLSTagTraits
        /// The value of an integer tag.
        var integer: UInt64 = 0
        /// The value of a date tag.
        var date: Date?

        /// Moves the tag out, leaving an empty comment behind.
        mutating func take() -> HLSTag {
            var taken = HLSTag.comment("")
            swap(&taken, &tag)
            return taken
        }
    }

    /// Reads a tag or comment line (`bytes[line.start]` is `#`), with the
    /// traits of the tag when it is a known one.
    static func read(_ bytes: UnsafeBufferPointer<UInt8>, _ line: HLSLineReader.Line) throws(HLSError) -> ReadTag {
        let count = line.end - line.start
        let isTag =
            count >= 4 && bytes[line.start + 1] == UInt8(ascii: "E") && bytes[line.start + 2] == UInt8(ascii: "X")
            && bytes[line.start + 3] == UInt8(ascii: "T")
        guard isTag else {
            return ReadTag(
                tag: HLSTag.comment(HLSKnownStrings.string(bytes, line.start + 1, line.end), line: line.number),
                traits: [])
        }
        var colon = line.start + 1
        while colon < line.end, bytes[colon] != UInt8(ascii: ":") { colon += 1 }
        let known = HLSTagCatalog.lookup(bytes, line.start + 1, colon)
        let name =
            known?.name
            ?? String(decoding: UnsafeBufferPointer(rebasing: bytes[(line.start + 1)..<colon]), as: UTF8.self)
        let traits = known?.traits ?? []
        guard colon < line.end else { return ReadTag(tag: HLSTag(name, .none, line: line.number), traits: traits) }
        let valueStart = colon + 1
        let valueBytes = UnsafeBufferPointer(rebasing: bytes[valueStart..<line.end])
        if traits.contains(.attributeList) {
            let list = try HLSAttributeListParser.parse(valueBytes, line: line.number)
            return ReadTag(tag: HLSTag(name, .attributes(list), line: line.number), traits: traits)
        }
        let text = String(decoding: valueBytes, as: UTF8.self)
        var read = ReadTag(tag: HLSTag(name, .text(text), line: line.number), traits: traits)
        if traits.contains(.integer) {
            read.integer = try readInteger(valueBytes, tag: name, line: line.number)
        } else if traits.contains(.date) {
            guard let date = HLSDateFormat.parse(valueBytes) else {
                throw HLSError(.malformedTag, "\(name) is not an ISO 8601 date: \(text)", line: line.number)
            }
            read.date = date
        }
        return read
    }

    /// Reads the value of `#EXTINF:<duration>,[<title>]`.
    static func readInfo(_ bytes: UnsafeBufferPointer<UInt8>, start: Int, end: Int, line: Int) throws(HLSError) -> (
        HLSDecimal, String
    ) {
        var comma = start
        while comma < end, bytes[comma] != UInt8(ascii: ",") { comma += 1 }
        var durationEnd = comma
        while durationEnd > start, HLSLineReader.isWhitespace(bytes[durationEnd - 1]) { durationEnd -= 1 }
        let durationBytes = UnsafeBufferPointer(rebasing: bytes[start..<durationEnd])
        guard let value = HLSNumberFormat.parseDecimal(durationBytes) else {
            throw HLSError(.malformedTag, "EXTINF duration is not a number", line: line)
        }
        guard value >= 0 else {
            throw HLSError(.invalidNumber, "EXTINF duration is negative", line: line)
        }
        let text = String(decoding: durationBytes, as: UTF8.self)
        let title =
            comma < end ? String(decoding: UnsafeBufferPointer(rebasing: bytes[(comma + 1)..<end]), as: UTF8.self) : ""
        return (HLSDecimal(value: value, text: text), title)
    }

    private static func readInteger(_ bytes: UnsafeBufferPointer<UInt8>, tag: String, line: Int) throws(HLSError)
        -> UInt64
    {
        guard !bytes.isEmpty else {
            throw HLSError(.malformedTag, "\(tag) has no value", line: line)
        }
        var value: UInt64 = 0
        for byte in bytes {
            guard byte >= 48, byte <= 57 else {
                throw HLSError(.invalidNumber, "\(tag) is not a non-negative integer", line: line)
            }
            let (times10, overflow1) = value.multipliedReportingOverflow(by: 10)
            let (sum, overflow2) = times10.addingReportingOverflow(UInt64(byte - 48))
            // RFC 8216bis 4.2: decimal-integer is at most 2^64-1.
            guard !overflow1, !overflow2 else {
                throw HLSError(.invalidNumber, "\(tag) does not fit in 64 bits", line: line)
            }
            value = sum
        }
        return value
    }
}
