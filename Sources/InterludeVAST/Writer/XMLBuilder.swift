/// Builds indented XML text. Text values go into CDATA sections so that
/// URLs with `&`, `<` or macros stay readable and exact.
struct XMLBuilder {
    private(set) var output: String = ""
    private var depth = 0
    let indent: Bool

    init(indent: Bool = true) {
        self.indent = indent
        output.reserveCapacity(4096)
    }

    mutating func declaration() {
        output += "<?xml version=\"1.0\" encoding=\"UTF-8\"?>"
        newline()
    }

    mutating func open(_ name: String, _ attributes: KeyValuePairs<String, String?> = [:]) {
        startTag(name, attributes)
        output += ">"
        newline()
        depth += 1
    }

    mutating func close(_ name: String) {
        depth -= 1
        pad()
        output += "</" + name + ">"
        newline()
    }

    /// `<name attrs><![CDATA[text]]></name>`; `<name attrs/>` when text is empty.
    mutating func element(_ name: String, _ attributes: KeyValuePairs<String, String?> = [:], text: String) {
        startTag(name, attributes)
        if text.isEmpty {
            output += "/>"
        } else {
            output += ">"
            appendCDATA(text)
            output += "</" + name + ">"
        }
        newline()
    }

    /// `<name attrs>raw</name>`, with `raw` written as is (already XML).
    mutating func rawElement(_ name: String, attributeList: [(String, String?)], raw: String) {
        pad()
        output += "<" + name
        for (key, value) in attributeList { appendAttribute(key, value) }
        if raw.isEmpty {
            output += "/>"
        } else {
            output += ">" + raw + "</" + name + ">"
        }
        newline()
    }

    private mutating func startTag(_ name: String, _ attributes: KeyValuePairs<String, String?>) {
        pad()
        output += "<" + name
        for (key, value) in attributes { appendAttribute(key, value) }
    }

    private mutating func appendAttribute(_ key: String, _ value: String?) {
        guard let value else { return }
        output += " " + key + "=\""
        output += escapeAttribute(value)
        output += "\""
    }

    private mutating func appendCDATA(_ text: String) {
        output += "<![CDATA["
        // `]]>` cannot appear inside CDATA: close the section between `]]`
        // and `>` and open a new one; the parser joins the pieces again.
        if text.contains("]]>") {
            output += text.replacingAll("]]>", with: "]]]]><![CDATA[>")
        } else {
            output += text
        }
        output += "]]>"
    }

    private mutating func pad() {
        if indent { output += String(repeating: "  ", count: depth) }
    }

    private mutating func newline() {
        if indent { output += "\n" }
    }
}

/// Escapes a value for a double-quoted attribute. Whitespace characters
/// other than space are written as references so they survive attribute
/// normalization in other parsers.
func escapeAttribute(_ value: String) -> String {
    guard value.utf8.contains(where: { $0 == 0x26 || $0 == 0x3C || $0 == 0x3E || $0 == 0x22 || $0 < 0x20 }) else {
        return value
    }
    var escaped = ""
    escaped.reserveCapacity(value.utf8.count + 16)
    for scalar in value.unicodeScalars {
        switch scalar {
        case "&": escaped += "&amp;"
        case "<": escaped += "&lt;"
        case ">": escaped += "&gt;"
        case "\"": escaped += "&quot;"
        case "\n": escaped += "&#10;"
        case "\r": escaped += "&#13;"
        case "\t": escaped += "&#9;"
        default: escaped.unicodeScalars.append(scalar)
        }
    }
    return escaped
}

extension String {
    /// Replaces every occurrence of `target` (Foundation-free).
    func replacingAll(_ target: String, with replacement: String) -> String {
        var result = ""
        var remainder = self[...]
        while let range = remainder.firstRange(of: target) {
            result += remainder[..<range.lowerBound]
            result += replacement
            remainder = remainder[range.upperBound...]
        }
        result += remainder
        return result
    }
}
