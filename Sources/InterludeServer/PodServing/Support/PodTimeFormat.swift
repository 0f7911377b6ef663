import Foundation

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

    /// ISO 8601 in UTC with milliseconds: `2026-11-29T23:24:26.123Z`.
    /// Arithmetic only (days to civil date, H. Hinnant's algorithm): a
    /// formatter or calendar per call costs more than the rest of a beacon.
    static func iso8601(_ date: Date) -> String {
        let milliseconds = Int64((date.timeIntervalSince1970 * 1000).rounded(.down))
        let days = Int64((Double(milliseconds) / 86_400_000).rounded(.down))
        let inDay = milliseconds - days * 86_400_000
        let shifted = days + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        func pad(_ value: Int64, _ width: Int) -> String {
            let digits = String(value)
            return String(repeating: "0", count: max(0, width - digits.count)) + digits
        }
        return pad(year, 4) + "-" + pad(month, 2) + "-" + pad(day, 2) + "T" + pad(inDay / 3_600_000, 2) + ":"
            + pad(inDay / 60_000 % 60, 2) + ":" + pad(inDay / 1000 % 60, 2) + "." + pad(inDay % 1000, 3) + "Z"
    }

    /// Seconds with at most three decimals, as JSON numbers in metadata.
    static func seconds(milliseconds: Int) -> Double { Double(milliseconds) / 1000 }
}
