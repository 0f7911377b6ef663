import Foundation
import Testing

@testable import InterludeServer

/// How `POST …/adpods` matches the VTP's encoding profiles to the conditioned
/// ladder: renditions it cannot serve are left out and named, not a reason
/// to refuse the others.
@Suite struct VODProfileMatchingTests {
    private let ladder = [
        PodProfile(
            id: "360p", width: 640, height: 360, bandwidth: 900_000, averageBandwidth: 800_000,
            codecs: "avc1.4d401e,mp4a.40.2", frameRate: 30),
        PodProfile(
            id: "720p", width: 1280, height: 720, bandwidth: 3_400_000, averageBandwidth: 3_000_000,
            codecs: "avc1.4d401f,mp4a.40.2", frameRate: 30),
    ]

    private func request(_ profiles: String) throws -> VODAdPodsRequest {
        try VODAdPodsRequest.parse(Array(#"{"encoding_profiles":[\#(profiles)],"ad_tag":"x"}"#.utf8))
    }

    @Test func namesResolutionsHeightsInNamesAndBitratesEachFindTheNearestProfile() throws {
        let body = try request(
            """
            {"profile_name":"720p"},
            {"profile_name":"low","video_settings":{"resolution":{"width":426,"height":240}}},
            {"profile_name":"hd_1920x1080"},
            {"profile_name":"600p30"},
            {"profile_name":"mid","video_settings":{"bitrate":3000000}}
            """)
        let mapping = try body.profileMapping(to: ladder)
        #expect(mapping == ["720p": "720p", "low": "360p", "hd_1920x1080": "720p", "600p30": "720p", "mid": "720p"])
        #expect(body.unsupportedProfiles(for: ladder).isEmpty)
    }

    @Test func iframeAudioOnlyFMP4AndUnmatchableProfilesAreLeftOutAndNamed() throws {
        let body = try request(
            """
            {"profile_name":"360p","type":"media","container_type":"mpeg2ts"},
            {"profile_name":"trick","type":"iframe"},
            {"profile_name":"audio","type":"media","container_type":"mpeg2ts","audio_settings":{"codec":"aac","bitrate":128000}},
            {"profile_name":"cmaf","container_type":"fmp4cmaf"},
            {"profile_name":"main"}
            """)
        #expect(try body.profileMapping(to: ladder) == ["360p": "360p"])
        let left = body.unsupportedProfiles(for: ladder)
        #expect(left.map(\.profileName) == ["trick", "audio", "cmaf", "main"])
        #expect(left[0].reason.contains("iframe"))
        #expect(left[1].reason.contains("audio-only"))
        #expect(left[2].reason.contains("fmp4cmaf"))
        #expect(left[3].reason.contains("matches no conditioned profile"))
    }

    @Test func aDASHRequestIsA400AndGoogleFieldsWeDoNotUseAreReadPast() throws {
        let profiles = #"[{"profile_name":"720p"}]"#
        #expect {
            try VODAdPodsRequest.parse(
                Array(#"{"encoding_profiles":\#(profiles),"ad_tag":"x","manifest_type":"dash"}"#.utf8))
        } throws: { error in
            (error as? HTTPError)?.status == 400
                && (error as? HTTPError)?.message.contains("manifest_type dash") == true
        }
        let hls = try VODAdPodsRequest.parse(
            Array(
                #"{"encoding_profiles":\#(profiles),"ad_tag":"x","manifest_type":"HLS","dai_options":{"x":[1,{"y":null}]}}"#
                    .utf8))
        #expect(try hls.profileMapping(to: ladder) == ["720p": "720p"])
    }

    @Test func aRequestWithNothingServableIsA400NamingWhy() throws {
        #expect {
            try request(#"{"profile_name":"trick","type":"iframe"}"#)
        } throws: { error in
            (error as? HTTPError)?.message.contains("trick: type iframe is not served") == true
        }
        let unmatched = try request(#"{"profile_name":"main"}"#)
        #expect(throws: HTTPError.self) { try unmatched.profileMapping(to: ladder) }
    }

    /// A codec's number is not a height: `x264_1080p` is 1080p, not 264.
    @Test func aCodecNameInTheProfileNameIsNotReadAsItsHeight() throws {
        let body = try request(#"{"profile_name":"x264_360p"},{"profile_name":"hevc_x265_720p"}"#)
        #expect(try body.profileMapping(to: ladder) == ["x264_360p": "360p", "hevc_x265_720p": "720p"])
    }

    /// Matching subtracts the request's numbers from the ladder's: the
    /// extremes are a 400, not an overflow that ends the server.
    @Test func outOfRangeVideoSettingsAreA400() {
        for settings in [
            #"{"bitrate":-9223372036854775808}"#, #"{"bitrate":9223372036854775807}"#, #"{"bitrate":0}"#,
            #"{"resolution":{"width":640,"height":-9223372036854775808}}"#,
            #"{"resolution":{"width":0,"height":360}}"#, #"{"frames_per_second":-1}"#,
        ] {
            #expect(throws: HTTPError.self, "\(settings)") {
                try request(#"{"profile_name":"a","video_settings":\#(settings)}"#)
            }
        }
    }
}
