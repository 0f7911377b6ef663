import InterludeVAST

/// The URLs a served document points at: all on the server that answered,
/// all carrying the session. Beacon URLs keep VAST macros for the player.
public struct ServerLinks: Sendable, Hashable {
    /// `http://host:port`, no trailing slash.
    public var baseURL: String
    /// The viewing session every beacon is filed under.
    public var session: String

    public init(baseURL: String, session: String) {
        self.baseURL = baseURL.hasSuffix("/") ? String(baseURL.dropLast()) : baseURL
        self.session = session
    }

    /// Query parameter → VAST macro, for beacon URLs. The collector files the
    /// values the player filled under the macro names.
    public static let macroParameters: [(parameter: String, macro: String)] = [
        ("code", "ERRORCODE"), ("cb", "CACHEBUSTING"), ("t", "TIMESTAMP"), ("ph", "ADPLAYHEAD"),
        ("cph", "CONTENTPLAYHEAD"), ("asset", "ASSETURI"), ("bp", "BREAKPOSITION"), ("reason", "REASON"),
    ]

    /// `/track/{session}/{ad}/{event}?…` with the macros for that event left in.
    public func beacon(ad: String, event: String) -> String {
        var macros = ["cb=[CACHEBUSTING]", "t=[TIMESTAMP]"]
        switch event {
        case "error":
            macros.insert("code=[ERRORCODE]", at: 0)
        case "breakStart", "breakEnd":
            macros.append("cph=[CONTENTPLAYHEAD]")
            macros.append("bp=[BREAKPOSITION]")
        case "impression":
            macros.append("ph=[ADPLAYHEAD]")
            macros.append("asset=[ASSETURI]")
        default:
            macros.append("ph=[ADPLAYHEAD]")
        }
        return "\(baseURL)/track/\(Self.encode(session))/\(Self.encode(ad))/\(Self.encode(event))?"
            + macros.joined(separator: "&")
    }

    /// A URL on this server for `path` with query parameters (session added).
    public func url(_ path: String, _ parameters: [(String, String)] = []) -> String {
        let all = [("session", session)] + parameters
        return baseURL + path + "?" + all.map { "\(Self.encode($0.0))=\(Self.encode($0.1))" }.joined(separator: "&")
    }

    /// A media file URL.
    public func media(_ fileName: String) -> String { "\(baseURL)/media/\(Self.encode(fileName))" }

    static func encode(_ text: String) -> String { VASTMacroFiller.percentEncode(text) }
}
