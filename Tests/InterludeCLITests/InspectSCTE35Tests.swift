import Foundation
import Testing

@testable import InterludeCLI

/// `interlude inspect --scte35`: the examples of SCTE 35 (2019) section 14,
/// whose field values the specification lists, and bad input.
@Suite("interlude inspect --scte35")
struct InspectSCTE35Tests {
    /// Section 14.1: splice_insert, out of network, with a break duration and an avail descriptor.
    static let spliceInsert = "/DAvAAAAAAAA///wFAVIAACPf+/+c2nALv4AUsz1AAAAAAAKAAhDVUVJAAABNWLbowo="
    static let spliceInsertHex =
        "0xFC302F000000000000FFFFF014054800008F7FEFFE7369C02EFE0052CCF500000000000A0008435545490000013562DBA30A"
    /// Section 14.2: time_signal with a provider placement opportunity start.
    static let timeSignal = "/DA0AAAAAAAA///wBQb+cr0AUAAeAhxDVUVJSAAAjn/PAAGlmbAICAAAAAAsoKGKNAIAmsnRfg=="

    private func inspect(_ arguments: [String]) async -> CommandResult {
        await InspectCommand.run(arguments: arguments, readStandardInput: { Data() })
    }

    private func json(_ value: String) async throws -> (object: [String: Any], exitCode: Int32) {
        let result = await inspect(["--scte35", value, "--json"])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any])
        return (object, result.exitCode)
    }

    @Test func theSpliceInsertExampleDecodesAsTheSpecificationSays() async throws {
        let (object, exitCode) = try await json(Self.spliceInsert)
        #expect(exitCode == 0)
        #expect(object["kind"] as? String == "scte35" && object["encoding"] as? String == "base64")
        #expect(object["tableID"] as? Int == 0xFC && object["sectionLength"] as? Int == 47)
        #expect(
            object["ptsAdjustment"] as? Int == 0 && object["cwIndex"] as? Int == 0xFF && object["tier"] as? Int == 0xFFF
        )
        let crc = try #require(object["crc"] as? [String: Any])
        #expect(crc["value"] as? String == "0x62DBA30A" && crc["computed"] as? String == "0x62DBA30A")
        #expect(crc["valid"] as? Bool == true)
        let command = try #require(object["command"] as? [String: Any])
        #expect(command["type"] as? Int == 5 && command["name"] as? String == "splice_insert")
        #expect(command["spliceEventID"] as? Int == 0x4800_008F)
        #expect(command["outOfNetwork"] as? Bool == true && command["programSplice"] as? Bool == true)
        #expect(command["immediate"] as? Bool == false)
        #expect((command["spliceTime"] as? [String: Any])?["ptsTime"] as? Int == 0x0_7369_C02E)
        #expect((command["spliceTime"] as? [String: Any])?["ptsTimeSeconds"] as? Double == 21514.559089)
        let duration = try #require(command["breakDuration"] as? [String: Any])
        #expect(duration["autoReturn"] as? Bool == true && duration["duration"] as? Int == 0x0_0052_CCF5)
        #expect(duration["durationSeconds"] as? Double == 60.293567)
        #expect(command["uniqueProgramID"] as? Int == 0 && command["availNum"] as? Int == 0)
        let avail = try #require((object["descriptors"] as? [[String: Any]])?.first)
        #expect(avail["name"] as? String == "avail_descriptor" && avail["identifier"] as? String == "CUEI")
        #expect(avail["providerAvailID"] as? Int == 0x135)
        #expect(object["cueOut"] as? Bool == true && object["cueIn"] as? Bool == false)
    }

    @Test func theTimeSignalExampleDecodesAsTheSpecificationSays() async throws {
        let (object, exitCode) = try await json(Self.timeSignal)
        #expect(exitCode == 0)
        let command = try #require(object["command"] as? [String: Any])
        #expect(command["name"] as? String == "time_signal")
        #expect((command["spliceTime"] as? [String: Any])?["ptsTime"] as? Int == 0x0_72BD_0050)
        let segmentation = try #require((object["descriptors"] as? [[String: Any]])?.first)
        #expect(segmentation["name"] as? String == "segmentation_descriptor")
        #expect(segmentation["segmentationEventID"] as? Int == 0x4800_008E)
        #expect(segmentation["duration"] as? Int == 0x00_01A5_99B0 && segmentation["durationSeconds"] as? Double == 307)
        #expect(segmentation["upidType"] as? Int == 8 && segmentation["upid"] as? String == "0x000000002CA0A18A")
        #expect(segmentation["typeID"] as? Int == 0x34)
        #expect(segmentation["typeName"] as? String == "Provider Placement Opportunity Start")
        #expect(segmentation["segmentNumber"] as? Int == 2 && segmentation["segmentsExpected"] as? Int == 0)
        let restrictions = try #require(segmentation["deliveryRestrictions"] as? [String: Any])
        #expect(
            restrictions["webDeliveryAllowed"] as? Bool == false && restrictions["noRegionalBlackout"] as? Bool == true)
        #expect(restrictions["archiveAllowed"] as? Bool == true && restrictions["deviceRestrictions"] as? Int == 3)
        #expect((object["crc"] as? [String: Any])?["value"] as? String == "0x9AC9D17E")
    }

    @Test func hexAndBase64ReadTheSameSection() async throws {
        let (hex, _) = try await json(Self.spliceInsertHex)
        let (base64, _) = try await json(Self.spliceInsert)
        #expect(hex["encoding"] as? String == "hex")
        #expect((hex["command"] as? [String: Any])?["spliceEventID"] as? Int == 0x4800_008F)
        #expect(
            (hex["descriptors"] as? [[String: Any]])?.count == (base64["descriptors"] as? [[String: Any]])?.count)
    }

    /// Some packagers strip the base64 padding (the 14.2 example ends in `==`).
    @Test func base64WithoutItsPaddingReadsTheSameSection() async throws {
        let (object, exitCode) = try await json(Self.timeSignal.replacingOccurrences(of: "=", with: ""))
        #expect(exitCode == 0)
        #expect(object["kind"] as? String == "scte35" && object["encoding"] as? String == "base64")
        #expect((object["crc"] as? [String: Any])?["value"] as? String == "0x9AC9D17E")
    }

    @Test func aWrongCRCIsReportedWithTheRightOneAndTheFieldsAreStillShown() async throws {
        let broken = String(Self.spliceInsertHex.dropLast()) + "B"
        let (object, exitCode) = try await json(broken)
        #expect(exitCode == 1)
        #expect(object["kind"] as? String == "invalid")
        let crc = try #require(object["crc"] as? [String: Any])
        #expect(crc["value"] as? String == "0x62DBA30B" && crc["computed"] as? String == "0x62DBA30A")
        #expect(crc["valid"] as? Bool == false)
        #expect((object["error"] as? [String: Any])?["code"] as? String == "checksumMismatch")
        #expect((object["command"] as? [String: Any])?["spliceEventID"] as? Int == 0x4800_008F)
        let text = await inspect(["--scte35", broken])
        #expect(text.exitCode == 1)
        #expect(text.output.contains("CRC-32: 0x62DBA30B (WRONG: the bytes give 0x62DBA30A; fields decoded anyway)"))
        #expect(text.output.contains("result: invalid"))
    }

    @Test func theTextNamesEveryField() async {
        let result = await inspect(["--scte35", Self.timeSignal])
        #expect(result.exitCode == 0)
        for line in [
            "command: time_signal (0x06)", "splice_time: 1924989008 ticks (21388.766756 s)",
            "segmentation_descriptor (tag 0x02, CUEI)", "segmentation_event_id: 1207959694 (0x4800008e)",
            "segmentation_duration: 27630000 ticks (307 s)",
            "segmentation_upid: type 0x08 (TI (airing ID)) 0x000000002CA0A18A",
            "segmentation_type_id: 0x34 (Provider Placement Opportunity Start)", "segment 2 of 0",
            "meaning: cue out, break of 307 s", "result: valid",
        ] {
            #expect(result.output.contains(line), "missing: \(line)")
        }
    }

    @Test func aDTMFDescriptorIsDecoded() async throws {
        // splice_null with DTMF_descriptor: preroll 0x50 (8 s), 4 characters "159#".
        let (object, _) = try await json("/DAdAAAAAAAAAP/wAAAADAEKQ1VFSVCfMTU5I+Fj87s=")
        #expect((object["command"] as? [String: Any])?["name"] as? String == "splice_null")
        let dtmf = try #require((object["descriptors"] as? [[String: Any]])?.first)
        #expect(dtmf["name"] as? String == "DTMF_descriptor")
        #expect(dtmf["preroll"] as? Int == 80 && dtmf["dtmfChars"] as? String == "159#")
    }

    @Test func badInputIsInvalidWithItsReason() async throws {
        let (garbage, garbageExit) = try await json("not a section!")
        #expect(garbageExit == 1 && garbage["kind"] as? String == "invalid")
        #expect((garbage["error"] as? [String: Any])?["code"] as? String == "invalidEncoding")
        let (truncated, _) = try await json(String(Self.spliceInsertHex.prefix(40)))
        #expect((truncated["error"] as? [String: Any])?["code"] as? String == "truncatedSection")
        let (notSCTE, _) = try await json("0xFD302F00")
        #expect(notSCTE["kind"] as? String == "invalid")
    }

    @Test func usageErrorsExitTwo() async {
        #expect(await inspect(["--scte35"]).exitCode == 2)
        #expect(await inspect(["--scte35", Self.spliceInsert, "file.xml"]).exitCode == 2)
    }
}
