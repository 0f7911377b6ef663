import Foundation

/// The one ISO 8601 writer of the package: `2019-02-14T02:13:36.106Z` in UTC,
/// or `2019-02-14T03:13:36.106+01:00` with a zone offset. HLS dates
/// (PROGRAM-DATE-TIME, DATERANGE), the VAST `[TIMESTAMP]` macro and the
/// collector's `receivedAt` all come from here. Written by hand because
/// `ISO8601DateFormatter` is slow, allocates, and is not `Sendable` on every
/// platform.
package enum ISO8601Timestamp {
    /// `date` with milliseconds (rounded), years clamped to 0001–9999 so an
    /// absurd date still writes without trapping. With `utcOffset` (seconds
    /// east of UTC) the local time and `±hh:mm` are written, even for an offset
    /// of 0 (`+00:00`); without one, UTC and `Z`.
    package static func string(from date: Date, utcOffset: Int? = nil) -> String {
        let offsetMilliseconds = Int64(utcOffset ?? 0) * 1000
        let local = milliseconds(since1970: date) + offsetMilliseconds
        var days = local / 86_400_000
        var milliseconds = Int(local % 86_400_000)
        if milliseconds < 0 {
            milliseconds += 86_400_000
            days -= 1
        }
        let (year, month, day) = CivilDate.fromDays(Int(days))
        let length = utcOffset == nil ? 24 : 29
        return String(unsafeUninitializedCapacity: length) { buffer in
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
            guard let utcOffset else {
                buffer[23] = UInt8(ascii: "Z")
                return 24
            }
            let minutes = min(abs(utcOffset) / 60, 99 * 60 + 59)
            buffer[23] = utcOffset < 0 ? UInt8(ascii: "-") : UInt8(ascii: "+")
            put(minutes / 60, at: 24, width: 2)
            buffer[26] = UInt8(ascii: ":")
            put(minutes % 60, at: 27, width: 2)
            return 29
        }
    }

    /// Milliseconds since 1970, clamped to years 1–9999 so that dates pushed
    /// far out by absurd durations still convert without trapping.
    package static func milliseconds(since1970 date: Date) -> Int64 {
        let milliseconds = (date.timeIntervalSince1970 * 1000).rounded()
        guard milliseconds.isFinite else { return 0 }
        return Int64(min(max(milliseconds, -62_135_596_800_000), 253_402_300_799_000))
    }
}

/// Proleptic Gregorian calendar arithmetic without a `Calendar` object
/// (Howard Hinnant's `days_from_civil` / `civil_from_days`).
package enum CivilDate {
    /// Days since 1970-01-01 of a calendar date.
    package static func days(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The calendar date of a day number (days since 1970-01-01).
    package static func fromDays(_ days: Int) -> (year: Int, month: Int, day: Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex + (monthIndex < 10 ? 3 : -9)
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}
