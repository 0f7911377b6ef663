import Foundation

/// Why an `auth-token` was refused; the server answers 401 with the message.
public struct PodAuthTokenError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is wrong with the token, for people (never the expected code).
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}

/// The HMAC auth token of Google's DAI API (Ad Manager "HMAC authentication"):
/// `key=value` pairs sorted by key and joined by `~`, then `~hmac=` and the
/// lower-case hex HMAC-SHA256 of everything before it, keyed with the
/// network's auth key.
///
/// ```
/// custom_asset_key=interlude-live~exp=1767225600~network_code=interlude~hmac=9f86d0…
/// ```
///
/// `exp` (Unix seconds) is required; `st` (not before, Unix seconds) is
/// honoured when present. A live registration token names
/// `custom_asset_key` and `network_code`; a VOD one `network_code`; a pod
/// manifest token adds `ad_break_id` (the pod identifier) and `pd`.
public enum PodAuthToken {
    /// Signs `fields` with `key` (the raw key bytes, not hex).
    public static func sign(_ fields: [String: String], key: [UInt8]) -> String {
        let message = fields.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: "~")
        return message + "~hmac=" + Hex.encode(HMACSHA256.authenticationCode(for: message.utf8, key: key))
    }

    /// Checks the code, the sort order, `exp`/`st` against `now`, and that
    /// every entry of `expected` is in the token with that value. Returns the
    /// token's fields.
    @discardableResult
    public static func verify(
        _ token: String, key: [UInt8], now: Date, expected: [String: String]
    ) throws(PodAuthTokenError) -> [String: String] {
        guard token.utf8.count <= 4096 else { throw PodAuthTokenError("auth-token is longer than 4096 bytes") }
        guard let marker = token.range(of: "~hmac=", options: .backwards) else {
            throw PodAuthTokenError("auth-token has no '~hmac=' part")
        }
        let message = token[..<marker.lowerBound]
        let code = String(token[marker.upperBound...])
        guard code.utf8.count == 64, let codeBytes = Hex.decode(code) else {
            throw PodAuthTokenError("auth-token hmac must be 64 hex digits")
        }
        var fields: [String: String] = [:]
        var previousKey: Substring?
        for pair in message.split(separator: "~", omittingEmptySubsequences: false) {
            guard let equals = pair.firstIndex(of: "="), equals != pair.startIndex else {
                throw PodAuthTokenError("auth-token part '\(pair.prefix(40))' is not key=value")
            }
            let name = pair[..<equals]
            if let previousKey, name <= previousKey {
                throw PodAuthTokenError("auth-token keys must be sorted and unique ('\(name)' after '\(previousKey)')")
            }
            previousKey = name
            fields[String(name)] = String(pair[pair.index(after: equals)...])
        }
        let actual = HMACSHA256.authenticationCode(for: message.utf8, key: key)
        guard HMACSHA256.constantTimeEquals(actual, codeBytes) else {
            throw PodAuthTokenError("auth-token signature does not match")
        }
        guard let expiryText = fields["exp"], let expiry = Int64(expiryText) else {
            throw PodAuthTokenError("auth-token needs exp (Unix seconds)")
        }
        let nowSeconds = Int64(now.timeIntervalSince1970.rounded(.down))
        guard expiry > nowSeconds else { throw PodAuthTokenError("auth-token expired at \(expiryText)") }
        if let startText = fields["st"] {
            guard let start = Int64(startText) else { throw PodAuthTokenError("auth-token st must be Unix seconds") }
            guard start <= nowSeconds else { throw PodAuthTokenError("auth-token is not valid before \(startText)") }
        }
        for (name, value) in expected.sorted(by: { $0.key < $1.key }) where fields[name] != value {
            throw PodAuthTokenError(
                fields[name] == nil ? "auth-token has no \(name)" : "auth-token \(name) does not match the request")
        }
        return fields
    }
}
