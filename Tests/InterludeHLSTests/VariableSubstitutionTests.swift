import Foundation
import Testing

@testable import InterludeHLS

@Suite struct VariableSubstitutionTests {
    @Test func definedAndImportedVariablesAreSubstitutedInURIs() throws {
        let playlist = try Fixture.media("Variables/define.m3u8").resolvingVariables(imported: ["token": "abc"])
        #expect(playlist.segments[0].uri == "https://cdn.example.com/live/s1.ts?t=abc")
    }

    @Test func multivariantVariablesAreSubstitutedInURIsAndQuotedAttributes() throws {
        let playlist = try MultivariantPlaylist(parsing: Fixture.text("Multivariant/multivariant.m3u8"))
            .resolvingVariables()
        #expect(playlist.variants[0].uri == "https://cdn.example.com/video/360.m3u8")
        #expect(playlist.renditions[0].uri == "https://cdn.example.com/audio/en.m3u8")
        #expect(playlist.iFrameVariants[0].string("URI") == "https://cdn.example.com/video/360-iframes.m3u8")
    }

    @Test func importWithoutAValueIsAnError() throws {
        do {
            _ = try Fixture.media("Variables/define.m3u8").resolvingVariables()
            Issue.record("expected an error")
        } catch {
            #expect(error.code == .undefinedVariable)
            #expect(error.line == 5)
        }
    }

    @Test func multivariantVariablesAreOfferedForImport() throws {
        let playlist = try MultivariantPlaylist(parsing: Fixture.text("Multivariant/multivariant.m3u8"))
        #expect(playlist.variables == ["cdn": "https://cdn.example.com"])
    }

    /// QUERYPARAM values (RFC 8216bis 4.4.2.3): percent-decoded, the first
    /// occurrence of a name wins, a name without `=` is empty.
    @Test func queryParametersOfAURL() throws {
        let url = try #require(URL(string: "https://cdn.example.com/live.m3u8?token=a%2Fb&token=second&flag&e="))
        #expect(HLSQueryParameters.values(in: url) == ["token": "a/b", "flag": "", "e": ""])
        #expect(HLSQueryParameters.values(in: try #require(URL(string: "https://cdn.example.com/a.m3u8"))).isEmpty)
    }
}
