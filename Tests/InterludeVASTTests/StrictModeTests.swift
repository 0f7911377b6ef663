import Foundation
import InterludeVAST
import Testing

@Suite("Strict and lenient modes")
struct StrictModeTests {
    static let minimalInline = """
        <VAST version="4.2"><Ad id="a"><InLine>
        <AdSystem>s</AdSystem><AdTitle>t</AdTitle><AdServingId>sid</AdServingId>
        <Impression><![CDATA[http://imp]]></Impression>
        <Creatives><Creative><UniversalAdId idRegistry="ad-id.org">CNPA0484000H</UniversalAdId><Linear><Duration>00:00:15</Duration>
        <MediaFiles><MediaFile delivery="progressive" type="video/mp4" width="640" height="360"><![CDATA[http://m.mp4]]></MediaFile></MediaFiles>
        </Linear></Creative></Creatives></InLine></Ad></VAST>
        """

    @Test func aSchemaValidDocumentPassesStrictMode() throws {
        let vast = try parseVAST(Self.minimalInline, mode: .strict)
        #expect(vast.ads.first?.linear?.duration == VASTTime(milliseconds: 15_000))
        #expect(
            vast.ads.first?.creatives.first?.universalAdIDs == [
                UniversalAdID(idRegistry: "ad-id.org", value: "CNPA0484000H")
            ])
    }

    @Test func missingRequiredElementsAre101InStrictMode() throws {
        let xml = Self.minimalInline.replacingOccurrences(of: "<AdTitle>t</AdTitle>", with: "")
        let error = try #require(parseError(xml, options: .init(mode: .strict)))
        #expect(error.code == .schemaValidationError)
        #expect(error.message == "<InLine> has no AdTitle")
        #expect(error.line == 1)
        // Lenient keeps the ad and warns.
        let lenient = try parse(xml)
        #expect(lenient.diagnostics.map(\.message) == ["<InLine> has no AdTitle"])
    }

    @Test func strictModeCollectsEveryViolation() throws {
        let xml = Self.minimalInline
            .replacingOccurrences(of: "<Duration>00:00:15</Duration>", with: "<Duration>15s</Duration>")
            .replacingOccurrences(of: "width=\"640\"", with: "width=\"x\"")
            .replacingOccurrences(of: "<AdServingId>sid</AdServingId>", with: "")
        let error = try #require(parseError(xml, options: .init(mode: .strict)))
        #expect(error.code == .schemaValidationError)
        #expect(error.diagnostics.count >= 4)
        #expect(error.diagnostics.allSatisfy { $0.severity == .error })
    }

    @Test func attributeFormatsAreEnforcedInStrictMode() {
        for (find, replace) in [
            ("<Ad id=\"a\">", "<Ad id=\"a\" sequence=\"first\">"),
            ("<Linear>", "<Linear skipoffset=\"5 seconds\">"),
            ("delivery=\"progressive\"", "delivery=\"carrier-pigeon\""),
            ("type=\"video/mp4\" ", ""),
        ] {
            let xml = Self.minimalInline.replacingOccurrences(of: find, with: replace)
            #expect(parseError(xml, options: .init(mode: .strict))?.code == .schemaValidationError, "\(replace)")
            #expect(parseError(xml) == nil, "lenient: \(replace)")
        }
    }

    @Test func wrapperWithoutTagURIIs101InStrictMode() {
        let xml =
            "<VAST version=\"3.0\"><Ad><Wrapper><AdSystem>s</AdSystem><Impression>http://i</Impression></Wrapper></Ad></VAST>"
        #expect(parseError(xml, options: .init(mode: .strict))?.message == "<Wrapper> has no VASTAdTagURI")
    }

    @Test func adServingIdIsOnlyRequiredFromVAST41() throws {
        let xml = Self.minimalInline.replacingOccurrences(of: "<AdServingId>sid</AdServingId>", with: "")
        #expect(
            parseError(
                xml.replacingOccurrences(of: "version=\"4.2\"", with: "version=\"4.0\""), options: .init(mode: .strict))
                == nil)
        #expect(parseError(xml, options: .init(mode: .strict))?.message.contains("AdServingId") == true)
    }

    @Test func vmapBreakWithoutBreakTypeIs1000InStrictMode() {
        let xml =
            "<vmap:VMAP xmlns:vmap=\"http://www.iab.net/vmap-1.0\" version=\"1.0\"><vmap:AdBreak timeOffset=\"start\"/></vmap:VMAP>"
        #expect(parseError(xml, options: .init(mode: .strict))?.code == .vmapSchemaError)
        #expect(parseError(xml) == nil)
    }
}

@Suite("Model semantics")
struct ModelSemanticsTests {
    @Test func uiHideableIsReadFromTheUiSettingsExtension() throws {
        func ad(_ value: String, type: String = "uiSettings") throws -> Ad {
            try #require(
                try parseVAST(
                    "<VAST version=\"4.2\"><Ad><InLine><Extensions><Extension type=\"\(type)\"><UiHideable>\(value)</UiHideable></Extension></Extensions></InLine></Ad></VAST>"
                ).ads.first)
        }
        #expect(try ad("1").uiHideable == true)
        #expect(try ad("0").uiHideable == false)
        #expect(try ad(" 1 ").uiHideable == true)
        #expect(try ad("maybe").uiHideable == nil)
        #expect(try ad("1", type: "other").uiHideable == nil)
        #expect(try parseVAST("<VAST version=\"4.2\"><Ad><InLine/></Ad></VAST>").ads.first?.uiHideable == nil)
    }

    @Test func podIsSortedBySequenceAndBuffetKeepsDocumentOrder() throws {
        let vast = try parseVAST(
            "<VAST version=\"4.2\"><Ad id=\"b1\"><InLine/></Ad><Ad id=\"p3\" sequence=\"3\"><InLine/></Ad><Ad id=\"p1\" sequence=\"1\"><InLine/></Ad><Ad id=\"b2\"><InLine/></Ad><Ad id=\"p2\" sequence=\"2\"><InLine/></Ad></VAST>"
        )
        #expect(vast.pod.map(\.id) == ["p1", "p2", "p3"])
        #expect(vast.buffet.map(\.id) == ["b1", "b2"])
    }

    @Test func namespacedVASTElementsAreMatchedByLocalName() throws {
        let vast = try parseVAST(
            "<v:VAST xmlns:v=\"http://www.iab.com/VAST\" version=\"4.1\"><v:Ad id=\"n\"><v:InLine><v:AdTitle>t</v:AdTitle></v:InLine></v:Ad></v:VAST>"
        )
        #expect(vast.ads.first?.inLine?.adTitle == "t")
    }

    @Test func urlsAreTrimmedOfWhitespaceAndCDATA() throws {
        let vast = try parseVAST(
            "<VAST version=\"4.2\"><Error>\n   <![CDATA[  http://a.test/x  ]]>\n </Error><Error>\n http://b.test/y \n</Error></VAST>"
        )
        #expect(vast.errors == ["http://a.test/x", "http://b.test/y"])
    }

    @Test func universalAdIdFromVAST40IdValueAttribute() throws {
        let vast = try parseVAST(
            "<VAST version=\"4.0\"><Ad><InLine><Creatives><Creative><UniversalAdId idRegistry=\"Ad-ID\" idValue=\"8465\"/></Creative></Creatives></InLine></Ad></VAST>"
        )
        #expect(vast.ads.first?.creatives.first?.universalAdIDs == [UniversalAdID(idRegistry: "Ad-ID", value: "8465")])
    }
}
