import Foundation
import InterludeTestSupport
import InterludeVAST
import Testing

@testable import Interlude

/// VAST 4.1 `<BlockedAdCategories>`: a wrapper's blocks bind the inline ad
/// its chain leads to (error 205) and fill `[BLOCKEDADCATEGORIES]` in the
/// chain's later requests.
@Suite("Blocked ad categories")
struct BlockedAdCategoriesTests {
    private let authority = "https://www.iabtechlab.com/categoryauthority"

    private func blocks(_ codes: String, authority: String? = nil) -> String {
        let attribute = authority.map { " authority=\"\($0)\"" } ?? ""
        return "<BlockedAdCategories\(attribute)>\(codes)</BlockedAdCategories>"
    }

    private func inline(id: String = "inline", category: String, authority: String? = nil) -> String {
        let attribute = authority.map { " authority=\"\($0)\"" } ?? ""
        return inlineVAST(id: id, extra: "<Category\(attribute)>\(category)</Category>")
    }

    private func resolve(wrapperExtra: String, inline inlineDocument: String) async -> AdResolution {
        let http = InMemoryHTTPClient(routes: [
            "\(testBase)/tag": .body(wrapperVAST(id: "w", target: "\(testBase)/inline", extra: wrapperExtra)),
            "\(testBase)/inline": .body(inlineDocument),
        ])
        return await makeResolver(http).resolve(tagURL: URL(string: "\(testBase)/tag")!, timeout: 8)
    }

    @Test func anInlineAdInABlockedCategoryFailsWith205AndEveryErrorURLHearsIt() async throws {
        let result = await resolve(
            wrapperExtra: blocks("IAB8-5", authority: authority),
            inline: inline(category: "IAB8-5", authority: authority))
        #expect(result.ads.isEmpty)
        let error = try #require(result.error)
        #expect(error.code == .vastBlockedAdCategory)
        #expect(error.vastErrorCode == .blockedCategory)
        #expect(error.message?.contains("IAB8-5") == true)
        #expect(
            Set(result.errorPings) == [
                ErrorPing(url: "http://127.0.0.1:9/err/inline?c=[ERRORCODE]", code: .blockedCategory),
                ErrorPing(url: "http://127.0.0.1:9/err/w?c=[ERRORCODE]", code: .blockedCategory),
            ])
    }

    @Test func aTierOneBlockCoversItsSubcategoriesInAnyCaseAndListsAreRead() async {
        let subcategory = await resolve(wrapperExtra: blocks("IAB25, iab8"), inline: inline(category: "IAB8-5"))
        #expect(subcategory.error?.code == .vastBlockedAdCategory)
        #expect(subcategory.error?.message?.contains("blocked as iab8") == true)
        // IAB8 does not block IAB80 (a prefix of the code, not a parent).
        let other = await resolve(wrapperExtra: blocks("IAB8"), inline: inline(category: "IAB80"))
        #expect(other.error == nil)
        #expect(other.ads.map(\.ad.id) == ["inline"])
    }

    @Test func authoritiesMustAgreeWhenBothAreNamedButNotTheirScheme() async {
        let otherAuthority = await resolve(
            wrapperExtra: blocks("IAB8-5", authority: "https://example.com/taxonomy"),
            inline: inline(category: "IAB8-5", authority: authority))
        #expect(otherAuthority.error == nil)
        let otherScheme = await resolve(
            wrapperExtra: blocks("IAB8-5", authority: "http://www.iabtechlab.com/categoryauthority/"),
            inline: inline(category: "IAB8-5", authority: authority))
        #expect(otherScheme.error?.code == .vastBlockedAdCategory)
        let unnamed = await resolve(
            wrapperExtra: blocks("IAB8-5"), inline: inline(category: "IAB8-5", authority: authority))
        #expect(unnamed.error?.code == .vastBlockedAdCategory)
    }

    @Test func anAdInAnotherCategoryOrWithoutOnePlays() async {
        let allowed = await resolve(wrapperExtra: blocks("IAB8-5"), inline: inline(category: "IAB2"))
        #expect(allowed.ads.map(\.ad.id) == ["inline"])
        #expect(allowed.errorPings.isEmpty)
        let uncategorised = await resolve(wrapperExtra: blocks("IAB8-5"), inline: inlineVAST())
        #expect(uncategorised.ads.map(\.ad.id) == ["inline"])
    }

    @Test func blocksAccumulateAlongTheChainAndFillTheMacroOfLaterRequests() async throws {
        let http = InMemoryHTTPClient(routes: [
            "\(testBase)/tag": .body(
                wrapperVAST(id: "w1", target: "\(testBase)/second?b=[BLOCKEDADCATEGORIES]", extra: blocks("IAB8-5"))),
            "\(testBase)/second": .body(
                wrapperVAST(
                    id: "w2", target: "\(testBase)/inline?b=[BLOCKEDADCATEGORIES]", extra: blocks("IAB25,IAB8-5"))),
            "\(testBase)/inline": .body(inline(category: "IAB25-3")),
        ])
        let result = await makeResolver(http).resolve(tagURL: URL(string: "\(testBase)/tag")!, timeout: 8)
        #expect(
            http.requestedURLs == [
                "\(testBase)/tag", "\(testBase)/second?b=IAB8-5", "\(testBase)/inline?b=IAB8-5,IAB25",
            ])
        // The second wrapper's IAB25 blocks the inline's IAB25-3; the first wrapper hears of it too.
        #expect(result.error?.code == .vastBlockedAdCategory)
        #expect(result.errorPings.count == 3)
    }

    @Test func aBlockedPodAdIsReplacedByTheNextBuffetAd() async {
        let pod = """
            <VAST version="4.2">
            <Ad id="a" sequence="1"><InLine><AdSystem>s</AdSystem><AdTitle>a</AdTitle><Impression>http://127.0.0.1:9/i</Impression><Category>IAB8-5</Category><Creatives><Creative><Linear><Duration>00:00:10</Duration><MediaFiles><MediaFile delivery="progressive" type="video/mp4" width="640" height="360">http://127.0.0.1:9/a.mp4</MediaFile></MediaFiles></Linear></Creative></Creatives></InLine></Ad>
            <Ad id="b" sequence="2"><InLine><AdSystem>s</AdSystem><AdTitle>b</AdTitle><Impression>http://127.0.0.1:9/i</Impression><Creatives><Creative><Linear><Duration>00:00:10</Duration><MediaFiles><MediaFile delivery="progressive" type="video/mp4" width="640" height="360">http://127.0.0.1:9/b.mp4</MediaFile></MediaFiles></Linear></Creative></Creatives></InLine></Ad>
            <Ad id="spare"><InLine><AdSystem>s</AdSystem><AdTitle>spare</AdTitle><Impression>http://127.0.0.1:9/i</Impression><Creatives><Creative><Linear><Duration>00:00:10</Duration><MediaFiles><MediaFile delivery="progressive" type="video/mp4" width="640" height="360">http://127.0.0.1:9/s.mp4</MediaFile></MediaFiles></Linear></Creative></Creatives></InLine></Ad>
            </VAST>
            """
        let http = InMemoryHTTPClient(routes: [
            "\(testBase)/tag": .body(
                wrapperVAST(
                    id: "w", target: "\(testBase)/inline", attributes: "allowMultipleAds=\"true\"",
                    extra: blocks("IAB8"))),
            "\(testBase)/inline": .body(pod),
        ])
        let podResult = await makeResolver(http).resolve(tagURL: URL(string: "\(testBase)/tag")!, timeout: 8)
        #expect(podResult.ads.map(\.ad.id) == ["spare", "b"])
    }
}
