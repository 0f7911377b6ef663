import Foundation
import InterludeHLS
import Testing

@testable import InterludePlayer

/// Which variant of a multivariant playlist plays.
@Suite struct HLSVariantChoiceTests {
    static let url = "http://origin.test/main.m3u8"
    static let multivariant = """
        #EXTM3U
        #EXT-X-STREAM-INF:BANDWIDTH=1600000,RESOLUTION=960x540,CODECS="avc1.4d401f,mp4a.40.2"
        540p.m3u8
        #EXT-X-STREAM-INF:BANDWIDTH=800000,AVERAGE-BANDWIDTH=700000,RESOLUTION=640x360
        360p.m3u8
        #EXT-X-STREAM-INF:BANDWIDTH=2800000,RESOLUTION=1280x720
        https://cdn.test/720p.m3u8

        """

    static func chosen(_ choice: HLSStreamDisplay.VariantChoice) -> PlaybackHarness {
        var harness = PlaybackHarness(.init(variant: choice))
        harness.load(url)
        harness.answerPlaylist(multivariant)
        return harness
    }

    @Test func theHighestBandwidthPlaysByDefault() {
        let harness = Self.chosen(.highestBandwidth())
        #expect(harness.playlistFetch?.url.absoluteString == "https://cdn.test/720p.m3u8")
        #expect(harness.state.status.variant?.index == 2)
        #expect(harness.state.status.variant?.bandwidth == 2_800_000)
        #expect(harness.state.status.variant?.resolution == HLSResolution(width: 1280, height: 720))
    }

    @Test func aBandwidthCapPicksTheBestUnderIt() {
        let harness = Self.chosen(.highestBandwidth(maximumBandwidth: 2_000_000))
        #expect(harness.playlistFetch?.url.absoluteString == "http://origin.test/540p.m3u8")
        #expect(harness.state.status.variant?.codecs == "avc1.4d401f,mp4a.40.2")
    }

    @Test func aResolutionCapPicksTheBestWithinIt() {
        let harness = Self.chosen(.highestBandwidth(maximumResolution: HLSResolution(width: 700, height: 400)))
        #expect(harness.playlistFetch?.url.absoluteString == "http://origin.test/360p.m3u8")
        #expect(harness.state.status.variant?.averageBandwidth == 700_000)
    }

    @Test func whenNothingFitsTheLowestBandwidthPlays() {
        let harness = Self.chosen(.highestBandwidth(maximumBandwidth: 1000))
        #expect(harness.playlistFetch?.url.absoluteString == "http://origin.test/360p.m3u8")
    }

    @Test func aGivenIndexOrURIPlays() {
        #expect(Self.chosen(.index(0)).playlistFetch?.url.lastPathComponent == "540p.m3u8")
        #expect(Self.chosen(.uri("360p.m3u8")).playlistFetch?.url.lastPathComponent == "360p.m3u8")
        #expect(
            Self.chosen(.uri("https://cdn.test/720p.m3u8")).playlistFetch?.url.absoluteString
                == "https://cdn.test/720p.m3u8")
    }

    @Test func aGivenVariantThatIsNotThereIsAnError() {
        #expect(Self.chosen(.index(3)).errors.map(\.code) == [.noVariant])
        #expect(Self.chosen(.index(-1)).errors.map(\.code) == [.noVariant])
        #expect(Self.chosen(.uri("1080p.m3u8")).errors.map(\.code) == [.noVariant])
    }

    @Test func theVariantsMediaPlaylistPlaysWithItsSegmentsResolvedAgainstIt() {
        var harness = Self.chosen(.index(1))
        harness.answerPlaylist(Playlists.vod(count: 2))
        #expect(harness.segmentFetch?.url.absoluteString == "http://origin.test/seg0.ts")
        #expect(harness.reports.map(\.report) == [.loaded])
        #expect(harness.state.status.variant?.url.absoluteString == "http://origin.test/360p.m3u8")
    }

    @Test func variablesDefinedByTheMultivariantPlaylistReachTheMediaPlaylist() {
        var harness = PlaybackHarness()
        harness.load("http://origin.test/main.m3u8?token=abc")
        harness.answerPlaylist(
            """
            #EXTM3U
            #EXT-X-DEFINE:NAME="host",VALUE="cdn.test"
            #EXT-X-DEFINE:QUERYPARAM="token"
            #EXT-X-STREAM-INF:BANDWIDTH=1000
            https://{$host}/v.m3u8?t={$token}

            """)
        #expect(harness.playlistFetch?.url.absoluteString == "https://cdn.test/v.m3u8?t=abc")
        harness.answerPlaylist(
            """
            #EXTM3U
            #EXT-X-TARGETDURATION:4
            #EXT-X-DEFINE:IMPORT="host"
            #EXTINF:4,
            https://{$host}/seg.ts
            #EXT-X-ENDLIST

            """)
        #expect(harness.segmentFetch?.url.absoluteString == "https://cdn.test/seg.ts")
    }
}
