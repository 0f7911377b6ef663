internal import InterludeFormatting

/// A time value from a VAST or VMAP document (`HH:MM:SS` or
/// `HH:MM:SS.mmm`), held as whole milliseconds so that it compares and
/// round-trips exactly.
public struct VASTTime: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// Milliseconds since zero. Never negative, never above
    /// ``maximumMilliseconds``.
    public var milliseconds: Int

    /// The longest time a document can state, `999999:59:59.999` (over a
    /// century): no player reaches it, and the bound keeps any sum of times
    /// far from `Int` overflow, so a tag stating `99999999999999:00:00` or
    /// `1e300` seconds is refused instead of trapping.
    public static let maximumMilliseconds = 999_999 * 3_600_000 + 3_599_999

    /// A time of `milliseconds`, clamped to `0...maximumMilliseconds`.
    public init(milliseconds: Int) { self.milliseconds = min(max(0, milliseconds), Self.maximumMilliseconds) }

    /// A time of `seconds`, rounded to the nearest millisecond and clamped
    /// like ``init(milliseconds:)``; a non-finite value is zero.
    public init(seconds: Double) {
        guard seconds.isFinite else {
            self.init(milliseconds: 0)
            return
        }
        let milliseconds = min(max((seconds * 1000).rounded(), 0), Double(Self.maximumMilliseconds))
        self.init(milliseconds: Int(milliseconds))
    }

    /// The time in seconds.
    public var seconds: Double { Double(milliseconds) / 1000 }

    /// Reads `HH:MM:SS` or `HH:MM:SS.mmm` (fraction of 1–3 digits or more,
    /// rounded to milliseconds; hours up to 999999). Returns nil for
    /// anything else, signs included.
    public init?(parsing input: some StringProtocol) {
        let text = Substring(input)
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].allSatisfy(\.isASCIIDigit), parts[1].allSatisfy(\.isASCIIDigit),
            let hours = Int(parts[0]), hours <= 999_999,
            let minutes = Int(parts[1]), (0..<60).contains(minutes), parts[1].count == 2
        else { return nil }
        let secondsPart = parts[2]
        let whole: Substring
        var millis = 0
        if let dot = secondsPart.firstIndex(of: ".") {
            whole = secondsPart[..<dot]
            let fraction = secondsPart[secondsPart.index(after: dot)...]
            guard !fraction.isEmpty, fraction.allSatisfy(\.isASCIIDigit) else { return nil }
            // Pad or round to three digits.
            let digits = Array(fraction.utf8).map { Int($0 - 48) }
            for position in 0..<3 { millis = millis * 10 + (position < digits.count ? digits[position] : 0) }
            if digits.count > 3, digits[3] >= 5 { millis += 1 }
        } else {
            whole = secondsPart
        }
        guard whole.count == 2, whole.allSatisfy(\.isASCIIDigit), let seconds = Int(whole), (0..<60).contains(seconds)
        else { return nil }
        self.milliseconds = ((hours * 60 + minutes) * 60 + seconds) * 1000 + millis
    }

    /// `HH:MM:SS.mmm`, or `HH:MM:SS` when there are no milliseconds.
    public var formatted: String {
        let totalSeconds = milliseconds / 1000
        let millis = milliseconds % 1000
        let hours = totalSeconds / 3600
        let minutes = (totalSeconds / 60) % 60
        let seconds = totalSeconds % 60
        var text = twoDigits(hours) + ":" + twoDigits(minutes) + ":" + twoDigits(seconds)
        if millis != 0 {
            let digits = String(millis)
            text += "." + String(repeating: "0", count: 3 - digits.count) + digits
        }
        return text
    }

    public var description: String { formatted }

    public static func < (lhs: VASTTime, rhs: VASTTime) -> Bool { lhs.milliseconds < rhs.milliseconds }
}

private func twoDigits(_ value: Int) -> String {
    value < 10 ? "0" + String(value) : String(value)
}

extension Character {
    var isASCIIDigit: Bool { asciiValue.map { $0 >= 48 && $0 <= 57 } ?? false }
}

/// A point inside an ad: a time from its start or a percentage of its
/// duration. Used by `skipoffset` and by `progress` tracking offsets.
public enum VASTOffset: Hashable, Sendable, CustomStringConvertible {
    /// A time from the start of the creative.
    case time(VASTTime)
    /// A percentage (0–100) of the creative's duration.
    case percent(Double)

    /// Reads `HH:MM:SS(.mmm)` or `n%`.
    public init?(parsing text: some StringProtocol) {
        if text.hasSuffix("%") {
            guard let value = Double(text.dropLast()), value.isFinite, value >= 0, value <= 100 else { return nil }
            self = .percent(value)
        } else if let time = VASTTime(parsing: text) {
            self = .time(time)
        } else {
            return nil
        }
    }

    /// The offset in seconds for a creative of `duration` seconds.
    public func seconds(ofDuration duration: Double) -> Double {
        switch self {
        case .time(let time): return time.seconds
        case .percent(let percent): return duration * percent / 100
        }
    }

    /// The text form used in documents.
    public var formatted: String {
        switch self {
        case .time(let time): return time.formatted
        case .percent(let percent): return formatNumber(percent) + "%"
        }
    }

    public var description: String { formatted }
}

/// Formats a number as documents write it (whole numbers without `.0`,
/// others in the shortest form that reads back the same).
func formatNumber(_ value: Double) -> String { DecimalText.string(value) }
