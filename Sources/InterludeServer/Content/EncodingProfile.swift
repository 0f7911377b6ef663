import Foundation

/// One rung of the content ladder: every title, live channel, conditioned
/// ad and slate is encoded to each profile with the same codec, profile,
/// level, size, frame rate, GOP and audio format, so a stitched stream never
/// changes format at an ad boundary.
///
/// Video is H.264 Main profile level 3.1 with a closed GOP of exactly one
/// segment; audio AAC-LC 48 kHz stereo. ``codecs`` is what the encoder
/// writes (checked against each rendition's SPS and ADTS headers when media
/// is made); ``bandwidth`` and ``averageBandwidth`` are nominal in a catalog
/// and measured from the written segments in ``MediaLibrary/profiles``.
public struct EncodingProfile: Sendable, Hashable, Codable {
    /// The RFC 6381 codec of H.264 Main profile, level 3.1 (`avc1.4d401f`).
    public static let h264Main31 = "avc1.4d401f"
    /// The RFC 6381 codec of AAC-LC (`mp4a.40.2`).
    public static let aacLC = "mp4a.40.2"
    /// Audio sample rate, Hz.
    public static let audioSampleRate = 48_000
    /// Audio channels (stereo).
    public static let audioChannels = 2

    /// Profile id, used in URLs (`360p`): letters, digits, `-`, `_`, `.`.
    public var id: String
    /// Frame width in pixels (even).
    public var width: Int
    /// Frame height in pixels (even).
    public var height: Int
    /// Video bitrate target, kbps.
    public var videoBitrate: Int
    /// Audio bitrate, kbps.
    public var audioBitrate: Int
    /// Frames per second (a whole number).
    public var frameRate: Int
    /// `CODECS` of a variant in this profile.
    public var codecs: String
    /// Peak segment bitrate in bit/s (`BANDWIDTH`).
    public var bandwidth: Int
    /// Mean bitrate in bit/s (`AVERAGE-BANDWIDTH`).
    public var averageBandwidth: Int

    /// A profile with nominal bandwidths: the encoder's rate cap (1.5 × the
    /// video target) plus audio for the peak, the targets for the mean.
    public init(id: String, width: Int, height: Int, videoBitrate: Int, audioBitrate: Int = 128, frameRate: Int = 30) {
        self.id = id
        self.width = width
        self.height = height
        self.videoBitrate = videoBitrate
        self.audioBitrate = audioBitrate
        self.frameRate = frameRate
        codecs = "\(Self.h264Main31),\(Self.aacLC)"
        bandwidth = (videoBitrate * 3 / 2 + audioBitrate) * 1000
        averageBandwidth = (videoBitrate + audioBitrate) * 1000
    }

    /// 360p 800 kbps, 540p 1600 kbps, 720p 2800 kbps (all 30 fps, AAC 128 kbps).
    public static let standardLadder = [
        EncodingProfile(id: "360p", width: 640, height: 360, videoBitrate: 800),
        EncodingProfile(id: "540p", width: 960, height: 540, videoBitrate: 1600),
        EncodingProfile(id: "720p", width: 1280, height: 720, videoBitrate: 2800),
    ]

    /// The parameters that decide the encoded bytes (what cache hashes cover).
    var recipeDescription: String {
        "\(id):\(width)x\(height):v\(videoBitrate):a\(audioBitrate):r\(frameRate)"
    }

    /// One frame in 90 kHz ticks.
    public var frameTicks: UInt64 { UInt64(90_000 / frameRate) }

    private enum CodingKeys: String, CodingKey {
        case id, width, height, videoBitrate, audioBitrate, frameRate, codecs, bandwidth, averageBandwidth
    }

    /// Reads `id`, `width`, `height`, `videoBitrate` and optional
    /// `audioBitrate` (128) and `frameRate` (30); the codec and bandwidths
    /// are derived, never taken from the file.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            id: try container.decode(String.self, forKey: .id), width: try container.decode(Int.self, forKey: .width),
            height: try container.decode(Int.self, forKey: .height),
            videoBitrate: try container.decode(Int.self, forKey: .videoBitrate),
            audioBitrate: try container.decodeIfPresent(Int.self, forKey: .audioBitrate) ?? 128,
            frameRate: try container.decodeIfPresent(Int.self, forKey: .frameRate) ?? 30)
    }
}

/// One written media segment of a rendition.
public struct SegmentFile: Sendable, Hashable, Codable {
    /// Path relative to the data directory (`content/…/360p/00003.ts`).
    public var path: String
    /// Seconds, from the video PTS (next segment's first PTS, or the last
    /// frame's end); for a slate tail, the duration it states (see
    /// ``MediaLibrary/slate(profile:duration:)``).
    public var duration: Double
    /// File size in bytes.
    public var byteCount: Int
    /// PTS of the first video frame, 90 kHz.
    public var firstPTS: UInt64

    public init(path: String, duration: Double, byteCount: Int, firstPTS: UInt64) {
        self.path = path
        self.duration = duration
        self.byteCount = byteCount
        self.firstPTS = firstPTS
    }

    /// True when this segment's timestamps carry on from `previous` (within
    /// half a frame of `frameTicks`), so no DISCONTINUITY is needed between them.
    public func continues(after previous: SegmentFile, frameTicks: UInt64 = 3000) -> Bool {
        let expected = Int64(previous.firstPTS) + Int64((previous.duration * 90_000).rounded())
        return abs(Int64(firstPTS) - expected) <= Int64(frameTicks / 2)
    }
}

extension Array where Element == SegmentFile {
    /// The sum of the durations, seconds.
    public var totalDuration: Double { reduce(0) { $0 + $1.duration } }

    /// The peak segment bitrate in bit/s as RFC 8216bis 4.4.6.2 defines
    /// `BANDWIDTH`: the highest rate of any run of contiguous segments lasting
    /// 0.5 to 1.5 times `targetDuration`; with no such run (a list of short
    /// slate pieces), the highest single-segment rate.
    public func peakBitrate(targetDuration: Double) -> Int {
        var peak = 0.0
        for start in indices {
            var bytes = 0
            var seconds = 0.0
            for index in start..<endIndex {
                guard seconds + self[index].duration <= targetDuration * 1.5 + 0.0005 else { break }
                bytes += self[index].byteCount
                seconds += self[index].duration
                if seconds >= targetDuration * 0.5 - 0.0005 { peak = Swift.max(peak, Double(bytes * 8) / seconds) }
            }
        }
        if peak == 0 {
            peak = filter { $0.duration > 0 }.map { Double($0.byteCount * 8) / $0.duration }.max() ?? 0
        }
        return Int(peak.rounded(.up))
    }

    /// Total bits over total seconds (`AVERAGE-BANDWIDTH`).
    public var averageBitrate: Int {
        let seconds = totalDuration
        guard seconds > 0 else { return 0 }
        return Int((Double(reduce(0) { $0 + $1.byteCount } * 8) / seconds).rounded(.up))
    }
}
