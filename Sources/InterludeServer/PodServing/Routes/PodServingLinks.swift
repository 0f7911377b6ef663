import InterludeVAST

/// The URLs of the pod-serving API on one base URL. Registration paths and
/// pod manifest paths are Google's; metadata, verification and VOD pod paths
/// are ours (the API returns them, so clients never build them).
struct PodServingLinks: Sendable {
    /// `http://host:port`, no trailing slash.
    let baseURL: String

    static func encode(_ text: String) -> String { VASTMacroFiller.percentEncode(text) }

    func liveRegistration(networkCode: String, customAssetKey: String) -> String {
        "\(baseURL)/ssai/pods/api/v1/network/\(Self.encode(networkCode))/custom_asset/\(Self.encode(customAssetKey))/stream"
    }

    func vodRegistration(networkCode: String) -> String {
        "\(baseURL)/ondemand/pods/api/v1/network/\(Self.encode(networkCode))/stream_registration"
    }

    func metadata(streamID: String) -> String { "\(baseURL)/pods/v1/streams/\(streamID)/metadata" }

    /// The base the event ID is appended to.
    func mediaVerification(streamID: String) -> String { "\(baseURL)/pods/v1/streams/\(streamID)/media/" }

    func report(streamID: String) -> String { "\(baseURL)/api/streams/\(streamID)" }

    func vodAdPods(networkCode: String, streamID: String) -> String {
        "\(baseURL)/ondemand/pods/api/v1/network/\(Self.encode(networkCode))/streams/\(streamID)/adpods"
    }

    /// The media playlist of VOD pod `index` in `profile`.
    func vodPodPlaylist(networkCode: String, streamID: String, index: Int, profile: String) -> String {
        "\(baseURL)/ondemand/pods/api/v1/network/\(Self.encode(networkCode))/streams/\(streamID)/pods/\(index)"
            + "/profile/\(Self.encode(profile)).m3u8"
    }

    /// The live pod multivariant playlist (what the VTP requests).
    func livePod(
        networkCode: String, customAssetKey: String, identifier: PodIdentifier, streamID: String, duration: Int
    ) -> String {
        "\(baseURL)/linear/pods/v1/hls/network/\(Self.encode(networkCode))/custom_asset/\(Self.encode(customAssetKey))/"
            + "\(identifier.pathComponent).m3u8?stream_id=\(streamID)&pd=\(duration)"
    }

    /// Templates for the VTP: the stitched streams of `/vtp/…` with `[[STREAMID]]`.
    func vtpLiveTemplate(channel: String) -> String {
        "\(baseURL)/vtp/stream_id/[[STREAMID]]/live/\(Self.encode(channel)).m3u8"
    }

    func vtpVODTemplate(contentID: String) -> String {
        "\(baseURL)/vtp/stream_id/[[STREAMID]]/video/\(Self.encode(contentID)).m3u8"
    }
}

/// A live pod's identifier in the manifest path: `pod/{n}` or `ad_break_id/{id}`.
enum PodIdentifier: Sendable, Hashable {
    case pod(Int)
    case adBreakID(String)

    /// Highest `pod/{n}` accepted.
    static let maxPodNumber = 999_999_999
    /// Longest `ad_break_id`.
    static let maxAdBreakIDLength = 48

    /// Reads `pod` + `7` or `ad_break_id` + `halftime-1`; nil when out of range.
    init?(kind: String, value: String) {
        switch kind {
        case "pod":
            guard !value.isEmpty, value.utf8.count <= 9, value.utf8.allSatisfy({ (48...57).contains($0) }),
                let number = Int(value), number <= Self.maxPodNumber
            else { return nil }
            self = .pod(number)
        case "ad_break_id":
            // Ad Manager's rule for ad break IDs: lower-case letters, digits and hyphens.
            guard (1...Self.maxAdBreakIDLength).contains(value.utf8.count),
                value.utf8.allSatisfy({ (97...122).contains($0) || (48...57).contains($0) || $0 == 45 })
            else { return nil }
            self = .adBreakID(value)
        default: return nil
        }
    }

    /// `pod/7` or `ad_break_id/halftime-1`.
    var pathComponent: String {
        switch self {
        case .pod(let number): "pod/\(number)"
        case .adBreakID(let id): "ad_break_id/\(id)"
        }
    }

    /// The decision's break ID: `pod_7` (the underscore keeps it apart from
    /// every ad break ID) or the ad break ID itself.
    var breakID: String {
        switch self {
        case .pod(let number): "pod_\(number)"
        case .adBreakID(let id): id
        }
    }
}
