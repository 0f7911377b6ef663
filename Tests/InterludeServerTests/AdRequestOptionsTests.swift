import Testing

@testable import InterludeServer

@Suite struct AdRequestOptionsTests {
    private func options(_ query: [String: String]) throws(HTTPError) -> AdRequestOptions {
        try AdRequestOptions(query: { query[$0] })
    }

    @Test func defaultsAreOneAdOfVAST42() throws {
        let parsed = try options([:])
        #expect(parsed.podSize == nil)
        #expect(parsed.version == "4.2")
        #expect(parsed.skippable == nil && parsed.uiHideable == nil && parsed.adIDs == nil)
    }

    @Test func negativePodSizeIs400() {
        let error = #expect(throws: HTTPError.self) { try options(["pod": "-1"]) }
        #expect(error?.status == 400)
        #expect(error?.message.contains("pod") == true)
    }

    @Test func nonNumericAndTooLargePodSizesAre400() {
        #expect(throws: HTTPError.self) { try options(["pod": "three"]) }
        #expect(throws: HTTPError.self) { try options(["pod": "11"]) }
    }

    @Test func unknownVersionIs400() {
        let error = #expect(throws: HTTPError.self) { try options(["version": "5.0"]) }
        #expect(error?.message.contains("unknown VAST version") == true)
    }

    @Test func versionAliasesMapToFullVersions() throws {
        #expect(try options(["version": "3"]).version == "3.0")
        #expect(try options(["version": "4"]).version == "4.2")
        #expect(try options(["version": "4.1"]).version == "4.1")
    }

    @Test func booleansAcceptTrueFalseAndDigits() throws {
        #expect(try options(["skippable": "true", "hideable": "0"]).skippable == true)
        #expect(try options(["skippable": "true", "hideable": "0"]).uiHideable == false)
        #expect(try options(["uiHideable": "1"]).uiHideable == true)
        #expect(throws: HTTPError.self) { try options(["skippable": "maybe"]) }
    }

    @Test func adsListIsSplitOnCommas() throws {
        #expect(try options(["ads": "a,b,a"]).adIDs == ["a", "b", "a"])
    }
}
