import Foundation
import InterludeVAST
import Testing

/// What real-world tags write that the schema does not, read the way
/// players read it (each found by an audit against public tags): loose
/// times everywhere a time goes, event names in another case, a miscased
/// `skipoffset`, Open Measurement verifications in an extension before VAST
/// 4.1, and windows-1252 text.
@Suite struct RealWorldLeniencyTests {
    static func inline(version: String = "3.0", linearAttributes: String = "", tracking: String = "") -> String {
        """
        <VAST version="\(version)"><Ad id="1"><InLine><AdSystem>x</AdSystem><AdTitle>t</AdTitle>
        <Impression>https://e.com/imp</Impression><Creatives><Creative><Linear \(linearAttributes)>
        <Duration>00:00:30</Duration><TrackingEvents>\(tracking)</TrackingEvents>
        <MediaFiles><MediaFile delivery="progressive" type="video/mp4" width="640" height="360">https://e.com/a.mp4</MediaFile></MediaFiles>
        </Linear></Creative></Creatives></InLine></Ad></VAST>
        """
    }

    @Test(arguments: [("5", 5000), ("12.5", 12_500), ("0:0:7", 7000), ("00:1:05.5", 65_500)])
    func aLooseSkipOffsetIsReadAsSeconds(raw: String, milliseconds: Int) throws {
        let result = try VASTParser().parseVAST(Data(Self.inline(linearAttributes: "skipoffset=\"\(raw)\"").utf8))
        #expect(result.document.ads.first?.linear?.skipOffset == .time(VASTTime(milliseconds: milliseconds)))
        #expect(result.diagnostics.contains { $0.message.contains("skipoffset \"\(raw)\"") && $0.severity == .warning })
        #expect(throws: VASTError.self) {
            try VASTParser(options: .init(mode: .strict)).parseVAST(
                Data(Self.inline(linearAttributes: "skipoffset=\"\(raw)\"").utf8))
        }
    }

    @Test(arguments: ["-5", "1e3", "inf", "5s", "1:60:00", "0:0:60", ""])
    func whatIsNoTimeStaysNoTime(raw: String) throws {
        let result = try VASTParser().parseVAST(Data(Self.inline(linearAttributes: "skipoffset=\"\(raw)\"").utf8))
        #expect(result.document.ads.first?.linear?.skipOffset == nil)
    }

    @Test func aMiscasedSkipOffsetAttributeIsRead() throws {
        let result = try VASTParser().parseVAST(Data(Self.inline(linearAttributes: "skipOffset=\"00:00:05\"").utf8))
        #expect(result.document.ads.first?.linear?.skipOffset == .time(VASTTime(milliseconds: 5000)))
        #expect(result.diagnostics.contains { $0.message.contains("skipOffset") })
    }

    @Test func aBareSecondsProgressOffsetIsKept() throws {
        let tracking = #"<Tracking event="progress" offset="10">https://e.com/p10</Tracking>"#
        let linear = try #require(
            try VASTParser().parseVAST(Data(Self.inline(tracking: tracking).utf8)).document.ads.first?.linear)
        #expect(linear.trackingEvents.first?.offset == .time(VASTTime(milliseconds: 10_000)))
    }

    @Test func anUnpaddedDurationIsReadAsSeconds() throws {
        let xml = Self.inline().replacingOccurrences(
            of: "<Duration>00:00:30</Duration>", with: "<Duration>0:0:15</Duration>")
        let result = try VASTParser().parseVAST(Data(xml.utf8))
        #expect(result.document.ads.first?.linear?.duration == VASTTime(milliseconds: 15_000))
        #expect(result.diagnostics.contains { $0.message.contains("\"0:0:15\"") })
    }

    @Test func eventNamesInAnotherCaseFireAsTheirEvent() throws {
        let tracking = """
            <Tracking event="Start">https://e.com/s</Tracking><Tracking event="FIRSTQUARTILE">https://e.com/q</Tracking>\
            <Tracking event="impression">https://e.com/i</Tracking>
            """
        let result = try VASTParser().parseVAST(Data(Self.inline(tracking: tracking).utf8))
        let events = try #require(result.document.ads.first?.linear?.trackingEvents.map(\.event))
        #expect(events == [.start, .firstQuartile, TrackingEventType("impression")])
        #expect(
            result.diagnostics.contains { $0.message.contains("\"impression\"") && $0.message.contains("never fires") })
        #expect(throws: VASTError.self) {
            try VASTParser(options: .init(mode: .strict)).parseVAST(Data(Self.inline(tracking: tracking).utf8))
        }
    }

    @Test func openMeasurementInAnExtensionIsReadBeforeVAST41() throws {
        let xml = Self.inline().replacingOccurrences(
            of: "<Creatives>",
            with: """
                <Extensions><Extension type="AdVerifications"><AdVerifications>\
                <Verification vendor="dv-omid"><JavaScriptResource apiFramework="omid" browserOptional="true">\
                https://cdn.e.com/dv.js</JavaScriptResource><VerificationParameters>p=1</VerificationParameters>\
                <TrackingEvents><Tracking event="verificationNotExecuted">https://e.com/vne</Tracking></TrackingEvents>\
                </Verification></AdVerifications></Extension>\
                <Extension type="AdVerifications"><Verification vendor="ias"><JavaScriptResource apiFramework="omid">\
                https://cdn.e.com/ias.js</JavaScriptResource></Verification></Extension></Extensions><Creatives>
                """)
        let inLine = try #require(try VASTParser().parseVAST(Data(xml.utf8)).document.ads.first?.inLine)
        #expect(inLine.adVerifications.map(\.vendor) == ["dv-omid", "ias"])
        #expect(inLine.adVerifications.first?.verificationParameters == "p=1")
        #expect(inLine.adVerifications.first?.trackingEvents.map(\.event) == [.verificationNotExecuted])
        // The extension is still there as it was.
        #expect(inLine.extensions.map(\.type) == ["AdVerifications", "AdVerifications"])
    }

    @Test func theAdVerificationsElementWinsOverTheExtension() throws {
        let xml = Self.inline(version: "4.1").replacingOccurrences(
            of: "<Creatives>",
            with: """
                <AdVerifications><Verification vendor="element"><JavaScriptResource apiFramework="omid">\
                https://cdn.e.com/a.js</JavaScriptResource></Verification></AdVerifications>\
                <Extensions><Extension type="AdVerifications"><AdVerifications><Verification vendor="extension">\
                <JavaScriptResource apiFramework="omid">https://cdn.e.com/a.js</JavaScriptResource></Verification>\
                </AdVerifications></Extension></Extensions><Creatives>
                """)
        let inLine = try #require(try VASTParser().parseVAST(Data(xml.utf8)).document.ads.first?.inLine)
        #expect(inLine.adVerifications.map(\.vendor) == ["element"])
    }

    @Test func windows1252AndLatin1TextReadAsBrowsersReadIt() throws {
        for label in ["windows-1252", "ISO-8859-1"] {
            var bytes = Array("<?xml version=\"1.0\" encoding=\"\(label)\"?>".utf8)
            bytes += Array(Self.inline().utf8)
            let title: [UInt8] = [0x44, 0x6F, 0x6E, 0x92, 0x74, 0x20, 0x80, 0x35, 0x20, 0x96, 0x20, 0xE9]
            let marker = Array("<AdTitle>t</AdTitle>".utf8)
            let start = try #require(bytes.firstRange(of: marker))
            bytes.replaceSubrange(start, with: Array("<AdTitle>".utf8) + title + Array("</AdTitle>".utf8))
            let document = try VASTParser().parseVAST(Data(bytes)).document
            #expect(document.ads.first?.inLine?.adTitle == "Don’t €5 – é", "\(label)")
        }
    }

    @Test func aVAST4CreativeWithoutUniversalAdIdAndAnIconWithoutItsAttributesAreViolations() throws {
        let xml = Self.inline(version: "4.0").replacingOccurrences(
            of: "<MediaFiles>",
            with:
                "<Icons><Icon program=\"AdChoices\"><StaticResource creativeType=\"image/png\">https://e.com/i.png</StaticResource></Icon></Icons><MediaFiles>"
        )
        let result = try VASTParser().parseVAST(Data(xml.utf8))
        #expect(result.diagnostics.contains { $0.message.contains("no UniversalAdId") })
        #expect(
            result.diagnostics.contains { $0.message.contains("<Icon> has no width, height, xPosition, yPosition") })
        #expect(throws: VASTError.self) { try VASTParser(options: .init(mode: .strict)).parseVAST(Data(xml.utf8)) }
    }

    @Test(arguments: [("Start", BreakTimeOffset.start), ("END", .end), ("15.0", .time(VASTTime(milliseconds: 15_000)))])
    func aLooseVMAPTimeOffsetKeepsTheBreak(raw: String, expected: BreakTimeOffset) throws {
        let xml = """
            <vmap:VMAP xmlns:vmap="http://www.iab.net/videosuite/vmap" version="1.0">\
            <vmap:AdBreak timeOffset="\(raw)" breakType="linear" breakId="b">\
            <vmap:AdSource id="s"><vmap:AdTagURI templateType="vast3">https://e.com/vast</vmap:AdTagURI></vmap:AdSource>\
            </vmap:AdBreak></vmap:VMAP>
            """
        let result = try VASTParser().parseVMAP(Data(xml.utf8))
        #expect(result.document.adBreaks.map(\.timeOffset) == [expected])
        #expect(result.diagnostics.contains { $0.message.contains("\"\(raw)\"") })
    }

    @Test func aVASTWrittenAsCDATAInsideVASTAdDataKeepsItsBreak() throws {
        let vast = Self.inline()
        let xml = """
            <vmap:VMAP xmlns:vmap="http://www.iab.net/videosuite/vmap" version="1.0">\
            <vmap:AdBreak timeOffset="start" breakType="linear" breakId="pre"><vmap:AdSource id="pre">\
            <vmap:VASTAdData><![CDATA[\(vast)]]></vmap:VASTAdData></vmap:AdSource></vmap:AdBreak></vmap:VMAP>
            """
        let result = try VASTParser().parseVMAP(Data(xml.utf8))
        guard case .vastAdData(let document) = result.document.adBreaks.first?.adSource?.content else {
            Issue.record("the break lost its embedded VAST")
            return
        }
        #expect(document.ads.first?.inLine?.adTitle == "t")
        #expect(result.diagnostics.contains { $0.message.contains("as text") })
        let noVAST = xml.replacingOccurrences(of: vast, with: "not a VAST")
        #expect(try VASTParser().parseVMAP(Data(noVAST.utf8)).diagnostics.contains { $0.message.contains("no <VAST>") })
    }

    @Test func aDoctypeWithoutAnInternalSubsetIsSkipped() throws {
        let plain = "<?xml version=\"1.0\"?>\n<!DOCTYPE VAST>\n" + Self.inline()
        #expect(try VASTParser().parseVAST(Data(plain.utf8)).document.ads.count == 1)
        let external = "<!DOCTYPE VAST SYSTEM \"http://127.0.0.1:9/vast.dtd\">" + Self.inline()
        #expect(try VASTParser().parseVAST(Data(external.utf8)).document.ads.count == 1)
        // An internal subset is where entities are declared: still refused.
        let subset = "<!DOCTYPE VAST [<!ENTITY x \"y\">]>" + Self.inline()
        #expect(throws: VASTError.self) { try VASTParser().parseVAST(Data(subset.utf8)) }
        let unterminated = "<!DOCTYPE VAST " + Self.inline().replacingOccurrences(of: ">", with: "")
        #expect(throws: VASTError.self) { try VASTParser().parseVAST(Data(unterminated.utf8)) }
    }

    @Test func podAdsSharingASequenceAreAWarningAndKeepDocumentOrder() throws {
        let ad = { (id: String, sequence: Int) in
            """
            <Ad id="\(id)" sequence="\(sequence)"><InLine><AdSystem>s</AdSystem><AdTitle>\(id)</AdTitle>
            <Impression>http://127.0.0.1:9/i</Impression><Creatives><Creative><Linear><Duration>00:00:05</Duration>
            <MediaFiles><MediaFile delivery="progressive" type="video/mp4" width="640" height="360">http://127.0.0.1:9/m.mp4</MediaFile></MediaFiles>
            </Linear></Creative></Creatives></InLine></Ad>
            """
        }
        let xml = "<VAST version=\"3.0\">" + ad("a", 1) + ad("b", 2) + ad("c", 1) + "</VAST>"
        let result = try VASTParser().parseVAST(Data(xml.utf8))
        let warning = result.diagnostics.first { $0.message.contains("share sequence") }
        #expect(warning?.message == "Ads 'a' and 'c' share sequence 1: they play in document order")
        #expect(warning?.severity == .warning)
        #expect(result.document.pod.map(\.id) == ["a", "c", "b"])
        let unique = "<VAST version=\"3.0\">" + ad("a", 1) + ad("b", 2) + "</VAST>"
        #expect(!(try VASTParser().parseVAST(Data(unique.utf8))).diagnostics.contains { $0.message.contains("share") })
    }
}
