import Foundation
import InterludeTestSupport
import InterludeVAST
import Testing

@Suite("Writer round trips")
struct RoundTripTests {
    @Test(arguments: 0..<300)
    func generatedVASTRoundTrips(seed: Int) throws {
        var generator = ModelGenerator(seed: UInt64(seed))
        let document = generator.vastDocument()
        let xml = VASTWriter().write(document)
        let parsed = try VASTParser().parseVAST(Data(xml.utf8)).document
        #expect(parsed == document, "seed \(seed)\n\(xml)")
    }

    @Test(arguments: 0..<150)
    func generatedVMAPRoundTrips(seed: Int) throws {
        var generator = ModelGenerator(seed: UInt64(seed) &+ 10_000)
        let document = generator.vmapDocument()
        let xml = VASTWriter().write(document)
        let parsed = try VASTParser().parseVMAP(Data(xml.utf8)).document
        #expect(parsed == document, "seed \(seed)\n\(xml)")
    }

    @Test func unindentedOutputRoundTripsToo() throws {
        var generator = ModelGenerator(seed: 42)
        for _ in 0..<20 {
            let document = generator.vastDocument()
            let xml = VASTWriter(indented: false, includesDeclaration: false).write(document)
            #expect(xml.hasPrefix("<VAST version="))
            #expect(try VASTParser().parseVAST(Data(xml.utf8)).document == document)
        }
    }

    @Test(arguments: Corpus.files(withExtension: "xml"))
    func corpusFileRoundTrips(path: String) throws {
        guard let parsed = try? VASTParser().parse(Corpus.data(path)) else { return }  // the invalid ones
        let rewritten = VASTWriter().write(parsed.document)
        let reparsed = try VASTParser().parse(Data(rewritten.utf8))
        #expect(reparsed.document == parsed.document, "\(path)")
    }

    @Test func cdataTerminatorInsideAURLIsSplit() throws {
        let url = "http://example.test/a]]>b?x=<y>&z"
        let document = VASTDocument(version: "4.2", errors: [url])
        let xml = VASTWriter().write(document)
        #expect(xml.contains("<![CDATA[http://example.test/a]]]]><![CDATA[>b?x=<y>&z]]>"))
        #expect(try VASTParser().parseVAST(Data(xml.utf8)).document.errors == [url])
    }

    @Test func attributesWithQuotesAndNewlinesAreEscaped() throws {
        let ad = Ad(id: "a\"b<c>&d\ne", content: .inLine(InLine(adSystem: AdSystem(name: "s"))))
        let xml = VASTWriter().write(VASTDocument(version: "4.2", ads: [ad]))
        #expect(xml.contains("id=\"a&quot;b&lt;c&gt;&amp;d&#10;e\""))
        #expect(try VASTParser().parseVAST(Data(xml.utf8)).document.ads.first?.id == ad.id)
    }

    @Test func vmapIsWrittenWithTheIABNamespace() {
        let xml = VASTWriter().write(VMAPDocument(adBreaks: [AdBreak(timeOffset: .start)]))
        #expect(xml.contains("<vmap:VMAP xmlns:vmap=\"http://www.iab.net/videosuite/vmap\" version=\"1.0\">"))
        #expect(xml.contains("<vmap:AdBreak timeOffset=\"start\" breakType=\"linear\">"))
    }
}
