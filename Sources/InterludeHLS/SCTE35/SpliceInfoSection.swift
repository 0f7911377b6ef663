/// A SCTE 35 `splice_info_section` (SCTE 35 section 9.6) as values. Times
/// are in 90 kHz ticks as on the wire; `…Seconds` properties convert.
public struct SpliceInfoSection: Sendable, Hashable {
    /// `protocol_version`; 0 by default.
    public var protocolVersion: UInt8 = 0
    /// `sap_type` (2 bits); 3 (not specified) by default.
    public var sapType: UInt8 = 3
    /// `pts_adjustment` in 90 kHz ticks (33 bits); 0 by default.
    public var ptsAdjustment: UInt64 = 0
    /// `cw_index`; 0xFF by default.
    public var cwIndex: UInt8 = 0xFF
    /// `tier` (12 bits); 0xFFF (all tiers) by default.
    public var tier: UInt16 = 0xFFF
    /// The splice command.
    public var command: SpliceCommand
    /// The splice descriptors, in order; empty by default.
    public var descriptors: [SpliceDescriptor] = []

    /// Creates a section around a command; other fields take the defaults above.
    public init(command: SpliceCommand, descriptors: [SpliceDescriptor] = []) {
        self.command = command
        self.descriptors = descriptors
    }

    /// The segmentation descriptors among ``descriptors``.
    public var segmentationDescriptors: [SegmentationDescriptor] {
        descriptors.compactMap { if case .segmentation(let descriptor) = $0 { return descriptor } else { return nil } }
    }

    /// True when the section starts a break: a splice_insert out of network,
    /// or a time_signal with a segmentation type that starts a break or
    /// placement opportunity.
    public var isCueOut: Bool {
        switch command {
        case .spliceInsert(let insert): return insert.isOutOfNetwork && !insert.isCancel
        case .timeSignal:
            return segmentationDescriptors.contains { SegmentationDescriptor.startTypes.contains($0.typeID) }
        default: return false
        }
    }

    /// True when the section ends a break (splice_insert back to the network,
    /// or a segmentation type that ends a break or placement opportunity).
    public var isCueIn: Bool {
        switch command {
        case .spliceInsert(let insert): return !insert.isOutOfNetwork && !insert.isCancel
        case .timeSignal:
            return segmentationDescriptors.contains { SegmentationDescriptor.endTypes.contains($0.typeID) }
        default: return false
        }
    }

    /// The break duration in seconds from a splice_insert or the first
    /// segmentation descriptor that has one.
    public var durationSeconds: Double? {
        if case .spliceInsert(let insert) = command, let duration = insert.breakDuration {
            return Double(duration.duration) / 90_000
        }
        return segmentationDescriptors.lazy.compactMap(\.duration).first.map { Double($0) / 90_000 }
    }
}

/// The splice command of a section (SCTE 35 section 9.7).
public enum SpliceCommand: Sendable, Hashable {
    /// `splice_null` (0x00).
    case spliceNull
    /// `splice_insert` (0x05).
    case spliceInsert(SpliceInsert)
    /// `time_signal` (0x06) with its splice time.
    case timeSignal(SpliceTime)
    /// `bandwidth_reservation` (0x07).
    case bandwidthReservation
    /// Any other command (splice_schedule, private_command) kept as bytes.
    case other(type: UInt8, bytes: [UInt8])
}

/// A `splice_time()`: a PTS in 90 kHz ticks, or nil for "immediate".
public struct SpliceTime: Sendable, Hashable {
    /// `pts_time` (33 bits), nil when `time_specified_flag` is 0.
    public var ptsTime: UInt64?

    /// Creates a splice time; nil means not specified.
    public init(ptsTime: UInt64?) { self.ptsTime = ptsTime }

    /// The PTS in seconds.
    public var seconds: Double? { ptsTime.map { Double($0) / 90_000 } }
}

/// A `break_duration()`.
public struct BreakDuration: Sendable, Hashable {
    /// `auto_return`: the splicer returns to the network by itself.
    public var autoReturn: Bool
    /// `duration` in 90 kHz ticks (33 bits).
    public var duration: UInt64

    /// Creates a break duration.
    public init(autoReturn: Bool, duration: UInt64) {
        self.autoReturn = autoReturn
        self.duration = duration
    }

    /// The duration in seconds.
    public var seconds: Double { Double(duration) / 90_000 }
}

/// A `splice_insert()` command (SCTE 35 section 9.7.3).
public struct SpliceInsert: Sendable, Hashable {
    /// One component of a component-level splice.
    public struct Component: Sendable, Hashable {
        /// `component_tag`.
        public var tag: UInt8
        /// The component's splice time, nil with `splice_immediate_flag`.
        public var spliceTime: SpliceTime?
    }

    /// `splice_event_id`.
    public var eventID: UInt32
    /// `splice_event_cancel_indicator`; false by default.
    public var isCancel = false
    /// `out_of_network_indicator`: true leaves the network for a break.
    public var isOutOfNetwork = true
    /// `program_splice_flag`; true by default.
    public var isProgramSplice = true
    /// `splice_immediate_flag`; false by default.
    public var isImmediate = false
    /// `event_id_compliance_flag` (a reserved 1 bit before SCTE 35 2020); true by default.
    public var eventIDCompliance = true
    /// The program splice time (program splice, not immediate).
    public var spliceTime: SpliceTime?
    /// The components of a component-level splice; empty by default.
    public var components: [Component] = []
    /// The break duration, when `duration_flag` is set.
    public var breakDuration: BreakDuration?
    /// `unique_program_id`; 0 by default.
    public var uniqueProgramID: UInt16 = 0
    /// `avail_num`; 0 by default.
    public var availNumber: UInt8 = 0
    /// `avails_expected`; 0 by default.
    public var availsExpected: UInt8 = 0

    /// Creates a program-level insert with the defaults above.
    public init(
        eventID: UInt32, isOutOfNetwork: Bool = true, spliceTime: SpliceTime? = nil, breakDuration: BreakDuration? = nil
    ) {
        self.eventID = eventID
        self.isOutOfNetwork = isOutOfNetwork
        self.spliceTime = spliceTime
        self.isImmediate = spliceTime == nil
        self.breakDuration = breakDuration
    }
}

/// A splice descriptor (SCTE 35 section 10).
public enum SpliceDescriptor: Sendable, Hashable {
    /// `segmentation_descriptor` (tag 0x02).
    case segmentation(SegmentationDescriptor)
    /// Any other descriptor (avail, DTMF, time, audio) as its bytes after the identifier.
    case other(tag: UInt8, identifier: UInt32, data: [UInt8])
}
