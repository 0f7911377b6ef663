import Foundation
import InterludeVAST
import Testing

@Suite("Time values")
struct TimeAndOffsetTests {
    @Test func parsesHoursMinutesSecondsAndMilliseconds() {
        #expect(VASTTime(parsing: "00:00:15") == VASTTime(milliseconds: 15_000))
        #expect(VASTTime(parsing: "01:02:03.004") == VASTTime(milliseconds: 3_723_004))
        #expect(VASTTime(parsing: "00:00:01.5") == VASTTime(milliseconds: 1500))
        #expect(VASTTime(parsing: "00:00:01.0005") == VASTTime(milliseconds: 1001))
        #expect(VASTTime(parsing: "100:00:00") == VASTTime(milliseconds: 360_000_000))
    }

    @Test(arguments: [
        "", "15", "00:15", "00:60:00", "00:00:60", "aa:bb:cc", "00:00:01.", "-1:00:00", "00:00:1", "00:00:01.x",
    ])
    func rejectsMalformedTimes(text: String) {
        #expect(VASTTime(parsing: text) == nil)
    }

    @Test func formatsWithAndWithoutMilliseconds() {
        #expect(VASTTime(milliseconds: 15_000).formatted == "00:00:15")
        #expect(VASTTime(milliseconds: 3_723_004).formatted == "01:02:03.004")
        #expect(VASTTime(milliseconds: 15_000).formattedWithMilliseconds == "00:00:15.000")
    }

    @Test func offsetsAreTimesOrPercentages() {
        #expect(VASTOffset(parsing: "00:00:05") == .time(VASTTime(milliseconds: 5000)))
        #expect(VASTOffset(parsing: "25%") == .percent(25))
        #expect(VASTOffset(parsing: "12.5%") == .percent(12.5))
        #expect(VASTOffset(parsing: "101%") == nil)
        #expect(VASTOffset(parsing: "%") == nil)
        #expect(VASTOffset.percent(25).seconds(ofDuration: 30) == 7.5)
        #expect(VASTOffset.percent(12.5).formatted == "12.5%")
    }

    @Test func breakOffsetsInAllFiveForms() {
        #expect(BreakTimeOffset(parsing: "start") == .start)
        #expect(BreakTimeOffset(parsing: "end") == .end)
        #expect(BreakTimeOffset(parsing: "00:10:00.500") == .time(VASTTime(milliseconds: 600_500)))
        #expect(BreakTimeOffset(parsing: "50%") == .percent(50))
        #expect(BreakTimeOffset(parsing: "#3") == .position(3))
        #expect(BreakTimeOffset(parsing: "#0") == nil)
        #expect(BreakTimeOffset(parsing: "middle") == nil)
        #expect(BreakTimeOffset.percent(50).seconds(contentDuration: 600) == 300)
        #expect(BreakTimeOffset.end.seconds(contentDuration: nil) == nil)
        #expect(BreakTimeOffset.position(2).formatted == "#2")
    }
}
