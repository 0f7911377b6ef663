import Foundation
internal import InterludeFormatting

extension HLSDateFormat {
    /// Writes a date in UTC with milliseconds: `2019-02-14T02:13:36.106Z`
    /// (the package's one ISO 8601 writer).
    public static func format(_ date: Date) -> String {
        ISO8601Timestamp.string(from: date)
    }

    /// Milliseconds since 1970, clamped to years 1–9999 so that dates pushed
    /// far out by absurd durations still convert without trapping.
    static func milliseconds(since1970 date: Date) -> Int64 {
        ISO8601Timestamp.milliseconds(since1970: date)
    }
}
