/// Reads an attribute list (RFC 8216bis 4.2) from bytes, deciding each
/// value's type from its shape.
enum HLSAttributeListParser {
    static func parse(_ bytes: UnsafeBufferPointer<UInt8>, line: Int) throws(HLSError) -> HLSAttributeList {
        var attributes: [HLSAttributeList.Attribute] = []
        var index = 0
        let count = bytes.count
        // One allocation instead of growing 1, 2, 4, 8: lists rarely pass eight.
        attributes.reserveCapacity(8)
        while index < count {
            while index < count, HLSLineReader.isWhitespace(bytes[index]) { index += 1 }
            if index == count { break }
            let nameStart = index
            while index < count, bytes[index] != UInt8(ascii: "="), bytes[index] != UInt8(ascii: ",") { index += 1 }
            var nameEnd = index
            while nameEnd > nameStart, HLSLineReader.isWhitespace(bytes[nameEnd - 1]) { nameEnd -= 1 }
            guard index < count, bytes[index] == UInt8(ascii: "="), nameEnd > nameStart else {
                throw HLSError(.malformedAttributeList, "attribute without NAME=VALUE form", line: line)
            }
            let name = HLSKnownStrings.string(bytes, nameStart, nameEnd)
            index += 1
            let value: HLSAttributeValue
            if index < count, bytes[index] == UInt8(ascii: "\"") {
                let valueStart = index + 1
                index = valueStart
                while index < count, bytes[index] != UInt8(ascii: "\"") { index += 1 }
                guard index < count else {
                    throw HLSError(.malformedAttributeList, "unbalanced quote in attribute \(name)", line: line)
                }
                value = HLSAttributeValue(kind: .quotedString, text: HLSKnownStrings.string(bytes, valueStart, index))
                index += 1
                while index < count, HLSLineReader.isWhitespace(bytes[index]) { index += 1 }
                guard index == count || bytes[index] == UInt8(ascii: ",") else {
                    throw HLSError(.malformedAttributeList, "text after the closing quote of \(name)", line: line)
                }
            } else {
                let valueStart = index
                while index < count, bytes[index] != UInt8(ascii: ",") { index += 1 }
                var valueEnd = index
                while valueEnd > valueStart, HLSLineReader.isWhitespace(bytes[valueEnd - 1]) { valueEnd -= 1 }
                let slice = UnsafeBufferPointer(rebasing: bytes[valueStart..<valueEnd])
                value = HLSAttributeValue(
                    kind: kind(of: slice), text: HLSKnownStrings.string(bytes, valueStart, valueEnd))
            }
            attributes.append(HLSAttributeList.Attribute(name: name, value: value))
            index += 1
        }
        return HLSAttributeList(attributes)
    }

    /// The type an unquoted value was written as.
    static func kind(of bytes: UnsafeBufferPointer<UInt8>) -> HLSAttributeValue.Kind {
        guard let first = bytes.first else { return .enumeratedString }
        if bytes.count > 2, first == UInt8(ascii: "0"), bytes[1] == UInt8(ascii: "x") || bytes[1] == UInt8(ascii: "X") {
            return .hexadecimalSequence
        }
        var digits = 0
        var points = 0
        var crosses = 0
        for (offset, byte) in bytes.enumerated() {
            switch byte {
            case 48...57: digits += 1
            case UInt8(ascii: "."): points += 1
            case UInt8(ascii: "x"): crosses += 1
            case UInt8(ascii: "-") where offset == 0: break
            default: return .enumeratedString
            }
        }
        if digits == 0 { return .enumeratedString }
        if crosses == 1, points == 0, first != UInt8(ascii: "-") { return .decimalResolution }
        if crosses > 0 { return .enumeratedString }
        if points == 0, first != UInt8(ascii: "-") { return .decimalInteger }
        return points <= 1 ? .decimalFloatingPoint : .enumeratedString
    }
}
