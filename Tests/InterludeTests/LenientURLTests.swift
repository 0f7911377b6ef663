import Foundation
import InterludeTestSupport
import Testing

@testable import Interlude

/// Document URLs and filled templates as `URL.lenient` reads them: each
/// escape already there sent once, what a URL may not hold encoded once,
/// the scheme in any case.
@Suite struct LenientURLTests {
    @Test func anEscapeIsSentOnceBesideAnUnfilledMacro() throws {
        // Foundation's own repair of `[`, `|` and spaces encodes every `%` of the query again.
        let url = try #require(
            URL.lenient("http://127.0.0.1:9/t?ts=2024-01-01T00%3A00%3A00Z&g=[GDPRCONSENT]&p=a|b c", relativeTo: nil))
        #expect(
            url.absoluteString == "http://127.0.0.1:9/t?ts=2024-01-01T00%3A00%3A00Z&g=%5BGDPRCONSENT%5D&p=a%7Cb%20c")
    }

    @Test func aValidURLIsLeftAsItIs() throws {
        let text = "https://127.0.0.1:9/v?a=1&b=%2F%3F&c=x~y#frag"
        #expect(URL.lenient(text, relativeTo: nil)?.absoluteString == text)
        #expect(
            URL.lenient("http://[::1]:8080/a?b=[C]", relativeTo: nil)?.absoluteString == "http://[::1]:8080/a?b=%5BC%5D"
        )
    }

    @Test func aLonePercentIsEncoded() {
        #expect(
            URL.lenient("http://127.0.0.1:9/x?off=50%&y=%zz", relativeTo: nil)?.absoluteString
                == "http://127.0.0.1:9/x?off=50%25&y=%25zz")
    }

    @Test func theSchemeIsReadInAnyCase() throws {
        let url = try #require(URL.lenient("HTTP://127.0.0.1:9/vast.xml", relativeTo: nil))
        #expect(url.scheme == "http")
        #expect(url.absoluteString == "http://127.0.0.1:9/vast.xml")
    }

    @Test func aRelativeReferenceResolvesAgainstItsBase() throws {
        let base = try #require(URL(string: "http://127.0.0.1:9/tags/wrapper.xml"))
        #expect(
            URL.lenient(" ../vast.xml?x=[Y] ", relativeTo: base)?.absoluteString
                == "http://127.0.0.1:9/vast.xml?x=%5BY%5D")
        #expect(URL.lenient("", relativeTo: base) == nil)
    }

    @Test func aBeaconIsSentWithItsFilledValuesEncodedOnce() async throws {
        let clock = ManualClock()
        let collector = ScriptedCollector()
        let queue = try BeaconQueue(
            http: collector, clock: clock, storage: InMemoryJournalStorage(), policy: .forSimulation,
            now: { Date(timeIntervalSince1970: 1000) })
        let url = "http://127.0.0.1:9/imp?asset=http%3A%2F%2F127.0.0.1%2Fad.mp4&gdpr=[GDPRCONSENT]"
        queue.enqueue([
            Beacon(
                url: url, event: "impression", adID: "a", idempotencyKey: "k",
                createdAt: Date(timeIntervalSince1970: 1000))
        ])
        await drain(queue, clock: clock)
        #expect(
            collector.delivered == [
                "http://127.0.0.1:9/imp?asset=http%3A%2F%2F127.0.0.1%2Fad.mp4&gdpr=%5BGDPRCONSENT%5D"
            ])
    }
}
