import Foundation
import InterludeVAST
import Testing

@testable import Interlude

/// Media file choice: by attributes, with the MIME types real tags write.
@Suite struct MediaFileSelectorTests {
    private let preferences = MediaPreferences()

    @Test func aTypeWithParametersOrOddCaseOrSpacesIsItsEssence() {
        let files = [
            MediaFile(
                url: "http://127.0.0.1:9/a.bin", type: #" Video/MP4; codecs="avc1.42E01E, mp4a.40.2""#, height: 360)
        ]
        #expect(MediaFileSelector.select(from: files, preferences: preferences)?.url == "http://127.0.0.1:9/a.bin")
        #expect(MediaFileSelector.mimeType(of: files[0]) == "video/mp4")
    }

    @Test func aFileWithoutTypeIsKnownByItsExtension() {
        let cases: [(String, String?)] = [
            ("http://127.0.0.1:9/ad.MP4?sig=a.b#t=1", "video/mp4"),
            ("http://127.0.0.1:9/hls/master.m3u8", "application/x-mpegurl"),
            ("http://127.0.0.1:9/clip.webm", "video/webm"),
            ("http://127.0.0.1:9/v1.2/clip", nil),
            ("http://127.0.0.1:9/ad.swf", nil),
            ("", nil),
        ]
        for (url, type) in cases {
            #expect(MediaFileSelector.mimeType(of: MediaFile(url: url)) == type, "\(url)")
        }
        let files = [
            MediaFile(url: "http://127.0.0.1:9/ad.swf", type: "application/x-shockwave-flash", height: 1080),
            MediaFile(url: "http://127.0.0.1:9/ad.mp4", height: 720),
        ]
        #expect(MediaFileSelector.select(from: files, preferences: preferences)?.url == "http://127.0.0.1:9/ad.mp4")
    }

    @Test func aDeclaredTypeWinsOverTheExtension() {
        // An empty type falls back to the extension; a declared one is taken as written.
        #expect(MediaFileSelector.mimeType(of: MediaFile(url: "http://127.0.0.1:9/a.mp4", type: "  ")) == "video/mp4")
        let vpaid = MediaFile(url: "http://127.0.0.1:9/a.mp4", type: "application/javascript")
        #expect(MediaFileSelector.select(from: [vpaid], preferences: preferences) == nil)
    }
}
