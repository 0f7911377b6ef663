/// A `segmentation_descriptor()` (SCTE 35 section 10.3.3).
public struct SegmentationDescriptor: Sendable, Hashable {
    /// The identifier `CUEI` (0x43554549).
    public static let cueIdentifier: UInt32 = 0x4355_4549
    /// Type IDs that start a break or placement opportunity (table 23):
    /// break start, provider/distributor ad start, placement opportunity starts.
    public static let startTypes: Set<UInt8> = [0x22, 0x30, 0x32, 0x34, 0x36, 0x38, 0x3A, 0x3C, 0x3E, 0x44, 0x46]
    /// Type IDs that end them.
    public static let endTypes: Set<UInt8> = [0x23, 0x31, 0x33, 0x35, 0x37, 0x39, 0x3B, 0x3D, 0x3F, 0x45, 0x47]

    /// Delivery restriction flags, present when `delivery_not_restricted_flag` is 0.
    public struct DeliveryRestrictions: Sendable, Hashable {
        /// `web_delivery_allowed_flag`.
        public var webDeliveryAllowed: Bool
        /// `no_regional_blackout_flag`.
        public var noRegionalBlackout: Bool
        /// `archive_allowed_flag`.
        public var archiveAllowed: Bool
        /// `device_restrictions` (2 bits).
        public var deviceRestrictions: UInt8

        /// Creates restrictions.
        public init(webDeliveryAllowed: Bool, noRegionalBlackout: Bool, archiveAllowed: Bool, deviceRestrictions: UInt8)
        {
            self.webDeliveryAllowed = webDeliveryAllowed
            self.noRegionalBlackout = noRegionalBlackout
            self.archiveAllowed = archiveAllowed
            self.deviceRestrictions = deviceRestrictions
        }
    }

    /// One component of a component-level segmentation.
    public struct Component: Sendable, Hashable {
        /// `component_tag`.
        public var tag: UInt8
        /// `pts_offset` in 90 kHz ticks.
        public var ptsOffset: UInt64
    }

    /// `segmentation_event_id`.
    public var eventID: UInt32
    /// `segmentation_event_cancel_indicator`; false by default.
    public var isCancel = false
    /// `segmentation_event_id_compliance_indicator`; true by default.
    public var eventIDCompliance = true
    /// `program_segmentation_flag`; true by default.
    public var isProgramSegmentation = true
    /// The restrictions; nil (not restricted) by default.
    public var deliveryRestrictions: DeliveryRestrictions?
    /// Components of a component-level segmentation; empty by default.
    public var components: [Component] = []
    /// `segmentation_duration` in 90 kHz ticks (40 bits), nil without duration.
    public var duration: UInt64?
    /// `segmentation_upid_type`; 0 (none) by default.
    public var upidType: UInt8 = 0
    /// `segmentation_upid` bytes; empty by default.
    public var upid: [UInt8] = []
    /// `segmentation_type_id` (table 23).
    public var typeID: UInt8
    /// `segment_num`; 0 by default.
    public var segmentNumber: UInt8 = 0
    /// `segments_expected`; 0 by default.
    public var segmentsExpected: UInt8 = 0
    /// `sub_segment_num`, present for some placement-opportunity types when the descriptor carries it.
    public var subSegmentNumber: UInt8?
    /// `sub_segments_expected`, with ``subSegmentNumber``.
    public var subSegmentsExpected: UInt8?

    /// Creates a program-level descriptor with the defaults above.
    public init(eventID: UInt32, typeID: UInt8, duration: UInt64? = nil, upidType: UInt8 = 0, upid: [UInt8] = []) {
        self.eventID = eventID
        self.typeID = typeID
        self.duration = duration
        self.upidType = upidType
        self.upid = upid
    }

    /// The duration in seconds.
    public var durationSeconds: Double? { duration.map { Double($0) / 90_000 } }
}
