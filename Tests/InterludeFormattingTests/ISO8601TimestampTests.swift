import Foundation
import InterludeFormatting
import Testing

@Suite("ISO 8601 writer")
struct ISO8601TimestampTests {
    /// 2016-01-17T08:15:07.127Z, the instant of VAST 4.x's `[TIMESTAMP]` example.
    static let instant = Date(timeIntervalSince1970: 1_453_018_507.127)

    @Test func utcIsWrittenWithMillisecondsAndZ() {
        #expect(ISO8601Timestamp.string(from: Self.instant) == "2016-01-17T08:15:07.127Z")
        #expect(ISO8601Timestamp.string(from: Date(timeIntervalSince1970: 0)) == "1970-01-01T00:00:00.000Z")
    }

    @Test func anOffsetWritesLocalTimeAndTheOffsetEvenWhenZero() {
        #expect(ISO8601Timestamp.string(from: Self.instant, utcOffset: -5 * 3600) == "2016-01-17T03:15:07.127-05:00")
        #expect(ISO8601Timestamp.string(from: Self.instant, utcOffset: 0) == "2016-01-17T08:15:07.127+00:00")
        #expect(
            ISO8601Timestamp.string(from: Self.instant, utcOffset: 5 * 3600 + 1800) == "2016-01-17T13:45:07.127+05:30")
    }

    @Test func anOffsetCanMoveTheDateAcrossMidnightAndYears() {
        let newYear = Date(timeIntervalSince1970: 1_704_067_200)  // 2024-01-01T00:00:00Z
        #expect(ISO8601Timestamp.string(from: newYear, utcOffset: -3600) == "2023-12-31T23:00:00.000-01:00")
    }

    @Test func millisecondsRoundAndCarryIntoTheSecond() {
        #expect(ISO8601Timestamp.string(from: Date(timeIntervalSince1970: 59.9996)) == "1970-01-01T00:01:00.000Z")
    }

    @Test func datesBefore1970AndLeapDaysAreExact() {
        #expect(ISO8601Timestamp.string(from: Date(timeIntervalSince1970: -1)) == "1969-12-31T23:59:59.000Z")
        #expect(ISO8601Timestamp.string(from: Date(timeIntervalSince1970: 951_782_400)) == "2000-02-29T00:00:00.000Z")
    }

    @Test func absurdDatesAreClampedInsteadOfTrapping() {
        #expect(ISO8601Timestamp.string(from: Date(timeIntervalSince1970: 1e300)) == "9999-12-31T23:59:59.000Z")
        #expect(ISO8601Timestamp.string(from: Date(timeIntervalSince1970: .nan)) == "1970-01-01T00:00:00.000Z")
    }
}

@Suite("Number formatter")
struct DecimalTextTests {
    @Test func wholeNumbersHaveNoFraction() {
        #expect(DecimalText.string(30) == "30")
        #expect(DecimalText.string(-4, .upTo(3)) == "-4")
    }

    @Test func exactKeepsWhatReadsBackTheSame() {
        #expect(DecimalText.string(12.5) == "12.5")
        #expect(Double(DecimalText.string(1.0 / 3.0)) == 1.0 / 3.0)
    }

    @Test func upToRoundsAndDropsTrailingZeros() {
        #expect(DecimalText.string(0.25, .upTo(3)) == "0.25")
        #expect(DecimalText.string(0.1 + 0.2, .upTo(3)) == "0.3")
        #expect(DecimalText.string(90.1234, .upTo(3)) == "90.123")
        #expect(DecimalText.string(0.0005, .upTo(3)) == "0.001")
        #expect(DecimalText.string(0.05, .upTo(3)) == "0.05")
        #expect(DecimalText.string(-0.0004, .upTo(3)) == "0")
        #expect(DecimalText.string(-1.5, .upTo(0)) == "-2")
    }

    @Test func nonFiniteValuesAreNamed() {
        #expect(DecimalText.string(.infinity, .upTo(3)) == "inf")
        #expect(DecimalText.string(.nan) == "nan")
    }
}
