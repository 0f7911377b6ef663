import Testing

@testable import InterludeHLS

@Suite struct MultivariantPlaylistTests {
    let playlist = try! MultivariantPlaylist(parsing: Fixture.text("Multivariant/multivariant.m3u8"))

    @Test func variantsCarryBandwidthCodecsResolutionAndURI() {
        #expect(playlist.variants.count == 2)
        let first = playlist.variants[0]
        #expect(first.bandwidth == 1_280_000)
        #expect(first.averageBandwidth == 1_000_000)
        #expect(first.codecs == "avc1.4d401f,mp4a.40.2")
        #expect(first.resolution == HLSResolution(width: 640, height: 360))
        #expect(first.frameRate == 29.97)
        #expect(first.audioGroup == "aac")
        #expect(first.uri == "{$cdn}/video/360.m3u8")
    }

    @Test func renditionsAreReadFromMediaTags() {
        let renditions = playlist.renditions
        #expect(renditions.map(\.name) == ["English", "Português"])
        #expect(renditions[0].isDefault)
        #expect(renditions[1].language == "pt-BR")
        #expect(renditions[0].type == "AUDIO")
        #expect(renditions[0].groupID == "aac")
    }

    @Test func sessionSteeringAndIFrameTagsAreRead() {
        #expect(playlist.iFrameVariants.first?.integer("BANDWIDTH") == 86000)
        #expect(playlist.sessionData.first?.string("DATA-ID") == "com.example.title")
        #expect(playlist.sessionKeys.first?.string("METHOD") == "SAMPLE-AES")
        #expect(playlist.contentSteering?.string("PATHWAY-ID") == "CDN-A")
        #expect(playlist.version == 11)
        #expect(playlist.hasIndependentSegments)
    }

    @Test func builtMultivariantWritesRenditionsBeforeVariants() throws {
        let built = MultivariantPlaylist(
            renditions: [Rendition(type: "AUDIO", groupID: "a", name: "en", uri: "en.m3u8", isDefault: true)],
            variants: [
                VariantStream(
                    uri: "v.m3u8", bandwidth: 800_000, codecs: "avc1.4d401f",
                    resolution: HLSResolution(width: 640, height: 360))
            ])
        #expect(
            built.text == """
                #EXTM3U
                #EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="a",NAME="en",DEFAULT=YES,URI="en.m3u8"
                #EXT-X-STREAM-INF:BANDWIDTH=800000,CODECS="avc1.4d401f",RESOLUTION=640x360
                v.m3u8

                """)
    }
}
