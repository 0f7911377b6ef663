import Foundation
import Testing

@testable import InterludeServer

/// The hand-written JSON of stored decisions reads back, through the
/// store's `JSONDecoder`, to the value written — whatever the strings hold.
@Suite struct StoredJSONTests {
    static let awkward = "quote \" backslash \\ slash / newline \n return \r tab \t bell \u{07} nul \u{00} é 🎬 \u{2028}"

    static func decision(text: String) -> PodBreakDecision {
        let event = PodAdEvent(type: .firstQuartile, id: "google_\(text)", offset: 2_500)
        let ad = PodAd(
            position: 1, adID: "pod_1_ad1", creativeID: text, title: text, advertiser: "Ädvertiser \(text)",
            clickThrough: "https://example.com/?a=1&b=\(text)", duration: 10_000, offset: 0,
            events: [event, PodAdEvent(type: .complete, id: "google_2", offset: 9_967)],
            vast: "<?xml version=\"1.0\"?><VAST version=\"4.2\"><Ad id=\"x\">\(text)</Ad></VAST>\n",
            beacons: ["start": ["https://a/\(text)", "https://b/"], "complete": [], text: [text]])
        return PodBreakDecision(
            streamID: "5d0c2c3e-4a8f-4a4e-9b1a-0d6f1e2a3b4c", breakID: "pod_\(text)", breakDigest: "0123456789abcdef",
            requestedDuration: 30_000, duration: 30_000, slateDuration: 20_000, ads: [ad, ad],
            targeting: ["ppid": text, "cust_params": "a=1&b=2", "": ""],
            decidedAt: Date(timeIntervalSince1970: 1_764_598_765.432_1))
    }

    @Test(arguments: ["", "plain", awkward, String(repeating: "\u{1F}", count: 3)])
    func aStoredDecisionReadsBackAsWritten(text: String) throws {
        let decision = Self.decision(text: text)
        let read = try SQLiteSessionStore.decode(PodBreakDecision.self, decision.storedJSON)
        #expect(read.ads == decision.ads)
        #expect(read.targeting == decision.targeting)
        #expect(read.streamID == decision.streamID && read.breakID == decision.breakID)
        #expect(read.breakDigest == decision.breakDigest)
        #expect(read.requestedDuration == 30_000 && read.duration == 30_000 && read.slateDuration == 20_000)
        // Milliseconds, as JSONEncoder's .millisecondsSince1970 keeps them.
        let viaFoundation = try SQLiteSessionStore.decode(
            PodBreakDecision.self, try SQLiteSessionStore.encode(decision))
        #expect(read.decidedAt == viaFoundation.decidedAt)
        #expect(read == viaFoundation)
    }

    @Test func theSameDecisionAlwaysGivesTheSameBytes() {
        let decision = Self.decision(text: Self.awkward)
        #expect(decision.storedJSON == decision.storedJSON)
        var reordered = decision
        reordered.targeting = Dictionary(uniqueKeysWithValues: decision.targeting.reversed())
        #expect(reordered.storedJSON == decision.storedJSON)
    }

    @Test func controlCharactersAreEscapedAsJSONRequires() {
        var writer = StoredJSONWriter()
        writer.beginArray()
        writer.string("a\u{01}b\u{1F}\"\\\n")
        writer.int(-7)
        writer.beginObject()
        writer.endObject()
        writer.beginArray()
        writer.endArray()
        writer.endArray()
        #expect(writer.text == #"["a\u0001b\u001f\"\\\n",-7,{},[]]"#)
    }

    @Test func splicedTextFillsEveryStandIn() {
        let text = SplicedText("AAxBxxA-A", standIns: ["A", "xx"])
        #expect(text.filled(with: ["1", "2"]) == "11xB21-1")
        #expect(SplicedText("", standIns: ["A"]).filled(with: ["1"]) == "")
        #expect(SplicedText("none here", standIns: ["A"]).filled(with: ["1"]) == "none here")
        #expect(SplicedText("é🎬A", standIns: ["A"]).filled(with: ["ü"]) == "é🎬ü")
    }
}
