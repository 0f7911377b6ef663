import Foundation
internal import InterludeFormatting

/// ISO 8601 dates as PROGRAM-DATE-TIME and DATERANGE write them
/// (`2019-02-14T02:13:36.106Z`, `…+01:00`), read and written by hand because
/// `ISO8601DateFormatter` is slow and not `Sendable` on every platform. The
/// writer is the package's one ISO 8601 writer, shared with the VAST
/// `[TIMESTAMP]` macro and the beacon collector.
public enum HLSDateFormat {
    /// Reads `YYYY-MM-DDThh:mm:ss[.fraction](Z|±hh[:]mm)`; nil when malformed.
    public static func parse(_ text: String) -> Date? {
        var text = text
        return text.withUTF8 { parse($0) }
    }

    static func parse(_ bytes: UnsafeBufferPointer<UInt8>) -> Date? {
        var index = 0
        func number(_ digits: Int) -> Int? {
            guard index + digits <= bytes.count else { return nil }
            var value = 0
            for _ in 0..<digits {
                let byte = bytes[index]
                guard byte >= 48, byte <= 57 else { return nil }
                value = value * 10 + Int(byte - 48)
                index += 1
            }
            return value
        }
        func expect(_ character: UInt8) -> Bool {
            guard index < bytes.count, bytes[index] == character else { return false }
            index += 1
            return true
        }
        let dash = UInt8(ascii: "-")
        let colon = UInt8(ascii: ":")
        guard let year = number(4), expect(dash), let month = number(2), expect(dash), let day = number(2),
            index < bytes.count, bytes[index] == UInt8(ascii: "T") || bytes[index] == UInt8(ascii: "t")
        else { return nil }
        index += 1
        guard let hour = number(2), expect(colon), let minute = number(2), expect(colon), let second = number(2) else {
            return nil
        }
        guard (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second < 61 else { return nil }
        var fraction = 0.0
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") || bytes[index] == UInt8(ascii: ",") {
            index += 1
            var scale = 0.1
            var digits = 0
            while index < bytes.count, bytes[index] >= 48, bytes[index] <= 57 {
                fraction += Double(bytes[index] - 48) * scale
                scale /= 10
                digits += 1
                index += 1
            }
            guard digits > 0 else { return nil }
        }
        var offsetSeconds = 0
        if index < bytes.count {
            let sign = bytes[index]
            if sign == UInt8(ascii: "Z") || sign == UInt8(ascii: "z") {
                index += 1
            } else if sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") {
                index += 1
                guard let offsetHour = number(2) else { return nil }
                _ = expect(colon)
                let offsetMinute = number(2) ?? 0
                offsetSeconds = (offsetHour * 3600 + offsetMinute * 60) * (sign == UInt8(ascii: "-") ? -1 : 1)
            } else {
                return nil
            }
        }
        guard index == bytes.count else { return nil }
        let days = CivilDate.days(year: year, month: month, day: day)
        let seconds = Double(days * 86_400 + hour * 3600 + minute * 60 + second - offsetSeconds) + fraction
        return Date(timeIntervalSince1970: seconds)
    }
}
