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

        enum CodingKeys: String, CodingKey {
            case profileName = "profile_name"
            case type
            case containerType = "container_type"
            case videoSettings = "video_settings"
        }
    }

    var encodingProfiles: [EncodingProfile]
    var adTag: String
    var cuepoints: [Double]?
    var contentDurationSeconds: Double?

    enum CodingKeys: String, CodingKey {
        case encodingProfiles = "encoding_profiles"
        case adTag = "ad_tag"
        case cuepoints
        case contentDurationSeconds = "content_duration_seconds"
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
        guard (1...maxProfiles).contains(request.encodingProfiles.count) else {
            throw .badRequest("encoding_profiles must list 1–\(maxProfiles) profiles")
        }
        var names = Set<String>()
        for profile in request.encodingProfiles {
            guard Catalog.isSafeID(profile.profileName), names.insert(profile.profileName).inserted else {
                throw .badRequest(
                    "profile_name '\(profile.profileName.prefix(64))' must be unique, 1–64 of A–Z a–z 0–9 - _ .")
            }
            if let type = profile.type, type != "media" {
                throw .badRequest("profile \(profile.profileName): only type media is served, got \(type)")
            }
            if let container = profile.containerType, container != "mpeg2ts" {
                throw .badRequest(
                    "profile \(profile.profileName): only container_type mpeg2ts is served, got \(container)")
            }
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

    /// Requested profile name → a profile of `profiles`: the same name, else
    /// the nearest height. Throws when there are profiles and none fits.
    func profileMapping(to profiles: [PodProfile]) throws(HTTPError) -> [String: String] {
        var mapping: [String: String] = [:]
        for requested in encodingProfiles {
            if profiles.isEmpty {
                mapping[requested.profileName] = requested.profileName
            } else if let same = profiles.first(where: { $0.id == requested.profileName }) {
                mapping[requested.profileName] = same.id
            } else if let height = requested.videoSettings?.resolution?.height,
                let nearest = profiles.min(by: { abs($0.height - height) < abs($1.height - height) })
            {
                mapping[requested.profileName] = nearest.id
            } else {
                throw .badRequest(
                    "profile \(requested.profileName) matches none of \(profiles.map(\.id).joined(separator: ", ")) "
                        + "(name them, or give video_settings.resolution)")
            }
        }
        return mapping
    }
}
