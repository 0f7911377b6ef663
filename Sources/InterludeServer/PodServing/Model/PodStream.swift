import Foundation

/// A registered pod-serving stream session (IMA: the `streamId` a
/// `StreamManager` carries). Immutable once registered, except that a VOD
/// stream later gets its ``PodVODPlan``.
public struct PodStream: Sendable, Hashable, Codable {
    /// Live (custom asset key) or VOD.
    public enum Kind: String, Sendable, Hashable, Codable {
        case live
        case vod
    }

    /// The stream ID (a lower-case UUID).
    public var id: String
    /// Live or VOD.
    public var kind: Kind
    /// `network_code` it was registered on.
    public var networkCode: String
    /// `custom_asset_key` (live only).
    public var customAssetKey: String?
    /// Targeting parameters as registered (`cust_params`, `ppid`, …).
    public var targeting: [String: String]
    /// When it was registered.
    public var createdAt: Date
    /// When it stops being served (`valid_until`).
    public var expiresAt: Date

    public init(
        id: String, kind: Kind, networkCode: String, customAssetKey: String?, targeting: [String: String],
        createdAt: Date, expiresAt: Date
    ) {
        self.id = id
        self.kind = kind
        self.networkCode = networkCode
        self.customAssetKey = customAssetKey
        self.targeting = targeting
        self.createdAt = createdAt
        self.expiresAt = expiresAt
    }

    /// True at and after ``expiresAt``.
    public func isExpired(at now: Date) -> Bool { now >= expiresAt }

    /// A new random stream ID (UUID v4, lower case).
    static func newID() -> String { UUID().uuidString.lowercased() }

    /// Stream IDs this server hands out and accepts: a lower-case UUID.
    static func isValidID(_ text: String) -> Bool {
        let utf8 = Array(text.utf8)
        guard utf8.count == 36 else { return false }
        for (index, byte) in utf8.enumerated() {
            if [8, 13, 18, 23].contains(index) {
                guard byte == UInt8(ascii: "-") else { return false }
            } else {
                let isHex =
                    (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
                    || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte)
                guard isHex else { return false }
            }
        }
        return true
    }
}
