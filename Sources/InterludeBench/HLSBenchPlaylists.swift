import Foundation
import InterludeHLS

/// The benchmark's playlists, generated so every run measures the same text.
enum HLSBenchPlaylists {
    static var all: [(String, String)] {
        [("vod.m3u8", vod), ("live.m3u8", live), ("multivariant.m3u8", multivariant)]
    }

    /// One hour of 4-second segments: 900 segments.
    static var vod: String {
        var text =
            "#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:4\n#EXT-X-MEDIA-SEQUENCE:0\n#EXT-X-PLAYLIST-TYPE:VOD\n"
        for index in 0..<900 {
            text += "#EXTINF:4.000,\n1080p/segment_\(String(format: "%05d", index)).ts\n"
        }
        return text + "#EXT-X-ENDLIST\n"
    }

    /// A 6-segment live window with an 18-second CUE-OUT/CUE-IN break.
    static let live = """
        #EXTM3U
        #EXT-X-VERSION:3
        #EXT-X-TARGETDURATION:6
        #EXT-X-MEDIA-SEQUENCE:1042
        #EXT-X-PROGRAM-DATE-TIME:2024-05-01T12:00:00.000Z
        #EXTINF:6.000,
        live/1080p/1042.ts
        #EXT-X-CUE-OUT:18.000
        #EXTINF:6.000,
        live/1080p/1043.ts
        #EXT-X-CUE-OUT-CONT:ElapsedTime=6.000,Duration=18.000
        #EXTINF:6.000,
        live/1080p/1044.ts
        #EXT-X-CUE-OUT-CONT:ElapsedTime=12.000,Duration=18.000
        #EXTINF:6.000,
        live/1080p/1045.ts
        #EXT-X-CUE-IN
        #EXTINF:6.000,
        live/1080p/1046.ts
        #EXTINF:6.000,
        live/1080p/1047.ts

        """

    /// Eight variants (a 240p–2160p ladder) and two audio renditions.
    static var multivariant: String {
        var text = "#EXTM3U\n#EXT-X-VERSION:6\n#EXT-X-INDEPENDENT-SEGMENTS\n"
        text +=
            "#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID=\"aac\",NAME=\"English\",LANGUAGE=\"en\",DEFAULT=YES,AUTOSELECT=YES,URI=\"audio/en.m3u8\"\n"
        text +=
            "#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID=\"aac\",NAME=\"Deutsch\",LANGUAGE=\"de\",DEFAULT=NO,AUTOSELECT=YES,URI=\"audio/de.m3u8\"\n"
        let ladder = [
            (426, 240, 400_000), (640, 360, 800_000), (854, 480, 1_400_000), (1280, 720, 2_800_000),
            (1280, 720, 4_000_000), (1920, 1080, 6_000_000), (2560, 1440, 10_000_000), (3840, 2160, 16_000_000),
        ]
        for (width, height, bandwidth) in ladder {
            text +=
                "#EXT-X-STREAM-INF:BANDWIDTH=\(bandwidth),AVERAGE-BANDWIDTH=\(bandwidth * 9 / 10),CODECS=\"avc1.640028,mp4a.40.2\",RESOLUTION=\(width)x\(height),FRAME-RATE=29.970,AUDIO=\"aac\"\n"
            text += "video/\(height)p_\(bandwidth / 1000)k.m3u8\n"
        }
        return text
    }

    /// Three 6-second ads, one segment each: the pod spliced in every splice measurement.
    static let threeAdPod = AdPod(
        ads: (1...3).map {
            AdPod.Ad(segments: [AdSegment(uri: "https://ads.example.com/ad\($0)/1080p/0.ts", duration: 6)])
        }, id: "bench")
}
