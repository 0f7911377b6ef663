import Foundation
import InterludeHLS

/// `interlude inspect --scte35 HEX|BASE64`: a SCTE-35 `splice_info_section`
/// decoded field by field (every command and descriptor `InterludeHLS`
/// reads), with its CRC-32 checked. A bad CRC is reported with the value it
/// should have; the fields are still decoded, and the section is invalid.
/// Field names are the documented JSON schema (README, "inspect --scte35").
struct SCTE35Inspection: Codable, Equatable {
    struct Checksum: Codable, Equatable {
        /// The CRC-32 at the end of the section, `0x…`.
        var value: String
        /// The CRC-32/MPEG-2 of the bytes before it.
        var computed: String
        var valid: Bool
    }

    struct SpliceTimeReport: Codable, Equatable {
        /// 90 kHz ticks; absent for "immediate" (time_specified_flag 0).
        var ptsTime: UInt64?
        var ptsTimeSeconds: Double?
    }

    struct BreakDurationReport: Codable, Equatable {
        var autoReturn: Bool
        /// 90 kHz ticks.
        var duration: UInt64
        var durationSeconds: Double
    }

    struct ComponentReport: Codable, Equatable {
        var tag: UInt8
        /// splice_insert: the component's splice time.
        var ptsTime: UInt64?
        var ptsTimeSeconds: Double?
        /// segmentation_descriptor: the component's pts_offset.
        var ptsOffset: UInt64?
        var ptsOffsetSeconds: Double?
    }

    struct CommandReport: Codable, Equatable {
        /// splice_command_type.
        var type: UInt8
        /// `splice_null`, `splice_schedule`, `splice_insert`, `time_signal`,
        /// `bandwidth_reservation`, `private_command`, or `reserved`.
        var name: String
        // splice_insert
        var spliceEventID: UInt32? = nil
        var cancel: Bool? = nil
        var outOfNetwork: Bool? = nil
        var programSplice: Bool? = nil
        var immediate: Bool? = nil
        var eventIDCompliance: Bool? = nil
        var components: [ComponentReport]? = nil
        var breakDuration: BreakDurationReport? = nil
        var uniqueProgramID: UInt16? = nil
        var availNum: UInt8? = nil
        var availsExpected: UInt8? = nil
        // splice_insert (program splice) and time_signal
        var spliceTime: SpliceTimeReport? = nil
        /// Commands InterludeHLS keeps as bytes (splice_schedule, private_command), `0x…`.
        var bytes: String? = nil
    }

    struct RestrictionsReport: Codable, Equatable {
        var webDeliveryAllowed: Bool
        var noRegionalBlackout: Bool
        var archiveAllowed: Bool
        var deviceRestrictions: UInt8
        var deviceRestrictionsName: String
    }

    struct DescriptorReport: Codable, Equatable {
        /// splice_descriptor_tag.
        var tag: UInt8
        /// `avail_descriptor`, `DTMF_descriptor`, `segmentation_descriptor`,
        /// `time_descriptor`, `audio_descriptor`, or `private_descriptor`.
        var name: String
        /// The 32-bit identifier as text when printable (`CUEI`), else `0x…`.
        var identifier: String
        /// Descriptors InterludeHLS keeps as bytes: what follows the identifier, `0x…`.
        var data: String? = nil
        // The fixed layouts of SCTE 35 §10.3.1, 10.3.2 and 10.3.4, read from `data`
        // (CUEI descriptors only; a short one keeps its bytes alone).
        /// avail_descriptor: provider_avail_id.
        var providerAvailID: UInt32? = nil
        /// DTMF_descriptor: preroll in tenths of a second, and the DTMF characters.
        var preroll: UInt8? = nil
        var dtmfChars: String? = nil
        /// time_descriptor: TAI seconds and nanoseconds, and the UTC offset in seconds.
        var taiSeconds: UInt64? = nil
        var taiNanoseconds: UInt32? = nil
        var utcOffset: UInt16? = nil
        // segmentation_descriptor
        var segmentationEventID: UInt32? = nil
        var cancel: Bool? = nil
        var eventIDCompliance: Bool? = nil
        var programSegmentation: Bool? = nil
        var deliveryRestrictions: RestrictionsReport? = nil
        var components: [ComponentReport]? = nil
        /// 90 kHz ticks.
        var duration: UInt64? = nil
        var durationSeconds: Double? = nil
        var upidType: UInt8? = nil
        var upidTypeName: String? = nil
        /// The UPID bytes, `0x…` (empty: absent).
        var upid: String? = nil
        /// The UPID as text, when every byte is printable ASCII (Ad-ID, TID, ADI, URI, …).
        var upidText: String? = nil
        var typeID: UInt8? = nil
        var typeName: String? = nil
        var segmentNumber: UInt8? = nil
        var segmentsExpected: UInt8? = nil
        var subSegmentNumber: UInt8? = nil
        var subSegmentsExpected: UInt8? = nil
    }

    struct Problem: Codable, Equatable {
        /// The InterludeHLS error code name (`checksumMismatch`, `truncatedSection`, …).
        var code: String
        var message: String
    }

    /// `scte35`, or `invalid` when the section cannot be read or its CRC is wrong.
    var kind: String
    /// `hex` or `base64`: how the input was read.
    var encoding: String?
    /// Bytes of input.
    var bytes: Int?
    var tableID: UInt8?
    var sectionLength: Int?
    var sapType: UInt8?
    var sapTypeName: String?
    var protocolVersion: UInt8?
    var ptsAdjustment: UInt64?
    var ptsAdjustmentSeconds: Double?
    var cwIndex: UInt8?
    var tier: UInt16?
    var crc: Checksum?
    var command: CommandReport?
    var descriptors: [DescriptorReport]?
    /// The section starts a break (splice_insert out of network, or a break/placement start type).
    var cueOut: Bool?
    /// The section ends one.
    var cueIn: Bool?
    /// The break's duration in seconds, from the command or the first segmentation descriptor that has one.
    var durationSeconds: Double?
    /// Why the section is invalid.
    var error: Problem?

    var isValid: Bool { kind == "scte35" }

    /// Decodes `text`: hex (`0xFC30…` or `FC30…`, as DATERANGE writes it) or
    /// base64, padded or not (`/DA…`, as EXT-OATCLS-SCTE35 and `#EXT-X-CUE-OUT` cues write it).
    init(text: String) {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        let raw: [UInt8]
        if SCTE35Text.isHex(trimmed), let bytes = HLSHex.decode(trimmed) {
            encoding = "hex"
            raw = bytes
        } else if let bytes = SCTE35Text.base64(trimmed) {
            encoding = "base64"
            raw = bytes
        } else {
            kind = "invalid"
            error = Problem(code: HLSError.Code.invalidEncoding.name, message: "the value is neither hex nor base64")
            return
        }
        bytes = raw.count
        var decodable = raw
        var checksumError: Problem?
        // The CRC is checked here, so that a wrong one is reported with the right value
        // and the fields are still shown (decoded from a copy carrying the right CRC).
        if raw.count >= 3 {
            tableID = raw[0]
            let length = Int(raw[1] & 0x0F) << 8 | Int(raw[2])
            sectionLength = length
            let end = 3 + length
            if length >= 15, end <= raw.count {
                let written = raw[(end - 4)..<end].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
                let computed = SCTE35CRC.checksum(raw[0..<(end - 4)])
                crc = Checksum(value: Self.hex32(written), computed: Self.hex32(computed), valid: written == computed)
                if written != computed {
                    checksumError = Problem(
                        code: HLSError.Code.checksumMismatch.name,
                        message: "CRC-32 is \(Self.hex32(written)), the section's bytes give \(Self.hex32(computed))")
                    for (offset, byte) in withUnsafeBytes(of: computed.bigEndian, Array.init).enumerated() {
                        decodable[end - 4 + offset] = byte
                    }
                }
            }
        }
        let section: SpliceInfoSection
        do {
            section = try SpliceInfoSection(bytes: decodable)
        } catch {
            kind = "invalid"
            self.error = Problem(code: error.code.name, message: error.message)
            return
        }
        kind = checksumError == nil ? "scte35" : "invalid"
        self.error = checksumError
        sapType = section.sapType
        sapTypeName = SCTE35Names.sapType(section.sapType)
        protocolVersion = section.protocolVersion
        ptsAdjustment = section.ptsAdjustment
        ptsAdjustmentSeconds = Self.seconds(section.ptsAdjustment)
        cwIndex = section.cwIndex
        tier = section.tier
        command = CommandReport(section.command)
        descriptors = section.descriptors.map(DescriptorReport.init)
        cueOut = section.isCueOut
        cueIn = section.isCueIn
        durationSeconds = section.durationSeconds.map(Self.rounded)
    }

    /// 90 kHz ticks in seconds, to the microsecond.
    static func seconds(_ ticks: UInt64) -> Double { rounded(Double(ticks) / 90_000) }

    static func rounded(_ seconds: Double) -> Double { (seconds * 1_000_000).rounded() / 1_000_000 }

    static func hex32(_ value: UInt32) -> String {
        let digits = String(value, radix: 16, uppercase: true)
        return "0x" + String(repeating: "0", count: 8 - digits.count) + digits
    }

    static func hex(_ bytes: [UInt8]) -> String { "0x" + HLSHex.encode(bytes) }

    func json() -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(self) else { return "{}" }
        return String(decoding: data, as: UTF8.self)
    }
}

extension SCTE35Inspection.SpliceTimeReport {
    init(_ time: SpliceTime) {
        self.init(ptsTime: time.ptsTime, ptsTimeSeconds: time.ptsTime.map(SCTE35Inspection.seconds))
    }
}

extension SCTE35Inspection.CommandReport {
    init(_ command: SpliceCommand) {
        switch command {
        case .spliceNull:
            self.init(type: 0x00, name: "splice_null")
        case .spliceInsert(let insert):
            self.init(type: 0x05, name: "splice_insert")
            spliceEventID = insert.eventID
            cancel = insert.isCancel
            guard !insert.isCancel else { return }
            outOfNetwork = insert.isOutOfNetwork
            programSplice = insert.isProgramSplice
            immediate = insert.isImmediate
            eventIDCompliance = insert.eventIDCompliance
            spliceTime = insert.spliceTime.map(SCTE35Inspection.SpliceTimeReport.init)
            if !insert.isProgramSplice {
                components = insert.components.map { component in
                    SCTE35Inspection.ComponentReport(
                        tag: component.tag, ptsTime: component.spliceTime?.ptsTime,
                        ptsTimeSeconds: component.spliceTime?.ptsTime.map(SCTE35Inspection.seconds))
                }
            }
            breakDuration = insert.breakDuration.map {
                SCTE35Inspection.BreakDurationReport(
                    autoReturn: $0.autoReturn, duration: $0.duration,
                    durationSeconds: SCTE35Inspection.seconds($0.duration))
            }
            uniqueProgramID = insert.uniqueProgramID
            availNum = insert.availNumber
            availsExpected = insert.availsExpected
        case .timeSignal(let time):
            self.init(type: 0x06, name: "time_signal")
            spliceTime = SCTE35Inspection.SpliceTimeReport(time)
        case .bandwidthReservation:
            self.init(type: 0x07, name: "bandwidth_reservation")
        case .other(let type, let bytes):
            self.init(type: type, name: SCTE35Names.command(type))
            self.bytes = SCTE35Inspection.hex(bytes)
        }
    }
}

extension SCTE35Inspection.DescriptorReport {
    init(_ descriptor: SpliceDescriptor) {
        switch descriptor {
        case .other(let tag, let identifier, let data):
            self.init(
                tag: tag, name: SCTE35Names.descriptor(tag), identifier: Self.identifierText(identifier),
                data: SCTE35Inspection.hex(data))
            guard identifier == SegmentationDescriptor.cueIdentifier else { return }
            func number(_ range: Range<Int>) -> UInt64 { data[range].reduce(0) { $0 << 8 | UInt64($1) } }
            switch tag {
            case 0x00 where data.count >= 4:
                providerAvailID = UInt32(number(0..<4))
            case 0x01 where data.count >= 2:
                let count = Int(data[1] >> 5)
                preroll = data[0]
                dtmfChars = String(decoding: data.dropFirst(2).prefix(count), as: UTF8.self)
            case 0x03 where data.count >= 12:
                taiSeconds = number(0..<6)
                taiNanoseconds = UInt32(number(6..<10))
                utcOffset = UInt16(number(10..<12))
            default:
                break
            }
        case .segmentation(let segmentation):
            self.init(
                tag: 0x02, name: "segmentation_descriptor",
                identifier: Self.identifierText(SegmentationDescriptor.cueIdentifier))
            segmentationEventID = segmentation.eventID
            cancel = segmentation.isCancel
            eventIDCompliance = segmentation.eventIDCompliance
            guard !segmentation.isCancel else { return }
            programSegmentation = segmentation.isProgramSegmentation
            deliveryRestrictions = segmentation.deliveryRestrictions.map {
                SCTE35Inspection.RestrictionsReport(
                    webDeliveryAllowed: $0.webDeliveryAllowed, noRegionalBlackout: $0.noRegionalBlackout,
                    archiveAllowed: $0.archiveAllowed, deviceRestrictions: $0.deviceRestrictions,
                    deviceRestrictionsName: SCTE35Names.deviceRestrictions($0.deviceRestrictions))
            }
            if !segmentation.isProgramSegmentation {
                components = segmentation.components.map {
                    SCTE35Inspection.ComponentReport(
                        tag: $0.tag, ptsOffset: $0.ptsOffset, ptsOffsetSeconds: SCTE35Inspection.seconds($0.ptsOffset))
                }
            }
            duration = segmentation.duration
            durationSeconds = segmentation.duration.map(SCTE35Inspection.seconds)
            upidType = segmentation.upidType
            upidTypeName = SCTE35Names.upidType(segmentation.upidType)
            upid = SCTE35Inspection.hex(segmentation.upid)
            if !segmentation.upid.isEmpty, segmentation.upid.allSatisfy({ (0x20...0x7E).contains($0) }) {
                upidText = String(decoding: segmentation.upid, as: UTF8.self)
            }
            typeID = segmentation.typeID
            typeName = SCTE35Names.segmentationType(segmentation.typeID)
            segmentNumber = segmentation.segmentNumber
            segmentsExpected = segmentation.segmentsExpected
            subSegmentNumber = segmentation.subSegmentNumber
            subSegmentsExpected = segmentation.subSegmentsExpected
        }
    }

    /// `CUEI` for printable identifiers, `0x…` otherwise.
    private static func identifierText(_ identifier: UInt32) -> String {
        let bytes = withUnsafeBytes(of: identifier.bigEndian, Array.init)
        if bytes.allSatisfy({ (0x20...0x7E).contains($0) }) { return String(decoding: bytes, as: UTF8.self) }
        return SCTE35Inspection.hex32(identifier)
    }
}
