import Foundation
import Interlude
import InterludeHLS
import Testing

@testable import InterludePlayer

/// Bad input to the playback core (issue 14): URLs that are not HLS,
/// answers that are not playlists, HTTP errors, timeouts, segments that
/// fail. Each ends in one clear error or is skipped; none hangs.
@Suite struct HLSPlaybackStateBadInputTests {
    static let url = "http://origin.test/vod/index.m3u8"

    @Test(arguments: [
        "ftp://origin.test/a.m3u8", "file:///tmp/a.m3u8", "http://origin.test/ad.mp4", "https://o.test/x.MPD",
    ])
    func aURLThatCannotBeHLSIsADisplayErrorWithoutARequest(url: String) {
        var harness = PlaybackHarness()
        harness.load(url)
        #expect(harness.playlistFetch == nil)
        #expect(harness.errors.map(\.code) == [.notHLS])
        #expect(harness.state.phase == .failed)
        #expect(harness.errors.first?.displayError.vastCode == .mediaDisplayError)
    }

    @Test func anAnswerThatIsNotAPlaylistSaysWhatItWas() {
        var harness = PlaybackHarness()
        harness.load("http://origin.test/stream")
        harness.answerPlaylist("<html>not found</html>", contentType: "text/html")
        #expect(harness.errors.map(\.code) == [.notHLS])
        let message = harness.errors.first?.message ?? ""
        #expect(message.contains("text/html"))
        #expect(message.contains("#EXTM3U"))
    }

    @Test func aMissingPlaylistIsMediaNotFound() {
        var harness = PlaybackHarness()
        harness.load(Self.url)
        harness.answerPlaylist("", status: 404)
        #expect(harness.errors.map(\.httpStatus) == [404])
        #expect(harness.errors.first?.displayError == .mediaNotFound)
        #expect(harness.playlistRequests.count == 1)
    }

    @Test func aServerErrorIsRetriedThenReported() {
        var harness = PlaybackHarness(.init(retryLimit: 2, retryDelay: 1))
        harness.load(Self.url)
        harness.answerPlaylist("", status: 503)
        harness.answerPlaylist("", status: 503)
        harness.answerPlaylist("", status: 503)
        #expect(harness.playlistRequests.map(\.notBefore) == [0, 1, 3])
        #expect(harness.errors.map(\.httpStatus) == [503])
        #expect(harness.errors.first?.displayError == .cannotDisplay(harness.errors.first?.message ?? ""))
        #expect(harness.state.status.retries == 2)
    }

    @Test func aTimedOutPlaylistIsRetriedThenReportedAsATimeout() {
        var harness = PlaybackHarness(.init(playlistTimeout: 5, retryLimit: 1))
        harness.load(Self.url)
        harness.failPlaylist(.timedOut, after: 5)
        harness.failPlaylist(.timedOut, after: 5)
        #expect(harness.errors.map(\.code) == [.timedOut])
        #expect(harness.errors.first?.message.contains("within 5 s") == true)
    }

    @Test func aRetryThatSucceedsPlays() {
        var harness = PlaybackHarness()
        harness.load(Self.url)
        harness.failPlaylist(.unreachable("reset by peer"))
        harness.answerPlaylist(Playlists.vod(count: 1))
        #expect(harness.errors.isEmpty)
        #expect(harness.reports.map(\.report) == [.loaded])
    }

    @Test(arguments: [
        "#EXTM3U\n#EXT-X-TARGETDURATION:4\n#EXTINF:abc,\nseg.ts\n",
        "#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1\na.m3u8\n#EXTINF:4,\nseg.ts\n",
        "#EXTM3U\n#EXT-X-TARGETDURATION:4\n#EXTINF:4,\nmailto:x@y\n",
        "#EXTM3U\n#EXT-X-TARGETDURATION:4\n#EXTINF:4,\n#EXT-X-BYTERANGE:0@5\nseg.ts\n",
        "#EXTM3U\n#EXT-X-TARGETDURATION:4\n#EXTINF:4,\n#EXT-X-BYTERANGE:2@18446744073709551615\nseg.ts\n",
    ])
    func anUndecodablePlaylistIsReportedWithItsReason(body: String) {
        var harness = PlaybackHarness()
        harness.load(Self.url)
        harness.answerPlaylist(body)
        #expect(harness.errors.map(\.code) == [.undecodablePlaylist])
        #expect(harness.errors.first?.message.contains(Self.url) == true)
    }

    @Test func aMultivariantPlaylistWhereAMediaPlaylistBelongsIsAnError() {
        var harness = PlaybackHarness()
        harness.load("http://origin.test/main.m3u8")
        harness.answerPlaylist("#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1000\nv.m3u8\n")
        harness.answerPlaylist("#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1000\nv.m3u8\n")
        #expect(harness.errors.map(\.code) == [.undecodablePlaylist])
    }

    @Test func aMultivariantPlaylistWithoutVariantsIsAnError() {
        var harness = PlaybackHarness()
        harness.load("http://origin.test/main.m3u8")
        harness.answerPlaylist("#EXTM3U\n#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID=\"a\",NAME=\"en\",URI=\"a.m3u8\"\n")
        #expect(harness.errors.map(\.code) == [.noVariant])
        #expect(harness.errors.first?.message.contains("lists no variant streams") == true)
    }

    @Test func aPlaylistWithNothingInItIsUndecodable() {
        var harness = PlaybackHarness()
        harness.load(Self.url)
        harness.answerPlaylist("#EXTM3U\n")
        #expect(harness.errors.map(\.code) == [.undecodablePlaylist])
    }

    @Test func aMissingSegmentStopsPlaybackUnderTheFailPolicy() {
        var harness = PlaybackHarness()
        harness.load(Self.url)
        harness.answerPlaylist(Playlists.vod(count: 3))
        harness.answerSegment()
        harness.answerSegment(status: 404)
        #expect(harness.errors.map(\.httpStatus) == [404])
        #expect(harness.errors.first?.message.contains("segment 1") == true)
        // A segment is not the media the SDK asked for: 405, not 401.
        #expect(harness.errors.first?.displayError.vastCode == .mediaDisplayError)
        #expect(harness.segmentFetch == nil)
    }

    @Test func aMissingSegmentIsPlayedOverUnderTheSkipPolicy() {
        var harness = PlaybackHarness(.init(failedSegmentPolicy: .skip))
        harness.load(Self.url)
        harness.answerPlaylist(Playlists.vod(count: 3))
        harness.answerSegment()
        harness.answerSegment(status: 404)
        harness.answerSegment()
        harness.play()
        harness.advance(by: 13)
        #expect(harness.errors.isEmpty)
        #expect(harness.count(.completed) == 1)
        #expect(harness.state.status.segmentsSkipped == 1)
        #expect(harness.logs.contains { $0.contains("played over as a gap") })
    }

    @Test func aStalledSegmentIsRetriedThenReportedAsATimeout() {
        var harness = PlaybackHarness(.init(segmentTimeout: 3, retryLimit: 2, retryDelay: 0.5))
        harness.load(Self.url)
        harness.answerPlaylist(Playlists.vod(count: 3))
        harness.play()
        for _ in 0..<3 { harness.failSegment(.timedOut) }
        #expect(harness.segmentRequests.map(\.notBefore) == [0, 0.5, 1.5])
        #expect(harness.errors.map(\.code) == [.timedOut])
        #expect(harness.state.phase == .failed)
        #expect(harness.state.isBuffering == false)
    }

    @Test func damagedTransportStreamPartsAreCountedAndLogged() {
        var harness = PlaybackHarness()
        harness.load(Self.url)
        harness.answerPlaylist(Playlists.vod(count: 1))
        var contents = HLSSegmentContents.media(pts: 0)
        contents.issueCount = 3
        contents.firstIssue = "truncated PES"
        harness.answerSegment(contents)
        #expect(harness.state.status.transportStreamIssues == 3)
        #expect(harness.logs.contains { $0.contains("truncated PES") })
        #expect(harness.errors.isEmpty)
    }

    @Test func answersToSupersededRequestsAreIgnored() {
        var harness = PlaybackHarness()
        harness.load(Self.url)
        let stale = harness.playlistFetch
        harness.load(Self.url)
        if let stale {
            let response = HLSFetchResponse(
                statusCode: 500, url: stale.url, headers: [:], body: [], byteCount: 0, contents: nil)
            harness.apply {
                $0.playlistFetched(id: stale.id, startedAt: 0, result: .success(response), now: $1, into: &$2)
            }
        }
        #expect(harness.errors.isEmpty)
        #expect(harness.state.phase == .loading)
    }

    @Test func aHugeOrNegativeConfigurationIsMadeSafe() {
        var harness = PlaybackHarness(
            .init(
                speed: -3, forwardBufferDuration: .nan, progressInterval: 0, playlistTimeout: -1, retryLimit: -4,
                stalePlaylistLimit: .infinity))
        harness.load(Self.url)
        harness.answerPlaylist(Playlists.vod(count: 2))
        harness.answerAllSegments()
        harness.play()
        harness.advance(by: 10)
        #expect(harness.count(.completed) == 1)
        #expect(harness.progressTimes.count <= 801)
    }
}
