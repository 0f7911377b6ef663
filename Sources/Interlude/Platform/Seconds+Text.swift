import Foundation
internal import InterludeFormatting

/// Seconds for log lines and error messages: `8`, `0.25`, `1.5` (at most
/// three fraction digits, from the package's one number formatter).
func formatSeconds(_ value: TimeInterval) -> String {
    DecimalText.string(value, .upTo(3))
}
