import Foundation

extension String {
    /// `trimmingCharacters(in: .whitespacesAndNewlines)`, without the
    /// Foundation round trip when there is nothing to trim: URLs from
    /// documents almost never have surrounding space, and on Linux the
    /// bridged call costs microseconds per URL on the loading path.
    var trimmingWhitespace: String {
        guard let first = utf8.first, let last = utf8.last else { return self }
        if first > 0x20, first < 0x80, last > 0x20, last < 0x80 { return self }
        return trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
