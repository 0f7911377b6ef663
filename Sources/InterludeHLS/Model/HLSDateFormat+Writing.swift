import Foundation

extension HLSDateFormat {
    /// Writes a date in UTC with milliseconds: `2019-02-14T02:13:36.106Z`.
    /// Built as 24 bytes at once: a splice writes two of these per break.
    public static func format(_ date: Date) -> String {
        let totalMilliseconds = milliseconds(since1970: date)
        var days = totalMilliseconds / 86_400_000
        var milliseconds = Int(totalMilliseconds % 86_400_000)
        if milliseconds < 0 {
            milliseconds += 86_400_000
            days -= 1
        }
        let (year, month, day) = civilFromDays(Int(days))
        return String(unsafeUninitializedCapacity: 24) { buffer in
            func put(_ value: Int, at start: Int, width: Int) {
                var remaining = value
                for offset in stride(from: width - 1, through: 0, by: -1) {
                    buffer[start + offset] = UInt8(48 + remaining % 10)
                    remaining /= 10
                }
            }
            put(min(max(year, 0), 9999), at: 0, width: 4)
            buffer[4] = UInt8(ascii: "-")
            put(month, at: 5, width: 2)
            buffer[7] = UInt8(ascii: "-")
            put(day, at: 8, width: 2)
            buffer[10] = UInt8(ascii: "T")
            put(milliseconds / 3_600_000, at: 11, width: 2)
            buffer[13] = UInt8(ascii: ":")
            put(milliseconds / 60_000 % 60, at: 14, width: 2)
            buffer[16] = UInt8(ascii: ":")
            put(milliseconds / 1000 % 60, at: 17, width: 2)
            buffer[19] = UInt8(ascii: ".")
            put(milliseconds % 1000, at: 20, width: 3)
            buffer[23] = UInt8(ascii: "Z")
            return 24
        }
    }

    /// Milliseconds since 1970, clamped to years 1–9999 so that dates pushed
    /// far out by absurd durations still convert without trapping.
    static func milliseconds(since1970 date: Date) -> Int64 {
        let milliseconds = (date.timeIntervalSince1970 * 1000).rounded()
        guard milliseconds.isFinite else { return 0 }
        return Int64(min(max(milliseconds, -62_135_596_800_000), 253_402_300_799_000))
    }
}
