import Foundation
internal import InterludeFormatting

/// The names SCTE 35 gives its numbers (tables of SCTE 35 2023: splice
/// commands, splice descriptors, SAP types, device restrictions,
/// segmentation UPID types and segmentation types).
enum SCTE35Names {
    static func command(_ type: UInt8) -> String {
        switch type {
        case 0x00: return "splice_null"
        case 0x04: return "splice_schedule"
        case 0x05: return "splice_insert"
        case 0x06: return "time_signal"
        case 0x07: return "bandwidth_reservation"
        case 0xFF: return "private_command"
        default: return "reserved"
        }
    }

    static func descriptor(_ tag: UInt8) -> String {
        switch tag {
        case 0x00: return "avail_descriptor"
        case 0x01: return "DTMF_descriptor"
        case 0x02: return "segmentation_descriptor"
        case 0x03: return "time_descriptor"
        case 0x04: return "audio_descriptor"
        default: return "private_descriptor"
        }
    }

    static func sapType(_ type: UInt8) -> String {
        switch type {
        case 0: return "SAP type 1"
        case 1: return "SAP type 2"
        case 2: return "SAP type 3"
        default: return "not specified"
        }
    }

    static func deviceRestrictions(_ value: UInt8) -> String {
        value < 3 ? "restrict group \(value)" : "none"
    }

    static func upidType(_ type: UInt8) -> String {
        let names: [UInt8: String] = [
            0x00: "not used", 0x01: "user defined (deprecated)", 0x02: "ISCI (deprecated)", 0x03: "Ad-ID",
            0x04: "UMID", 0x05: "ISAN (deprecated)", 0x06: "ISAN", 0x07: "TID", 0x08: "TI (airing ID)", 0x09: "ADI",
            0x0A: "EIDR", 0x0B: "ATSC content identifier", 0x0C: "MPU", 0x0D: "MID (several UPIDs)",
            0x0E: "ADS information", 0x0F: "URI", 0x10: "UUID", 0x11: "SCR",
        ]
        return names[type] ?? "reserved"
    }

    static func segmentationType(_ type: UInt8) -> String {
        let names: [UInt8: String] = [
            0x00: "Not Indicated", 0x01: "Content Identification", 0x02: "Call Ad Server", 0x10: "Program Start",
            0x11: "Program End", 0x12: "Program Early Termination", 0x13: "Program Breakaway",
            0x14: "Program Resumption", 0x15: "Program Runover Planned", 0x16: "Program Runover Unplanned",
            0x17: "Program Overlap Start", 0x18: "Program Blackout Override", 0x19: "Program Start – In Progress",
            0x20: "Chapter Start", 0x21: "Chapter End", 0x22: "Break Start", 0x23: "Break End",
            0x30: "Provider Advertisement Start", 0x31: "Provider Advertisement End",
            0x32: "Distributor Advertisement Start", 0x33: "Distributor Advertisement End",
            0x34: "Provider Placement Opportunity Start", 0x35: "Provider Placement Opportunity End",
            0x36: "Distributor Placement Opportunity Start", 0x37: "Distributor Placement Opportunity End",
            0x38: "Provider Overlay Placement Opportunity Start", 0x39: "Provider Overlay Placement Opportunity End",
            0x3A: "Distributor Overlay Placement Opportunity Start",
            0x3B: "Distributor Overlay Placement Opportunity End", 0x3C: "Provider Promo Start",
            0x3D: "Provider Promo End", 0x3E: "Distributor Promo Start", 0x3F: "Distributor Promo End",
            0x40: "Unscheduled Event Start", 0x41: "Unscheduled Event End",
            0x42: "Alternate Content Opportunity Start", 0x43: "Alternate Content Opportunity End",
            0x44: "Provider Ad Block Start", 0x45: "Provider Ad Block End", 0x46: "Distributor Ad Block Start",
            0x47: "Distributor Ad Block End", 0x50: "Network Start", 0x51: "Network End",
        ]
        return names[type] ?? "reserved"
    }
}

extension SCTE35Inspection {
    /// The section as indented text for people.
    func text() -> String {
        var lines: [String] = []
        guard let command else {
            lines.append("not a SCTE-35 section")
            if let error { lines.append("error (\(error.code)): \(error.message)") }
            return lines.joined(separator: "\n")
        }
        lines.append("SCTE-35 splice_info_section (\(encoding ?? "?"), \(bytes ?? 0) bytes)")
        lines.append("  table_id: \(Self.hex8(tableID ?? 0))")
        lines.append("  section_length: \(sectionLength ?? 0)")
        lines.append("  protocol_version: \(protocolVersion ?? 0)")
        lines.append("  sap_type: \(sapType ?? 3) (\(sapTypeName ?? ""))")
        lines.append("  pts_adjustment: \(ticksText(ptsAdjustment ?? 0))")
        lines.append("  cw_index: \(Self.hex8(cwIndex ?? 0))")
        lines.append("  tier: 0x\(String(tier ?? 0, radix: 16, uppercase: true))")
        if let crc {
            lines.append(
                "  CRC-32: \(crc.value) "
                    + (crc.valid ? "(valid)" : "(WRONG: the bytes give \(crc.computed); fields decoded anyway)"))
        }
        lines.append("  command: \(command.name) (\(Self.hex8(command.type)))")
        lines.append(contentsOf: commandLines(command).map { "    " + $0 })
        let descriptors = descriptors ?? []
        lines.append("  descriptors: \(descriptors.count)")
        for descriptor in descriptors {
            lines.append(
                "    \(descriptor.name) (tag \(Self.hex8(descriptor.tag)), \(descriptor.identifier))"
            )
            lines.append(contentsOf: descriptorLines(descriptor).map { "      " + $0 })
        }
        var summary: [String] = []
        if cueOut == true { summary.append("cue out") }
        if cueIn == true { summary.append("cue in") }
        if let durationSeconds { summary.append("break of \(DecimalText.string(durationSeconds, .upTo(6))) s") }
        if !summary.isEmpty { lines.append("  meaning: " + summary.joined(separator: ", ")) }
        if let error {
            lines.append("")
            lines.append("error (\(error.code)): \(error.message)")
        }
        lines.append("")
        lines.append(isValid ? "result: valid" : "result: invalid")
        return lines.joined(separator: "\n")
    }

    private func commandLines(_ command: CommandReport) -> [String] {
        var lines: [String] = []
        if let id = command.spliceEventID { lines.append("splice_event_id: \(id) (0x\(String(id, radix: 16)))") }
        if let cancel = command.cancel { lines.append("splice_event_cancel_indicator: \(cancel)") }
        if let value = command.outOfNetwork { lines.append("out_of_network_indicator: \(value)") }
        if let value = command.programSplice { lines.append("program_splice_flag: \(value)") }
        if let value = command.immediate { lines.append("splice_immediate_flag: \(value)") }
        if let value = command.eventIDCompliance { lines.append("event_id_compliance_flag: \(value)") }
        if let time = command.spliceTime {
            lines.append("splice_time: " + (time.ptsTime.map(ticksText) ?? "immediate (no time specified)"))
        }
        for component in command.components ?? [] {
            lines.append(
                "component \(component.tag): " + (component.ptsTime.map(ticksText) ?? "immediate (no time specified)"))
        }
        if let duration = command.breakDuration {
            lines.append("break_duration: \(ticksText(duration.duration)), auto_return \(duration.autoReturn)")
        }
        if let value = command.uniqueProgramID { lines.append("unique_program_id: \(value)") }
        if let value = command.availNum { lines.append("avail_num: \(value)") }
        if let value = command.availsExpected { lines.append("avails_expected: \(value)") }
        if let bytes = command.bytes { lines.append("bytes: \(bytes)") }
        return lines
    }

    private func descriptorLines(_ descriptor: DescriptorReport) -> [String] {
        var lines: [String] = []
        if let data = descriptor.data { lines.append("data: \(data)") }
        if let id = descriptor.providerAvailID { lines.append("provider_avail_id: \(id)") }
        if let preroll = descriptor.preroll {
            lines.append("preroll: \(preroll) (\(DecimalText.string(Double(preroll) / 10, .upTo(1))) s)")
        }
        if let chars = descriptor.dtmfChars { lines.append("DTMF: \"\(chars)\"") }
        if let seconds = descriptor.taiSeconds {
            lines.append(
                "TAI: \(seconds) s \(descriptor.taiNanoseconds ?? 0) ns, UTC offset \(descriptor.utcOffset ?? 0) s")
        }
        if let id = descriptor.segmentationEventID {
            lines.append("segmentation_event_id: \(id) (0x\(String(id, radix: 16)))")
        }
        if let cancel = descriptor.cancel { lines.append("segmentation_event_cancel_indicator: \(cancel)") }
        if let value = descriptor.eventIDCompliance { lines.append("event_id_compliance: \(value)") }
        if let value = descriptor.programSegmentation { lines.append("program_segmentation_flag: \(value)") }
        if let restrictions = descriptor.deliveryRestrictions {
            lines.append(
                "delivery restricted: web delivery allowed \(restrictions.webDeliveryAllowed), no regional blackout \(restrictions.noRegionalBlackout), archive allowed \(restrictions.archiveAllowed), devices \(restrictions.deviceRestrictionsName)"
            )
        } else if descriptor.typeID != nil {
            lines.append("delivery not restricted")
        }
        for component in descriptor.components ?? [] {
            lines.append("component \(component.tag): pts_offset \(ticksText(component.ptsOffset ?? 0))")
        }
        if let duration = descriptor.duration { lines.append("segmentation_duration: \(ticksText(duration))") }
        if let type = descriptor.upidType {
            var upid = "segmentation_upid: type \(Self.hex8(type)) (\(descriptor.upidTypeName ?? ""))"
            if let text = descriptor.upidText {
                upid += " \"\(text)\""
            } else if let bytes = descriptor.upid, bytes != "0x" {
                upid += " \(bytes)"
            }
            lines.append(upid)
        }
        if let type = descriptor.typeID {
            lines.append("segmentation_type_id: \(Self.hex8(type)) (\(descriptor.typeName ?? ""))")
        }
        if let number = descriptor.segmentNumber, let expected = descriptor.segmentsExpected {
            lines.append("segment \(number) of \(expected)")
        }
        if let number = descriptor.subSegmentNumber, let expected = descriptor.subSegmentsExpected {
            lines.append("sub-segment \(number) of \(expected)")
        }
        return lines
    }

    /// `0x05`.
    static func hex8(_ value: UInt8) -> String {
        let digits = String(value, radix: 16, uppercase: true)
        return "0x" + (digits.count < 2 ? "0" : "") + digits
    }

    /// `8100000 (90.000000 s)`.
    private func ticksText(_ ticks: UInt64) -> String {
        "\(ticks) ticks (\(DecimalText.string(Self.seconds(ticks), .upTo(6))) s)"
    }
}
