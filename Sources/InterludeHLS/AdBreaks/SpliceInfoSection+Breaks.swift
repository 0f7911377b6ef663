extension SpliceInfoSection {
    /// The section of a playlist's cue as break detection reads it: the CRC
    /// is not checked (see ``init(bytes:verifyingChecksum:)``), so every
    /// marker style treats a cue with a wrong CRC alike, as the cue it says;
    /// nil when the bytes are no section.
    init?(cueBytes bytes: [UInt8]) {
        guard let section = try? SpliceInfoSection(bytes: bytes, verifyingChecksum: false) else { return nil }
        self = section
    }

    /// The segmentation types of a time_signal that start a break; empty for
    /// other commands.
    var breakStartTypes: Set<UInt8> {
        guard case .timeSignal = command else { return [] }
        return Set(segmentationDescriptors.lazy.map(\.typeID).filter(SegmentationDescriptor.startTypes.contains))
    }

    /// How a cue-in or a cancel relates to the break a start began.
    enum BreakEnding: Equatable {
        /// It does not end that break.
        case none
        /// It ends it by kind: a return to the network, or a segmentation
        /// end of the break's start type, with another event ID (encoders
        /// are not all careful with IDs) or no start to compare it with.
        case byKind
        /// It names the break's own event: the end or the cancel of its
        /// `segmentation_event_id` or `splice_event_id`.
        case byEvent
    }

    /// True when this section cancels an event (`splice_event_cancel_indicator`
    /// or a `segmentation_event_cancel_indicator`): the end of that event's
    /// break, if it is open (MediaLive runs a time_signal without a
    /// duration until its cancel).
    var isCancellation: Bool {
        switch command {
        case .spliceInsert(let insert): return insert.isCancel
        case .timeSignal: return segmentationDescriptors.contains(where: \.isCancel)
        default: return false
        }
    }

    /// True when this section, a cue-in or a cancel, ends the break `start`
    /// began (see ``ending(ofBreakStartedBy:)``).
    func endsBreak(startedBy start: SpliceInfoSection?) -> Bool {
        ending(ofBreakStartedBy: start) != .none
    }

    /// How this section ends the break `start` began. A splice_insert back
    /// to the network ends any break; a segmentation end ends one begun by
    /// its own start type (SCTE 35 table 22 pairs each start with the next
    /// type: 0x35 ends 0x34), so the end of an ad (0x31) inside a placement
    /// opportunity (0x34) does not end the opportunity. Without a
    /// time_signal start to match, any end ends the break. A cancel ends
    /// only the break of the event it names.
    func ending(ofBreakStartedBy start: SpliceInfoSection?) -> BreakEnding {
        switch command {
        case .spliceInsert(let insert):
            let ownEvent = start?.spliceEventID == insert.eventID
            if insert.isCancel { return ownEvent ? .byEvent : .none }
            guard !insert.isOutOfNetwork else { return .none }
            return ownEvent ? .byEvent : .byKind
        case .timeSignal:
            let starts = start?.segmentationStarts ?? []
            var ending = BreakEnding.none
            for descriptor in segmentationDescriptors {
                if descriptor.isCancel {
                    if starts.contains(where: { $0.eventID == descriptor.eventID }) { return .byEvent }
                    continue
                }
                guard SegmentationDescriptor.endTypes.contains(descriptor.typeID) else { continue }
                if starts.isEmpty { ending = .byKind }
                for paired in starts where paired.typeID == descriptor.typeID &- 1 {
                    if paired.eventID == descriptor.eventID { return .byEvent }
                    ending = .byKind
                }
            }
            return ending
        default:
            return .none
        }
    }

    /// The event IDs the section names: its splice_insert's
    /// `splice_event_id`, or its segmentation descriptors'
    /// `segmentation_event_id`s.
    var eventIDs: [UInt32] {
        switch command {
        case .spliceInsert(let insert): return [insert.eventID]
        case .timeSignal: return segmentationDescriptors.map(\.eventID)
        default: return []
        }
    }

    /// The `splice_event_id` of a splice_insert; nil for other commands.
    private var spliceEventID: UInt32? {
        guard case .spliceInsert(let insert) = command else { return nil }
        return insert.eventID
    }

    /// The segmentation descriptors of a time_signal that start a break;
    /// empty for other commands.
    private var segmentationStarts: [SegmentationDescriptor] {
        guard case .timeSignal = command else { return [] }
        return segmentationDescriptors.filter { !$0.isCancel && SegmentationDescriptor.startTypes.contains($0.typeID) }
    }

    /// True when this section, a segmentation start of a lower level than
    /// the time_signal that began the open break, marks a part of that
    /// break, not a new break: an ad (0x30, 0x32) or promo (0x3C, 0x3E)
    /// inside a placement opportunity (0x34, 0x36, 0x38, 0x3A), which sits
    /// inside a break (0x22) or an ad block (0x44, 0x46), as SCTE 35's
    /// segmentation hierarchy has them. Encoders signal several levels, and
    /// MediaLive writes every message's payload into the playlist. A start
    /// of the same or a higher level (an opportunity after a lost ad end)
    /// is a new break.
    func isNested(inBreakStartedBy start: SpliceInfoSection?) -> Bool {
        guard isCueOut, let outer = start.flatMap({ Self.level(of: $0.breakStartTypes) }),
            let own = Self.level(of: breakStartTypes)
        else { return false }
        return own > outer
    }

    /// The highest level among `types` (0 break or ad block, 1 placement
    /// opportunity, 2 ad or promo); nil when empty or a type has no level.
    private static func level(of types: Set<UInt8>) -> Int? {
        var highest: Int?
        for type in types {
            let level: Int
            switch type {
            case 0x22, 0x44, 0x46: level = 0
            case 0x34, 0x36, 0x38, 0x3A: level = 1
            case 0x30, 0x32, 0x3C, 0x3E: level = 2
            default: return nil
            }
            highest = min(highest ?? level, level)
        }
        return highest
    }
}
