import Foundation

/// The ffmpeg command lines of the stream media (pure; tested without ffmpeg).
/// All share one encoder setting per profile: H.264 Main 3.1 at the
/// profile's size and rate, a closed GOP of exactly one segment with
/// scene-cut detection off, AAC-LC 48 kHz stereo, MPEG-TS segments.
public enum FFmpegRecipes {
    /// The arguments that make `entry` in `output` (a directory that exists),
    /// drawing the text in `textFile` when `fontFile` is set.
    public static func arguments(
        for entry: MediaPlan.Entry, segmentDuration: Double, dataDirectory: URL, output: String, fontFile: String?,
        textFile: String?
    ) -> [String] {
        let profile = entry.profile
        let common = ["-hide_banner", "-loglevel", "error", "-nostdin", "-y"]
        switch entry.recipe {
        case .pattern(_, let duration, let tone):
            let size = "\(profile.width)x\(profile.height)"
            return common + [
                "-f", "lavfi", "-i", "testsrc2=size=\(size):rate=\(profile.frameRate):duration=\(duration)",
                "-f", "lavfi", "-i",
                "sine=frequency=\(tone):beep_factor=4:sample_rate=\(EncodingProfile.audioSampleRate):duration=\(duration)",
                "-vf", videoFilter(prefix: nil, profile: profile, fontFile: fontFile, textFile: textFile),
            ] + encoder(profile, segmentDuration: segmentDuration, bFrames: true)
                + hls(segmentDuration: segmentDuration, output: output)
        case .transcode(let source, _, _):
            let fit =
                "scale=\(profile.width):\(profile.height):force_original_aspect_ratio=decrease,"
                + "pad=\(profile.width):\(profile.height):(ow-iw)/2:(oh-ih)/2,setsar=1,fps=\(profile.frameRate)"
            return common + [
                "-i", dataDirectory.appendingPathComponent(source).path, "-map", "0:v:0", "-map", "0:a:0",
                "-vf", videoFilter(prefix: fit, profile: profile, fontFile: nil, textFile: nil),
            ] + encoder(profile, segmentDuration: segmentDuration, bFrames: true)
                + hls(segmentDuration: segmentDuration, output: output)
        case .slate:
            let frames = slateFrameCount(frameRate: profile.frameRate)
            let seconds = Double(frames) / Double(profile.frameRate)
            let cuts = slateCuts(frameRate: profile.frameRate)
            let keyframes = "expr:" + ([0] + cuts).map { "eq(n,\($0))" }.joined(separator: "+")
            return common + [
                "-f", "lavfi", "-i",
                "color=c=0x1d2b3a:size=\(profile.width)x\(profile.height):rate=\(profile.frameRate):duration=\(seconds)",
                "-f", "lavfi", "-i",
                "anullsrc=r=\(EncodingProfile.audioSampleRate):cl=stereo", "-t", "\(seconds)",
                "-vf", videoFilter(prefix: nil, profile: profile, fontFile: fontFile, textFile: textFile),
                "-frames:v", "\(frames)",
            ] + encoder(profile, segmentDuration: nil, bFrames: false, keyframes: keyframes) + [
                "-f", "segment", "-segment_format", "mpegts", "-segment_frames",
                cuts.map(String.init).joined(separator: ","), "\(output)/%05d.ts",
            ]
        }
    }

    /// Frames of the slate source: the one-second run, then one tail of each length 1…fps−1.
    static func slateFrameCount(frameRate: Int) -> Int {
        MediaPlan.slateRunSeconds * frameRate + frameRate * (frameRate - 1) / 2
    }

    /// Frame numbers where slate segments start (after the first): every
    /// second of the run, then after each tail.
    static func slateCuts(frameRate: Int) -> [Int] {
        var cuts = (1...MediaPlan.slateRunSeconds).map { $0 * frameRate }
        var next = MediaPlan.slateRunSeconds * frameRate
        for length in stride(from: 1, to: frameRate - 1, by: 1) {
            next += length
            cuts.append(next)
        }
        return cuts
    }

    /// The text drawn on generated pictures: title and profile, then the
    /// content time as hh:mm:ss.ff (ff = frame within the second).
    public static func overlayText(title: String, profile: EncodingProfile) -> String {
        "\(title) · \(profile.id)\n"
            + "%{eif:floor(t/3600):d:2}:%{eif:mod(floor(t/60),60):d:2}:%{eif:mod(floor(t),60):d:2}"
            + ".%{eif:mod(n,\(profile.frameRate)):d:2}"
    }

    private static func videoFilter(prefix: String?, profile: EncodingProfile, fontFile: String?, textFile: String?)
        -> String
    {
        var filters = prefix.map { [$0] } ?? []
        if let fontFile, let textFile {
            let size = max(12, profile.height / 12)
            filters.append(
                "drawtext=fontfile='\(MediaGenerator.filterEscape(fontFile))':"
                    + "textfile='\(MediaGenerator.filterEscape(textFile))':fontsize=\(size):fontcolor=white:"
                    + "line_spacing=\(size / 3):box=1:boxcolor=black@0.6:boxborderw=\(size / 3):"
                    + "x=(w-text_w)/2:y=(h-text_h)/2")
        }
        filters.append("format=yuv420p")
        return filters.joined(separator: ",")
    }

    private static func encoder(
        _ profile: EncodingProfile, segmentDuration: Double?, bFrames: Bool, keyframes: String? = nil
    ) -> [String] {
        let gop = segmentDuration.map { Int($0 * Double(profile.frameRate)) }
        var arguments = [
            "-c:v", "libx264", "-preset", "veryfast", "-profile:v", "main", "-level:v", "3.1", "-pix_fmt", "yuv420p",
            "-b:v", "\(profile.videoBitrate)k", "-maxrate", "\(profile.videoBitrate * 3 / 2)k",
            "-bufsize", "\(profile.videoBitrate * 2)k", "-sc_threshold", "0",
        ]
        if let gop {
            let seconds = HLSSeconds(segmentDuration ?? 0)
            arguments += [
                "-g", "\(gop)", "-keyint_min", "\(gop)", "-force_key_frames", "expr:gte(t,n_forced*\(seconds))",
                "-x264-params", "scenecut=0:open-gop=0:keyint=\(gop):min-keyint=\(gop)",
            ]
        } else {
            arguments += ["-g", "100000", "-x264-params", "scenecut=0:open-gop=0"]
        }
        if let keyframes { arguments += ["-force_key_frames", keyframes] }
        if !bFrames { arguments += ["-bf", "0"] }
        return arguments + [
            "-c:a", "aac", "-b:a", "\(profile.audioBitrate)k", "-ar", "\(EncodingProfile.audioSampleRate)",
            "-ac", "\(EncodingProfile.audioChannels)",
        ]
    }

    private static func hls(segmentDuration: Double, output: String) -> [String] {
        [
            "-f", "hls", "-hls_time", "\(HLSSeconds(segmentDuration))", "-hls_playlist_type", "vod",
            "-hls_list_size", "0", "-hls_segment_type", "mpegts", "-hls_segment_filename", "\(output)/%05d.ts",
            "\(output)/index.m3u8",
        ]
    }
}
