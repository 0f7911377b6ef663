import Foundation

extension ContentCatalog {
    /// H.264 level 3.1 (Main): at most 3600 macroblocks a frame and 108,000 a
    /// second (ITU-T H.264 table A-1), 14,000 kbit/s.
    static let level31FrameMacroblocks = 3600
    static let level31MacroblockRate = 108_000
    static let level31MaxBitrate = 14_000

    /// Checks what decoding cannot: ids, ranges, multiples of the segment
    /// duration, profile references and origin URLs. Messages name the JSON path.
    public func validate(source: String = "catalog") throws(CatalogError) {
        let at = "\(source): content"
        guard segmentDuration.isFinite, (1...10).contains(segmentDuration) else {
            throw CatalogError("\(at).segmentDuration must be 1–10 seconds, got \(segmentDuration)")
        }
        if !(titles.isEmpty && channels.isEmpty) && profiles.isEmpty {
            throw CatalogError("\(at).profiles is empty but titles or channels need a ladder")
        }
        guard profiles.count <= 8 else { throw CatalogError("\(at).profiles has more than 8 profiles") }
        var profileIDs = Set<String>()
        for (index, profile) in profiles.enumerated() {
            try validate(profile, at: "\(at).profiles[\(index)] (\(profile.id))")
            guard profileIDs.insert(profile.id).inserted else {
                throw CatalogError("\(at).profiles[\(index)]: duplicate id '\(profile.id)'")
            }
        }
        var titleIDs = Set<String>()
        for (index, title) in titles.enumerated() {
            let path = "\(at).titles[\(index)] (\(title.id))"
            try Self.checkID(title.id, at: path)
            guard titleIDs.insert(title.id).inserted else { throw CatalogError("\(path): duplicate id") }
            try checkProfiles(title.profiles, at: path)
            try Self.checkTitleText(title.title, at: path)
            if let origin = title.origin {
                try Self.checkOrigin(origin, at: path)
            } else if !(title.duration.isFinite && (1...7200).contains(title.duration)) {
                throw CatalogError("\(path).duration must be 1–7200 seconds (or give an origin URL)")
            }
        }
        var channelIDs = Set<String>()
        for (index, channel) in channels.enumerated() {
            let path = "\(at).channels[\(index)] (\(channel.id))"
            try Self.checkID(channel.id, at: path)
            guard channelIDs.insert(channel.id).inserted else { throw CatalogError("\(path): duplicate id") }
            try checkProfiles(channel.profiles, at: path)
            try Self.checkTitleText(channel.title, at: path)
            try validate(channel, at: path)
        }
    }

    private func validate(_ profile: EncodingProfile, at path: String) throws(CatalogError) {
        try Self.checkID(profile.id, at: path)
        guard profile.width % 2 == 0, profile.height % 2 == 0, (16...1920).contains(profile.width),
            (16...1080).contains(profile.height)
        else { throw CatalogError("\(path): width and height must be even, 16–1920 × 16–1080") }
        guard (1...60).contains(profile.frameRate) else { throw CatalogError("\(path).frameRate must be 1–60") }
        let macroblocks = ((profile.width + 15) / 16) * ((profile.height + 15) / 16)
        guard macroblocks <= Self.level31FrameMacroblocks,
            macroblocks * profile.frameRate <= Self.level31MacroblockRate
        else {
            throw CatalogError(
                "\(path): \(profile.width)x\(profile.height) at \(profile.frameRate) fps exceeds H.264 level 3.1 "
                    + "(3600 macroblocks a frame, 108000 a second)")
        }
        guard (100...Self.level31MaxBitrate).contains(profile.videoBitrate) else {
            throw CatalogError("\(path).videoBitrate must be 100–14000 kbps (H.264 level 3.1)")
        }
        guard (32...320).contains(profile.audioBitrate) else {
            throw CatalogError("\(path).audioBitrate must be 32–320 kbps")
        }
        let frames = segmentDuration * Double(profile.frameRate)
        guard frames == frames.rounded() else {
            throw CatalogError(
                "\(path): segmentDuration \(segmentDuration) s is not a whole number of frames at \(profile.frameRate) fps"
            )
        }
    }

    private func validate(_ channel: CatalogChannel, at path: String) throws(CatalogError) {
        guard channel.speed.isFinite, (0.01...1000).contains(channel.speed) else {
            throw CatalogError("\(path).speed must be 0.01–1000")
        }
        if let origin = channel.origin {
            try Self.checkOrigin(origin, at: path)
            return
        }
        let seconds = HLSSeconds(segmentDuration)
        guard (3...60).contains(channel.windowSegments) else {
            throw CatalogError("\(path).windowSegments must be 3–60")
        }
        guard channel.sourceDuration.isFinite, channel.sourceDuration >= 2 * segmentDuration,
            channel.sourceDuration <= 3600, seconds.divides(channel.sourceDuration)
        else {
            throw CatalogError(
                "\(path).sourceDuration must be a multiple of the \(seconds) s segment duration, "
                    + "at least two segments and at most 3600 s (or give an origin URL)")
        }
        guard channel.breakInterval.isFinite, channel.breakInterval >= 0, seconds.divides(channel.breakInterval) else {
            throw CatalogError(
                "\(path).breakInterval must be a multiple of the \(seconds) s segment duration (0: no breaks)")
        }
        if channel.breakInterval == 0 {
            guard channel.breakDuration == 0 else {
                throw CatalogError("\(path).breakDuration needs a breakInterval")
            }
            return
        }
        guard channel.breakDuration.isFinite, channel.breakDuration > 0, seconds.divides(channel.breakDuration) else {
            throw CatalogError(
                "\(path).breakDuration must be a positive multiple of the \(seconds) s segment duration, "
                    + "got \(channel.breakDuration)")
        }
        guard channel.breakDuration < channel.breakInterval, channel.breakDuration <= 600 else {
            throw CatalogError("\(path).breakDuration must be less than breakInterval and at most 600 s")
        }
    }

    private func checkProfiles(_ ids: [String]?, at path: String) throws(CatalogError) {
        guard let ids else { return }
        guard !ids.isEmpty else { throw CatalogError("\(path).profiles is empty (leave it out for the whole ladder)") }
        for id in ids where profile(id: id) == nil {
            let known = profiles.map(\.id).joined(separator: ", ")
            throw CatalogError("\(path).profiles names unknown profile '\(id)' (the ladder has \(known))")
        }
    }

    private static func checkID(_ id: String, at path: String) throws(CatalogError) {
        guard Catalog.isSafeID(id) else {
            throw CatalogError("\(path): id must be 1–64 letters, digits, '-', '_' or '.'")
        }
    }

    private static func checkTitleText(_ title: String, at path: String) throws(CatalogError) {
        guard (1...80).contains(title.count), !title.contains(where: \.isNewline) else {
            throw CatalogError("\(path).title must be 1–80 characters on one line")
        }
    }

    /// An origin must be an absolute http(s) URL with a host: the VTP fetches it.
    static func checkOrigin(_ text: String, at path: String) throws(CatalogError) {
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased() else {
            throw CatalogError("\(path).origin '\(text)' is not a URL")
        }
        guard scheme == "http" || scheme == "https" else {
            throw CatalogError("\(path).origin must be an http or https URL, got scheme '\(scheme)'")
        }
        guard let host = url.host, !host.isEmpty else { throw CatalogError("\(path).origin '\(text)' has no host") }
    }
}

/// A segment duration, for the multiple-of checks and messages.
struct HLSSeconds: CustomStringConvertible {
    var value: Double
    init(_ value: Double) { self.value = value }
    /// True when `seconds` is a whole number of these.
    func divides(_ seconds: Double) -> Bool {
        let ratio = seconds / value
        return abs(ratio - ratio.rounded()) < 1e-9
    }
    var description: String { value == value.rounded() ? String(Int(value)) : String(value) }
}
