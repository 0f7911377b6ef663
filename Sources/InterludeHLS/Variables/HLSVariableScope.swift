/// The variables an `EXT-X-DEFINE` made known (RFC 8216bis 4.4.2.3), used to
/// reject references to undefined names, which the RFC makes a parse error.
struct HLSVariableScope {
    /// Names a NAME, IMPORT or QUERYPARAM definition made known. Values are
    /// not needed here: `MediaPlaylist.resolvingVariables(imported:queryParameters:)` substitutes.
    private var names: Set<String> = []

    mutating func define(_ attributes: HLSAttributeList) {
        // IMPORT values come from the multivariant playlist and QUERYPARAM
        // values from the playlist URL: either way the name is defined.
        if let name = attributes.string("NAME") ?? attributes.string("IMPORT") ?? attributes.string("QUERYPARAM") {
            names.insert(name)
        }
    }

    /// Throws for the first `{$name}` in the line whose name is not defined.
    func checkReferences(_ bytes: UnsafeBufferPointer<UInt8>, _ line: HLSLineReader.Line) throws(HLSError) {
        // Comments are free text: only tags and URI lines take references.
        if bytes[line.start] == UInt8(ascii: "#"),
            line.end - line.start < 4 || bytes[line.start + 1] != UInt8(ascii: "E")
        {
            return
        }
        var index = line.start
        while index + 1 < line.end {
            if bytes[index] == UInt8(ascii: "{"), bytes[index + 1] == UInt8(ascii: "$") {
                var close = index + 2
                while close < line.end, bytes[close] != UInt8(ascii: "}") { close += 1 }
                guard close < line.end else { return }
                let name = String(decoding: UnsafeBufferPointer(rebasing: bytes[(index + 2)..<close]), as: UTF8.self)
                // The DEFINE line itself names the variable as its value text.
                if !names.contains(name), !isDefineLine(bytes, line) {
                    throw HLSError(.undefinedVariable, "reference to undefined variable {$\(name)}", line: line.number)
                }
                index = close
            }
            index += 1
        }
    }

    private func isDefineLine(_ bytes: UnsafeBufferPointer<UInt8>, _ line: HLSLineReader.Line) -> Bool {
        let prefix = Array("#EXT-X-DEFINE:".utf8)
        guard line.end - line.start >= prefix.count else { return false }
        for (offset, byte) in prefix.enumerated() where bytes[line.start + offset] != byte { return false }
        return true
    }
}
