import Foundation
import InterludeVAST
import Testing

@testable import InterludeServer

/// Pod decisions as pure values: fill, order, determinism, events.
@Suite struct PodDecisionerTests {
    static let stream = PodStream(
        id: "0b0e1d2c-3a4f-4b5c-8d6e-7f8091a2b3c4", kind: .live, networkCode: "interlude",
        customAssetKey: "interlude-live", targeting: ["cust_params": "section=sports"],
        createdAt: Date(timeIntervalSince1970: 1_800_000_000), expiresAt: Date(timeIntervalSince1970: 1_800_028_800))

    private func decide(_ catalog: Catalog = .builtIn, pd: Int, slate: PodDecisioner.Slate = .toRequestedDuration)
        -> PodBreakDecision
    {
        PodDecisioner(catalog: catalog).decide(
            stream: Self.stream, breakID: "pod_7", requestedDuration: pd, slate: slate,
            at: Date(timeIntervalSince1970: 1_800_000_100))
    }

    @Test(arguments: [6_000, 16_000, 29_000, 45_000, 61_000, 90_000, 300_000])
    func podNeverExceedsItsDurationAndRepeatsNoCreative(pd: Int) {
        let decision = decide(pd: pd)
        let adTime = decision.ads.reduce(0) { $0 + $1.duration }
        #expect(adTime <= pd)
        #expect(decision.duration == pd)
        #expect(decision.slateDuration == pd - adTime)
        #expect(Set(decision.ads.map(\.creativeID)).count == decision.ads.count)
        #expect(decision.ads.count <= PodAdRules().maxAds)
    }

    /// The built-in creatives last 6, 10, 15 and 30 s: the best fills are
    /// the subset sums closest under each `pd`.
    @Test(arguments: [(16_000, 16_000), (29_000, 25_000), (45_000, 45_000), (60_000, 55_000), (70_000, 61_000)])
    func podTakesTheMostAdTimeThatFits(pd: Int, expectedAdTime: Int) {
        #expect(decide(pd: pd).ads.reduce(0) { $0 + $1.duration } == expectedAdTime)
    }

    @Test func theSameInputsGiveTheSameDecision() {
        #expect(decide(pd: 45_000) == decide(pd: 45_000))
    }

    @Test func adsFollowEachOtherFromTheStartOfThePod() {
        let decision = decide(pd: 61_000)
        var offset = 0
        for (index, ad) in decision.ads.enumerated() {
            #expect(ad.position == index + 1)
            #expect(ad.offset == offset)
            #expect(ad.adID == "pod_7_ad\(index + 1)")
            offset += ad.duration
        }
    }

    @Test func maxAdsAndAllowedCreativesBoundThePod() {
        var catalog = Catalog.builtIn
        catalog.podServing.podRules = PodAdRules(creatives: ["lighthouse-coffee-6s", "orbit-bikes-10s"], maxAds: 1)
        let decision = decide(catalog, pd: 60_000)
        #expect(decision.ads.map(\.creativeID) == ["orbit-bikes-10s"])
        #expect(decision.slateDuration == 50_000)
    }

    @Test func aPodNothingFitsIsAllSlate() {
        let decision = decide(pd: 5_000)
        #expect(decision.ads.isEmpty)
        #expect(decision.slateDuration == 5_000)
        #expect(decide(pd: 5_000, slate: .onlyWhenEmpty).duration == 5_000)
        #expect(decide(pd: 5_000, slate: .never).duration == 0)
    }

    @Test func returningToContentEndsThePodAfterTheLastAd() {
        let decision = decide(pd: 29_000, slate: .onlyWhenEmpty)
        #expect(decision.duration == 25_000)
        #expect(decision.slateDuration == 0)
        #expect(decision.requestedDuration == 29_000)
    }

    @Test func eachAdHasItsFiveEventsAtQuartilesAndItsLastFrame() {
        let ad = try! #require(decide(pd: 15_000).ads.first)
        #expect(ad.duration == 15_000)
        #expect(ad.events.map(\.type) == [.start, .firstQuartile, .midpoint, .thirdQuartile, .complete])
        #expect(ad.events.map(\.offset) == [0, 3_750, 7_500, 11_250, 14_967])
    }

    @Test func eventIDsAreUniqueAndParseBackForTheirStreamOnly() {
        let decision = decide(pd: 61_000)
        let ids = decision.events.map(\.id)
        #expect(Set(ids).count == ids.count)
        for ad in decision.ads {
            for event in ad.events {
                #expect(event.id.hasPrefix("google_"))
                let parsed = try! #require(PodEventID.parse(event.id, streamID: Self.stream.id))
                #expect(parsed.breakDigest == decision.breakDigest)
                #expect(parsed.position == ad.position)
                #expect(parsed.type == event.type)
                #expect(PodEventID.parse(event.id, streamID: "11111111-2222-4333-8444-555555555555") == nil)
                let key = PodEventID.tagKey(breakDigest: decision.breakDigest, position: ad.position, type: event.type)
                #expect(event.id.hasPrefix(key) && event.id != key)
            }
        }
    }

    @Test(arguments: [
        "", "google_", "google_zz", "GOOGLE_0123456789abcdef0111234abcd", "google_0123456789ABCDEF01112345678",
    ])
    func malformedEventIDsDoNotParse(id: String) {
        #expect(PodEventID.parse(id, streamID: Self.stream.id) == nil)
    }

    @Test func anEventIDWithAnyCharacterChangedOrOneMoreDoesNotParse() throws {
        let id = try #require(decide(pd: 61_000).events.first?.id)
        let bytes = Array(id.utf8)
        for index in bytes.indices {
            for replacement in ["0", "f", "g", "+", "é", "G"] {
                let altered =
                    String(decoding: bytes[..<index], as: UTF8.self) + replacement
                    + String(decoding: bytes[(index + 1)...], as: UTF8.self)
                guard altered != id else { continue }
                #expect(PodEventID.parse(altered, streamID: Self.stream.id) == nil, "\(altered)")
            }
        }
        #expect(PodEventID.parse(id + "0", streamID: Self.stream.id) == nil)
        #expect(PodEventID.parse(String(id.dropLast()), streamID: Self.stream.id) == nil)
    }

    @Test func splicedVASTTemplatesAreWhatADirectWriteGives() throws {
        let decision = decide(pd: 61_000)
        #expect(decision.ads.count == 4)
        for ad in decision.ads {
            let creative = try #require(Catalog.builtIn.creative(id: ad.creativeID))
            let direct = PodVASTTemplates.write(
                creative, position: ad.position, session: Self.stream.id, adID: ad.adID, catalog: .builtIn)
            #expect(ad.vast == direct.vast)
            #expect(ad.beacons == direct.beacons)
        }
    }

    @Test func eachAdCarriesItsVASTWithTrackingForTheStream() throws {
        let ad = try #require(decide(pd: 15_000).ads.first)
        let document = try VASTParser().parseVAST(Data(ad.vast.utf8)).document
        #expect(document.ads.first?.id == ad.adID)
        let start = ad.beacons[PodEventType.start.rawValue] ?? []
        #expect(start.count == 3)
        #expect(
            start.allSatisfy { $0.hasPrefix("\(DocumentTemplate.baseURLSentinel)/track/\(Self.stream.id)/\(ad.adID)/") }
        )
        #expect(start.map { $0.contains("/impression?") } == [true, false, false])
        #expect(ad.beacons[PodEventType.complete.rawValue]?.first?.contains("/complete?") == true)
    }
}
