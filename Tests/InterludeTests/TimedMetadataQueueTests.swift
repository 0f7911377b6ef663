import Foundation
import Testing

@testable import Interlude

@Suite("Timed-metadata queue")
struct TimedMetadataQueueTests {
    @Test func eventsComeDueInPresentationOrderWhateverTheArrivalOrder() {
        var queue = TimedMetadataQueue()
        for (id, time) in [("google_c", 12.0), ("google_a", 10.0), ("google_b", 11.0)] {
            #expect(queue.insert(id, at: time, playhead: 9) == .queued)
        }
        #expect(queue.popDue(upTo: 9.9).entries.isEmpty)
        #expect(queue.popDue(upTo: 11).entries.map(\.eventID) == ["google_a", "google_b"])
        #expect(queue.popDue(upTo: 20).entries.map(\.eventID) == ["google_c"])
        #expect(queue.isEmpty)
    }

    @Test func equalTimesKeepTheirArrivalOrder() {
        var queue = TimedMetadataQueue()
        _ = queue.insert("google_first", at: 5, playhead: nil)
        _ = queue.insert("google_second", at: 5, playhead: nil)
        _ = queue.insert("google_third", at: 5, playhead: nil)
        #expect(queue.popDue(upTo: 5).entries.map(\.eventID) == ["google_first", "google_second", "google_third"])
    }

    @Test func aBurstHandedOverEarlyWaitsForEachTime() {
        var queue = TimedMetadataQueue()
        for second in 0..<20 { _ = queue.insert("google_\(second)", at: 100 + Double(second), playhead: 80) }
        var fired: [String] = []
        for tick in stride(from: 100.0, through: 119.0, by: 0.25) {
            let due = queue.popDue(upTo: tick).entries
            #expect(due.count <= 1)
            fired += due.map(\.eventID)
        }
        #expect(fired == (0..<20).map { "google_\($0)" })
    }

    @Test func oncePerIDAndTimeEvenWhenDeliveredAgain() {
        var queue = TimedMetadataQueue()
        #expect(queue.insert("google_x", at: 10, playhead: 0) == .queued)
        #expect(queue.insert("google_x", at: 10, playhead: 0) == .duplicate)
        #expect(queue.insert("google_x", at: 10.0004, playhead: 0) == .duplicate)
        #expect(queue.popDue(upTo: 10).entries.count == 1)
        // Delivered again after it fired (a seek back re-fetched the segment).
        #expect(queue.insert("google_x", at: 10, playhead: 10.5) == .duplicate)
        // The same ID at another time is another event.
        #expect(queue.insert("google_x", at: 20, playhead: 10.5) == .queued)
    }

    @Test func nonFiniteNegativeAndFarPastTimesAreRejected() {
        var queue = TimedMetadataQueue()
        for bad in [Double.nan, .infinity, -.infinity, -1, 1e15] {
            guard case .rejected = queue.insert("google_x", at: bad, playhead: 50) else {
                Issue.record("\(bad) was accepted")
                continue
            }
        }
        guard case .rejected = queue.insert("google_old", at: 30, playhead: 50) else {
            Issue.record("a time 20 s behind the playhead was accepted")
            return
        }
        // Within the late tolerance it is still fired.
        #expect(queue.insert("google_late", at: 45, playhead: 50) == .queued)
        #expect(queue.popDue(upTo: 50).entries.map(\.eventID) == ["google_late"])
        #expect(queue.isEmpty)
    }

    @Test func eventsThePlayheadJumpedFarPastAreDroppedAsStale() {
        var queue = TimedMetadataQueue()
        _ = queue.insert("google_skipped", at: 10, playhead: 0)
        _ = queue.insert("google_near", at: 55, playhead: 0)
        let due = queue.popDue(upTo: 60)
        #expect(due.stale.map(\.eventID) == ["google_skipped"])
        #expect(due.entries.map(\.eventID) == ["google_near"])
    }

    @Test func aHeldEventHoldsEverythingAfterIt() {
        var queue = TimedMetadataQueue()
        _ = queue.insert("google_known1", at: 1, playhead: 0)
        _ = queue.insert("google_unknown", at: 2, playhead: 0)
        _ = queue.insert("google_known2", at: 3, playhead: 0)
        let held = queue.popDue(upTo: 5) { $0 == "google_unknown" }
        #expect(held.entries.map(\.eventID) == ["google_known1"])
        #expect(queue.count == 2)
        #expect(queue.popDue(upTo: 5).entries.map(\.eventID) == ["google_unknown", "google_known2"])
    }

    @Test func aFloodIsRefusedPastTheCapacity() {
        var queue = TimedMetadataQueue()
        queue.capacity = 10
        for index in 0..<10 { #expect(queue.insert("google_\(index)", at: 100, playhead: 0) == .queued) }
        guard case .rejected = queue.insert("google_more", at: 100, playhead: 0) else {
            Issue.record("the eleventh event was queued")
            return
        }
    }

    @Test func memoryOfFiredEventsStaysBounded() {
        var queue = TimedMetadataQueue()
        queue.memory = 100
        for index in 0..<10_000 {
            let time = Double(index)
            _ = queue.insert("google_\(index)", at: time, playhead: time)
            _ = queue.popDue(upTo: time)
        }
        #expect(queue.rememberedCount <= 100)
    }
}
