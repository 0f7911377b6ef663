import Foundation
import InterludeVAST
import Testing

/// Bad input gets a clear, typed error (or a warning) — never a crash or hang.
@Suite("Parser: bad input")
struct ParserBadInputTests {
    @Test func emptyDocumentIs100() {
        #expect(parseError("")?.code == .xmlParsingError)
        #expect(parseError("   \n ")?.message.contains("empty") == true)
    }

    @Test func truncatedDocumentReportsWhereItEnded() throws {
        let error = try #require(parseError("<VAST version=\"4.2\">\n  <Ad id=\"1\">\n    <InLine>"))
        #expect(error.code == .xmlParsingError)
        #expect(error.message.contains("<InLine> is closed"))
        #expect(error.line == 3)
    }

    @Test func mismatchedEndTagHasLineAndColumn() throws {
        let error = try #require(parseError("<VAST version=\"4.2\">\n  <Ad>\n  </Add>\n</VAST>"))
        #expect(error.code == .xmlParsingError)
        #expect(error.line == 3)
        #expect(error.column == 3)
    }

    @Test func doctypeIsRefused() throws {
        let xml = """
            <?xml version="1.0"?>
            <!DOCTYPE VAST [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>
            <VAST version="4.2"><Error>&xxe;</Error></VAST>
            """
        let error = try #require(parseError(xml))
        #expect(error.code == .xmlParsingError)
        #expect(error.message.contains("DOCTYPE"))
        #expect(error.line == 2)
    }

    @Test func billionLaughsCannotExpand() throws {
        var xml = "<?xml version=\"1.0\"?>\n<!DOCTYPE lolz [\n<!ENTITY lol \"lol\">\n"
        for level in 1...9 {
            xml +=
                "<!ENTITY lol\(level) \""
                + String(repeating: "&lol\(level - 1 == 0 ? "" : String(level - 1));", count: 10) + "\">\n"
        }
        xml += "]>\n<VAST version=\"4.2\"><Error>&lol9;</Error></VAST>"
        #expect(parseError(xml)?.code == .xmlParsingError)
    }

    @Test func undeclaredEntityIsRefused() throws {
        let error = try #require(parseError("<VAST version=\"4.2\"><Error>&nbsp;</Error></VAST>"))
        #expect(error.message.contains("unknown entity &nbsp;"))
    }

    @Test func predefinedAndNumericEntitiesAreDecoded() throws {
        let vast = try parseVAST("<VAST version=\"4.2\"><Error>a&amp;b&lt;&#65;&#x42;&quot;&apos;</Error></VAST>")
        #expect(vast.errors == ["a&b<AB\"'"])
    }

    @Test func documentOverTheSizeLimitIsRefused() throws {
        let xml = "<VAST version=\"4.2\">" + String(repeating: " ", count: 2000) + "</VAST>"
        let error = try #require(parseError(xml, options: .init(maxDocumentSize: 1000)))
        #expect(error.code == .xmlParsingError)
        #expect(error.message.contains("over the limit of 1000 bytes"))
    }

    @Test func defaultSizeLimitIsFourMebibytes() {
        #expect(VASTParser.Options().maxDocumentSize == 4 * 1024 * 1024)
        let huge = "<VAST version=\"4.2\">" + String(repeating: "<Error>x</Error>", count: 300_000) + "</VAST>"
        #expect(parseError(huge)?.code == .xmlParsingError)
    }

    @Test func nestingDeeperThanTheLimitIsRefused() throws {
        let xml =
            "<VAST version=\"4.2\">" + String(repeating: "<a>", count: 100) + String(repeating: "</a>", count: 100)
            + "</VAST>"
        let error = try #require(parseError(xml))
        #expect(error.message.contains("deeper than the limit of 64"))
        #expect(parseError(xml, options: .init(maxDepth: 200)) == nil)
    }

    @Test func binaryDataIsRefused() throws {
        var bytes = Array("<VAST version=\"4.2\"><Error>".utf8)
        bytes += [0x00, 0xFF, 0x01]
        bytes += Array("</Error></VAST>".utf8)
        do {
            _ = try VASTParser().parse(bytes: bytes)
            Issue.record("binary data accepted")
        } catch {
            #expect(error.code == .xmlParsingError)
            #expect(error.message.contains("NUL"))
        }
        #expect(throws: VASTError.self) { try VASTParser().parse(bytes: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A]) }
    }

    @Test func invalidUTF8IsReplacedNotFatal() throws {
        var bytes = Array("<VAST version=\"4.2\"><Error>http://x.test/".utf8)
        bytes += [0xC3, 0x28]
        bytes += Array("</Error></VAST>".utf8)
        let result = try VASTParser().parse(bytes: bytes)
        guard case .vast(let vast) = result.document else {
            Issue.record("not VAST")
            return
        }
        #expect(vast.errors.first?.hasPrefix("http://x.test/") == true)
    }

    @Test func utf16DocumentsAreTranscoded() throws {
        let xml = "<?xml version=\"1.0\" encoding=\"UTF-16\"?><VAST version=\"4.2\"><Error>é</Error></VAST>"
        var little: [UInt8] = [0xFF, 0xFE]
        for unit in xml.utf16 { little += [UInt8(unit & 0xFF), UInt8(unit >> 8)] }
        var big: [UInt8] = [0xFE, 0xFF]
        for unit in xml.utf16 { big += [UInt8(unit >> 8), UInt8(unit & 0xFF)] }
        for bytes in [little, big] {
            guard case .vast(let vast) = try VASTParser().parse(bytes: bytes).document else {
                Issue.record("not VAST")
                continue
            }
            #expect(vast.errors == ["é"])
        }
    }

    @Test(arguments: [
        "<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?>", "<?xml version=\"1.0\" encoding = 'iso-8859-1'?>",
        "<?xml version=\"1.0\" encoding=\"latin1\" standalone=\"yes\"?>",
        "<?xml version='1.0'\n\tencoding=\"Windows-1252\"?>",
    ])
    func declaredLatin1IsFoundInEveryDeclarationSpelling(declaration: String) throws {
        var bytes = Array(declaration.utf8) + Array("<VAST version=\"4.2\"><Error>caf".utf8)
        bytes.append(0xE9)  // é in Latin-1
        bytes += Array("</Error></VAST>".utf8)
        guard case .vast(let vast) = try VASTParser().parse(bytes: bytes).document else {
            Issue.record("not VAST")
            return
        }
        #expect(vast.errors == ["café"])
    }

    @Test(arguments: [
        "<?xml version=\"1.0\"?>", "<?xml version=\"1.0\" encoding=UTF-8?>",
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>",
    ])
    func declarationsWithoutAUsableEncodingReadAsUTF8(declaration: String) throws {
        let result = try parse(declaration + "<VAST version=\"4.2\"><Error>café</Error></VAST>")
        guard case .vast(let vast) = result.document else {
            Issue.record("not VAST")
            return
        }
        #expect(vast.errors == ["café"])
        #expect(!result.diagnostics.contains { $0.message.contains("unsupported encoding") })
    }

    @Test func aByteOrderMarkOutranksADeclaredLatin1() throws {
        let result = try parse(
            "\u{FEFF}<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?><VAST version=\"4.2\"><Error>café</Error></VAST>")
        guard case .vast(let vast) = result.document else {
            Issue.record("not VAST")
            return
        }
        #expect(vast.errors == ["café"])
        #expect(result.diagnostics.contains { $0.message.contains("byte-order mark; read as UTF-8") })
    }

    @Test func unknownDeclaredEncodingIsAWarning() throws {
        let result = try parse("<?xml version=\"1.0\" encoding=\"EBCDIC\"?><VAST version=\"4.2\"/>")
        #expect(result.diagnostics.contains { $0.message.contains("unsupported encoding 'EBCDIC'") })
    }

    @Test func unsupportedVASTVersionIs102() {
        #expect(parseError("<VAST version=\"1.0\"/>")?.code == .unsupportedVersion)
        #expect(parseError("<VAST version=\"5.0\"/>")?.code == .unsupportedVersion)
    }

    @Test func foreignRootIs102() {
        let error = parseError("<html><body>502 Bad Gateway</body></html>")
        #expect(error?.code == .unsupportedVersion)
        #expect(error?.message.contains("<html>") == true)
    }

    @Test func unsupportedVMAPVersionIs1001() {
        #expect(
            parseError("<vmap:VMAP xmlns:vmap=\"http://www.iab.net/videosuite/vmap\" version=\"2.0\"/>")?.code
                == .vmapUnsupportedVersion)
    }

    @Test func askingForVMAPGivenVASTIs1002() {
        #expect(throws: VASTError(code: .vmapParsingError, message: "expected a VMAP document, found VAST")) {
            try VASTParser().parseVMAP(Data("<VAST version=\"4.2\"/>".utf8))
        }
    }

    @Test func malformedAttributesAreErrors() {
        #expect(parseError("<VAST version=4.2/>")?.message.contains("not quoted") == true)
        #expect(parseError("<VAST version=\"4.2\" version=\"4.1\"/>")?.message.contains("appears twice") == true)
        #expect(parseError("<VAST version=\"4.2/>")?.code == .xmlParsingError)
        #expect(parseError("<VAST a=\"<\"/>")?.message.contains("'<' inside an attribute value") == true)
    }

    @Test func unterminatedCDATAAndCommentAreErrors() {
        #expect(
            parseError("<VAST version=\"4.2\"><Error><![CDATA[http://x</Error></VAST>")?.message
                == "malformed XML: unterminated CDATA section")
        #expect(
            parseError("<VAST version=\"4.2\"><!-- never closed </VAST>")?.message
                == "malformed XML: unterminated comment")
    }

    @Test func contentAfterTheRootIsAnError() {
        #expect(
            parseError("<VAST version=\"4.2\"/><VAST version=\"4.2\"/>")?.message.contains("after the root") == true)
        #expect(parseError("<VAST version=\"4.2\"/>\n<!-- trailing comment is fine -->\n") == nil)
    }

    @Test func halfValidAdIsKeptWithWarnings() throws {
        let result = try parse(
            """
            <VAST version="4.2"><Ad id="1"><InLine><AdSystem>s</AdSystem><AdTitle>t</AdTitle>
            <Impression><![CDATA[http://imp]]></Impression>
            <Creatives><Creative><Linear skipoffset="soon"><Duration>bad</Duration>
            <MediaFiles><MediaFile delivery="progressive" type="video/mp4" width="wide" height="360"><![CDATA[http://m.mp4]]></MediaFile>
            <MediaFile delivery="progressive" type="video/mp4" width="1" height="1"></MediaFile></MediaFiles>
            </Linear></Creative></Creatives></InLine></Ad><Ad id="2"></Ad></VAST>
            """)
        guard case .vast(let vast) = result.document else {
            Issue.record("not VAST")
            return
        }
        #expect(vast.ads.map(\.id) == ["1"])
        let linear = try #require(vast.ads[0].linear)
        #expect(linear.skipOffset == nil)
        #expect(linear.duration == nil)
        #expect(linear.mediaFiles.count == 1)
        #expect(linear.mediaFiles[0].width == nil && linear.mediaFiles[0].height == 360)
        let messages = result.diagnostics.map(\.message)
        #expect(messages.contains { $0.contains("skipoffset \"soon\"") })
        #expect(messages.contains { $0.contains("Duration \"bad\"") })
        #expect(messages.contains { $0.contains("width=\"wide\"") })
        #expect(messages.contains { $0.contains("has no URL") })
        #expect(messages.contains { $0.contains("neither InLine nor Wrapper") })
        #expect(result.diagnostics.allSatisfy { $0.severity == .warning && $0.line != nil })
    }

    @Test func badVMAPBreaksAreDroppedWithWarnings() throws {
        let result = try parse(
            """
            <vmap:VMAP xmlns:vmap="http://www.iab.net/videosuite/vmap" version="1.0">
            <vmap:AdBreak timeOffset="later" breakType="linear"/>
            <vmap:AdBreak breakType="linear"/>
            <vmap:AdBreak timeOffset="#2" breakType="linear"><vmap:AdSource><vmap:VASTAdData><VAST version="9"/></vmap:VASTAdData></vmap:AdSource></vmap:AdBreak>
            </vmap:VMAP>
            """)
        guard case .vmap(let vmap) = result.document else {
            Issue.record("not VMAP")
            return
        }
        #expect(vmap.adBreaks.map(\.timeOffset) == [.position(2)])
        #expect(vmap.adBreaks[0].adSource?.content == nil)
        #expect(result.diagnostics.contains { $0.code == .vmapAdResponseExtractionError })
        #expect(result.diagnostics.filter { $0.code == .vmapSchemaError }.count == 2)
    }

    @Test func randomBytesNeverCrash() {
        var random = SystemRandomNumberGenerator()
        for length in [1, 2, 7, 64, 512] {
            for _ in 0..<50 {
                let bytes = (0..<length).map { _ in UInt8.random(in: 0...255, using: &random) }
                _ = try? VASTParser().parse(bytes: bytes)
            }
        }
    }

    @Test func everyPrefixOfARealDocumentFailsCleanly() throws {
        let xml = Array(
            VASTWriter().write(
                VASTDocument(
                    version: "4.2",
                    ads: [
                        Ad(
                            id: "1", sequence: 1,
                            content: .inLine(
                                InLine(
                                    adSystem: AdSystem(name: "s"), adTitle: "t",
                                    impressions: [Impression(url: "http://i")])))
                    ])
            ).utf8)
        for cut in stride(from: 0, to: xml.count - 1, by: 3) {
            #expect(throws: VASTError.self) { try VASTParser().parse(bytes: Array(xml[0..<cut])) }
        }
    }
}
