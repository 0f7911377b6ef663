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

    /// True when this section, a cue-in, ends the break `start` began. A
    /// splice_insert back to the network ends any break; a segmentation end
    /// ends one begun by its own start type (SCTE 35 table 22 pairs each
    /// start with the next type: 0x35 ends 0x34), so the end of an ad (0x31)
    /// inside a placement opportunity (0x34) does not end the opportunity.
    /// Without a time_signal start to match, any end ends the break.
    func endsBreak(startedBy start: SpliceInfoSection?) -> Bool {
        guard isCueIn else { return false }
        guard case .timeSignal = command, let starts = start?.breakStartTypes, !starts.isEmpty else { return true }
        return segmentationDescriptors.contains {
            SegmentationDescriptor.endTypes.contains($0.typeID) && starts.contains($0.typeID &- 1)
        }
    }

    /// True when this section, a segmentation start of other types than the
    /// time_signal that began the open break, marks a part of that break
    /// (an ad inside a placement opportunity or a break), not a new break:
    /// encoders signal both levels, and MediaLive writes every message's
    /// payload into the playlist.
    func isNested(inBreakStartedBy start: SpliceInfoSection?) -> Bool {
        guard isCueOut, let starts = start?.breakStartTypes, !starts.isEmpty else { return false }
        let own = breakStartTypes
        return !own.isEmpty && own.isDisjoint(with: starts)
    }
}
