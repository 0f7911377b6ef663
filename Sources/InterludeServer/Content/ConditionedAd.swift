/// A creative transcoded to every profile of the content ladder and cut
/// into segments of the content's GOP (the last one shorter), ready to be
/// stitched into a stream.
public struct ConditionedAd: Sendable, Hashable {
    /// The catalog creative's id.
    public var creativeID: String
    /// Seconds of video (the first profile's segments summed).
    public var duration: Double
    /// Segments by profile id.
    public var renditions: [String: [SegmentFile]]

    public init(creativeID: String, duration: Double, renditions: [String: [SegmentFile]]) {
        self.creativeID = creativeID
        self.duration = duration
        self.renditions = renditions
    }
}

/// The slate of one profile: ``MediaPlan/slateRunSeconds`` continuous
/// one-second segments, and tails of 1…fps−1 frames.
struct SlateRendition: Sendable, Hashable {
    var profile: EncodingProfile
    /// One-second segments, continuous from the first to the last.
    var run: [SegmentFile]
    /// `tails[k - 1]` lasts k frames.
    var tails: [SegmentFile]

    init(profile: EncodingProfile, segments: [SegmentFile]) {
        self.profile = profile
        run = Array(segments.prefix(MediaPlan.slateRunSeconds))
        tails = Array(segments.dropFirst(MediaPlan.slateRunSeconds))
    }

    /// Slate filling `duration` (see ``MediaLibrary/slate(profile:duration:)``).
    func fill(_ duration: Double) -> [SegmentFile] {
        guard duration.isFinite, duration > 0, !run.isEmpty else { return [] }
        let milliseconds = Int((duration * 1000).rounded())
        guard milliseconds > 0 else { return [] }
        let fps = profile.frameRate
        var seconds = milliseconds / 1000
        let rest = milliseconds % 1000
        let frames = Int((Double(rest) * Double(fps) / 1000).rounded())
        var result: [SegmentFile] = []
        var lastStated: Double?
        var tail: SegmentFile?
        if frames == 0, rest > 0, seconds > 0 {
            // Under half a frame over whole seconds: the last second states the extra milliseconds.
            lastStated = Double(1000 + rest) / 1000
        } else if frames == fps {
            // Within half a frame of the next whole second: one more second, stated shorter.
            seconds += 1
            lastStated = Double(rest) / 1000
        } else if frames > 0 || rest > 0, let piece = tails[safe: max(1, frames) - 1] {
            tail = piece
        }
        for index in 0..<seconds {
            var segment = run[index % run.count]
            segment.duration = 1
            result.append(segment)
        }
        if let lastStated, !result.isEmpty { result[result.count - 1].duration = lastStated }
        if var tail {
            tail.duration = Double(rest) / 1000
            result.append(tail)
        }
        return result
    }
}

extension Array {
    subscript(safe index: Int) -> Element? { indices.contains(index) ? self[index] : nil }
}
