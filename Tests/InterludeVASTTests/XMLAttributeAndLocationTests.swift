import Foundation
import InterludeVAST
import Testing

/// Attributes are told apart by their qualified names (XML 1.0 §3.1: an
/// attribute name appears at most once per start tag); diagnostics carry
/// the line and column of their element.
@Suite("XML attributes and diagnostic locations")
struct XMLAttributeAndLocationTests {
    /// An extension as an ad server writes it: the schema-instance `xsi:type`
    /// beside VAST's own `type`, on one element.
    static let namespacedType = """
        <VAST version="4.2" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">
          <Ad id="a"><InLine><AdSystem>s</AdSystem><AdTitle>t</AdTitle><Impression>http://i</Impression>
            <Creatives/>
            <Extensions>
              <Extension xsi:type="AdServerExtension" type="uiSettings" fallback="1"><UiHideable>1</UiHideable></Extension>
            </Extensions>
          </InLine></Ad>
        </VAST>
        """

    @Test func sameLocalNameInAnotherNamespaceIsADifferentAttribute() throws {
        let vast = try parseVAST(Self.namespacedType)
        let ext = try #require(vast.ads.first?.extensions.first)
        // VAST's unprefixed `type` is the type; the prefixed one is kept by its qualified name.
        #expect(ext.type == "uiSettings")
        #expect(ext.attributes == ["xsi:type": "AdServerExtension", "fallback": "1"])
        #expect(vast.ads.first?.uiHideable == true)
    }

    @Test func theUnprefixedAttributeWinsWhicheverComesFirst() throws {
        let xml = """
            <VAST version="4.2"><Ad id="a"><InLine><AdSystem>s</AdSystem><Impression>http://i</Impression>
            <Creatives><Creative><Linear><Duration>00:00:10</Duration>
            <TrackingEvents><Tracking vendor:event="pause" event="start">http://t</Tracking></TrackingEvents>
            </Linear></Creative></Creatives></InLine></Ad></VAST>
            """
        let vast = try parseVAST(xml)
        #expect(vast.ads.first?.linear?.trackingEvents.map(\.event) == [.start])
    }

    @Test func aPrefixedAttributeAloneIsStillReadByItsLocalName() throws {
        let xml = """
            <VAST version="4.2"><Ad id="a"><InLine><AdSystem>s</AdSystem><Impression>http://i</Impression>
            <Creatives><Creative><Linear><Duration>00:00:10</Duration>
            <TrackingEvents><Tracking vast:event="start">http://t</Tracking></TrackingEvents>
            </Linear></Creative></Creatives></InLine></Ad></VAST>
            """
        #expect(try parseVAST(xml).ads.first?.linear?.trackingEvents.map(\.event) == [.start])
    }

    @Test func theSameQualifiedNameTwiceIsStillMalformed() throws {
        let plain = try #require(parseError("<VAST version=\"4.2\" version=\"4.1\"/>"))
        #expect(plain.code == .xmlParsingError)
        #expect(plain.message.contains("attribute 'version' appears twice"))
        let prefixed = try #require(parseError("<VAST a:x=\"1\" a:x=\"2\" version=\"4.2\"/>"))
        #expect(prefixed.code == .xmlParsingError)
        #expect(prefixed.message.contains("attribute 'a:x' appears twice"))
    }

    @Test func everyDiagnosticHasTheLineAndColumnOfItsElement() throws {
        // Findings on several lines, out of document order in the reader's walk
        // (ad-level before creative-level), after multi-byte characters.
        let xml = """
            <VAST version="4.2">
            <Ad id="é"><InLine><AdSystem>s</AdSystem><Impression>http://i</Impression><Creatives>
            <Creative><Linear><Duration>30</Duration><TrackingEvents>
              <Tracking>http://no-event</Tracking>
            \u{00E9}\u{00E9}<Tracking event="progress">http://no-offset</Tracking>
            </TrackingEvents></Linear></Creative></Creatives></InLine></Ad></VAST>
            """
        let diagnostics = try parse(xml).diagnostics
        let located = diagnostics.map { "\($0.line ?? 0):\($0.column ?? 0) \($0.message)" }
        #expect(located.contains { $0.hasPrefix("3:19 Duration \"30\"") }, "\(located)")
        #expect(located.contains { $0.hasPrefix("4:3 <Tracking> without an event") }, "\(located)")
        #expect(located.contains { $0.hasPrefix("5:3 <Tracking event=\"progress\"> without an offset") }, "\(located)")
    }

    @Test func thousandsOfFindingsAreAllLocated() throws {
        var xml = "<VAST version=\"4.2\"><Ad id=\"a\"><InLine><AdSystem>s</AdSystem><Impression>http://i</Impression>"
        xml += "<Creatives><Creative><Linear><Duration>00:00:10</Duration><TrackingEvents>\n"
        for _ in 0..<5000 { xml += "<Tracking>http://t</Tracking>\n" }
        xml += "</TrackingEvents></Linear></Creative></Creatives></InLine></Ad></VAST>"
        let findings = try parse(xml).diagnostics.filter { $0.message.contains("without an event") }
        #expect(findings.count == 5000)
        #expect(findings.map(\.line) == (2...5001).map { $0 })
        #expect(findings.allSatisfy { $0.column == 1 })
    }
}
