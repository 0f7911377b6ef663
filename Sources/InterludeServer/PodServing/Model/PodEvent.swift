/// The ad events a pod carries as timed metadata and that media verification
/// accepts, with the `type` strings of the metadata's `tags`.
public enum PodEventType: String, Sendable, Hashable, Codable, CaseIterable {
    case start
    case firstQuartile = "firstquartile"
    case midpoint
    case thirdQuartile = "thirdquartile"
    case complete

    /// The digit standing for the event inside an event ID.
    var digit: Character {
        switch self {
        case .start: "1"
        case .firstQuartile: "2"
        case .midpoint: "3"
        case .thirdQuartile: "4"
        case .complete: "5"
        }
    }

    init?(digit: Character) {
        guard let type = Self.allCases.first(where: { $0.digit == digit }) else { return nil }
        self = type
    }

    /// Milliseconds into an ad of `duration` ms where the event sits. Complete
    /// is on the ad's last frame (one 30 fps frame before its end), so a
    /// player reaches it before the next ad's discontinuity.
    func offset(inAdOf duration: Int) -> Int {
        switch self {
        case .start: 0
        case .firstQuartile: duration / 4
        case .midpoint: duration / 2
        case .thirdQuartile: duration * 3 / 4
        case .complete: max(duration * 3 / 4, duration - Self.lastFrameLead)
        }
    }

    /// 33 ms: just under one frame at 30 fps.
    static let lastFrameLead = 33
}

/// Builds and reads timed-metadata event IDs (ours; the `google_` prefix and
/// prefix-keyed `tags` are Google's).
///
/// An ID is `google_` + 16 hex digits of SHA-256(stream ID, break ID) + the
/// ad's position (2 digits) + the event (1 digit) — that much is the `tags`
/// key — then 8 hex digits of SHA-256(key, stream ID) as a check. So an ID
/// is unique per (stream, break, ad, event), the metadata key is a proper
/// prefix of it (clients match with `startsWith`, as Google's samples do),
/// and an ID of another stream is refused without a database read.
public enum PodEventID {
    /// `google_`, the prefix every ID3 TXXX value of ours starts with.
    public static let prefix = "google_"

    /// The 16-hex-digit digest naming (stream, break).
    public static func breakDigest(streamID: String, breakID: String) -> String {
        String(Hex.encode(SHA256.hash("\(streamID)\n\(breakID)")).prefix(16))
    }

    /// The `tags` key of an event: `google_` + break digest + position + event digit.
    public static func tagKey(breakDigest: String, position: Int, type: PodEventType) -> String {
        let positionText = position < 10 ? "0\(position)" : String(position)
        return prefix + breakDigest + positionText + String(type.digit)
    }

    /// The full event ID as it goes into the ID3 frame and the verification URL.
    public static func make(streamID: String, breakDigest: String, position: Int, type: PodEventType) -> String {
        let key = tagKey(breakDigest: breakDigest, position: position, type: type)
        return key + check(key: key, streamID: streamID)
    }

    /// What an event ID of `streamID` names; nil when it is not one of ours
    /// or belongs to another stream. Reads bytes (it runs on every
    /// verification): `google_`, 16 lowercase hex digits, 2 decimal digits
    /// 01–99, an event digit 1–5, then the 8-digit check of `streamID`.
    public static func parse(_ id: String, streamID: String) -> (
        breakDigest: String, position: Int, type: PodEventType
    )? {
        var id = id
        return id.withUTF8 { bytes -> (breakDigest: String, position: Int, type: PodEventType)? in
            let prefixLength = 7
            let keyLength = prefixLength + 16 + 2 + 1
            guard bytes.count == keyLength + 8, bytes.starts(with: prefix.utf8) else { return nil }
            let isLowerHex = { (byte: UInt8) in (48...57).contains(byte) || (97...102).contains(byte) }
            let isDigit = { (byte: UInt8) in (48...57).contains(byte) }
            let digestBytes = bytes[prefixLength..<prefixLength + 16]
            guard digestBytes.allSatisfy(isLowerHex) else { return nil }
            let tens = bytes[prefixLength + 16]
            let units = bytes[prefixLength + 17]
            guard isDigit(tens), isDigit(units) else { return nil }
            let position = Int(tens - 48) * 10 + Int(units - 48)
            guard position >= 1,
                let type = PodEventType.allCases.first(where: { $0.digit.asciiValue == bytes[keyLength - 1] })
            else { return nil }
            let key = String(decoding: bytes[..<keyLength], as: UTF8.self)
            guard check(key: key, streamID: streamID).utf8.elementsEqual(bytes[keyLength...]) else { return nil }
            return (String(decoding: digestBytes, as: UTF8.self), position, type)
        }
    }

    private static func check(key: String, streamID: String) -> String {
        String(Hex.encode(SHA256.hash("\(key)\n\(streamID)")).prefix(8))
    }
}
