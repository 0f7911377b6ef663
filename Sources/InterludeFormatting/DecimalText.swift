/// The one number formatter of the package for numbers in text, so that
/// every module writes `12.5`, never `12.500000` or `1.25e1`, and no locale
/// can turn the point into a comma (`String(format:)` and `NumberFormatter`
/// depend on the locale on some platforms).
package enum DecimalText {
    /// How many fraction digits to keep.
    package enum Precision: Sendable, Hashable {
        /// As many as it takes to read the same `Double` back (documents:
        /// `parse(write(x)) == x`).
        case exact
        /// Rounded to at most this many, trailing zeros dropped (messages and
        /// reports for people: `0.1 + 0.2` is `0.3`).
        case upTo(Int)
    }

    /// `value` without a trailing `.0` when whole: `30`, `12.5`, `-0.25`.
    package static func string(_ value: Double, _ precision: Precision = .exact) -> String {
        guard value.isFinite else { return value.isNaN ? "nan" : (value < 0 ? "-inf" : "inf") }
        switch precision {
        case .exact:
            if value == value.rounded(), abs(value) < 1e15 { return String(Int(value)) }
            return String(value)
        case .upTo(let digits):
            let digits = min(max(digits, 0), 9)
            var scale: Double = 1
            for _ in 0..<digits { scale *= 10 }
            let scaled = (abs(value) * scale).rounded()
            // Past 2^53 a Double has no fraction left to write.
            guard scaled < 9e15 else { return string(value, .exact) }
            let units = Int64(scaled)
            let divisor = Int64(scale)
            let whole = units / divisor
            var fraction = units % divisor
            var fractionDigits = digits
            while fractionDigits > 0, fraction % 10 == 0 {
                fraction /= 10
                fractionDigits -= 1
            }
            let sign = value < 0 && units != 0 ? "-" : ""
            guard fractionDigits > 0 else { return sign + String(whole) }
            let fractionText = String(fraction)
            return sign + String(whole) + "."
                + String(repeating: "0", count: fractionDigits - fractionText.count) + fractionText
        }
    }
}
