import Foundation
import InterludeVAST

/// The ad breaks of a VMAP schedule placed on the content timeline, and the
/// decisions around them: which break is due as the content plays, which to
/// prefetch, which a seek jumped over, and the post-roll at the end.
/// A value with `mutating` transitions: no timers, no I/O.
public struct AdBreakSchedule: Sendable, Hashable {
    /// One break occurrence (a `repeatAfter` break occurs several times).
    public struct Slot: Sendable, Hashable, Identifiable {
        /// Where the slot sits.
        public enum Position: Sendable, Hashable {
            case preroll
            case midroll(TimeInterval)
            case postroll
        }

        /// Index in ``AdBreakSchedule/slots``.
        public var id: Int
        public var position: Position
        public var adBreak: AdBreak
        /// IMA pod index: 0 pre-roll, 1…N mid-rolls in time order, −1 post-roll.
        public var podIndex: Int
        public var played = false

        /// Content seconds: 0 pre-roll, the offset for mid-rolls, −1 post-roll (IMA's cue-point convention).
        public var cuePoint: TimeInterval {
            switch position {
            case .preroll: return 0
            case .midroll(let time): return time
            case .postroll: return -1
            }
        }

        /// `[BREAKPOSITION]`.
        public var breakPosition: BreakPosition {
            switch position {
            case .preroll: return .preroll
            case .midroll: return .midroll
            case .postroll: return .postroll
            }
        }
    }

    /// A break the schedule could not place, with why.
    public struct SkippedBreak: Sendable, Hashable {
        public var adBreak: AdBreak
        /// The VMAP error code that reports it.
        public var code: VASTErrorCode
        public var reason: String

        init(_ adBreak: AdBreak, _ code: VASTErrorCode, _ reason: String) {
            self.adBreak = adBreak
            self.code = code
            self.reason = reason
        }
    }

    public private(set) var slots: [Slot]
    /// Breaks the schedule could not place.
    public private(set) var skipped: [SkippedBreak]
    private var lastContentTime: TimeInterval = 0
    private var prefetched: Set<Int> = []

    /// Most occurrences generated for one `repeatAfter` break.
    public static let maxRepeats = 200

    /// Places the breaks of `vmap`. `%` offsets need `contentDuration`;
    /// breaks at or before `playAdsAfterTime` are dropped (only breaks
    /// strictly after it are kept), except that nothing drops the post-roll.
    public init(vmap: VMAPDocument, contentDuration: TimeInterval?, playAdsAfterTime: TimeInterval? = nil) {
        var placed: [(Slot.Position, AdBreak)] = []
        var skipped: [SkippedBreak] = []
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
                placed.append((.preroll, adBreak))
                continue
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
            var time = first
            var count = 0
            repeat {
                if let contentDuration, time >= contentDuration, time > 0 { break }
                placed.append((time == 0 ? .preroll : .midroll(time), adBreak))
                count += 1
                guard let every = adBreak.repeatAfter?.seconds, every > 0 else { break }
                time += every
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
            let key = { (position: Slot.Position) -> Double in
                switch position {
                case .preroll: return -1
                case .midroll(let time): return time
                case .postroll: return .infinity
                }
            }
            return (key(lhs.element.0), lhs.offset) < (key(rhs.element.0), rhs.offset)
        }
        var midrollIndex = 0
        slots = ordered.enumerated().map { index, entry in
            let podIndex: Int
            switch entry.element.0 {
            case .preroll: podIndex = 0
            case .midroll:
                midrollIndex += 1
                podIndex = midrollIndex
            case .postroll: podIndex = -1
            }
            return Slot(id: index, position: entry.element.0, adBreak: entry.element.1, podIndex: podIndex)
        }
        self.skipped = skipped
    }

    /// Cue points in seconds, one per slot: 0 pre-roll, −1 post-roll (IMA's `adCuePoints`).
    public var cuePoints: [TimeInterval] {
        var seen = Set<TimeInterval>()
        return slots.map(\.cuePoint).filter { seen.insert($0).inserted }
    }

    /// Pre-roll slots not played yet.
    public var pendingPrerolls: [Slot] {
        slots.filter { !$0.played && $0.position == .preroll }
    }

    /// Content reached `contentTime`. Returns the mid-roll due, if any: the
    /// last unplayed mid-roll passed since the previous call. A seek over
    /// several breaks plays only the last of them, as players do; a seek
    /// backwards plays nothing.
    public mutating func contentProgressed(to contentTime: TimeInterval) -> Slot? {
        defer { lastContentTime = max(lastContentTime, contentTime) }
        guard contentTime > lastContentTime else {
            lastContentTime = contentTime
            return nil
        }
        let passed = slots.filter { slot in
            guard !slot.played, case .midroll(let time) = slot.position else { return false }
            return time > lastContentTime && time <= contentTime
        }
        return passed.last
    }

    /// Slots to start loading because content is within `lead` seconds of
    /// them (each slot is offered once).
    public mutating func slotsToPrefetch(at contentTime: TimeInterval, lead: TimeInterval) -> [Slot] {
        let due = slots.filter { slot in
            guard !slot.played, !prefetched.contains(slot.id), case .midroll(let time) = slot.position else {
                return false
            }
            return time > contentTime && time - contentTime <= lead
        }
        prefetched.formUnion(due.map(\.id))
        return due
    }

    /// The content finished: the post-roll slots not played yet.
    public func postrolls() -> [Slot] {
        slots.filter { !$0.played && $0.position == .postroll }
    }

    /// Marks a slot played (or failed): it will not be offered again.
    public mutating func markPlayed(_ id: Int) {
        guard slots.indices.contains(id) else { return }
        slots[id].played = true
    }

    /// `repeatAfter` occurrences and breaks in time share a VMAP break; this
    /// tells whether any slot of the same break was played already (IMA's
    /// `adBreakStarted` "first time a break plays").
    public func isFirstPlay(of slot: Slot) -> Bool {
        !slots.contains { $0.played && $0.adBreak == slot.adBreak && $0.id != slot.id }
    }
}
