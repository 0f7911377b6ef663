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
            var type_id: Int
            var event_id: UInt32
            var duration_ticks: UInt64?
            var upid_type: Int
            var segment_num: Int
            var segments_expected: Int
        }

        var command_type: Int
        var pts_ticks: UInt64?
        var tier: Int
        var event_id: UInt32?
        var out_of_network: Bool?
        var immediate: Bool?
        var duration_ticks: UInt64?
        var auto_return: Bool?
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
        return try JSONDecoder().decode([String: Decoded].self, from: output)
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
            #expect(start.command_type == 6)
            #expect(start.pts_ticks == 8_100_000)
            #expect(start.tier == 0xFFF)
            #expect(
                start.descriptors == [
                    .init(
                        type_id: 0x34, event_id: 0x1234, duration_ticks: 2_700_000, upid_type: 0, segment_num: 1,
                        segments_expected: 2)
                ])
            #expect(decoded["provider-end" + form]?.descriptors.map(\.type_id) == [0x35])
            #expect(decoded["provider-end" + form]?.descriptors.first?.duration_ticks == nil)
            #expect(decoded["distributor-start" + form]?.descriptors.map(\.type_id) == [0x36])
            #expect(decoded["distributor-start" + form]?.descriptors.first?.duration_ticks == 1_350_000)
            #expect(decoded["distributor-end" + form]?.descriptors.map(\.type_id) == [0x37])
            let out = try #require(decoded["splice-out" + form])
            #expect(out.command_type == 5)
            #expect(out.event_id == 42)
            #expect(out.out_of_network == true)
            #expect(out.immediate == false)
            #expect(out.pts_ticks == 123_456_789)
            #expect(out.duration_ticks == 2_700_000)
            #expect(out.auto_return == true)
            let back = try #require(decoded["splice-in" + form])
            #expect(back.out_of_network == false)
            #expect(back.immediate == true)
            #expect(back.duration_ticks == nil)
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
                #expect(theirs.command_type == 5, "\(name)")
                #expect(insert.eventID == theirs.event_id, "\(name)")
                #expect(insert.isOutOfNetwork == theirs.out_of_network, "\(name)")
                #expect(insert.spliceTime?.ptsTime == theirs.pts_ticks, "\(name)")
                #expect(insert.breakDuration?.duration == theirs.duration_ticks, "\(name)")
                #expect(insert.breakDuration?.autoReturn == theirs.auto_return, "\(name)")
            case .timeSignal(let time):
                #expect(theirs.command_type == 6, "\(name)")
                #expect(time.ptsTime == theirs.pts_ticks, "\(name)")
                #expect(ours.segmentationDescriptors.map { Int($0.typeID) } == theirs.descriptors.map(\.type_id))
                #expect(ours.segmentationDescriptors.map(\.eventID) == theirs.descriptors.map(\.event_id))
                #expect(ours.segmentationDescriptors.map(\.duration) == theirs.descriptors.map(\.duration_ticks))
            default:
                Issue.record("\(name): unexpected command \(ours.command)")
            }
        }
    }
}
