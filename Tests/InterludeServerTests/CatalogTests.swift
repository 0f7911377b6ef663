import Foundation
import InterludeTestSupport
import Testing

@testable import InterludeServer

@Suite struct CatalogTests {
    static let exampleJSON = """
        {
          "creatives": [
            {"id": "spot-1", "title": "Spot One", "advertiser": "ACME", "duration": 15,
             "clickThrough": "https://example.com/1", "skipOffset": 5, "uiHideable": true,
             "renditions": [{"width": 640, "height": 360, "bitrate": 800}]},
            {"id": "spot-2", "title": "Spot Two", "duration": 6}
          ],
          "adRules": {
            "preroll": {"podSize": 1},
            "midrolls": [{"offset": 120, "podSize": 2}],
            "postroll": {"podSize": 1, "ads": ["spot-2"]}
          }
        }
        """

    @Test func builtInCatalogIsValidAndHasTheFourDurations() throws {
        try Catalog.builtIn.validate()
        #expect(Catalog.builtIn.creatives.map(\.duration) == [6, 10, 15, 30])
        #expect(Catalog.builtIn.creatives.allSatisfy { $0.renditions.map(\.height) == [360, 540, 720] })
    }

    @Test func exampleCatalogDecodesWithDefaults() throws {
        let catalog = try Catalog.decode(Data(Self.exampleJSON.utf8))
        #expect(catalog.creatives.count == 2)
        #expect(catalog.creatives[0].skipOffset == 5)
        #expect(catalog.creatives[1].advertiser == "Interlude")
        #expect(catalog.creatives[1].renditions == Rendition.standardLadder)
        #expect(catalog.adRules.midrolls == [BreakRule(offset: 120, podSize: 2)])
    }

    @Test func corruptJSONFailsWithAMessageSayingSo() {
        let error = #expect(throws: CatalogError.self) {
            try Catalog.decode(Data("{\"creatives\": [".utf8), source: "c.json")
        }
        #expect(error?.message.contains("c.json: not valid JSON") == true)
    }

    @Test func missingFieldIsNamedWithItsPath() {
        let json = #"{"creatives":[{"id":"a","duration":5}]}"#
        let error = #expect(throws: CatalogError.self) { try Catalog.decode(Data(json.utf8)) }
        #expect(error?.message.contains("missing \"title\" at $.creatives[0]") == true)
    }

    @Test func duplicateCreativeIDsAreRefused() {
        let json = #"{"creatives":[{"id":"a","title":"A","duration":5},{"id":"a","title":"B","duration":5}]}"#
        let error = #expect(throws: CatalogError.self) { try Catalog.decode(Data(json.utf8)) }
        #expect(error?.message.contains("duplicate id") == true, "\(String(describing: error))")
    }

    @Test func unsafeCreativeIDIsRefused() {
        let json = #"{"creatives":[{"id":"../x","title":"A","duration":5}]}"#
        #expect(throws: CatalogError.self) { try Catalog.decode(Data(json.utf8)) }
    }

    @Test func skipOffsetBeyondDurationIsRefused() {
        let json = #"{"creatives":[{"id":"a","title":"A","duration":5,"skipOffset":6}]}"#
        let error = #expect(throws: CatalogError.self) { try Catalog.decode(Data(json.utf8)) }
        #expect(error?.message.contains("skipOffset") == true, "\(String(describing: error))")
    }

    @Test func breakNamingUnknownCreativeIsRefused() {
        let json =
            #"{"creatives":[{"id":"a","title":"A","duration":5}],"adRules":{"preroll":{"podSize":1,"ads":["zz"]}}}"#
        let error = #expect(throws: CatalogError.self) { try Catalog.decode(Data(json.utf8)) }
        #expect(error?.message.contains("unknown creative 'zz'") == true)
    }

    @Test func zeroPodSizeIsRefused() {
        let json = #"{"creatives":[{"id":"a","title":"A","duration":5}],"adRules":{"preroll":{"podSize":0}}}"#
        #expect(throws: CatalogError.self) { try Catalog.decode(Data(json.utf8)) }
    }

    @Test func missingCatalogFileNamesThePath() {
        let error = #expect(throws: CatalogError.self) {
            try Catalog.load(from: URL(fileURLWithPath: "/nonexistent/catalog.json"))
        }
        #expect(error?.message.contains("/nonexistent/catalog.json") == true)
    }

    @Test func serverStartFailsOnInvalidCatalogNamingTheProblem() {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let bad = Catalog(creatives: [])
        let error = #expect(throws: AdServerError.self) {
            try AdServer.start(
                AdServer.Configuration(port: 0, dataDirectory: directory.url, catalog: bad, generatesMedia: false))
        }
        #expect(error?.message.contains("\"creatives\" is empty") == true)
    }
}
