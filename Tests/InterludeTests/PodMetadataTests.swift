import Foundation
import Testing

@testable import Interlude

@Suite("Pod-serving metadata")
struct PodMetadataTests {
    static let sample = """
        {"tags":{"google_5555555555":{"ad":"0000229834_ad1","ad_break_id":"0000229834","type":"firstquartile"},
                 "google_1234567890123456789":{"ad":"0000229834_ad1","ad_break_id":"0000229834","type":"progress"},
                 "google_55":{"ad":"0000229834_ad1","ad_break_id":"0000229834","type":"start"}},
         "ads":{"0000229834_ad1":{"ad_break_id":"0000229834","position":1,"duration":15.0,"title":"Ad title",
                 "description":"desc","advertiser":"adv","ad_system":"GDFP","ad_id":"1234","creative_id":"5678",
                 "creative_ad_id":"9","deal_id":"","clickthrough_url":"https://example.com/click","slate":false,
                 "universal_ad_id":{"id_value":"u","id_registry":"r"},"extensions":"<Extensions/>"}},
         "ad_breaks":{"0000229834":{"type":"mid","duration":15.0,"expected_duration":15.0,"ads":1}}}
        """

    @Test func readsTagsAdsAndBreaks() throws {
        let metadata = try PodMetadata(parsing: Data(Self.sample.utf8))
        #expect(metadata.tags.count == 3)
        let ad = try #require(metadata.ads["0000229834_ad1"])
        #expect(ad.position == 1)
        #expect(ad.duration == 15)
        #expect(ad.title == "Ad title")
        #expect(ad.adServerID == "1234")
        #expect(ad.clickThroughURL == URL(string: "https://example.com/click"))
        let item = try #require(metadata.breaks["0000229834"])
        #expect(item.type == "mid")
        #expect(item.adCount == 1)
        #expect(item.duration == 15)
    }

    @Test func theLongestTagKeyThatPrefixesTheEventIDNamesIt() throws {
        let metadata = try PodMetadata(parsing: Data(Self.sample.utf8))
        // "google_55" and "google_5555555555" both prefix this ID: the longer one wins.
        #expect(metadata.tag(forEventID: "google_5555555555abcdef")?.kind == .firstQuartile)
        #expect(metadata.tag(forEventID: "google_5599")?.kind == .start)
        #expect(metadata.tag(forEventID: "google_1234567890123456789")?.kind == .progress)
        #expect(metadata.tag(forEventID: "google_66") == nil)
        #expect(metadata.tag(forEventID: "google_") == nil)
        #expect(metadata.tag(forEventID: "") == nil)
    }

    @Test func aKeyWrittenWithoutGooglePrefixMatchesThePartAfterIt() throws {
        let document = #"{"tags":{"777":{"ad":"a","ad_break_id":"b","type":"start"}}}"#
        let metadata = try PodMetadata(parsing: Data(document.utf8))
        #expect(metadata.tag(forEventID: "google_777xyz")?.adID == "a")
    }

    @Test func malformedDocumentsAreRefused() {
        for bad in ["", "not json", "[1,2,3]", "\"text\"", "{\"tags\":", "\u{0}\u{1}"] {
            #expect(throws: PodMetadata.ParseError.self) { try PodMetadata(parsing: Data(bad.utf8)) }
        }
    }

    @Test func hugeDocumentsAreRefused() {
        let big = Data(("{\"pad\":\"" + String(repeating: "x", count: PodMetadata.maxDocumentSize) + "\"}").utf8)
        #expect(throws: PodMetadata.ParseError.self) { try PodMetadata(parsing: big) }
        var tags: [String: Any] = [:]
        for index in 0...PodMetadata.maxTags { tags["google_\(index)"] = ["ad": "a", "type": "start"] }
        let many = try! JSONSerialization.data(withJSONObject: ["tags": tags])
        #expect(throws: PodMetadata.ParseError.self) { try PodMetadata(parsing: many) }
    }

    @Test func malformedEntriesAreSkippedAndCounted() throws {
        let document = """
            {"tags":{"google_1":{"ad":"a"},"google_2":"x","google_3":{"ad":"a","type":"START"}},
             "ads":{"a":[1],"b":{"duration":"12.5s","position":"2","slate":"yes"}},
             "ad_breaks":{"k":{"duration":-4,"ads":true}}}
            """
        let metadata = try PodMetadata(parsing: Data(document.utf8))
        #expect(metadata.tags.keys.sorted() == ["google_3"])
        #expect(metadata.tag(forEventID: "google_3")?.kind == .start)
        #expect(metadata.ads["a"] == nil)
        #expect(metadata.ads["b"]?.duration == 12.5)
        #expect(metadata.ads["b"]?.position == 2)
        #expect(metadata.ads["b"]?.isSlate == false)
        #expect(metadata.breaks["k"]?.duration == nil)
        #expect(metadata.breaks["k"]?.adCount == nil)
        #expect(metadata.skippedEntries == 3)
    }

    @Test func onlyHTTPClickThroughsAreKept() {
        #expect(PodMetadata.clickThrough("javascript:alert(1)") == nil)
        #expect(PodMetadata.clickThrough("file:///etc/passwd") == nil)
        #expect(PodMetadata.clickThrough("") == nil)
        #expect(PodMetadata.clickThrough(nil) == nil)
        #expect(PodMetadata.clickThrough("//ads.example/x") == URL(string: "https://ads.example/x"))
        #expect(PodMetadata.clickThrough(" https://ads.example/y ") == URL(string: "https://ads.example/y"))
    }

    @Test func aLiveAnswerIsParsedBeforeItIsHandedBack() throws {
        guard case .parsed(let parsed) = LiveMetadataAnswer.parsing(.document(Data(Self.sample.utf8))) else {
            Issue.record("a readable document was not parsed")
            return
        }
        #expect(parsed == (try PodMetadata(parsing: Data(Self.sample.utf8))))
        guard case .unreadable(let reason) = LiveMetadataAnswer.parsing(.document(Data("{{not json".utf8))) else {
            Issue.record("an unreadable document was not reported")
            return
        }
        #expect(!reason.isEmpty)
        guard case .pending = LiveMetadataAnswer.parsing(.pending(2)) else {
            Issue.record("a pending answer changed kind")
            return
        }
        let failure = StreamFetchFailure(description: "HTTP 500")
        guard case .failed(let kept) = LiveMetadataAnswer.parsing(.failed(failure)) else {
            Issue.record("a failed answer changed kind")
            return
        }
        #expect(kept.description == "HTTP 500")
    }
}

@Suite("Stream event IDs in timed metadata")
struct StreamEventIDTests {
    @Test func theWaysADisplayReportsAnID() {
        #expect(StreamEventID.ids(in: ["TXXX": "google_1234"]) == ["google_1234"])
        #expect(StreamEventID.ids(in: ["id3/TXXX": "google_1234"]) == ["google_1234"])
        // A raw TXXX frame's text: encoding byte, empty description, NUL, value.
        #expect(StreamEventID.ids(in: ["TXXX": "\u{3}\u{0}google_1234\u{0}"]) == ["google_1234"])
        #expect(StreamEventID.ids(in: ["X-COM-GOOGLE-EVENT": "google_abc-DEF_9"]) == ["google_abc-DEF_9"])
        #expect(
            StreamEventID.ids(in: ["PRIV": "com.apple.streaming.transportStreamTimestamp", "TXXX": "google_9"]) == [
                "google_9"
            ])
    }

    @Test func valuesWithoutAnIDOrWithAnUnusableOneGiveNone() {
        #expect(StreamEventID.ids(in: [:]).isEmpty)
        #expect(StreamEventID.ids(in: ["TXXX": "hello"]).isEmpty)
        #expect(StreamEventID.ids(in: ["TXXX": "google_"]).isEmpty)
        #expect(StreamEventID.ids(in: ["TXXX": "google_" + String(repeating: "a", count: 300)]).isEmpty)
        #expect(StreamEventID.id(in: "google_abc def") == "google_abc")
        #expect(StreamEventID.id(in: "google_\u{e9}") == nil)
    }

    @Test func oneIDReportedUnderTwoKeysCountsOnce() {
        #expect(StreamEventID.ids(in: ["TXXX": "google_1", "id3/TXXX": "google_1"]) == ["google_1"])
    }

    static let eventID = "google_0123456789abcdef011a1b2c3d4"

    @Test func paddedValuesAndRawFramesAndTagsGiveTheID() {
        let id = Self.eventID
        for value in [
            id + "\u{0}", id + "\u{0}\u{0}", id + " ", id + "\r\n", id + "\t", id + "\u{A0}", "  " + id,
            // A raw TXXX frame's data (UTF-8, empty description) and a whole v2.4 tag read as
            // ISO-8859-1, terminator and padding after the value.
            "\u{3}\u{0}" + id + "\u{0}",
            "ID3\u{4}\u{0}\u{0}\u{0}\u{0}\u{0}\u{3e}TXXX\u{0}\u{0}\u{0}\u{24}\u{0}\u{0}\u{3}\u{0}" + id
                + String(repeating: "\u{0}", count: 16),
            "description\u{0}" + id, "value=" + id,
        ] {
            #expect(StreamEventID.ids(in: ["TXXX": value]) == [id], "\(value.debugDescription)")
        }
    }

    @Test func anIDEndsWhereACharacterAURLPathWouldEncodeBegins() {
        // Text players and apps wrap around a frame: printed frames, JSON, quoted lists.
        let id = Self.eventID
        for value in [
            "TXXX: description=: values=[" + id + "]", "{\"TXXX\":\"" + id + "\"}", "'" + id + "',", "(" + id + ")",
            "\"" + id + "\"", id + ";", id + "#", id + "%00", id + "/",
        ] {
            #expect(StreamEventID.id(in: value) == id, "\(value.debugDescription)")
        }
        #expect(StreamEventID.id(in: "google_abc-DEF_9.x~y") == "google_abc-DEF_9.x~y")
    }

    @Test func googleInsideALongerWordStartsNoID() {
        #expect(StreamEventID.id(in: "mygoogle_thing") == nil)
        #expect(StreamEventID.id(in: "com.google_tag") == nil)
        #expect(StreamEventID.id(in: "notgoogle_x then " + Self.eventID) == Self.eventID)
    }

    @Test func otherAppsMetadataGivesNoID() {
        for values in [
            ["TXXX": "YMID=1234567"], ["TXXX": "www.nielsen.com/X100zdCIGeIlgZnkYj6UvQ==/"],
            ["PRIV": "com.apple.streaming.transportStreamTimestamp", "data": "0000000000001c20"],
            ["TIT2": "Song title"], ["X-COM-EXAMPLE-AD-ID": "a1b2"], ["TXXX": "google"],
        ] {
            #expect(StreamEventID.ids(in: values).isEmpty, "\(values)")
        }
    }
}

@Suite("Verified event IDs")
struct VerifiedEventIDsTests {
    @Test func anIDIsVerifiedOnceAndMemoryStaysBounded() {
        var verified = RecentSet<String>(capacity: 100)
        let first = verified.insert("google_1")
        let again = verified.insert("google_1")
        #expect(first && !again)
        var newOnes = 0
        for index in 2..<10_000 where verified.insert("google_\(index)") { newOnes += 1 }
        #expect(newOnes == 9_998)
        #expect(verified.count <= 100)
        let recent = verified.insert("google_9999")
        #expect(!recent)
    }
}
