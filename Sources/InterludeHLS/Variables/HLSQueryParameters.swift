import Foundation

/// The values a playlist's `EXT-X-DEFINE:QUERYPARAM` names take from the URL
/// it was fetched from (RFC 8216bis 4.4.2.3), for
/// ``MediaPlaylist/resolvingVariables(imported:queryParameters:)``.
public enum HLSQueryParameters {
    /// Each query parameter of `url`, percent-decoded; the first occurrence of
    /// a name wins, and a name without `=` has the empty value.
    public static func values(in url: URL) -> [String: String] {
        var values: [String: String] = [:]
        for item in URLComponents(url: url, resolvingAgainstBaseURL: true)?.queryItems ?? []
        where values[item.name] == nil {
            values[item.name] = item.value ?? ""
        }
        return values
    }
}
