import Foundation
import InterludeHLS
import InterludeTestSupport
import Testing

@testable import InterludeServer

/// The live origin's window as RFC 8216bis 6.2.2 requires it across reloads,
/// source wraps and breaks, computed on a manual clock (no media needed).
@Suite struct LiveWindowTests {
    static let catalog = Catalog.podServingTest
    /// test-live: 4 s segments, a 24 s source (6 segments), an 8 s break
    /// every 24 s, a window of 5.
    static let library = MediaLibrary(
        catalog: catalog,
        plan: MediaPlan(catalog: catalog, dataDirectory: URL(fileURLWithPath: "/nonexistent"), fontFile: nil),
        dataDirectory: URL(fileURLWithPath: "/nonexistent"))
    let channel = Self.library.liveChannel("test-live")!
    let cueChannel = Self.library.liveChannel("test-live-cue")!
    let epoch = CatalogChannel.defaultEpoch

    /// Clock dates from the epoch to 12 minutes later every 1.3 s on a manual clock.
    var dates: [Date] {
        let clock = ManualClock(now: epoch.timeIntervalSince1970)
        var dates: [Date] = []
        while clock.now < epoch.timeIntervalSince1970 + 720 {
            dates.append(Date(timeIntervalSince1970: clock.now))
            clock.advance(by: 1.3)
        }
        return dates
    }

    @Test func windowHoldsTheLatestCompleteSegmentsWithDatesOnTheTimeline() {
        for date in dates {
            let elapsed = date.timeIntervalSince(epoch)
            let complete = Int(elapsed / 4)
            let window = channel.window(at: date)
            #expect(window.segments.count == min(5, complete))
            #expect(window.mediaSequence == max(0, complete - 5))
            for (offset, segment) in window.segments.enumerated() {
                #expect(segment.sequence == window.mediaSequence + offset)
                #expect(segment.sourceIndex == segment.sequence % 6)
                #expect(segment.date == epoch.addingTimeInterval(Double(segment.sequence) * 4))
                // Never a segment that has not finished by the clock.
                #expect(segment.date.addingTimeInterval(4) <= date)
            }
        }
    }

    @Test func reloadsKeepEverySegmentsURIAndDiscontinuityNumber() throws {
        var seen: [UInt64: (uri: String, discontinuity: UInt64, date: Date?)] = [:]
        for date in dates {
            let text = try #require(channel.mediaPlaylist(profile: "360p", at: date)).text
            guard case .media(let playlist) = try HLSParser().parse(text) else {
                Issue.record("not a media playlist")
                return
            }
            for segment in playlist.segments {
                if let earlier = seen[segment.mediaSequence] {
                    #expect(earlier.uri == segment.uri)
                    #expect(earlier.discontinuity == segment.discontinuitySequence)
                    #expect(earlier.date == segment.programDateTime)
                }
                seen[segment.mediaSequence] = (segment.uri, segment.discontinuitySequence, segment.programDateTime)
                // One wrap of the 6-segment source is one discontinuity.
                #expect(segment.discontinuitySequence == segment.mediaSequence / 6)
                #expect(segment.tag(HLSTagName.programDateTime) != nil)
            }
        }
        #expect(seen.count > 100)
    }

    @Test func aWrapIsADiscontinuityExceptOnTheWindowsFirstSegment() {
        for date in dates {
            let window = channel.window(at: date)
            for (offset, segment) in window.segments.enumerated() {
                #expect(segment.hasDiscontinuity == (offset > 0 && segment.sequence % 6 == 0))
            }
            #expect(window.discontinuitySequence == window.mediaSequence / 6)
        }
    }

    @Test func breaksStartEveryIntervalAndLastTheirDuration() throws {
        // Break k starts at segment 6(k + 1) and spans 2 segments.
        for index in 0..<20 {
            let liveBreak = try #require(channel.liveBreak(index))
            #expect(liveBreak.firstSequence == 6 * (index + 1))
            #expect(liveBreak.start == epoch.addingTimeInterval(24 * Double(index + 1)))
            #expect(liveBreak.duration == 8)
            #expect(liveBreak.segmentCount == 2)
            #expect(channel.breakIndex(ofSegment: liveBreak.firstSequence) == index)
            #expect(channel.breakIndex(ofSegment: liveBreak.firstSequence + 1) == index)
            #expect(channel.breakIndex(ofSegment: liveBreak.firstSequence + 2) == nil)
            #expect(channel.breakIndex(ofSegment: liveBreak.firstSequence - 1) == nil)
        }
        #expect(channel.liveBreak(-1) == nil)
        #expect(Set((0..<50).compactMap { channel.liveBreak($0)?.eventID }).count == 50)
        let starting = channel.breaks(startingFrom: epoch.addingTimeInterval(30), to: epoch.addingTimeInterval(100))
        #expect(starting.map(\.index) == [1, 2, 3])
    }

    @Test func dateRangeBreaksParseBackWithTheirSCTE35() throws {
        var breaksSeen = Set<String>()
        for date in dates {
            let text = try #require(channel.mediaPlaylist(profile: "180p", at: date)).text
            guard case .media(let playlist) = try HLSParser().parse(text) else { return }
            let window = channel.window(at: date)
            for adBreak in playlist.adBreaks {
                #expect(adBreak.style == .dateRange)
                let id = try #require(adBreak.id)
                breaksSeen.insert(id)
                let index = try #require(Int(id.dropFirst("break-".count)))
                #expect(adBreak.startDate == epoch.addingTimeInterval(24 * Double(index + 1)))
                if let out = adBreak.scte35OutSection {
                    #expect(out.isCueOut)
                    #expect(out.durationSeconds == 8)
                    #expect(out.segmentationDescriptors.first?.typeID == 0x34)
                    #expect(out.segmentationDescriptors.first?.eventID == UInt32(index + 1))
                    guard case .timeSignal(let time) = out.command else {
                        Issue.record("SCTE35-OUT is not a time_signal")
                        continue
                    }
                    #expect(time.ptsTime == channel.pts(ofSegment: 6 * (index + 1)))
                }
                if let back = adBreak.scte35InSection {
                    #expect(back.isCueIn)
                    #expect(back.segmentationDescriptors.first?.typeID == 0x35)
                    #expect(back.segmentationDescriptors.first?.eventID == UInt32(index + 1))
                }
            }
            // The breaks the window reports as data are the ones the playlist marks.
            let marked = Set(playlist.adBreaks.compactMap(\.id))
            #expect(marked == Set(window.breaks.map(\.id)))
        }
        #expect(breaksSeen.count >= 25)
    }

    @Test func cueBreaksCarryElapsedTimeAndEndWithCueIn() throws {
        var checked = 0
        for date in dates {
            let window = cueChannel.window(at: date)
            let playlist = try #require(cueChannel.mediaPlaylist(profile: "360p", window: window))
            for (segment, live) in zip(playlist.segments, window.segments) {
                let inBreak = live.breakIndex != nil
                let first = inBreak && live.sequence % 6 == 0
                #expect((segment.tag(HLSTagName.cueOut)?.valueText == "DURATION=8.0") == first)
                if inBreak && !first {
                    #expect(segment.tag(HLSTagName.cueOutCont)?.valueText == "ElapsedTime=4.0,Duration=8.0")
                    checked += 1
                }
                let afterBreak = live.sequence >= 8 && live.sequence % 6 == 2
                #expect((segment.tag(HLSTagName.cueIn) != nil) == afterBreak)
            }
        }
        #expect(checked > 20)
    }

    @Test func speedRunsTheChannelFasterFromTheEpoch() {
        var fast = channel
        fast.settings.speed = 4
        let date = epoch.addingTimeInterval(100)
        #expect(fast.completedSegments(at: date) == 100)
        #expect(channel.completedSegments(at: date) == 25)
    }

    @Test func beforeTheFirstSegmentEndsTheWindowIsEmpty() {
        #expect(channel.window(at: epoch.addingTimeInterval(-60)).segments.isEmpty)
        #expect(channel.window(at: epoch.addingTimeInterval(3.9)).segments.isEmpty)
        #expect(channel.window(at: epoch.addingTimeInterval(4)).segments.count == 1)
    }

    @Test func twoLibrariesOnOneCatalogServeIdenticalPlaylists() throws {
        let other = MediaLibrary(
            catalog: Self.catalog,
            plan: MediaPlan(catalog: Self.catalog, dataDirectory: URL(fileURLWithPath: "/elsewhere"), fontFile: nil),
            dataDirectory: URL(fileURLWithPath: "/elsewhere"))
        for date in dates {
            for id in ["test-live", "test-live-cue"] {
                let mine = try #require(Self.library.liveChannel(id)?.mediaPlaylist(profile: "360p", at: date))
                let theirs = try #require(other.liveChannel(id)?.mediaPlaylist(profile: "360p", at: date))
                #expect(HLSWriter.bytes(mine) == HLSWriter.bytes(theirs))
            }
        }
    }
}
