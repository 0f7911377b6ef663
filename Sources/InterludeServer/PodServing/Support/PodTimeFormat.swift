import Foundation
internal import InterludeFormatting

/// Durations and times as Google's DAI API writes them.
enum PodTimeFormat {
    /// Go's `time.Duration` text, as `valid_for` carries it: `8h0m0s`,
    /// `30m0s`, `45s`, `1.5s`.
    static func goDuration(_ seconds: Double) -> String {
        let milliseconds = Int64((seconds * 1000).rounded())
        let hours = milliseconds / 3_600_000
        let minutes = milliseconds / 60_000 % 60
        let wholeSeconds = milliseconds / 1000 % 60
        let fraction = milliseconds % 1000
        var secondsText = String(wholeSeconds)
        if fraction != 0 {
            var digits = String(fraction)
            digits = String(repeating: "0", count: 3 - digits.count) + digits
            while digits.hasSuffix("0") { digits.removeLast() }
            secondsText += "." + digits
        }
        if hours > 0 { return "\(hours)h\(minutes)m\(secondsText)s" }
        if minutes > 0 { return "\(minutes)m\(secondsText)s" }
        return "\(secondsText)s"
    }

    /// ISO 8601 in UTC with milliseconds: `2026-11-29T23:24:26.123Z`, from
    /// the package's one writer (arithmetic, no formatter per call).
    static func iso8601(_ date: Date) -> String { ISO8601Timestamp.string(from: date) }

    /// Seconds with at most three decimals, as JSON numbers in metadata.
    static func seconds(milliseconds: Int) -> Double { Double(milliseconds) / 1000 }
}
