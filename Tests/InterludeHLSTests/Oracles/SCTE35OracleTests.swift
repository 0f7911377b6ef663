import Foundation
import Testing

@testable import InterludeHLS

/// `threefive` decodes the SCTE-35 sections InterludeHLS encodes to the
/// values they were made with, and the sections origins write to the
/// values InterludeHLS reads.
@Suite(
    .enabled(if: PythonOracle.has("threefive"), "python3 with the threefive package is missing (pip install threefive)")
)
struct SCTE35OracleTests {
    struct Decoded: Decodable, Equatable {
        struct Descriptor: Decodable, Equatable {
            var typeId: Int
            var eventId: UInt32
            var durationTicks: UInt64?
            var upidType: Int
            var segmentNum: Int
            var segmentsExpected: Int
        }

        var commandType: Int
        var ptsTicks: UInt64?
        var tier: Int
        var eventId: UInt32?
        var outOfNetwork: Bool?
        var immediate: Bool?
        var durationTicks: UInt64?
        var autoReturn: Bool?
        var descriptors: [Descriptor]
    }

    static func decode(_ sections: [String: String]) throws -> [String: Decoded] {
        let directory = try PythonOracle.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let input = directory.appendingPathComponent("sections.json")
        let list = sections.map { ["name": $0.key, "data": $0.value] }
        try JSONSerialization.data(withJSONObject: list).write(to: input)
        let output = try PythonOracle.run([
            PythonOracle.scripts.appendingPathComponent("scte35-oracle.py").path, input.path,
        ])
        return try PythonOracle.snakeCaseDecoder.decode([String: Decoded].self, from: output)
    }

    static func placement(_ typeID: UInt8, event: UInt32, duration: UInt64?, number: UInt8 = 0, expected: UInt8 = 0)
        -> SpliceInfoSection
    {
        var descriptor = SegmentationDescriptor(eventID: event, typeID: typeID, duration: duration)
        descriptor.segmentNumber = number
        descriptor.segmentsExpected = expected
        return SpliceInfoSection(
            command: .timeSignal(SpliceTime(ptsTime: 8_100_000)), descriptors: [.segmentation(descriptor)])
    }

    @Test func threefiveReadsWhatInterludeEncodes() throws {
        var spliceIn = SpliceInsert(eventID: 42, isOutOfNetwork: false)
        spliceIn.isImmediate = true
        let sections: [String: SpliceInfoSection] = [
            "provider-start": Self.placement(0x34, event: 0x1234, duration: 2_700_000, number: 1, expected: 2),
            "provider-end": Self.placement(0x35, event: 0x1234, duration: nil, number: 1, expected: 2),
            "distributor-start": Self.placement(0x36, event: 0x99, duration: 1_350_000),
            "distributor-end": Self.placement(0x37, event: 0x99, duration: nil),
            "splice-out": SpliceInfoSection(
                command: .spliceInsert(
                    SpliceInsert(
                        eventID: 42, spliceTime: SpliceTime(ptsTime: 123_456_789),
                        breakDuration: BreakDuration(autoReturn: true, duration: 2_700_000)))),
            "splice-in": SpliceInfoSection(command: .spliceInsert(spliceIn)),
        ]
        var encoded: [String: String] = [:]
        for (name, section) in sections {
            // Both forms origins use: hex for DATERANGE, base64 for OATCLS.
            encoded[name + "-hex"] = section.hexEncoded
            encoded[name + "-base64"] = section.base64Encoded
        }
        let decoded = try Self.decode(encoded)
        for form in ["-hex", "-base64"] {
            let start = try #require(decoded["provider-start" + form])
            #expect(start.commandType == 6)
            #expect(start.ptsTicks == 8_100_000)
            #expect(start.tier == 0xFFF)
            #expect(
                start.descriptors == [
                    .init(
                        typeId: 0x34, eventId: 0x1234, durationTicks: 2_700_000, upidType: 0, segmentNum: 1,
                        segmentsExpected: 2)
                ])
            #expect(decoded["provider-end" + form]?.descriptors.map(\.typeId) == [0x35])
            #expect(decoded["provider-end" + form]?.descriptors.first?.durationTicks == nil)
            #expect(decoded["distributor-start" + form]?.descriptors.map(\.typeId) == [0x36])
            #expect(decoded["distributor-start" + form]?.descriptors.first?.durationTicks == 1_350_000)
            #expect(decoded["distributor-end" + form]?.descriptors.map(\.typeId) == [0x37])
            let out = try #require(decoded["splice-out" + form])
            #expect(out.commandType == 5)
            #expect(out.eventId == 42)
            #expect(out.outOfNetwork == true)
            #expect(out.immediate == false)
            #expect(out.ptsTicks == 123_456_789)
            #expect(out.durationTicks == 2_700_000)
            #expect(out.autoReturn == true)
            let back = try #require(decoded["splice-in" + form])
            #expect(back.outOfNetwork == false)
            #expect(back.immediate == true)
            #expect(back.durationTicks == nil)
        }
    }

    @Test func interludeReadsOriginsSectionsAsThreefiveDoes() throws {
        // Sections from the AdMarkers fixtures (vendors' documented manifests).
        let origin: [String: String] = [
            "mediatailor": "/DAlAAAAAsvhAP/wFAXwAAAGf+/+AdLfiP4AG3dAAAEBAQAAXytxmQ==",
            "google": "/DAlAAAAAAAAAP/wFAVDE1agf+//yBysA/4APcxQAAAAAAAAXhEvvQ==",
            "enhanced": "/DA0AAAAAAAAAAAABQb+ADAQ6QAeAhxDVUVJQAAAO3/PAAEUrEoICAAAAAAg+2UBNAAANvrtoQ==",
            "elemental":
                "0xFC302500000000000000FFF01405000003E77FEFFE0011FB9EFE002932E00001010100004D192A59",
        ]
        let decoded = try Self.decode(origin)
        for (name, text) in origin {
            let theirs = try #require(decoded[name])
            let ours = try #require(MediaPlaylist.payloadBytes(text).flatMap { try? SpliceInfoSection(bytes: $0) })
            #expect(Int(ours.tier) == theirs.tier, "\(name)")
            switch ours.command {
            case .spliceInsert(let insert):
                #expect(theirs.commandType == 5, "\(name)")
                #expect(insert.eventID == theirs.eventId, "\(name)")
                #expect(insert.isOutOfNetwork == theirs.outOfNetwork, "\(name)")
                #expect(insert.spliceTime?.ptsTime == theirs.ptsTicks, "\(name)")
                #expect(insert.breakDuration?.duration == theirs.durationTicks, "\(name)")
                #expect(insert.breakDuration?.autoReturn == theirs.autoReturn, "\(name)")
            case .timeSignal(let time):
                #expect(theirs.commandType == 6, "\(name)")
                #expect(time.ptsTime == theirs.ptsTicks, "\(name)")
                #expect(ours.segmentationDescriptors.map { Int($0.typeID) } == theirs.descriptors.map(\.typeId))
                #expect(ours.segmentationDescriptors.map(\.eventID) == theirs.descriptors.map(\.eventId))
                #expect(ours.segmentationDescriptors.map(\.duration) == theirs.descriptors.map(\.durationTicks))
            default:
                Issue.record("\(name): unexpected command \(ours.command)")
            }
        }
    }
}
