import Foundation
import InterludeTestSupport
import InterludeVAST
import Testing

@testable import Interlude

@Suite("Wrapper resolution")
struct WrapperResolverTests {
    @Test func inlineTagResolvesToOneAd() async throws {
        let http = InMemoryHTTPClient(routes: ["\(testBase)/tag": .body(inlineVAST())])
        let result = await makeResolver(http).resolve(tagURL: URL(string: "\(testBase)/tag")!, timeout: 8)
        #expect(result.error == nil)
        #expect(result.ads.map(\.ad.id) == ["inline"])
        #expect(result.ads[0].wrappers.isEmpty)
        #expect(result.hops.map(\.statusCode) == [200])
    }

    @Test func corpusChainWrapperAToWrapperBToSample() async throws {
        let http = InMemoryHTTPClient(routes: try corpusRoutes())
        let result = await makeResolver(http).resolve(
            tagURL: URL(string: "\(testBase)/vast-client-js/wrapper-a.xml")!, timeout: 8)
        #expect(result.error == nil)
        // wrapper-a's first buffet ad (4321) → wrapper-b.xml (relative URI) → sample.xml. wrapper-b does not
        // allow multiple ads, so only sample.xml's first standalone ad (ad_id_0002) plays.
        #expect(
            http.requestedURLs == [
                "\(testBase)/vast-client-js/wrapper-a.xml", "\(testBase)/vast-client-js/wrapper-b.xml",
                "\(testBase)/vast-client-js/sample.xml",
            ])
        let ad = try #require(result.ads.first)
        #expect(result.ads.count == 1)
        #expect(ad.ad.id == "ad_id_0002")
        #expect(ad.wrappers.map(\.ad.id) == ["4321", "1234"])
        // 1 impression in wrapper-a, 2 in wrapper-b, 1 in the inline ad.
        #expect(
            ad.impressions.map(\.url) == [
                "http://example.com/wrapperA-impression", "http://example.com/wrapperB-impression1",
                "http://example.com/wrapperB-impression2", "http://example.com/impression1",
            ])
        #expect(
            ad.linearTrackingEvents.filter { $0.event == .start }.map(\.url) == [
                "http://example.com/wrapperA-linear-start1", "http://example.com/wrapperA-linear-start2",
                "http://example.com/wrapperB-linear-start",
            ])
        // The inline ad has no click-through; the nearest wrapper's (wrapper-b) is used.
        #expect(ad.clickThrough == "http://example.com/wrapperB-linear-clickthrough")
        #expect(result.errorPings.isEmpty)
    }

    @Test func wrapperAllowingMultipleAdsYieldsAPod() async throws {
        let http = InMemoryHTTPClient(routes: try corpusRoutes())
        let result = await makeResolver(http).resolve(
            tagURL: URL(string: "\(testBase)/videojs-vast/wrapper-ad-pod.xml")!, timeout: 8)
        #expect(result.ads.map(\.ad.id) == ["20001", "20001"])
        #expect(result.ads.map { $0.wrappers.map(\.ad.id) } == [["20011"], ["20012"]])
    }

    @Test func legacyVASTAdTagURLIsFollowed() async throws {
        let http = InMemoryHTTPClient(routes: try corpusRoutes())
        let result = await makeResolver(http).resolve(
            tagURL: URL(string: "\(testBase)/vast-client-js/wrapper-legacy.xml")!, timeout: 8)
        #expect(result.ads.first?.ad.id == "20001")
        #expect(result.ads.first?.impressions.first?.url == "http://example.com/wrapper-impression")
    }

    @Test func emptyRootResponseIs1009AndPingsRootErrorsWith303() async throws {
        let http = InMemoryHTTPClient(routes: try corpusRoutes())
        let result = await makeResolver(http).resolve(
            tagURL: URL(string: "\(testBase)/vast-client-js/empty-no-ad.xml")!, timeout: 8)
        #expect(result.error?.code == .vastEmptyResponse)
        #expect(result.errorPings == [ErrorPing(url: "http://example.com/empty-no-ad", code: .noAdsAfterWrapper)])
    }

    @Test func noAdsAfterWrapperIs303AndPingsEveryErrorURL() async throws {
        let http = InMemoryHTTPClient(routes: try corpusRoutes())
        let result = await makeResolver(http).resolve(
            tagURL: URL(string: "\(testBase)/vast-client-js/wrapper-empty.xml")!, timeout: 8)
        #expect(result.error?.code == .vastInvalidURL)
        #expect(
            Set(result.errorPings) == [
                ErrorPing(url: "http://example.com/empty-no-ad", code: .noAdsAfterWrapper),
                ErrorPing(url: "http://example.com/wrapper-empty_wrapper-error", code: .noAdsAfterWrapper),
            ])
    }

    @Test func tooManyWrappersIs302() async throws {
        var routes: [String: InMemoryHTTPClient.Reply] = [:]
        for depth in 0..<6 {
            routes["\(testBase)/w\(depth)"] = .body(wrapperVAST(id: "w\(depth)", target: "\(testBase)/w\(depth + 1)"))
        }
        let http = InMemoryHTTPClient(routes: routes)
        let result = await makeResolver(http).resolve(tagURL: URL(string: "\(testBase)/w0")!, timeout: 8)
        #expect(result.error?.code == .vastTooManyRedirects)
        // The tag plus four wrapper targets were fetched (maxRedirects 4); the fifth wrapper was refused.
        #expect(http.requestedURLs.count == 5)
        #expect(result.errorPings.map(\.url) == (0..<5).map { "http://127.0.0.1:9/err/w\($0)?c=[ERRORCODE]" })
        #expect(result.errorPings.allSatisfy { $0.code == .wrapperLimitReached })
    }

    @Test func maxRedirectsIsASetting() async throws {
        let http = InMemoryHTTPClient(routes: [
            "\(testBase)/w0": .body(wrapperVAST(id: "w0", target: "\(testBase)/w1")),
            "\(testBase)/w1": .body(wrapperVAST(id: "w1", target: "\(testBase)/inline")),
            "\(testBase)/inline": .body(inlineVAST()),
        ])
        let one = await makeResolver(http) { $0.maxRedirects = 1 }.resolve(
            tagURL: URL(string: "\(testBase)/w0")!, timeout: 8)
        #expect(one.error?.code == .vastTooManyRedirects)
        let two = await makeResolver(http) { $0.maxRedirects = 2 }.resolve(
            tagURL: URL(string: "\(testBase)/w0")!, timeout: 8)
        #expect(two.ads.map(\.ad.id) == ["inline"])
    }

    @Test func wrapperLoopIsDetected() async throws {
        let http = InMemoryHTTPClient(routes: [
            "\(testBase)/a": .body(wrapperVAST(id: "a", target: "\(testBase)/b")),
            "\(testBase)/b": .body(wrapperVAST(id: "b", target: "\(testBase)/a")),
        ])
        let result = await makeResolver(http) { $0.maxRedirects = 10 }.resolve(
            tagURL: URL(string: "\(testBase)/a")!, timeout: 8)
        #expect(result.error?.code == .vastTooManyRedirects)
        #expect(result.error?.message?.contains("wrapper loop") == true)
        #expect(http.requestedURLs == ["\(testBase)/a", "\(testBase)/b"])
    }

    @Test func unreachableWrapperTargetIs301() async throws {
        let http = InMemoryHTTPClient(routes: [
            "\(testBase)/w": .body(wrapperVAST(id: "w", target: "\(testBase)/down")),
            "\(testBase)/down": .failure(.unreachable("connection refused")),
        ])
        let result = await makeResolver(http).resolve(tagURL: URL(string: "\(testBase)/w")!, timeout: 8)
        #expect(result.error?.code == .vastLoadTimeout)
        #expect(result.errorPings == [ErrorPing(url: "http://127.0.0.1:9/err/w?c=[ERRORCODE]", code: .wrapperTimeout)])
        #expect(result.hops.last?.failure?.contains("connection refused") == true)
    }

    @Test(arguments: [404, 500, 503])
    func httpErrorStatusIs301(status: Int) async throws {
        let http = InMemoryHTTPClient(routes: [
            "\(testBase)/w": .body(wrapperVAST(id: "w", target: "\(testBase)/x")),
            "\(testBase)/x": .status(status, "oops"),
        ])
        let result = await makeResolver(http).resolve(tagURL: URL(string: "\(testBase)/w")!, timeout: 8)
        #expect(result.error?.code == .vastLoadTimeout)
        #expect(result.hops.last?.statusCode == status)
    }

    @Test func malformedWrapperTargetIs100() async throws {
        let http = InMemoryHTTPClient(routes: [
            "\(testBase)/w": .body(wrapperVAST(id: "w", target: "\(testBase)/bad")),
            "\(testBase)/bad": .body("<VAST version=\"4.2\"><Ad>"),
        ])
        let result = await makeResolver(http).resolve(tagURL: URL(string: "\(testBase)/w")!, timeout: 8)
        #expect(result.error?.code == .vastMalformedResponse)
        #expect(result.errorPings.map(\.code) == [.xmlParsingError])
    }

    @Test func firstHopTimesOutAfterVastLoadTimeout() async throws {
        let clock = ManualClock()
        let http = InMemoryHTTPClient(routes: ["\(testBase)/slow": .hang], clock: clock)
        let resolver = makeResolver(http, clock: clock)
        let task = Task { await resolver.resolve(tagURL: URL(string: "\(testBase)/slow")!, timeout: 8) }
        await clock.waitForSleepers(2)  // the deadline and the hanging server
        clock.advance(by: 7.9)
        await Task.yield()
        clock.advance(by: 0.1)
        let result = await task.value
        #expect(result.error?.code == .vastLoadTimeout)
        #expect(result.hops.first?.duration == 8)
        #expect(result.error?.message?.contains("no answer within 8 s") == true)
    }

    @Test func eachWrapperHopGetsTheWrapperTimeout() async throws {
        let clock = ManualClock()
        let http = InMemoryHTTPClient(
            routes: [
                "\(testBase)/w": .body(wrapperVAST(id: "w", target: "\(testBase)/slow")),
                "\(testBase)/slow": .delayed(5, .body(inlineVAST())),
            ], clock: clock)
        let resolver = makeResolver(http, clock: clock)
        let task = Task { await resolver.resolve(tagURL: URL(string: "\(testBase)/w")!, timeout: 8) }
        await clock.waitForSleepers(2)
        clock.advance(by: 4)
        let result = await task.value
        #expect(result.error?.code == .vastLoadTimeout)
        #expect(result.hops.map(\.depth) == [0, 1])
        #expect(result.hops.last?.duration == 4)
        #expect(result.errorPings.map(\.code) == [.wrapperTimeout])
    }

    @Test func slowButInTimeWrapperSucceeds() async throws {
        let clock = ManualClock()
        let http = InMemoryHTTPClient(
            routes: [
                "\(testBase)/w": .body(wrapperVAST(id: "w", target: "\(testBase)/slow")),
                "\(testBase)/slow": .delayed(3, .body(inlineVAST())),
            ], clock: clock)
        let resolver = makeResolver(http, clock: clock)
        let task = Task { await resolver.resolve(tagURL: URL(string: "\(testBase)/w")!, timeout: 8) }
        await clock.waitForSleepers(2)
        clock.advance(by: 3)
        let result = await task.value
        #expect(result.ads.map(\.ad.id) == ["inline"])
    }

    @Test(arguments: ["javascript:alert(1)", "file:///etc/passwd", "ftp://127.0.0.1/x.xml"])
    func nonHTTPSchemesAreRefused(target: String) async throws {
        let http = InMemoryHTTPClient(routes: ["\(testBase)/w": .body(wrapperVAST(id: "w", target: target))])
        let result = await makeResolver(http).resolve(tagURL: URL(string: "\(testBase)/w")!, timeout: 8)
        #expect(result.error?.code == .vastInvalidURL)
        #expect(http.requestedURLs == ["\(testBase)/w"])
    }

    @Test func nonHTTPTagIsRefused() async throws {
        let http = InMemoryHTTPClient()
        let result = await makeResolver(http).resolve(tagURL: URL(string: "file:///etc/passwd")!, timeout: 8)
        #expect(result.error?.code == .vastInvalidURL)
        #expect(http.requests.isEmpty)
    }

    @Test func macrosInTheTagURIAreFilledBeforeFetching() async throws {
        let http = InMemoryHTTPClient(routes: [
            "\(testBase)/w": .body(wrapperVAST(id: "w", target: "\(testBase)/inline?cb=[CACHEBUSTING]&u=[UNKNOWN]")),
            "\(testBase)/inline": .body(inlineVAST()),
        ])
        _ = await makeResolver(http).resolve(tagURL: URL(string: "\(testBase)/w")!, timeout: 8)
        #expect(http.requestedURLs.last == "\(testBase)/inline?cb=12345678&u=%5BUNKNOWN%5D")
    }

    @Test func requestsCarryUserAgentAndLanguage() async throws {
        let http = InMemoryHTTPClient(routes: ["\(testBase)/tag": .body(inlineVAST())])
        _ = await makeResolver(http) {
            $0.language = "pt-BR"
            $0.playerType = "TestPlayer"
            $0.playerVersion = "2.1"
        }.resolve(tagURL: URL(string: "\(testBase)/tag")!, timeout: 8)
        #expect(http.requests.first?.headers["Accept-Language"] == "pt-BR")
        #expect(http.requests.first?.headers["User-Agent"] == "Interlude/1.0 TestPlayer/2.1")
    }

    @Test func failedPodAdIsReplacedFromTheBuffet() async throws {
        let document = """
            <VAST version="4.2">
            <Ad id="p1" sequence="1"><Wrapper><AdSystem>w</AdSystem><VASTAdTagURI>\(testBase)/gone</VASTAdTagURI><Error>\(testBase)/err/p1?c=[ERRORCODE]</Error></Wrapper></Ad>
            <Ad id="p2" sequence="2"><InLine><AdSystem>s</AdSystem><AdTitle>p2</AdTitle></InLine></Ad>
            <Ad id="b1"><InLine><AdSystem>s</AdSystem><AdTitle>b1</AdTitle></InLine></Ad>
            </VAST>
            """
        let http = InMemoryHTTPClient(routes: ["\(testBase)/pod": .body(document)])
        let result = await makeResolver(http).resolve(tagURL: URL(string: "\(testBase)/pod")!, timeout: 8)
        #expect(result.ads.map(\.ad.id) == ["b1", "p2"])
        #expect(result.errorPings == [ErrorPing(url: "\(testBase)/err/p1?c=[ERRORCODE]", code: .wrapperTimeout)])
    }

    @Test func fallbackOnNoAdFalseLeavesTheSlotEmpty() async throws {
        let document = """
            <VAST version="4.2">
            <Ad id="p1" sequence="1"><Wrapper fallbackOnNoAd="false"><AdSystem>w</AdSystem><VASTAdTagURI>\(testBase)/gone</VASTAdTagURI></Wrapper></Ad>
            <Ad id="p2" sequence="2"><InLine><AdSystem>s</AdSystem><AdTitle>p2</AdTitle></InLine></Ad>
            <Ad id="b1"><InLine><AdSystem>s</AdSystem><AdTitle>b1</AdTitle></InLine></Ad>
            </VAST>
            """
        let http = InMemoryHTTPClient(routes: ["\(testBase)/pod": .body(document)])
        let result = await makeResolver(http).resolve(tagURL: URL(string: "\(testBase)/pod")!, timeout: 8)
        #expect(result.ads.map(\.ad.id) == ["p2"])
    }

    @Test func buffetOnlyResponsePlaysTheFirstAdThatResolves() async throws {
        let document = """
            <VAST version="4.2">
            <Ad id="b1"><Wrapper><AdSystem>w</AdSystem><VASTAdTagURI>\(testBase)/gone</VASTAdTagURI></Wrapper></Ad>
            <Ad id="b2"><InLine><AdSystem>s</AdSystem><AdTitle>b2</AdTitle></InLine></Ad>
            <Ad id="b3"><InLine><AdSystem>s</AdSystem><AdTitle>b3</AdTitle></InLine></Ad>
            </VAST>
            """
        let http = InMemoryHTTPClient(routes: ["\(testBase)/buffet": .body(document)])
        let result = await makeResolver(http).resolve(tagURL: URL(string: "\(testBase)/buffet")!, timeout: 8)
        #expect(result.ads.map(\.ad.id) == ["b2"])
    }

    @Test func followAdditionalWrappersFalseRefusesAnotherWrapper() async throws {
        let http = InMemoryHTTPClient(routes: [
            "\(testBase)/w1": .body(
                wrapperVAST(id: "w1", target: "\(testBase)/w2", attributes: "followAdditionalWrappers=\"false\"")),
            "\(testBase)/w2": .body(wrapperVAST(id: "w2", target: "\(testBase)/inline")),
            "\(testBase)/inline": .body(inlineVAST()),
        ])
        let result = await makeResolver(http).resolve(tagURL: URL(string: "\(testBase)/w1")!, timeout: 8)
        #expect(result.error?.code == .vastInvalidURL)
        #expect(!http.requestedURLs.contains("\(testBase)/inline"))
    }

    @Test func allowMultipleAdsFalseTakesOnlyTheFirstStandaloneAd() async throws {
        let pod = """
            <VAST version="4.2"><Ad id="p1" sequence="1"><InLine><AdSystem>s</AdSystem></InLine></Ad>
            <Ad id="p2" sequence="2"><InLine><AdSystem>s</AdSystem></InLine></Ad><Ad id="solo"><InLine><AdSystem>s</AdSystem></InLine></Ad></VAST>
            """
        let http = InMemoryHTTPClient(routes: [
            "\(testBase)/single": .body(wrapperVAST(id: "w", target: "\(testBase)/pod")),
            "\(testBase)/multi": .body(
                wrapperVAST(id: "w", target: "\(testBase)/pod", attributes: "allowMultipleAds=\"true\"")),
            "\(testBase)/pod": .body(pod),
        ])
        let single = await makeResolver(http).resolve(tagURL: URL(string: "\(testBase)/single")!, timeout: 8)
        #expect(single.ads.map(\.ad.id) == ["solo"])
        let multi = await makeResolver(http).resolve(tagURL: URL(string: "\(testBase)/multi")!, timeout: 8)
        #expect(multi.ads.map(\.ad.id) == ["p1", "p2"])
    }

    @Test func emptyBodyIs1009AtTheRoot() async throws {
        let http = InMemoryHTTPClient(routes: ["\(testBase)/empty": .body("  \n")])
        let result = await makeResolver(http).resolve(tagURL: URL(string: "\(testBase)/empty")!, timeout: 8)
        #expect(result.error?.code == .vastEmptyResponse)
    }

    @Test func vmapTagIsReturnedForPerBreakLoading() async throws {
        let http = InMemoryHTTPClient(routes: try corpusRoutes())
        let result = await makeResolver(http).resolve(
            tagURL: URL(string: "\(testBase)/vmap-js/correct-vmap.xml")!, timeout: 8)
        #expect(result.vmap?.adBreaks.count == 3)
        #expect(result.ads.isEmpty && result.error == nil)
    }

    @Test func inlineResponseNeedsNoNetwork() async throws {
        let http = InMemoryHTTPClient()
        let result = await makeResolver(http).resolve(response: Data(inlineVAST(id: "direct").utf8))
        #expect(result.ads.map(\.ad.id) == ["direct"])
        #expect(http.requests.isEmpty)
    }

    @Test func mergedExtensionsPreferTheNearestToTheInline() async throws {
        let http = InMemoryHTTPClient(routes: [
            "\(testBase)/w": .body(
                wrapperVAST(
                    id: "w", target: "\(testBase)/inline",
                    extra:
                        "<Extensions><Extension type=\"uiSettings\"><UiHideable>0</UiHideable></Extension><Extension type=\"geo\"><Country>BR</Country></Extension></Extensions>"
                )),
            "\(testBase)/inline": .body(
                inlineVAST(
                    extra:
                        "<Extensions><Extension type=\"uiSettings\"><UiHideable>1</UiHideable></Extension></Extensions>"
                )),
        ])
        let ad = try #require(
            await makeResolver(http).resolve(tagURL: URL(string: "\(testBase)/w")!, timeout: 8).ads.first)
        #expect(ad.uiHideable == true)
        #expect(ad.extensions.map(\.type) == ["uiSettings", "geo"])
    }

    @Test func uiHideableComesFromAWrapperWhenTheInlineHasNone() async throws {
        let http = InMemoryHTTPClient(routes: [
            "\(testBase)/w": .body(
                wrapperVAST(
                    id: "w", target: "\(testBase)/inline",
                    extra:
                        "<Extensions><Extension type=\"uiSettings\"><UiHideable>1</UiHideable></Extension></Extensions>"
                )),
            "\(testBase)/inline": .body(inlineVAST()),
        ])
        let ad = try #require(
            await makeResolver(http).resolve(tagURL: URL(string: "\(testBase)/w")!, timeout: 8).ads.first)
        #expect(ad.uiHideable == true)
    }
}
