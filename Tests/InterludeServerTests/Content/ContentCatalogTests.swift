import Foundation
import Testing

@testable import InterludeServer

@Suite struct ContentCatalogTests {
    private func refusal(_ json: String) -> String? {
        do {
            _ = try Catalog.decode(Data(json.utf8), source: "test.json")
            return nil
        } catch {
            return error.message
        }
    }

    private func catalog(content: String) -> String {
        #"{"creatives":[{"id":"a","title":"A","duration":6}],"content":"# + content + "}"
    }

    @Test func builtInAndTestCatalogsAreValid() throws {
        try Catalog.builtIn.validate()
        try Catalog.podServingTest.validate()
        try Catalog.demo.validate()
        #expect(Catalog.builtIn.content.titles.map(\.id) == ["interlude-film"])
        #expect(Catalog.builtIn.content.channels.map(\.id) == ["interlude-live", "interlude-live-cue"])
        #expect(Catalog.builtIn.content.profiles.map(\.codecs) == Array(repeating: "avc1.4d401f,mp4a.40.2", count: 3))
    }

    @Test func aCatalogWithoutContentGetsTheBuiltInContent() throws {
        let catalog = try Catalog.decode(Data(#"{"creatives":[{"id":"a","title":"A","duration":6}]}"#.utf8))
        #expect(catalog.content == .builtIn)
    }

    @Test func contentRoundTripsThroughJSON() throws {
        let data = try JSONEncoder().encode(Catalog.podServingTest)
        let decoded = try Catalog.decode(data)
        #expect(decoded == Catalog.podServingTest)
    }

    @Test func unknownProfileIDsAreRefused() throws {
        let message = try #require(
            refusal(catalog(content: #"{"titles":[{"id":"t","duration":30,"profiles":["360p","4k"]}]}"#)))
        #expect(message.contains("content.titles[0] (t).profiles names unknown profile '4k'"))
        #expect(message.contains("360p, 540p, 720p"))
        let channel = try #require(
            refusal(
                catalog(
                    content: #"{"channels":[{"id":"c","sourceDuration":24,"profiles":["1080p"]}]}"#)))
        #expect(channel.contains("unknown profile '1080p'"))
    }

    @Test func breakDurationsThatAreNotWholeSegmentsAreRefused() throws {
        let message = try #require(
            refusal(
                catalog(
                    content: #"{"channels":[{"id":"c","sourceDuration":24,"breakInterval":24,"breakDuration":10}]}"#)))
        #expect(message.contains("breakDuration must be a positive multiple of the 4 s segment duration, got 10"))
        let interval = try #require(
            refusal(
                catalog(content: #"{"channels":[{"id":"c","sourceDuration":24,"breakInterval":30,"breakDuration":8}]}"#)
            ))
        #expect(interval.contains("breakInterval must be a multiple of the 4 s segment duration"))
        let longer = try #require(
            refusal(
                catalog(
                    content: #"{"channels":[{"id":"c","sourceDuration":24,"breakInterval":24,"breakDuration":24}]}"#)))
        #expect(longer.contains("breakDuration must be less than breakInterval"))
        let source = try #require(refusal(catalog(content: #"{"channels":[{"id":"c","sourceDuration":10}]}"#)))
        #expect(source.contains("sourceDuration must be a multiple"))
    }

    @Test func externalOriginsMustBeHTTPURLs() throws {
        let file = try #require(refusal(catalog(content: #"{"channels":[{"id":"c","origin":"file:///etc/passwd"}]}"#)))
        #expect(file.contains("content.channels[0] (c).origin must be an http or https URL, got scheme 'file'"))
        let ftp = try #require(
            refusal(catalog(content: #"{"titles":[{"id":"t","origin":"ftp://example.com/a.m3u8"}]}"#)))
        #expect(ftp.contains("got scheme 'ftp'"))
        let hostless = try #require(refusal(catalog(content: #"{"titles":[{"id":"t","origin":"http:///a.m3u8"}]}"#)))
        #expect(hostless.contains("has no host"))
        let fine = try Catalog.decode(
            Data(catalog(content: #"{"titles":[{"id":"t","origin":"https://cdn.example.com/t/master.m3u8"}]}"#).utf8))
        #expect(fine.content.titles.first?.origin == "https://cdn.example.com/t/master.m3u8")
    }

    @Test func profilesBeyondH264Level31AreRefused() throws {
        let big = try #require(
            refusal(
                catalog(
                    content: #"{"profiles":[{"id":"1080p","width":1920,"height":1080,"videoBitrate":5000}]}"#)))
        #expect(big.contains("exceeds H.264 level 3.1"))
        let odd = try #require(
            refusal(catalog(content: #"{"profiles":[{"id":"odd","width":641,"height":360,"videoBitrate":800}]}"#)))
        #expect(odd.contains("must be even"))
        let frames = try #require(
            refusal(
                catalog(
                    content:
                        #"{"segmentDuration":2.5,"profiles":[{"id":"p","width":640,"height":360,"videoBitrate":800,"frameRate":29}]}"#
                )))
        #expect(frames.contains("is not a whole number of frames at 29 fps"))
    }

    @Test func duplicateAndUnsafeIDsAreRefused() throws {
        let duplicate = try #require(
            refusal(catalog(content: #"{"titles":[{"id":"t","duration":30},{"id":"t","duration":40}]}"#)))
        #expect(duplicate.contains("content.titles[1] (t): duplicate id"))
        let unsafe = try #require(refusal(catalog(content: #"{"titles":[{"id":"../x","duration":30}]}"#)))
        #expect(unsafe.contains("id must be 1–64 letters"))
        let epoch = try #require(
            refusal(catalog(content: #"{"channels":[{"id":"c","sourceDuration":24,"epoch":"yesterday"}]}"#)))
        #expect(epoch.contains("not valid JSON") || epoch.contains("epoch"))
    }

    @Test func aLadderIsNeededForContent() throws {
        let message = try #require(refusal(catalog(content: #"{"profiles":[],"titles":[{"id":"t","duration":30}]}"#)))
        #expect(message.contains("profiles is empty"))
    }
}
