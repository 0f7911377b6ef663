import Foundation
import Testing

@testable import InterludeHLS

@Suite struct AdSplicerTests {
    /// Three single-segment ads of 5 s each.
    static let threeAdPod = AdPod(
        ads: (1...3).map { AdPod.Ad(segments: [AdSegment(uri: "ads/ad\($0)/0.ts", duration: 5)]) }, id: "pod-1")
    /// The same pod as fMP4, for the fMP4 content of Live/live-window.m3u8.
    static let threeAdPodFMP4 = AdPod(
        ads: (1...3).map {
            AdPod.Ad(segments: [AdSegment(uri: "ads/ad\($0)/0.m4s", duration: 5)], mapURI: "ads/ad\($0)/init.mp4")
        }, id: "pod-1")

    @Test func insertedPodIsBracketedByDiscontinuities() throws {
        let spliced = try Fixture.media("VOD/vod-basic.m3u8").insertingAdPod(Self.threeAdPod, at: 1)
        #expect(
            spliced.segments.map(\.uri) == [
                "segment0.ts", "ads/ad1/0.ts", "ads/ad2/0.ts", "ads/ad3/0.ts", "segment1.ts", "segment2.ts",
            ])
        #expect(spliced.segments.map(\.isDiscontinuity) == [false, true, true, true, true, false])
        #expect(spliced.segments.map(\.startTime) == [0, 10, 15, 20, 25, 35])
    }

    @Test func playlistWithoutProgramDateTimeGetsCueMarkers() throws {
        let spliced = try Fixture.media("VOD/vod-basic.m3u8").insertingAdPod(Self.threeAdPod, at: 1)
        #expect(spliced.segments[1].tag(HLSTagName.cueOut)?.valueText == "15.000")
        #expect(spliced.segments[2].tag(HLSTagName.cueOutCont)?.valueText == "ElapsedTime=5.000,Duration=15.000")
        #expect(spliced.segments[4].tag(HLSTagName.cueIn) != nil)
    }

    @Test func insertedBreakIsFoundAgainByTheAdBreakView() throws {
        let spliced = try Fixture.media("VOD/vod-basic.m3u8").insertingAdPod(Self.threeAdPod, at: 1)
        let adBreak = try #require(spliced.adBreaks.first)
        #expect(adBreak.segmentRange == 1..<4)
        #expect(adBreak.startTime == 10)
        #expect(adBreak.plannedDuration == 15)
        #expect(adBreak.actualDuration == 15)
    }

    @Test func playlistWithProgramDateTimeGetsADateRange() throws {
        let spliced = try Fixture.media("Live/live-window.m3u8").insertingAdPod(Self.threeAdPodFMP4, at: 1)
        let dateRange = try #require(spliced.segments[1].dateRanges.first)
        #expect(dateRange.id == "pod-1")
        #expect(dateRange.startDate == Fixture.date("2024-05-01T12:00:06.000Z"))
        #expect(dateRange.duration == 15)
        #expect(dateRange.plannedDuration == 15)
        #expect(spliced.segments[1].programDateTime == Fixture.date("2024-05-01T12:00:06.000Z"))
        #expect(spliced.adBreaks.first?.segmentRange == 1..<4)
    }

    @Test func encryptedContentSwitchesKeyOffForAdsAndBackAfter() throws {
        let spliced = try Fixture.media("Live/live-window.m3u8").insertingAdPod(Self.threeAdPodFMP4, at: 1)
        #expect(spliced.segments[1].keys.map { $0.attributes.string("METHOD") } == ["NONE"])
        #expect(spliced.segments[4].keys.map { $0.attributes.string("URI") } == ["https://keys.example.com/k1"])
        #expect(spliced.segments[4].map?.attributes.string("URI") == "init.mp4")
    }

    @Test func adsAfterEncryptedContentTurnTheKeyOffEvenWhenTheNextSegmentIsClear() throws {
        let text = """
            #EXTM3U
            #EXT-X-TARGETDURATION:6
            #EXT-X-KEY:METHOD=AES-128,URI="https://keys.example.com/k1"
            #EXTINF:6.0,
            a.ts
            #EXT-X-KEY:METHOD=NONE
            #EXTINF:6.0,
            b.ts
            """
        let spliced = try HLSParser().parseMedia(Array(text.utf8)).insertingAdPod(Self.threeAdPod, at: 1)
        // a.ts is encrypted: the first ad must say METHOD=NONE, not inherit k1.
        #expect(spliced.segments[1].keys.map { $0.attributes.string("METHOD") } == ["NONE"])
        #expect(spliced.segments[4].uri == "b.ts")
    }

    @Test func contentAfterAnInsertedPodMovesLaterInWallClockTime() throws {
        let spliced = try Fixture.media("Live/live-window.m3u8").insertingAdPod(Self.threeAdPodFMP4, at: 1)
        #expect(spliced.segments[4].programDateTime == Fixture.date("2024-05-01T12:00:21.000Z"))
        // The explicit 12:00:20 date of the old third segment moves by the pod's 15 s.
        #expect(spliced.segments[5].programDateTime == Fixture.date("2024-05-01T12:00:35.000Z"))
    }

    @Test func dateRangesOfLaterContentMoveWithItAndOneSpanningTheInsertEndsLater() throws {
        let text = """
            #EXTM3U
            #EXT-X-VERSION:7
            #EXT-X-TARGETDURATION:6
            #EXT-X-PROGRAM-DATE-TIME:2024-05-01T12:00:00.000Z
            #EXT-X-DATERANGE:ID="show",START-DATE="2024-05-01T11:00:00.000Z",END-DATE="2024-05-01T13:00:00.000Z"
            #EXT-X-DATERANGE:ID="before",START-DATE="2024-05-01T12:00:01.000Z",DURATION=2.0
            #EXT-X-DATERANGE:ID="spanning",START-DATE="2024-05-01T12:00:04.000Z",DURATION=4.0,PLANNED-DURATION=4.0
            #EXT-X-DATERANGE:ID="later",START-DATE="2024-05-01T12:00:09.000Z",END-DATE="2024-05-01T12:00:10.000Z"
            #EXTINF:6.0,
            a.ts
            #EXT-X-DATERANGE:ID="at-boundary",START-DATE="2024-05-01T12:00:06.000Z",DURATION=1.0
            #EXTINF:6.0,
            b.ts
            """
        let playlist = try HLSParser().parseMedia(Array(text.utf8))
        let spliced = try playlist.insertingAdPod(Self.threeAdPod, at: 1)
        var ranges: [String: DateRange] = [:]
        for segment in spliced.segments {
            for range in segment.dateRanges { ranges[range.id ?? ""] = range }
        }
        // The show spans the insert: it starts as before and ends 15 s later.
        #expect(ranges["show"]?.startDate == Fixture.date("2024-05-01T11:00:00.000Z"))
        #expect(ranges["show"]?.endDate == Fixture.date("2024-05-01T13:00:15.000Z"))
        // Over before the pod: unchanged.
        #expect(ranges["before"]?.startDate == Fixture.date("2024-05-01T12:00:01.000Z"))
        #expect(ranges["before"]?.duration == 2)
        // Runs across the pod: same start, 15 s longer.
        #expect(ranges["spanning"]?.startDate == Fixture.date("2024-05-01T12:00:04.000Z"))
        #expect(ranges["spanning"]?.duration == 19)
        #expect(ranges["spanning"]?.plannedDuration == 19)
        // Starts at or after the insertion point: moves whole.
        #expect(ranges["at-boundary"]?.startDate == Fixture.date("2024-05-01T12:00:21.000Z"))
        #expect(ranges["at-boundary"]?.duration == 1)
        #expect(ranges["later"]?.startDate == Fixture.date("2024-05-01T12:00:24.000Z"))
        #expect(ranges["later"]?.endDate == Fixture.date("2024-05-01T12:00:25.000Z"))
        // The pod's own range is at the insertion point, not moved.
        #expect(ranges["pod-1"]?.startDate == Fixture.date("2024-05-01T12:00:06.000Z"))
    }

    @Test(arguments: [6.006, 3.003, 3.2, 9.6, 6.0])
    func aDateRangeAtTheInsertPointMovesWholeWhateverTheSegmentLength(segmentLength: Double) throws {
        // One date at the top: later segment dates are sums of durations,
        // while the DATERANGE's START-DATE is written to the millisecond.
        let anchor = Fixture.date("2024-05-01T12:00:00.000Z")
        for boundary in 1..<12 {
            let start = anchor.addingTimeInterval(Double(boundary) * segmentLength)
            var lines = ["#EXTM3U", "#EXT-X-TARGETDURATION:10", "#EXT-X-PROGRAM-DATE-TIME:2024-05-01T12:00:00.000Z"]
            for index in 0..<12 {
                if index == boundary {
                    lines.append(
                        "#EXT-X-DATERANGE:ID=\"cue\",START-DATE=\"\(HLSDateFormat.format(start))\",DURATION=10.0,"
                            + "END-DATE=\"\(HLSDateFormat.format(start.addingTimeInterval(10)))\"")
                    lines.append(
                        "#EXT-X-DATERANGE:ID=\"ends-here\",START-DATE=\"2024-05-01T11:00:00.000Z\","
                            + "END-DATE=\"\(HLSDateFormat.format(start))\"")
                }
                lines += ["#EXTINF:\(segmentLength),", "s\(index).ts"]
            }
            let playlist = try HLSParser().parseMedia(Array(lines.joined(separator: "\n").utf8))
            let spliced = try playlist.insertingAdPod(Self.threeAdPod, at: boundary)
            let ranges = Dictionary(
                spliced.segments.flatMap(\.dateRanges).map { ($0.id ?? "", $0) },
                uniquingKeysWith: { first, _ in first })
            let cue = try #require(ranges["cue"])
            #expect(cue.startDate.map(HLSDateFormat.format) == HLSDateFormat.format(start.addingTimeInterval(15)))
            #expect(cue.duration == 10)
            #expect(cue.endDate.map(HLSDateFormat.format) == HLSDateFormat.format(start.addingTimeInterval(25)))
            // A range that ends exactly where the pod goes in is not stretched.
            #expect(ranges["ends-here"]?.endDate.map(HLSDateFormat.format) == HLSDateFormat.format(start))
        }
    }

    @Test func aRangeMovedWholeKeepsItsEndAfterItsStart() throws {
        let text = """
            #EXTM3U
            #EXT-X-TARGETDURATION:6
            #EXT-X-PROGRAM-DATE-TIME:2024-05-01T12:00:00.000Z
            #EXTINF:6.0,
            a.ts
            #EXT-X-DATERANGE:ID="instant",START-DATE="2024-05-01T12:00:06.000Z",END-DATE="2024-05-01T12:00:06.000Z"
            #EXTINF:6.0,
            b.ts
            """
        let spliced = try HLSParser().parseMedia(Array(text.utf8)).insertingAdPod(Self.threeAdPod, at: 1)
        let instant = try #require(spliced.segments.flatMap(\.dateRanges).first { $0.id == "instant" })
        #expect(instant.startDate == Fixture.date("2024-05-01T12:00:21.000Z"))
        #expect(instant.endDate == Fixture.date("2024-05-01T12:00:21.000Z"))
    }

    @Test func replacingACueOutBreakKeepsItsMarkersAndResumesOnTime() throws {
        let playlist = try Fixture.media("LinearAdInsertion/cue-out-in.m3u8")
        let adBreak = try #require(playlist.adBreaks.first)
        let pod = AdPod(ads: (1...3).map { AdPod.Ad(segments: [AdSegment(uri: "ad\($0).ts", duration: 4)]) })
        let spliced = try playlist.replacingAdBreak(adBreak, with: pod)
        #expect(
            spliced.segments.map(\.uri) == [
                "content500.ts", "ad1.ts", "ad2.ts", "ad3.ts", "content503.ts", "content504.ts", "content505.ts",
            ])
        #expect(spliced.segments[1].tag(HLSTagName.cueOut)?.valueText == "12.000")
        #expect(spliced.segments[1].tag(HLSTagName.oatclsSCTE35)?.valueText == spliceInsertSampleBase64)
        #expect(spliced.segments[4].tag(HLSTagName.cueIn) != nil)
        #expect(spliced.segments[4].isDiscontinuity)
        #expect(spliced.segments[4].programDateTime == Fixture.date("2024-05-01T12:00:18.000Z"))
        #expect(spliced.segments.map(\.mediaSequence) == Array(500...506))
    }

    @Test func splicedPlaylistRoundTripsThroughText() throws {
        let spliced = try Fixture.media("Live/live-window.m3u8").insertingAdPod(Self.threeAdPodFMP4, at: 2)
        #expect(try MediaPlaylist(parsing: spliced.text) == spliced)
    }

    @Test func longAdSegmentRaisesTheTargetDuration() throws {
        let pod = AdPod(ads: [AdPod.Ad(segments: [AdSegment(uri: "long.ts", duration: 12.4)])])
        let spliced = try Fixture.media("VOD/vod-basic.m3u8").insertingAdPod(pod, at: 3)
        #expect(spliced.targetDuration == 12)
    }

    @Test func podAppendedAtTheEndPutsCueInAfterIt() throws {
        let spliced = try Fixture.media("LinearAdInsertion/cue-out-no-duration.m3u8").insertingAdPod(
            Self.threeAdPod, at: 4)
        #expect(spliced.segments.count == 7)
        #expect(spliced.trailingTags.first?.name == HLSTagName.cueIn)
    }

    @Test func fmp4AdWritesItsOwnInitializationSection() throws {
        let pod = AdPod(ads: [AdPod.Ad(segments: [AdSegment(uri: "ad/0.m4s", duration: 4)], mapURI: "ad/init.mp4")])
        let spliced = try Fixture.media("Live/live-window.m3u8").insertingAdPod(pod, at: 1)
        #expect(spliced.segments[1].map?.attributes.string("URI") == "ad/init.mp4")
    }

    @Test func boundaryOutsideThePlaylistIsRejected() throws {
        let playlist = try Fixture.media("VOD/vod-basic.m3u8")
        do {
            _ = try playlist.insertingAdPod(Self.threeAdPod, at: 4)
            Issue.record("expected an error")
        } catch {
            #expect(error.code == .invalidSplicePoint)
        }
    }

    @Test func podWithoutSegmentsIsRejected() throws {
        let playlist = try Fixture.media("VOD/vod-basic.m3u8")
        do {
            _ = try playlist.insertingAdPod(AdPod(ads: []), at: 1)
            Issue.record("expected an error")
        } catch {
            #expect(error.code == .invalidAdPod)
        }
    }

    @Test func scte35OutIsWrittenIntoTheDateRange() throws {
        var pod = Self.threeAdPodFMP4
        pod.scte35Out = try SpliceInfoSection(encoded: spliceInsertSampleBase64)
        let spliced = try Fixture.media("Live/live-window.m3u8").insertingAdPod(pod, at: 1)
        #expect(spliced.segments[1].dateRanges.first?.scte35Out == HLSHex.decode(spliceInsertSampleHex))
    }
}

extension AdSplicerTests {
    @Test func dateRangeWithoutSourceSCTE35AnnouncesAnImmediateSpliceInsertOfThePodLength() throws {
        let spliced = try Fixture.media("Live/live-window.m3u8").insertingAdPod(Self.threeAdPodFMP4, at: 1)
        let section = try #require(spliced.adBreaks.first?.scte35OutSection)
        guard case .spliceInsert(let insert) = section.command else {
            Issue.record("expected a splice_insert")
            return
        }
        #expect(insert.isOutOfNetwork)
        #expect(insert.isImmediate)
        // 15 s at 90 kHz.
        #expect(insert.breakDuration == BreakDuration(autoReturn: true, duration: 1_350_000))
    }
}

extension AdSplicerTests {
    @Test func replacingADateRangeBreakKeepsTheDateRangeOnTheFirstAd() throws {
        let playlist = try Fixture.media("LinearAdInsertion/daterange-scte35.m3u8")
        let adBreak = try #require(playlist.adBreaks.first)
        let pod = AdPod(ads: (1...3).map { AdPod.Ad(segments: [AdSegment(uri: "ad\($0).ts", duration: 4)]) })
        let spliced = try playlist.replacingAdBreak(adBreak, with: pod)
        #expect(spliced.segments.map(\.uri) == ["c0.ts", "ad1.ts", "ad2.ts", "ad3.ts", "c3.ts", "c4.ts"])
        #expect(spliced.segments[1].dateRanges.first?.id == "splice-6FFFFFF0")
        #expect(spliced.segments[1].isDiscontinuity)
        #expect(spliced.segments[4].isDiscontinuity)
        // Content resumes at its own wall-clock time: 12:00:18, after 6 s of c0 and 12 s of break.
        #expect(spliced.segments[4].programDateTime == Fixture.date("2024-05-01T12:00:18.000Z"))
    }

    @Test func replacingInPlaceMatchesTheCopyingForm() throws {
        let playlist = try Fixture.media("LinearAdInsertion/cue-out-in.m3u8")
        let adBreak = try #require(playlist.adBreaks.first)
        var inPlace = playlist
        try inPlace.replaceAdBreak(adBreak, with: Self.threeAdPod)
        #expect(inPlace == (try playlist.replacingAdBreak(adBreak, with: Self.threeAdPod)))
    }
}
