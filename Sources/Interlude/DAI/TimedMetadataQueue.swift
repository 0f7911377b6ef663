import Foundation

/// Timed-metadata event IDs waiting for the playhead. A display may hand
/// over a whole segment's ID3 frames at once, seconds early; each event
/// must fire when the playhead reaches its presentation time, in time
/// order, and once per (ID, time) however often it is delivered. Pure:
/// told what arrived and where the playhead is, it answers what is due.
struct TimedMetadataQueue: Sendable {
    /// One event ID at its presentation time (stream seconds).
    struct Entry: Sendable, Hashable {
        var eventID: String
        var time: TimeInterval
    }

    /// What became of an inserted event.
    enum Outcome: Sendable, Hashable {
        case queued
        /// Already queued or fired at this time.
        case duplicate
        /// Not usable; the reason says why (for a log line).
        case rejected(String)
    }

    /// What is due at a playhead position.
    struct Due: Sendable, Hashable {
        /// Due events in time order.
        var entries: [Entry] = []
        /// Events whose time the playhead passed by more than the late
        /// tolerance (seeked over, or delivered far too late): dropped.
        var stale: [Entry] = []
    }

    /// Seconds behind the playhead an event is still fired: a display may
    /// deliver metadata just after its frame shows. Older ones are dropped.
    var lateTolerance: TimeInterval = 10
    /// Events waiting at most; more are refused (a broken stream's flood).
    var capacity = 1_000
    /// (ID, time) pairs remembered for de-duplication at most.
    var memory: Int {
        get { seen.capacity }
        set { seen.capacity = newValue }
    }

    private struct Key: Hashable {
        var eventID: String
        var millisecond: Int64
    }

    private(set) var pending: [Entry] = []
    private var seen = RecentSet<Key>(capacity: 1_024)

    var isEmpty: Bool { pending.isEmpty }
    var count: Int { pending.count }
    /// (ID, time) pairs remembered now.
    var rememberedCount: Int { seen.count }
    /// The earliest waiting presentation time.
    var nextTime: TimeInterval? { pending.first?.time }

    /// Queues `eventID` at `time`; `playhead` (nil before playback)
    /// refuses events already far behind it.
    mutating func insert(_ eventID: String, at time: TimeInterval, playhead: TimeInterval?) -> Outcome {
        guard time.isFinite else { return .rejected("presentation time \(time) is not a number") }
        guard time >= 0 else { return .rejected("presentation time \(time) is negative") }
        guard time < 1e12 else { return .rejected("presentation time \(time) is out of range") }
        if let playhead, time < playhead - lateTolerance {
            return .rejected(
                "presentation time \(time) is more than \(Int(lateTolerance)) s behind the playhead (\(playhead))")
        }
        let key = Key(eventID: eventID, millisecond: Int64((time * 1000).rounded()))
        guard pending.count < capacity else {
            if seen.contains(key) { return .duplicate }
            return .rejected("more than \(capacity) timed-metadata events are waiting")
        }
        guard seen.insert(key) else { return .duplicate }
        let entry = Entry(eventID: eventID, time: time)
        // After every entry at the same or an earlier time: ties keep arrival order.
        var low = 0
        var high = pending.count
        while low < high {
            let middle = (low + high) / 2
            if pending[middle].time <= time { low = middle + 1 } else { high = middle }
        }
        pending.insert(entry, at: low)
        return .queued
    }

    /// Takes the events the playhead has reached, in time order. An event
    /// for which `isHeld` is true stops the walk (it and everything after it
    /// wait), so events never overtake one another.
    mutating func popDue(upTo playhead: TimeInterval, isHeld: (String) -> Bool = { _ in false }) -> Due {
        guard let first = pending.first, first.time <= playhead else { return Due() }
        var due = Due()
        var taken = 0
        for entry in pending {
            guard entry.time <= playhead else { break }
            if entry.time < playhead - lateTolerance {
                due.stale.append(entry)
            } else {
                if isHeld(entry.eventID) { break }
                due.entries.append(entry)
            }
            taken += 1
        }
        pending.removeFirst(taken)
        return due
    }

    /// Drops everything waiting (a new stream, or the manager's end); what
    /// was fired stays remembered.
    mutating func removeAllPending() {
        pending.removeAll()
    }
}
