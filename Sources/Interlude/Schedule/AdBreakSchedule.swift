import Foundation
import InterludeVAST

/// The ad breaks of a VMAP schedule placed on the content timeline, and the
/// decisions around them: which breaks are due as the content plays, which
/// to prefetch, which a seek jumped over, and the post-rolls at the end.
/// A value with `mutating` transitions: no timers, no I/O.
struct AdBreakSchedule: Sendable, Hashable {
    /// One break occurrence (a `repeatAfter` break occurs several times).
    struct Slot: Sendable, Hashable, Identifiable {
        /// Where the slot sits.
        enum Position: Sendable, Hashable {
            case preroll
            case midroll(TimeInterval)
            case postroll
        }

        /// Index in ``AdBreakSchedule/slots``.
        var id: Int
        var position: Position
        var adBreak: AdBreak
        /// IMA pod index: 0 pre-roll, 1…N mid-rolls in time order, −1 post-roll.
        var podIndex: Int
        var played = false

        /// Content seconds: 0 pre-roll, the offset for mid-rolls, −1 post-roll (IMA's cue-point convention).
        var cuePoint: TimeInterval {
            switch position {
            case .preroll: return 0
            case .midroll(let time): return time
            case .postroll: return -1
            }
        }

        /// `[BREAKPOSITION]`.
        var breakPosition: BreakPosition {
            switch position {
            case .preroll: return .preroll
            case .midroll: return .midroll
            case .postroll: return .postroll
            }
        }

        /// The VMAP `breakId`, else the slot's index (break events and tracking name it so).
        var name: String { adBreak.breakID ?? String(id) }
    }

    /// A break the schedule could not place, with why.
    struct SkippedBreak: Sendable, Hashable {
        var adBreak: AdBreak
        /// The VMAP error code that reports it.
        var code: VASTErrorCode
        var reason: String

        init(_ adBreak: AdBreak, _ code: VASTErrorCode, _ reason: String) {
            self.adBreak = adBreak
            self.code = code
            self.reason = reason
        }
    }

    private(set) var slots: [Slot]
    /// Breaks the schedule could not place.
    private(set) var skipped: [SkippedBreak]
    /// What the schedule did with breaks that are placed but not as written
    /// (two at one offset, one at the content's end), for the log.
    private(set) var notes: [String]
    private var lastContentTime: TimeInterval = 0
    private var prefetched: Set<Int> = []

    /// Most occurrences generated for one `repeatAfter` break.
    static let maxRepeats = 200

    /// Places the breaks of `vmap`. `%` offsets need `contentDuration`;
    /// breaks at or before `playAdsAfterTime` are dropped (only breaks
    /// strictly after it are kept), except that nothing drops the post-roll.
    /// With a known content duration, a break at its very end plays as a
    /// post-roll and one after it is skipped; `start` and `00:00:00` repeat
    /// alike.
    init(vmap: VMAPDocument, contentDuration: TimeInterval?, playAdsAfterTime: TimeInterval? = nil) {
        var placed: [(Slot.Position, AdBreak)] = []
        var skipped: [SkippedBreak] = []
        var notes: [String] = []
        for adBreak in vmap.adBreaks {
            guard adBreak.breakTypes.isEmpty || adBreak.breakTypes.contains(.linear) else {
                skipped.append(
                    SkippedBreak(
                        adBreak, .vmapAdBreakTypeUnsupported,
                        "break types \(adBreak.breakTypes.map(\.rawValue)) hold no linear ads"
                    ))
                continue
            }
            let first: TimeInterval
            switch adBreak.timeOffset {
            case .start:
                first = 0
            case .end:
                placed.append((.postroll, adBreak))
                continue
            case .time(let time):
                first = time.seconds
            case .percent(let percent):
                guard let contentDuration else {
                    skipped.append(
                        SkippedBreak(
                            adBreak, .vmapSchemaError, "offset \(adBreak.timeOffset) needs the content duration"))
                    continue
                }
                first = contentDuration * percent / 100
            case .position:
                skipped.append(
                    SkippedBreak(
                        adBreak, .vmapSchemaError,
                        "offset \(adBreak.timeOffset) needs content cue points, which are unknown"
                    ))
                continue
            }
            if let contentDuration, first > 0, first >= contentDuration {
                if first == contentDuration {
                    notes.append(
                        "break \(Self.name(adBreak)) at the content's end (\(formatSeconds(first)) s) plays as a post-roll"
                    )
                    placed.append((.postroll, adBreak))
                } else {
                    skipped.append(
                        SkippedBreak(
                            adBreak, .vmapSchemaError,
                            "offset \(formatSeconds(first)) s is after the content ends (\(formatSeconds(contentDuration)) s)"
                        ))
                }
                continue
            }
            var time = first
            var count = 0
            repeat {
                placed.append((time == 0 ? .preroll : .midroll(time), adBreak))
                count += 1
                guard let every = adBreak.repeatAfter?.seconds, every > 0 else { break }
                time += every
                // Repeats stop where the content ends.
                if let contentDuration, time >= contentDuration { break }
            } while count < Self.maxRepeats
        }
        if let playAdsAfterTime {
            placed.removeAll { position, _ in
                switch position {
                case .preroll: return playAdsAfterTime >= 0
                case .midroll(let time): return time <= playAdsAfterTime
                case .postroll: return false
                }
            }
        }
        // Time order: pre-rolls, mid-rolls by offset (stable), post-rolls.
        let ordered = placed.enumerated().sorted { lhs, rhs in
            (Self.sortKey(lhs.element.0), lhs.offset) < (Self.sortKey(rhs.element.0), rhs.offset)
        }
        var midrollIndex = 0
        var previous: (key: Double, name: String)?
        slots = ordered.enumerated().map { index, entry in
            let podIndex: Int
            switch entry.element.0 {
            case .preroll: podIndex = 0
            case .midroll:
                midrollIndex += 1
                podIndex = midrollIndex
            case .postroll: podIndex = -1
            }
            let key = Self.sortKey(entry.element.0)
            if let previous, previous.key == key {
                notes.append(
                    "breaks \(previous.name) and \(Self.name(entry.element.1)) share one offset: they play one after the other"
                )
            }
            previous = (key, Self.name(entry.element.1))
            return Slot(id: index, position: entry.element.0, adBreak: entry.element.1, podIndex: podIndex)
        }
        self.skipped = skipped
        self.notes = notes
    }

    private static func sortKey(_ position: Slot.Position) -> Double {
        switch position {
        case .preroll: return -1
        case .midroll(let time): return time
        case .postroll: return .infinity
        }
    }

    private static func name(_ adBreak: AdBreak) -> String {
        adBreak.breakID.map { "'\($0)'" } ?? "at \(adBreak.timeOffset)"
    }

    /// Whether a mid-roll is scheduled (it needs the content playhead).
    var hasMidrolls: Bool {
        slots.contains { if case .midroll = $0.position { return true } else { return false } }
    }

    /// Mid-rolls cannot play (no content playhead): they leave the schedule,
    /// noted as skipped with `reason`.
    mutating func dropMidrolls(reason: String) {
        let (kept, dropped) = (
            slots.filter { if case .midroll = $0.position { return false } else { return true } },
            slots.filter { if case .midroll = $0.position { return true } else { return false } }
        )
        skipped += dropped.map { SkippedBreak($0.adBreak, .vmapSchemaError, reason) }
        slots = kept.enumerated().map { index, slot in
            var slot = slot
            slot.id = index
            return slot
        }
    }

    /// Cue points in seconds, one per offset: 0 pre-roll, −1 post-roll (IMA's `adCuePoints`).
    var cuePoints: [TimeInterval] {
        var seen = Set<TimeInterval>()
        return slots.map(\.cuePoint).filter { seen.insert($0).inserted }
    }

    /// Pre-roll slots not played yet, in document order.
    var pendingPrerolls: [Slot] {
        slots.filter { !$0.played && $0.position == .preroll }
    }

    /// Content reached `contentTime`. Returns the mid-rolls due, if any:
    /// the unplayed ones at the last offset passed since the previous call,
    /// in document order (two breaks at one offset both play). A seek over
    /// several offsets plays only the last of them, as players do; a seek
    /// backwards plays nothing.
    mutating func contentProgressed(to contentTime: TimeInterval) -> [Slot] {
        defer { lastContentTime = max(lastContentTime, contentTime) }
        guard contentTime > lastContentTime else {
            lastContentTime = contentTime
            return []
        }
        let passed = slots.filter { slot in
            guard !slot.played, case .midroll(let time) = slot.position else { return false }
            return time > lastContentTime && time <= contentTime
        }
        guard let last = passed.last else { return [] }
        return passed.filter { $0.cuePoint == last.cuePoint }
    }

    /// Slots to start loading because content is within `lead` seconds of
    /// them (each slot is offered once).
    mutating func slotsToPrefetch(at contentTime: TimeInterval, lead: TimeInterval) -> [Slot] {
        let due = slots.filter { slot in
            guard !slot.played, !prefetched.contains(slot.id), case .midroll(let time) = slot.position else {
                return false
            }
            return time > contentTime && time - contentTime <= lead
        }
        prefetched.formUnion(due.map(\.id))
        return due
    }

    /// The content finished: the post-roll slots not played yet, in document order.
    func postrolls() -> [Slot] {
        slots.filter { !$0.played && $0.position == .postroll }
    }

    /// Marks a slot played (or failed): it will not be offered again.
    mutating func markPlayed(_ id: Int) {
        guard slots.indices.contains(id) else { return }
        slots[id].played = true
    }

    /// `repeatAfter` occurrences and breaks in time share a VMAP break; this
    /// tells whether any slot of the same break was played already (IMA's
    /// `adBreakStarted` "first time a break plays").
    func isFirstPlay(of slot: Slot) -> Bool {
        !slots.contains { $0.played && $0.adBreak == slot.adBreak && $0.id != slot.id }
    }
}
