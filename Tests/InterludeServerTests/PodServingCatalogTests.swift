import Foundation
import Testing

@testable import InterludeServer

/// The catalog's `podServing` object: defaults that keep older catalogs
/// working, fields read, and references checked.
@Suite struct PodServingCatalogTests {
    @Test func aCatalogWithoutPodServingServesItsContentOnNetworkInterlude() throws {
        let catalog = try Catalog.decode(Data(CatalogTests.exampleJSON.utf8))
        #expect(catalog.podServing.networks == [PodNetwork(code: "interlude")])
        #expect(
            catalog.podServing.liveStreams == [
                PodLiveStream(customAssetKey: "interlude-live", channel: "interlude-live"),
                PodLiveStream(customAssetKey: "interlude-live-cue", channel: "interlude-live-cue"),
            ])
        #expect(catalog.podServing.vodContent == [PodVODContent(contentID: "interlude-film", title: "interlude-film")])
        #expect(catalog.podServing.podRules == PodAdRules())
        #expect(catalog.podServing.sessions.validFor == 8 * 3600)
        #expect(Catalog.builtIn.podServing == .builtIn)
        try Catalog.builtIn.validate()
        // A catalog of other content gets that content, not the built-in names.
        #expect(Catalog.podServingTest.podServing.liveStreams.map(\.customAssetKey) == ["test-live", "test-live-cue"])
        try Catalog.podServingTest.validate()
    }

    @Test func podServingFieldsAreReadAndAbsentOnesDefault() throws {
        let json = """
            {"creatives": [{"id": "spot", "title": "Spot", "duration": 6}],
             "podServing": {
               "networks": [{"code": "1234", "apiKey": "key", "authKey": "000102030405060708090a0b0c0d0e0f",
                             "requiresAuthToken": true}],
               "liveStreams": [{"customAssetKey": "news", "channel": "interlude-live", "network": "1234"}],
               "podRules": {"creatives": ["spot"], "maxAds": 2, "slate": "content", "maxPodDuration": 60000},
               "sessions": {"validFor": 600, "pollingFrequency": 5}
             }}
            """
        let catalog = try Catalog.decode(Data(json.utf8))
        let pods = catalog.podServing
        #expect(pods.network(code: "1234")?.requiresAuthToken == true)
        #expect(pods.network(code: "1234")?.authKeyBytes == Array(0...15))
        #expect(pods.liveStream(customAssetKey: "news", network: "1234")?.channel == "interlude-live")
        #expect(pods.liveStream(customAssetKey: "news", network: "other") == nil)
        #expect(pods.vodContent == [PodVODContent(contentID: "interlude-film", title: "interlude-film")])
        #expect(pods.podRules == PodAdRules(creatives: ["spot"], maxAds: 2, slate: .content, maxPodDuration: 60_000))
        #expect(pods.sessions == PodSessionSettings(validFor: 600, pollingFrequency: 5))
        // Encoded and read again, it is the same catalog.
        let encoded = try JSONEncoder().encode(catalog)
        #expect(try JSONDecoder().decode(Catalog.self, from: encoded) == catalog)
    }

    @Test(arguments: [
        (#""networks": [{"code": "a"}, {"code": "a"}]"#, "duplicate code"),
        (#""networks": [{"code": "a/b"}]"#, "code must be"),
        (#""networks": [{"code": "a", "authKey": "xyz"}]"#, "authKey must be hex"),
        (#""networks": [{"code": "a", "authKey": "0011"}]"#, "at least 16 bytes"),
        (#""networks": [{"code": "a", "requiresAuthToken": true}]"#, "needs an authKey"),
        (#""liveStreams": [{"customAssetKey": "k", "channel": "nowhere"}]"#, "unknown channel"),
        (#""liveStreams": [{"customAssetKey": "k", "channel": "interlude-live", "network": "zz"}]"#, "unknown network"),
        (#""vodContent": [{"contentID": "c", "title": "missing"}]"#, "unknown title"),
        (#""podRules": {"creatives": ["nobody"]}"#, "unknown creative"),
        (#""podRules": {"maxAds": 0}"#, "maxAds must be 1–10"),
        (#""podRules": {"maxPodDuration": 10}"#, "maxPodDuration"),
        (#""sessions": {"validFor": 0}"#, "validFor"),
        (#""podRules": {"slate": "sometimes"}"#, "sometimes"),
    ])
    func badPodServingIsRefusedNamingTheField(fragment: String, message: String) {
        let json = #"{"creatives": [{"id": "spot", "title": "Spot", "duration": 6}], "podServing": {"# + fragment + "}}"
        #expect {
            try Catalog.decode(Data(json.utf8), source: "c.json")
        } throws: { error in
            (error as? CatalogError)?.message.contains(message) == true
        }
    }
}
