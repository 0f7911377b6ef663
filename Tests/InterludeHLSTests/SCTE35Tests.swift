import Testing

@testable import InterludeHLS

/// Expected values are the fields of the SCTE 35 (2019) section 14 examples,
/// read bit by bit from the sample bytes:
///
/// 14.2 splice_insert `FC 302F 00 0000000000 FF FFF 014 05 | 4800008F 7F EF
/// FE7369C02E FE0052CCF5 0000 00 00 | 000A 00 08 43554549 00000135 | 62DBA30A`:
/// event 0x4800008F; out_of_network, program_splice, duration and compliance
/// flags set, not immediate; pts_time 0x07369C02E; auto_return with
/// duration 0x0052CCF5; an avail_descriptor with provider_avail_id 0x135.
///
/// 14.1 time_signal `FC 3034 00 0000000000 FF FFF 005 06 | FE72BD0050 | 001E
/// 02 1C 43554549 4800008E 7F CF 0001A599B0 08 08 000000002CA0A18A 34 02 00 |
/// 9AC9D17E`: pts_time 0x072BD0050; segmentation event 0x4800008E, program
/// segmentation with duration 0x0001A599B0, delivery restricted (web 0,
/// no_regional_blackout 1, archive 1, device_restrictions 3); UPID type 8
/// (Turner), 8 bytes; type 0x34 (provider placement opportunity start),
/// segment 2 of 0.
@Suite struct SCTE35Tests {
    static let timeSignalSample = "/DA0AAAAAAAA///wBQb+cr0AUAAeAhxDVUVJSAAAjn/PAAGlmbAICAAAAAAsoKGKNAIAmsnRfg=="

    @Test func spliceInsertSampleDecodesToTheSpecValues() throws {
        let section = try SpliceInfoSection(encoded: spliceInsertSampleBase64)
        #expect(section.sapType == 3)
        #expect(section.ptsAdjustment == 0)
        #expect(section.cwIndex == 0xFF)
        #expect(section.tier == 0xFFF)
        guard case .spliceInsert(let insert) = section.command else {
            Issue.record("expected splice_insert")
            return
        }
        #expect(insert.eventID == 0x4800_008F)
        #expect(!insert.isCancel)
        #expect(insert.isOutOfNetwork)
        #expect(insert.isProgramSplice)
        #expect(!insert.isImmediate)
        #expect(insert.spliceTime?.ptsTime == 0x0_7369_C02E)
        #expect(insert.breakDuration == BreakDuration(autoReturn: true, duration: 0x0052_CCF5))
        #expect(insert.uniqueProgramID == 0)
        #expect(insert.availNumber == 0)
        #expect(insert.availsExpected == 0)
        #expect(section.descriptors == [.other(tag: 0x00, identifier: 0x4355_4549, data: [0x00, 0x00, 0x01, 0x35])])
        #expect(section.isCueOut)
    }

    @Test func spliceInsertSampleReEncodesToTheSameBytes() throws {
        let section = try SpliceInfoSection(encoded: spliceInsertSampleBase64)
        #expect(section.encoded() == HLSHex.decode(spliceInsertSampleHex))
        #expect(section.base64Encoded == spliceInsertSampleBase64)
    }

    @Test func hexAndBase64FormsDecodeToTheSameSection() throws {
        #expect(
            try SpliceInfoSection(encoded: "0x" + spliceInsertSampleHex)
                == SpliceInfoSection(encoded: spliceInsertSampleBase64))
    }

    @Test func timeSignalSampleDecodesItsSegmentationDescriptor() throws {
        let section = try SpliceInfoSection(encoded: Self.timeSignalSample)
        #expect(section.command == .timeSignal(SpliceTime(ptsTime: 0x0_72BD_0050)))
        let descriptor = try #require(section.segmentationDescriptors.first)
        #expect(descriptor.eventID == 0x4800_008E)
        #expect(!descriptor.isCancel)
        #expect(descriptor.isProgramSegmentation)
        #expect(descriptor.duration == 0x00_01A5_99B0)
        #expect(descriptor.durationSeconds == 307)
        #expect(
            descriptor.deliveryRestrictions
                == .init(
                    webDeliveryAllowed: false, noRegionalBlackout: true, archiveAllowed: true, deviceRestrictions: 3))
        #expect(descriptor.upidType == 0x08)
        #expect(descriptor.upid == [0x00, 0x00, 0x00, 0x00, 0x2C, 0xA0, 0xA1, 0x8A])
        #expect(descriptor.typeID == 0x34)
        #expect(descriptor.segmentNumber == 2)
        #expect(descriptor.segmentsExpected == 0)
        #expect(descriptor.subSegmentNumber == nil)
        #expect(section.isCueOut)
        #expect(section.durationSeconds == 307)
    }

    @Test func timeSignalSampleReEncodesToTheSameBytes() throws {
        let section = try SpliceInfoSection(encoded: Self.timeSignalSample)
        #expect(section.base64Encoded == Self.timeSignalSample)
    }

    @Test func builtSectionDecodesToItself() throws {
        var descriptor = SegmentationDescriptor(
            eventID: 7, typeID: 0x30, duration: 30 * 90_000, upidType: 0x0C, upid: Array("ad-1".utf8))
        descriptor.subSegmentNumber = 1
        descriptor.subSegmentsExpected = 2
        let section = SpliceInfoSection(
            command: .timeSignal(SpliceTime(ptsTime: 90_000)), descriptors: [.segmentation(descriptor)])
        #expect(try SpliceInfoSection(bytes: section.encoded()) == section)
    }

    @Test func corruptedCRCIsRejected() throws {
        var bytes = try #require(HLSHex.decode(spliceInsertSampleHex))
        bytes[bytes.count - 1] ^= 0xFF
        do {
            _ = try SpliceInfoSection(bytes: bytes)
            Issue.record("expected a checksum error")
        } catch {
            #expect(error.code == .checksumMismatch)
        }
    }

    @Test func truncatedSectionIsRejected() throws {
        let bytes = try #require(HLSHex.decode(spliceInsertSampleHex))
        do {
            _ = try SpliceInfoSection(bytes: Array(bytes.prefix(20)))
            Issue.record("expected a truncation error")
        } catch {
            #expect(error.code == .truncatedSection)
        }
    }

    @Test func wrongTableIDIsRejected() {
        do {
            _ = try SpliceInfoSection(bytes: [0x00, 0x30, 0x11])
            Issue.record("expected a table_id error")
        } catch {
            #expect(error.code == .invalidTableID)
        }
    }

    @Test func textThatIsNeitherHexNorBase64IsRejected() {
        do {
            _ = try SpliceInfoSection(encoded: "not a payload!")
            Issue.record("expected an encoding error")
        } catch {
            #expect(error.code == .invalidEncoding)
        }
    }
}
