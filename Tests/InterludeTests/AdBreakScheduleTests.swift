import Foundation
import InterludeTestSupport
import InterludeVAST
import Testing

@testable import Interlude

func vmap(_ breaks: [(String, String?)]) throws -> VMAPDocument {
    let body = breaks.enumerated().map { index, entry in
        let repeatAfter = entry.1.map { " repeatAfter=\"\($0)\"" } ?? ""
        return
            "<vmap:AdBreak timeOffset=\"\(entry.0)\" breakType=\"linear\" breakId=\"b\(index)\"\(repeatAfter)><vmap:AdSource><vmap:AdTagURI>http://127.0.0.1:9/b\(index)</vmap:AdTagURI></vmap:AdSource></vmap:AdBreak>"
    }.joined()
    let xml = "<vmap:VMAP xmlns:vmap=\"http://www.iab.net/videosuite/vmap\" version=\"1.0\">\(body)</vmap:VMAP>"
    return try VASTParser().parseVMAP(Data(xml.utf8)).document
}

@Suite("Ad break schedule")
struct AdBreakScheduleTests {
    @Test func cuePointsFollowIMAConventions() throws {
        let schedule = AdBreakSchedule(
            vmap: try vmap([("end", nil), ("00:05:00", nil), ("start", nil), ("50%", nil)]), contentDuration: 1200)
        #expect(schedule.cuePoints == [0, 300, 600, -1])
        #expect(schedule.slots.map(\.podIndex) == [0, 1, 2, -1])
        #expect(schedule.slots.map(\.breakPosition) == [.preroll, .midroll, .midroll, .postroll])
    }

    @Test func percentOffsetsNeedTheContentDuration() throws {
        let schedule = AdBreakSchedule(vmap: try vmap([("start", nil), ("25%", nil)]), contentDuration: nil)
        #expect(schedule.cuePoints == [0])
        #expect(schedule.skipped.map(\.code) == [.vmapSchemaError])
    }

    @Test func positionalOffsetsAreSkippedWithAReason() throws {
        let schedule = AdBreakSchedule(vmap: try vmap([("#1", nil)]), contentDuration: 600)
        #expect(schedule.slots.isEmpty)
        #expect(schedule.skipped.first?.reason.contains("cue points") == true)
    }

    @Test func repeatAfterRepeatsUntilTheEnd() throws {
        let schedule = AdBreakSchedule(vmap: try vmap([("00:10:00", "00:10:00")]), contentDuration: 3600)
        #expect(schedule.cuePoints == [600, 1200, 1800, 2400, 3000])
    }

    @Test func repeatAfterOnAStartBreakRepeatsAsFromZero() throws {
        let schedule = AdBreakSchedule(vmap: try vmap([("start", "00:10:00")]), contentDuration: 3600)
        let fromZero = AdBreakSchedule(vmap: try vmap([("00:00:00", "00:10:00")]), contentDuration: 3600)
        #expect(schedule.cuePoints == [0, 600, 1200, 1800, 2400, 3000])
        #expect(schedule.cuePoints == fromZero.cuePoints)
    }

    @Test func aBreakAtTheContentsEndPlaysAsAPostRollAndOnePastItIsSkippedWithAReason() throws {
        let schedule = AdBreakSchedule(
            vmap: try vmap([("00:10:00", nil), ("00:12:00", nil), ("00:05:00", nil)]), contentDuration: 600)
        #expect(schedule.cuePoints == [300, -1])
        #expect(schedule.skipped.count == 1)
        #expect(schedule.skipped.first?.adBreak.breakID == "b1")
        #expect(schedule.skipped.first?.reason.contains("after the content ends") == true)
    }

    @Test func repeatAfterWithoutDurationIsBounded() throws {
        let schedule = AdBreakSchedule(vmap: try vmap([("00:00:10", "00:00:10")]), contentDuration: nil)
        #expect(schedule.slots.count == AdBreakSchedule.maxRepeats)
    }

    @Test func playAdsAfterTimeKeepsOnlyLaterBreaks() throws {
        let schedule = AdBreakSchedule(
            vmap: try vmap([("start", nil), ("00:01:00", nil), ("00:02:00", nil), ("end", nil)]), contentDuration: 600,
            playAdsAfterTime: 60)
        #expect(schedule.cuePoints == [120, -1])
    }

    @Test func midrollIsDueWhenContentCrossesIt() throws {
        var schedule = AdBreakSchedule(vmap: try vmap([("00:01:00", nil), ("00:02:00", nil)]), contentDuration: 600)
        #expect(schedule.contentProgressed(to: 59.9).isEmpty)
        let progressed = schedule.contentProgressed(to: 60)
        let due = try #require(progressed.first)
        #expect(due.cuePoint == 60)
        schedule.markPlayed(due.id)
        #expect(schedule.contentProgressed(to: 61).isEmpty)
        #expect(schedule.contentProgressed(to: 120).map(\.cuePoint) == [120])
    }

    @Test func seekingOverSeveralBreaksPlaysOnlyTheLast() throws {
        var schedule = AdBreakSchedule(
            vmap: try vmap([("00:01:00", nil), ("00:02:00", nil), ("00:03:00", nil)]), contentDuration: 600)
        #expect(schedule.contentProgressed(to: 150).map(\.cuePoint) == [120])
    }

    @Test func seekingBackwardsPlaysNothingAndPlayedBreaksStayPlayed() throws {
        var schedule = AdBreakSchedule(vmap: try vmap([("00:01:00", nil)]), contentDuration: 600)
        let progressed = schedule.contentProgressed(to: 61)
        let due = try #require(progressed.first)
        schedule.markPlayed(due.id)
        #expect(schedule.contentProgressed(to: 10).isEmpty)
        #expect(schedule.contentProgressed(to: 70).isEmpty)
    }

    @Test func twoBreaksAtOneOffsetAreDueTogetherInDocumentOrder() throws {
        var schedule = AdBreakSchedule(
            vmap: try vmap([("00:01:00", nil), ("00:02:00", nil), ("00:01:00", nil)]), contentDuration: 600)
        #expect(schedule.cuePoints == [60, 120])
        #expect(schedule.contentProgressed(to: 61).map(\.adBreak.breakID) == ["b0", "b2"])
        #expect(schedule.notes.contains { $0.contains("'b0' and 'b2' share one offset") })
    }

    @Test func midRollsLeaveTheScheduleWhenTheyCannotPlay() throws {
        var schedule = AdBreakSchedule(
            vmap: try vmap([("start", nil), ("00:01:00", nil), ("end", nil)]), contentDuration: 600)
        #expect(schedule.hasMidrolls)
        schedule.dropMidrolls(reason: "no playhead")
        #expect(schedule.cuePoints == [0, -1])
        #expect(schedule.slots.map(\.id) == [0, 1])
        #expect(schedule.skipped.map(\.reason) == ["no playhead"])
    }

    @Test func prefetchOffersEachSlotOnceWithinTheLead() throws {
        var schedule = AdBreakSchedule(vmap: try vmap([("00:01:00", nil)]), contentDuration: 600)
        #expect(schedule.slotsToPrefetch(at: 50, lead: 5).isEmpty)
        #expect(schedule.slotsToPrefetch(at: 55, lead: 5).map(\.cuePoint) == [60])
        #expect(schedule.slotsToPrefetch(at: 56, lead: 5).isEmpty)
    }

    @Test func postrollComesAtContentComplete() throws {
        var schedule = AdBreakSchedule(vmap: try vmap([("start", nil), ("end", nil)]), contentDuration: 600)
        #expect(schedule.pendingPrerolls.count == 1)
        let post = schedule.postrolls()
        #expect(post.map(\.podIndex) == [-1])
        schedule.markPlayed(post[0].id)
        #expect(schedule.postrolls().isEmpty)
    }

    @Test func breakTrackingFillsErrorCodeAndPosition() throws {
        let xml = """
            <vmap:VMAP xmlns:vmap="http://www.iab.net/videosuite/vmap" version="1.0"><vmap:AdBreak timeOffset="start" breakType="linear">
            <vmap:TrackingEvents><vmap:Tracking event="breakStart">http://127.0.0.1:9/bs?p=[BREAKPOSITION]</vmap:Tracking>
            <vmap:Tracking event="error">http://127.0.0.1:9/be?c=[ERRORCODE]</vmap:Tracking></vmap:TrackingEvents></vmap:AdBreak></vmap:VMAP>
            """
        let schedule = AdBreakSchedule(vmap: try VASTParser().parseVMAP(Data(xml.utf8)).document, contentDuration: nil)
        let macros = VASTMacroFiller(now: { Date(timeIntervalSince1970: 0) }, cacheBuster: { "1" })
        let start = BreakTracking.beacons(.breakStart, for: schedule.slots[0], contentPlayhead: 0, macros: macros)
        #expect(start.map(\.url) == ["http://127.0.0.1:9/bs?p=1"])
        let error = BreakTracking.beacons(
            .error, for: schedule.slots[0], errorCode: .wrapperTimeout, contentPlayhead: 0, macros: macros)
        #expect(error.map(\.url) == ["http://127.0.0.1:9/be?c=301"])
    }
}
