import Foundation
import Testing

@testable import InterludeHLS

/// SCTE-35 sections as encoders send them. The real cues are threefive's
/// samples (also in scripts/check-scte35-threefive.py); expected values are
/// read from their bytes by the field layout of SCTE 35 sections 9.7.3 and
/// 10.3.3, written out above each test.
@Suite struct SCTE35RealCueTests {
    /// `FC 3025 00 0000000000 00 FFF 014 05 | ED150001 7F EF FE00ABA950
    /// FE002932E0 ED15 01 01 | 0000 | 1DE4CD3B`: event 0xED150001, out of
    /// network, program splice, duration, not immediate; pts_time 11250000;
    /// auto_return, 2700000 ticks (30 s); unique_program_id 0xED15, avail 1 of 1.
    static let spliceInsert30 = "/DAlAAAAAAAAAP/wFAXtFQABf+/+AKupUP4AKTLg7RUBAQAAHeTNOw=="

    @Test func aSpliceInsertWithABreakDurationStartsAThirtySecondBreak() throws {
        let section = try SpliceInfoSection(encoded: Self.spliceInsert30)
        #expect(section.cwIndex == 0)
        guard case .spliceInsert(let insert) = section.command else {
            Issue.record("expected a splice_insert")
            return
        }
        #expect(insert.eventID == 0xED15_0001)
        #expect(insert.isOutOfNetwork && insert.isProgramSplice && !insert.isImmediate)
        #expect(insert.spliceTime == SpliceTime(ptsTime: 11_250_000))
        #expect(insert.breakDuration == BreakDuration(autoReturn: true, duration: 2_700_000))
        #expect(insert.uniqueProgramID == 0xED15)
        #expect(insert.availNumber == 1 && insert.availsExpected == 1)
        #expect(section.isCueOut && !section.isCueIn)
        #expect(section.durationSeconds == 30)
    }

    /// `… 05 | 00000012 7F 4F FE76284A7A 0001 12 FF | 000A 00 08 CUEI 00000012 | …`:
    /// out_of_network_indicator 0, no duration: the return to the network.
    @Test func aSpliceInsertWithoutDurationBackToTheNetworkEndsTheBreak() throws {
        let section = try SpliceInfoSection(encoded: "/DAqAAAAAAAA///wDwUAAAASf0/+dihKegABEv8ACgAIQ1VFSQAAABIe1kvb")
        guard case .spliceInsert(let insert) = section.command else {
            Issue.record("expected a splice_insert")
            return
        }
        #expect(insert.eventID == 0x12)
        #expect(!insert.isOutOfNetwork)
        #expect(insert.breakDuration == nil)
        #expect(insert.spliceTime == SpliceTime(ptsTime: 0x7628_4A7A))
        #expect(insert.availNumber == 0x12 && insert.availsExpected == 0xFF)
        #expect(section.isCueIn && !section.isCueOut)
        #expect(section.durationSeconds == nil)
    }

    /// splice_immediate and component splices (program_splice_flag 0), as
    /// encoders may send them: read per section 9.7.3 (threefive 3.1.5 does
    /// not read the component loop, so this is checked against the layout).
    @Test func immediateAndComponentSplicesDecodeToWhatWasSent() throws {
        var immediate = SpliceInsert(eventID: 9, breakDuration: BreakDuration(autoReturn: true, duration: 1_800_000))
        immediate.isImmediate = true
        var components = SpliceInsert(eventID: 10, spliceTime: nil, breakDuration: nil)
        components.isProgramSplice = false
        components.isImmediate = false
        components.components = [
            .init(tag: 0x01, spliceTime: SpliceTime(ptsTime: 900_000)),
            .init(tag: 0x02, spliceTime: SpliceTime(ptsTime: 900_300)),
        ]
        var componentsNow = SpliceInsert(eventID: 11, isOutOfNetwork: false)
        componentsNow.isProgramSplice = false
        componentsNow.components = [.init(tag: 0x01, spliceTime: nil)]
        for insert in [immediate, components, componentsNow] {
            let section = SpliceInfoSection(command: .spliceInsert(insert))
            let decoded = try SpliceInfoSection(encoded: section.base64Encoded)
            #expect(decoded == section)
            #expect(decoded.isCueOut == insert.isOutOfNetwork)
            #expect(decoded.isCueIn == !insert.isOutOfNetwork)
        }
        #expect(
            try SpliceInfoSection(encoded: SpliceInfoSection(command: .spliceInsert(immediate)).hexEncoded)
                .durationSeconds == 20)
    }

    @Test func aCancelledSpliceOrSegmentationEventIsNoBreakMarker() throws {
        var insert = SpliceInsert(eventID: 4)
        insert.isCancel = true
        var descriptor = SegmentationDescriptor(eventID: 5, typeID: 0x34, duration: 2_700_000)
        descriptor.isCancel = true
        for section in [
            SpliceInfoSection(command: .spliceInsert(insert)),
            SpliceInfoSection(command: .timeSignal(SpliceTime(ptsTime: 0)), descriptors: [.segmentation(descriptor)]),
        ] {
            let decoded = try SpliceInfoSection(encoded: section.base64Encoded)
            #expect(!decoded.isCueOut && !decoded.isCueIn)
        }
    }

    /// SCTE 35 table 22: break, provider and distributor ads, provider and
    /// distributor placement opportunities start (even) and end (odd).
    @Test(arguments: [
        (UInt8(0x22), true), (0x23, false), (0x30, true), (0x31, false), (0x32, true), (0x33, false),
        (0x34, true), (0x35, false), (0x36, true), (0x37, false),
    ])
    func segmentationTypesStartOrEndABreak(type: UInt8, starts: Bool) throws {
        let section = OriginCueFixture.timeSignal([(type, starts ? 60 : nil)])
        let decoded = try SpliceInfoSection(encoded: section.hexEncoded)
        #expect(decoded.isCueOut == starts)
        #expect(decoded.isCueIn == !starts)
        #expect(decoded.durationSeconds == (starts ? 60 : nil))
    }

    /// `… 06 FED1F85AF3 | 0027 02 25 CUEI 480000BF 7F CF 0000F8FA63 0D 11
    /// [0E 05 "LA309"] [08 08 000000002E538481] 34 00 00 | 3C86823F`: a
    /// provider placement opportunity of 16317027 ticks (181.3003 s) whose MID
    /// UPID holds an ADS information and a Turner Identifier UPID.
    @Test func aMIDUPIDWithNestedUPIDsIsKeptWhole() throws {
        let section = try SpliceInfoSection(
            encoded: "/DA9AAAAAAAAAACABQb+0fha8wAnAiVDVUVJSAAAv3/PAAD4+mMNEQ4FTEEzMDkICAAAAAAuU4SBNAAAPIaCPw==")
        let descriptor = try #require(section.segmentationDescriptors.first)
        #expect(descriptor.eventID == 0x4800_00BF)
        #expect(descriptor.upidType == 0x0D)
        #expect(
            descriptor.upid == [0x0E, 0x05] + Array("LA309".utf8) + [0x08, 0x08, 0, 0, 0, 0, 0x2E, 0x53, 0x84, 0x81])
        #expect(descriptor.typeID == 0x34)
        #expect(descriptor.duration == 0xF8_FA63)
        #expect(section.isCueOut)
        #expect(section.durationSeconds == 16_317_027.0 / 90_000)
    }

    /// `… 0x35 with UPID 09 (ADI) of 29 bytes "SIGNAL:3-sQ4NgFT0OjPsG4WqUQow"`.
    @Test func anADIUPIDPlacementOpportunityEndEndsTheBreak() throws {
        let section = try SpliceInfoSection(
            encoded: "/DBEAAAAAAAA///wBQb+AFJlwAAuAixDVUVJYgAFin+/CR1TSUdOQUw6My1zUTROZ0ZUME9qUHNHNFdxVVFvdzUAAEukzlg=")
        let descriptor = try #require(section.segmentationDescriptors.first)
        #expect(descriptor.upidType == 0x09)
        #expect(String(decoding: descriptor.upid, as: UTF8.self) == "SIGNAL:3-sQ4NgFT0OjPsG4WqUQow")
        #expect(descriptor.typeID == 0x35)
        #expect(section.isCueIn)
    }

    /// `… 0F 2D "urn:uuid:aa85bbb6-…" 10 00 00`: a URI UPID on a Program
    /// Start (0x10), which is no ad marker.
    @Test func aURIUPIDOnAProgramStartIsNoBreakMarker() throws {
        let section = try SpliceInfoSection(
            encoded:
                "/DBZAAAAAAAA///wBQb+AAAAAABDAkFDVUVJAAAACn//AAApMuAPLXVybjp1dWlkOmFhODViYmI2LTVjNDMtNGI2YS1iZWJiLWVlM2IxM2ViNzk5ORAAAFz7UQA="
        )
        let descriptor = try #require(section.segmentationDescriptors.first)
        #expect(descriptor.upidType == 0x0F)
        #expect(String(decoding: descriptor.upid, as: UTF8.self) == "urn:uuid:aa85bbb6-5c43-4b6a-bebb-ee3b13eb7999")
        #expect(descriptor.typeID == 0x10)
        #expect(!section.isCueOut && !section.isCueIn)
    }

    /// An MPU UPID (0x0C): a format_identifier and private bytes.
    @Test func anMPUUPIDDecodesToItsBytes() throws {
        let upid = Array("CUEI".utf8) + Array("ad-7".utf8)
        let section = SpliceInfoSection(
            command: .timeSignal(SpliceTime(ptsTime: 90_000)),
            descriptors: [
                .segmentation(
                    SegmentationDescriptor(eventID: 3, typeID: 0x30, duration: 1_350_000, upidType: 0x0C, upid: upid))
            ])
        let descriptor = try #require(
            try SpliceInfoSection(encoded: section.base64Encoded).segmentationDescriptors.first)
        #expect(descriptor.upidType == 0x0C)
        #expect(descriptor.upid == upid)
    }

    /// Every real cue here has encrypted_packet 0; a section that sets it is
    /// refused with a typed error, not misread.
    @Test func anEncryptedSectionIsRefused() throws {
        var bytes = try SpliceInfoSection(encoded: Self.spliceInsert30).encoded()
        #expect(bytes[4] & 0x80 == 0)
        bytes[4] |= 0x80
        do {
            _ = try SpliceInfoSection(bytes: bytes, verifyingChecksum: false)
            Issue.record("expected an unsupported-feature error")
        } catch {
            #expect(error.code == .unsupportedFeature)
        }
    }

    /// Base64 with and without padding, hex with and without `0x`, in either case.
    @Test func everyTextFormOfACueDecodesToTheSameSection() throws {
        let section = try SpliceInfoSection(encoded: Self.spliceInsert30)
        let hex = section.hexEncoded
        for text in [
            Self.spliceInsert30.replacingOccurrences(of: "=", with: ""), hex, String(hex.dropFirst(2)),
            hex.lowercased(), " \(Self.spliceInsert30) ",
        ] {
            #expect(try SpliceInfoSection(encoded: text) == section, "\(text)")
        }
    }
}
