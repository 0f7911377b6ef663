import Foundation
import InterludeServerTestSupport
import InterludeVAST
import Testing

@testable import InterludeServer

@Suite struct AdDecisionerTests {
    let decisioner = AdDecisioner(catalog: TestAdServer.catalog)
    let links = ServerLinks(baseURL: "http://127.0.0.1:9999", session: "s1")

    private func roundTrip(_ document: VASTDocument) throws -> VASTDocument {
        try VASTParser().parseVAST(Data(VASTWriter().write(document).utf8)).document
    }

    @Test func singleAdHasNoSequence() throws {
        let vast = try roundTrip(decisioner.vast(AdRequestOptions(), links: links))
        #expect(vast.ads.count == 1)
        #expect(vast.ads[0].id == "alpha")
        #expect(vast.ads[0].sequence == nil)
    }

    @Test func podOfThreeIsSequencedAndRotatesTheCatalog() throws {
        let vast = try roundTrip(decisioner.vast(AdRequestOptions(podSize: 3), links: links))
        #expect(vast.pod.map(\.id) == ["alpha", "bravo", "alpha.2"])
        #expect(vast.pod.map(\.sequence) == [1, 2, 3])
        #expect(vast.ads.allSatisfy { $0.inLine?.adTitle != nil })
    }

    @Test func specificAdsComeInTheOrderAsked() throws {
        let vast = try roundTrip(decisioner.vast(AdRequestOptions(adIDs: ["bravo", "alpha"]), links: links))
        #expect(vast.ads.map(\.id) == ["bravo", "alpha"])
    }

    @Test func unknownAdIDIs404() {
        let error = #expect(throws: HTTPError.self) {
            try decisioner.vast(AdRequestOptions(adIDs: ["zulu"]), links: links)
        }
        #expect(error?.status == 404)
    }

    @Test func catalogSkipOffsetAndUiHideableAreWritten() throws {
        let vast = try roundTrip(decisioner.vast(AdRequestOptions(adIDs: ["alpha", "bravo"]), links: links))
        #expect(vast.ads[0].linear?.skipOffset == .time(VASTTime(seconds: 5)))
        #expect(vast.ads[0].uiHideable == true)
        #expect(vast.ads[1].linear?.skipOffset == nil)
        #expect(vast.ads[1].uiHideable == false)
    }

    @Test func skippableAndHideableQueryOverrideTheCatalog() throws {
        let options = AdRequestOptions(skippable: true, uiHideable: true, adIDs: ["bravo"])
        let vast = try roundTrip(decisioner.vast(options, links: links))
        #expect(vast.ads[0].linear?.isSkippable == true)
        #expect(vast.ads[0].uiHideable == true)
        let off = try roundTrip(decisioner.vast(AdRequestOptions(skippable: false, adIDs: ["alpha"]), links: links))
        #expect(off.ads[0].linear?.isSkippable == false)
    }

    @Test func vast2HasNoSkipOffsetAndRefusesPods() throws {
        let vast = try roundTrip(decisioner.vast(AdRequestOptions(adIDs: ["alpha"], version: "2.0"), links: links))
        #expect(vast.version == "2.0")
        #expect(vast.ads[0].linear?.skipOffset == nil)
        #expect(throws: HTTPError.self) {
            try decisioner.vast(AdRequestOptions(podSize: 2, version: "2.0"), links: links)
        }
    }

    @Test func vast41CarriesAdServingIDAndUniversalAdID() throws {
        let vast = try roundTrip(decisioner.vast(AdRequestOptions(version: "4.1"), links: links))
        #expect(vast.ads[0].inLine?.adServingID == "s1-alpha")
        #expect(vast.ads[0].creatives[0].universalAdIDs == [UniversalAdID(idRegistry: "interlude", value: "alpha")])
        let v3 = try roundTrip(decisioner.vast(AdRequestOptions(version: "3.0"), links: links))
        #expect(v3.ads[0].inLine?.adServingID == nil)
    }

    @Test func everyBeaconURLPointsAtTheCollectorWithMacros() throws {
        let vast = try roundTrip(decisioner.vast(AdRequestOptions(), links: links))
        let inLine = try #require(vast.ads[0].inLine)
        let prefix = "http://127.0.0.1:9999/track/s1/alpha/"
        #expect(inLine.impressions.map(\.url).allSatisfy { $0.hasPrefix(prefix + "impression?") })
        #expect(inLine.errors == [prefix + "error?code=[ERRORCODE]&cb=[CACHEBUSTING]&t=[TIMESTAMP]"])
        let linear = try #require(vast.ads[0].linear)
        #expect(linear.trackingURLs(for: .start) == [prefix + "start?cb=[CACHEBUSTING]&t=[TIMESTAMP]&ph=[ADPLAYHEAD]"])
        #expect(linear.trackingEvents.allSatisfy { $0.url.hasPrefix(prefix + $0.event.rawValue + "?") })
        #expect(
            linear.videoClicks?.clickTracking.map(\.url) == [
                prefix + "click?cb=[CACHEBUSTING]&t=[TIMESTAMP]&ph=[ADPLAYHEAD]"
            ])
        #expect(linear.videoClicks?.clickThrough?.url == "https://example.com/alpha")
    }

    @Test func mediaFilesPointAtTheMediaRoute() throws {
        let vast = try roundTrip(decisioner.vast(AdRequestOptions(), links: links))
        let file = try #require(vast.ads[0].linear?.mediaFiles.first)
        #expect(file.url == "http://127.0.0.1:9999/media/alpha-360p.mp4")
        #expect(file.type == "video/mp4")
        #expect(file.width == 640 && file.height == 360 && file.bitrate == 800)
    }

    @Test func vmapFollowsTheAdRules() throws {
        let vmap = try decisioner.vmap(AdRequestOptions(), links: links)
        let parsed = try VASTParser().parseVMAP(Data(VASTWriter().write(vmap).utf8)).document
        #expect(parsed.adBreaks.map(\.timeOffset) == [.start, .time(VASTTime(seconds: 30)), .end])
        #expect(parsed.adBreaks.map(\.breakID) == ["preroll", "midroll-1", "postroll"])
        guard case .adTagURI(_, let url)? = parsed.adBreaks[1].adSource?.content else {
            Issue.record("expected an AdTagURI")
            return
        }
        #expect(url.hasPrefix("http://127.0.0.1:9999/vast?session=s1&pod=2"))
        #expect(parsed.adBreaks[0].trackingEvents.map(\.event) == [.breakStart, .breakEnd, .error])
        #expect(
            parsed.adBreaks[0].trackingEvents[0].url.hasPrefix(
                "http://127.0.0.1:9999/track/s1/break-preroll/breakStart?"))
    }

    @Test func embeddedVMAPCarriesEachBreaksPod() throws {
        let vmap = try decisioner.vmap(AdRequestOptions(embed: true), links: links)
        let parsed = try VASTParser().parseVMAP(Data(VASTWriter().write(vmap).utf8)).document
        let counts = parsed.adBreaks.map { adBreak -> [String?] in
            guard case .vastAdData(let vast)? = adBreak.adSource?.content else { return [] }
            return vast.ads.map(\.id)
        }
        #expect(counts == [["alpha"], ["alpha", "bravo"], ["bravo"]])
    }

    @Test func wrapperChainPointsOneLevelDownEachTime() throws {
        let three = try roundTrip(decisioner.wrapperChain(depth: 3, options: AdRequestOptions(), links: links))
        let wrapper = try #require(three.ads.first?.wrapper)
        #expect(three.ads[0].id == "wrapper-3")
        #expect(wrapper.vastAdTagURI?.hasPrefix("http://127.0.0.1:9999/wrapper/2?session=s1") == true)
        #expect(wrapper.impressions.map(\.url).first?.contains("/track/s1/wrapper-3/impression?") == true)
        #expect(wrapper.errors.first?.contains("/track/s1/wrapper-3/error?code=[ERRORCODE]") == true)
        let one = try roundTrip(decisioner.wrapperChain(depth: 1, options: AdRequestOptions(), links: links))
        #expect(one.ads[0].wrapper?.vastAdTagURI?.hasPrefix("http://127.0.0.1:9999/vast?session=s1") == true)
        let zero = try roundTrip(decisioner.wrapperChain(depth: 0, options: AdRequestOptions(), links: links))
        #expect(zero.ads[0].inLine != nil)
    }

    @Test func wrapperDepthOutOfRangeIs400() {
        #expect(throws: HTTPError.self) {
            try decisioner.wrapperChain(depth: 11, options: AdRequestOptions(), links: links)
        }
        #expect(throws: HTTPError.self) {
            try decisioner.wrapperChain(depth: -1, options: AdRequestOptions(), links: links)
        }
    }
}
