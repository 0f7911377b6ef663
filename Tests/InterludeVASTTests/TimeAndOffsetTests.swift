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
        "99999999999999:00:00", "1000000:00:00", "+1:00:00", "00:+5:00", "00:00:+5", "00:-0:00",
    ])
    func rejectsMalformedTimes(text: String) {
        #expect(VASTTime(parsing: text) == nil)
    }

    /// A VMAP `timeOffset` of 99,999,999,999,999 hours trapped on `Int`
    /// overflow (found by the VMAP fuzz target in a CI run); the largest
    /// time a document may state still reads and writes back exactly.
    @Test func hugeTimesAreRefusedOrClampedWithoutTrapping() throws {
        #expect(VASTTime(parsing: "999999:59:59.999") == VASTTime(milliseconds: VASTTime.maximumMilliseconds))
        #expect(VASTTime(parsing: VASTTime(milliseconds: .max).formatted) == VASTTime(milliseconds: .max))
        #expect(VASTTime(seconds: 1e300).milliseconds == VASTTime.maximumMilliseconds)
        #expect(VASTTime(seconds: -1e300).milliseconds == 0)
        #expect(VASTTime(seconds: .infinity).milliseconds == 0)
        #expect(BreakTimeOffset(parsing: "99999999999999:00:00") == nil)
        let vmap = """
            <vmap:VMAP xmlns:vmap="http://www.iab.net/videosuite/vmap" version="1.0">
            <vmap:AdBreak timeOffset="99999999999999:00:00" breakType="linear"/>
            </vmap:VMAP>
            """
        _ = try? VASTParser().parse(bytes: Array(vmap.utf8))
        let vast = """
            <VAST version="4.0"><Ad id="a"><InLine><AdSystem>x</AdSystem><AdTitle>t</AdTitle>
            <Impression><![CDATA[http://127.0.0.1/i]]></Impression><Creatives><Creative><Linear skipoffset="1e300">
            <Duration>1e300</Duration><MediaFiles><MediaFile delivery="progressive" type="video/mp4" width="640" height="360">
            <![CDATA[http://127.0.0.1/a.mp4]]></MediaFile></MediaFiles></Linear></Creative></Creatives></InLine></Ad></VAST>
            """
        let result = try VASTParser().parse(bytes: Array(vast.utf8))
        _ = VASTWriter().write(result.document)
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
