import Foundation

/// The body of `POST …/streams/{stream_id}/adpods` (the VTP asking for a VOD
/// stream's pods), with the field names of Google's VOD pod serving API.
struct VODAdPodsRequest: Sendable, Hashable, Decodable {
    /// One encoding profile of the content, as Google's API describes it.
    struct EncodingProfile: Sendable, Hashable, Decodable {
        struct Resolution: Sendable, Hashable, Decodable {
            var width: Int
            var height: Int
        }

        struct VideoSettings: Sendable, Hashable, Decodable {
            var codec: String?
            var bitrate: Int?
            var framesPerSecond: Double?
            var resolution: Resolution?

            enum CodingKeys: String, CodingKey {
                case codec, bitrate, resolution
                case framesPerSecond = "frames_per_second"
            }
        }

        var profileName: String
        var type: String?
        var containerType: String?
        var videoSettings: VideoSettings?
        /// Present in the body (its fields are not read): with no video
        /// settings, the profile is audio-only.
        var hasAudioSettings = false

        enum CodingKeys: String, CodingKey {
            case profileName = "profile_name"
            case type
            case containerType = "container_type"
            case videoSettings = "video_settings"
            case audioSettings = "audio_settings"
        }

        init(
            profileName: String, type: String? = nil, containerType: String? = nil,
            videoSettings: VideoSettings? = nil
        ) {
            self.profileName = profileName
            self.type = type
            self.containerType = containerType
            self.videoSettings = videoSettings
        }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            profileName = try container.decode(String.self, forKey: .profileName)
            type = try container.decodeIfPresent(String.self, forKey: .type)
            containerType = try container.decodeIfPresent(String.self, forKey: .containerType)
            videoSettings = try container.decodeIfPresent(VideoSettings.self, forKey: .videoSettings)
            hasAudioSettings = container.contains(.audioSettings)
        }

        /// Why this profile cannot be served, or nil: ads are conditioned
        /// as video+audio MPEG-TS renditions only.
        var unsupportedReason: String? {
            if let type, type != "media" { return "type \(type) is not served (only media)" }
            if let containerType, containerType != "mpeg2ts" {
                return "container_type \(containerType) is not served (only mpeg2ts)"
            }
            if videoSettings == nil, hasAudioSettings { return "audio-only profiles are not served" }
            return nil
        }

        /// The video height: `video_settings.resolution`, else one the name
        /// states (`720p`, `hd-1280x720`, `720p60`).
        var height: Int? {
            if let height = videoSettings?.resolution?.height { return height }
            let name = Array(profileName.lowercased().utf8)
            var index = 0
            while index < name.count {
                guard (48...57).contains(name[index]) else {
                    index += 1
                    continue
                }
                var end = index
                while end < name.count, (48...57).contains(name[end]) { end += 1 }
                let digits = end - index
                let before = index > 0 ? name[index - 1] : 0
                let after = end < name.count ? name[end] : 0
                // `720p`, or the height in `1280x720` (digits on both sides of
                // the `x`, so a codec's `x264` is not a height).
                let afterWidth =
                    before == UInt8(ascii: "x") && index >= 2 && (48...57).contains(name[index - 2])
                if (2...4).contains(digits), after == UInt8(ascii: "p") || afterWidth {
                    return Int(String(decoding: name[index..<end], as: UTF8.self))
                }
                index = end
            }
            return nil
        }
    }

    /// A requested profile left out of the pods, and why.
    struct UnsupportedProfile: Sendable, Hashable, Encodable {
        var profileName: String
        var reason: String

        enum CodingKeys: String, CodingKey {
            case profileName = "profile_name"
            case reason
        }
    }

    var encodingProfiles: [EncodingProfile]
    var adTag: String
    var cuepoints: [Double]?
    var contentDurationSeconds: Double?
    /// `manifest_type`: `hls` (the default) or `dash`; pods are HLS only.
    /// (Other fields of Google's body, such as `dai_options`, are read past.)
    var manifestType: String?

    enum CodingKeys: String, CodingKey {
        case encodingProfiles = "encoding_profiles"
        case adTag = "ad_tag"
        case cuepoints
        case contentDurationSeconds = "content_duration_seconds"
        case manifestType = "manifest_type"
    }

    static let maxBodyBytes = 256 * 1024
    static let maxCuepoints = 100
    static let maxProfiles = 32
    /// Longest content accepted (s): 24 h.
    static let maxContentDuration: Double = 86_400

    /// Reads and checks the body; every problem is a 400 naming the field.
    static func parse(_ body: [UInt8]) throws(HTTPError) -> VODAdPodsRequest {
        guard body.count <= maxBodyBytes else {
            throw HTTPError(status: 413, message: "adpods body is over \(maxBodyBytes) bytes")
        }
        let request: VODAdPodsRequest
        do {
            request = try JSONDecoder().decode(VODAdPodsRequest.self, from: Data(body))
        } catch DecodingError.keyNotFound(let key, _) {
            throw .badRequest("adpods body needs \(key.stringValue)")
        } catch {
            throw .badRequest(
                "adpods body must be JSON with encoding_profiles, ad_tag, cuepoints, content_duration_seconds")
        }
        if let type = request.manifestType, type.lowercased() != "hls" {
            throw .badRequest("manifest_type \(type.prefix(16)) is not served: ad pods are HLS (manifest_type hls)")
        }
        guard (1...maxProfiles).contains(request.encodingProfiles.count) else {
            throw .badRequest("encoding_profiles must list 1–\(maxProfiles) profiles")
        }
        var names = Set<String>()
        for profile in request.encodingProfiles {
            // Matching subtracts these from the ladder's: out-of-range values would overflow.
            if let settings = profile.videoSettings {
                let resolution = settings.resolution
                let numbers = [settings.bitrate, resolution?.width, resolution?.height].compactMap { $0 }
                guard numbers.allSatisfy({ (1...1_000_000_000).contains($0) }),
                    settings.framesPerSecond.map({ $0.isFinite && $0 > 0 && $0 <= 1000 }) ?? true
                else {
                    throw .badRequest(
                        "profile \(profile.profileName.prefix(64)): video_settings bitrate, resolution and "
                            + "frames_per_second must be positive and in range")
                }
            }
            guard Catalog.isSafeID(profile.profileName), names.insert(profile.profileName).inserted else {
                throw .badRequest(
                    "profile_name '\(profile.profileName.prefix(64))' must be unique, 1–64 of A–Z a–z 0–9 - _ .")
            }
        }
        // An iframe, audio-only or fMP4 rendition of the content is left without
        // ads (listed in the answer), not a reason to refuse the others.
        let unsupported = request.encodingProfiles.compactMap { profile in
            profile.unsupportedReason.map { "\(profile.profileName): \($0)" }
        }
        guard unsupported.count < request.encodingProfiles.count else {
            throw .badRequest("no profile can be served: \(unsupported.joined(separator: "; "))")
        }
        guard !request.adTag.isEmpty, request.adTag.utf8.count <= 4096 else {
            throw .badRequest("ad_tag must be 1–4096 bytes")
        }
        if let duration = request.contentDurationSeconds {
            guard duration.isFinite, duration > 0, duration <= maxContentDuration else {
                throw .badRequest("content_duration_seconds must be between 0 and \(Int(maxContentDuration))")
            }
        }
        if let cuepoints = request.cuepoints {
            guard cuepoints.count <= maxCuepoints else { throw .badRequest("at most \(maxCuepoints) cuepoints") }
            let limit = request.contentDurationSeconds ?? maxContentDuration
            for point in cuepoints where !(point.isFinite && point >= 0 && point <= limit) {
                throw .badRequest("cuepoint \(point) is outside the content (0–\(limit) s)")
            }
            guard Set(cuepoints).count == cuepoints.count else { throw .badRequest("cuepoints must not repeat") }
        }
        return request
    }

    /// The breaks: the cuepoints when given, else the catalog's ad rules
    /// (pre-roll at 0, mid-rolls at their offsets inside the content, a
    /// post-roll at the end when the content's duration is known).
    func breaks(rules: AdRules) -> [PodVODPlan.Break] {
        var times: [Double]
        if let cuepoints {
            times = cuepoints
        } else {
            times = []
            if rules.preroll != nil { times.append(0) }
            for rule in rules.midrolls {
                guard let offset = rule.offset else { continue }
                if let contentDurationSeconds, offset >= contentDurationSeconds { continue }
                times.append(offset)
            }
            if rules.postroll != nil, let contentDurationSeconds { times.append(contentDurationSeconds) }
        }
        return Set(times).sorted().enumerated().map { index, time in
            let type =
                time == 0 ? "pre" : (contentDurationSeconds.map { time >= $0 } ?? false) ? "post" : "mid"
            return PodVODPlan.Break(index: index, type: type, contentOffset: time)
        }
    }

    /// Requested profile name → a profile of `profiles`, for every profile
    /// that can be served: the same name, else the nearest height (stated or
    /// read from the name), else the nearest bandwidth to `video_settings.bitrate`.
    /// Throws when none of the servable profiles fits.
    func profileMapping(to profiles: [PodProfile]) throws(HTTPError) -> [String: String] {
        let (mapping, unmatched) = matchProfiles(to: profiles)
        guard !mapping.isEmpty else {
            throw .badRequest(
                "no profile matches one of \(profiles.map(\.id).joined(separator: ", ")): "
                    + unmatched.map { "\($0.profileName): \($0.reason)" }.joined(separator: "; "))
        }
        return mapping
    }

    /// The requested profiles the pods leave out, and why.
    func unsupportedProfiles(for profiles: [PodProfile]) -> [UnsupportedProfile] {
        matchProfiles(to: profiles).unmatched
    }

    private func matchProfiles(to profiles: [PodProfile]) -> (
        mapping: [String: String], unmatched: [UnsupportedProfile]
    ) {
        var mapping: [String: String] = [:]
        var unmatched: [UnsupportedProfile] = []
        for requested in encodingProfiles {
            if let reason = requested.unsupportedReason {
                unmatched.append(UnsupportedProfile(profileName: requested.profileName, reason: reason))
            } else if profiles.isEmpty {
                mapping[requested.profileName] = requested.profileName
            } else if let same = profiles.first(where: { $0.id == requested.profileName }) {
                mapping[requested.profileName] = same.id
            } else if let height = requested.height,
                let nearest = profiles.min(by: { abs($0.height - height) < abs($1.height - height) })
            {
                mapping[requested.profileName] = nearest.id
            } else if let bitrate = requested.videoSettings?.bitrate,
                let nearest = profiles.min(by: { abs($0.bandwidth - bitrate) < abs($1.bandwidth - bitrate) })
            {
                mapping[requested.profileName] = nearest.id
            } else {
                unmatched.append(
                    UnsupportedProfile(
                        profileName: requested.profileName,
                        reason: "matches no conditioned profile (name one, or give video_settings.resolution)"))
            }
        }
        return (mapping, unmatched)
    }
}
