import Foundation
import InterludeTestSupport
import InterludeVAST
import Testing

@testable import Interlude

/// Ads play as linear video: an inline ad with only non-linear overlays or
/// companions cannot fill a break (VAST error 201), and a pod or buffet
/// moves on to an ad that can.
@Suite struct LinearityTests {
    private static let overlayOnly = """
        <Ad id="overlay"><InLine><AdSystem>s</AdSystem><AdTitle>o</AdTitle><Impression>http://127.0.0.1:9/imp-o</Impression>
        <Error>http://127.0.0.1:9/err/overlay?c=[ERRORCODE]</Error>
        <Creatives><Creative><NonLinearAds><NonLinear width="480" height="70" minSuggestedDuration="00:00:10">
        <StaticResource creativeType="image/png">http://127.0.0.1:9/overlay.png</StaticResource></NonLinear></NonLinearAds></Creative>
        <Creative><CompanionAds><Companion width="300" height="250"><StaticResource creativeType="image/png">http://127.0.0.1:9/c.png</StaticResource></Companion></CompanionAds></Creative>
        </Creatives></InLine></Ad>
        """

    @Test func anOverlayOnlyAdFailsWith201AndEveryErrorURLHearsIt() async throws {
        let http = InMemoryHTTPClient(routes: [
            "\(testBase)/tag": .body(wrapperVAST(id: "w", target: "\(testBase)/inline")),
            "\(testBase)/inline": .body(#"<VAST version="4.2">\#(Self.overlayOnly)</VAST>"#),
        ])
        let result = await makeResolver(http).resolve(tagURL: URL(string: "\(testBase)/tag")!, timeout: 8)
        #expect(result.ads.isEmpty)
        let error = try #require(result.error)
        #expect(error.code == .vastUnexpectedLinearity)
        #expect(error.vastErrorCode == .unexpectedLinearity)
        #expect(error.message?.contains("no linear creative") == true)
        #expect(
            Set(result.errorPings) == [
                ErrorPing(url: "http://127.0.0.1:9/err/overlay?c=[ERRORCODE]", code: .unexpectedLinearity),
                ErrorPing(url: "http://127.0.0.1:9/err/w?c=[ERRORCODE]", code: .unexpectedLinearity),
            ])
    }

    @Test func aBuffetSkipsAnOverlayOnlyAdForALinearOne() async throws {
        let linear = inlineVAST(id: "video")
            .replacingOccurrences(of: "<VAST version=\"4.2\">", with: "")
            .replacingOccurrences(of: "<VAST version=\"3.0\">", with: "")
            .replacingOccurrences(of: "</VAST>", with: "")
        let document = #"<VAST version="4.2">\#(Self.overlayOnly)\#(linear)</VAST>"#
        let http = InMemoryHTTPClient(routes: ["\(testBase)/tag": .body(document)])
        let result = await makeResolver(http).resolve(tagURL: URL(string: "\(testBase)/tag")!, timeout: 8)
        #expect(result.error == nil)
        #expect(result.ads.map(\.ad.id) == ["video"])
    }

    /// The document body of a VAST document (its ads, without the root).
    private func ads(of document: String) -> String {
        document.replacingOccurrences(of: "<VAST version=\"4.2\">", with: "")
            .replacingOccurrences(of: "<VAST version=\"3.0\">", with: "")
            .replacingOccurrences(of: "</VAST>", with: "")
    }

    @Test func aWrapperThatStillDeliversAnAdHearsNoErrorOfTheCandidatesBefore() async throws {
        // Under wrapper w: a buffet whose overlay-only ad is refused (201) and
        // whose wrapper w2 leads nowhere (303), then a video that plays.
        let buffet =
            Self.overlayOnly + ads(of: wrapperVAST(id: "w2", target: "\(testBase)/empty"))
            + ads(of: inlineVAST(id: "video"))
        let http = InMemoryHTTPClient(routes: [
            "\(testBase)/tag": .body(wrapperVAST(id: "w", target: "\(testBase)/buffet")),
            "\(testBase)/buffet": .body(#"<VAST version="4.2">\#(buffet)</VAST>"#),
            "\(testBase)/empty": .body(#"<VAST version="4.2"/>"#),
        ])
        let result = await makeResolver(http).resolve(tagURL: URL(string: "\(testBase)/tag")!, timeout: 8)
        #expect(result.error == nil)
        #expect(result.ads.map(\.ad.id) == ["video"])
        // The refused ad and the empty wrapper hear of their failure; w, which delivered, does not.
        let told = Set(result.errorPings.map(\.url))
        #expect(told.contains("http://127.0.0.1:9/err/overlay?c=[ERRORCODE]"))
        #expect(told.contains("http://127.0.0.1:9/err/w2?c=[ERRORCODE]"))
        #expect(!told.contains("http://127.0.0.1:9/err/w?c=[ERRORCODE]"), "\(result.errorPings)")
    }

    @Test func anErrorURLTheRefusedAdSharesWithItsWrapperIsStillTold() async throws {
        // One ad server writes the same Error URL in the wrapper and in the ad it refuses.
        let overlay = Self.overlayOnly.replacingOccurrences(of: "err/overlay", with: "err/w")
        let http = InMemoryHTTPClient(routes: [
            "\(testBase)/tag": .body(wrapperVAST(id: "w", target: "\(testBase)/buffet")),
            "\(testBase)/buffet": .body(#"<VAST version="4.2">\#(overlay)\#(ads(of: inlineVAST(id: "video")))</VAST>"#),
        ])
        let result = await makeResolver(http).resolve(tagURL: URL(string: "\(testBase)/tag")!, timeout: 8)
        #expect(result.ads.map(\.ad.id) == ["video"])
        #expect(
            result.errorPings == [ErrorPing(url: "http://127.0.0.1:9/err/w?c=[ERRORCODE]", code: .unexpectedLinearity)])
    }

    @Test func whatTheWinningCandidateOwesIsKeptWhenAnEarlierOneFailed() async throws {
        // Under w: a dead wrapper x, then w2 whose pod refuses its first ad and plays its second.
        let pod =
            Self.overlayOnly.replacingOccurrences(of: #"<Ad id="overlay">"#, with: #"<Ad id="overlay" sequence="1">"#)
            + ads(of: inlineVAST(id: "video", sequence: 2))
        let buffet =
            ads(of: wrapperVAST(id: "x", target: "\(testBase)/empty"))
            + ads(of: wrapperVAST(id: "w2", target: "\(testBase)/pod", attributes: #"allowMultipleAds="true""#))
        let http = InMemoryHTTPClient(routes: [
            "\(testBase)/tag": .body(wrapperVAST(id: "w", target: "\(testBase)/buffet")),
            "\(testBase)/buffet": .body(#"<VAST version="4.2">\#(buffet)</VAST>"#),
            "\(testBase)/empty": .body(#"<VAST version="4.2"/>"#),
            "\(testBase)/pod": .body(#"<VAST version="4.2">\#(pod)</VAST>"#),
        ])
        let result = await makeResolver(http).resolve(tagURL: URL(string: "\(testBase)/tag")!, timeout: 8)
        #expect(result.ads.map(\.ad.id) == ["video"])
        let told = Set(result.errorPings)
        // x failed: it is told; w, which delivered through w2, is not told of x.
        #expect(told.contains(ErrorPing(url: "http://127.0.0.1:9/err/x?c=[ERRORCODE]", code: .noAdsAfterWrapper)))
        #expect(!told.contains(ErrorPing(url: "http://127.0.0.1:9/err/w?c=[ERRORCODE]", code: .noAdsAfterWrapper)))
        // The pod's refused ad is told to its chain, as it is with no x before it.
        #expect(told.contains(ErrorPing(url: "http://127.0.0.1:9/err/w?c=[ERRORCODE]", code: .unexpectedLinearity)))
        #expect(told.contains(ErrorPing(url: "http://127.0.0.1:9/err/w2?c=[ERRORCODE]", code: .unexpectedLinearity)))
    }
}
