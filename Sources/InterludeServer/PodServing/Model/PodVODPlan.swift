import Foundation

/// Where a VOD stream's pods go, fixed by the VTP's first `adpods` request
/// and kept for the stream's life (a later request gets the same pods).
public struct PodVODPlan: Sendable, Hashable, Codable {
    /// One break of the plan.
    public struct Break: Sendable, Hashable, Codable {
        /// 0-based index in the stream (the pre-roll, if any, is 0).
        public var index: Int
        /// `pre`, `mid` or `post`.
        public var type: String
        /// Content time (s) where the pod is inserted.
        public var contentOffset: Double
        /// The decision's break ID: `vod_{index}`.
        public var breakID: String

        public init(index: Int, type: String, contentOffset: Double) {
            self.index = index
            self.type = type
            self.contentOffset = contentOffset
            self.breakID = "vod_\(index)"
        }
    }

    /// The breaks in content order.
    public var breaks: [Break]
    /// `content_duration_seconds` as the VTP sent it.
    public var contentDuration: Double?
    /// Requested encoding profile name → the profile the pods are served in.
    public var profiles: [String: String]
    /// The `ad_tag` the VTP sent (recorded; the catalog's rules decide).
    public var adTag: String?
    /// When the plan was made.
    public var createdAt: Date

    public init(
        breaks: [Break], contentDuration: Double?, profiles: [String: String], adTag: String?, createdAt: Date
    ) {
        self.breaks = breaks
        self.contentDuration = contentDuration
        self.profiles = profiles
        self.adTag = adTag
        self.createdAt = createdAt
    }
}
