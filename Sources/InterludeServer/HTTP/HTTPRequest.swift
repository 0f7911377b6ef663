/// An HTTP request as the router sees it: method, path, query, headers, body.
public struct HTTPRequest: Sendable, Hashable {
    /// One `name=value` pair of the query, decoded.
    public struct QueryItem: Sendable, Hashable {
        /// The parameter name, decoded.
        public var name: String
        /// The value, decoded (empty when absent).
        public var value: String
        public init(name: String, value: String) {
            self.name = name
            self.value = value
        }
    }

    /// `GET`, `HEAD`, `POST`, … as sent.
    public var method: String
    /// The path exactly as sent, still percent-encoded (segments are decoded
    /// one by one by the router, so an encoded `/` stays inside its segment).
    public var rawPath: String
    /// Everything after `?`, as sent (empty when there is none).
    public var rawQuery: String
    /// The query decoded into pairs, in order. Values that are not valid
    /// percent-encoding are kept as sent, since beacons carry player-filled
    /// macros that are not always well encoded.
    public var queryItems: [QueryItem]
    /// Header fields as received.
    public var headers: HTTPHeaders
    /// The body (empty for GET).
    public var body: [UInt8]

    /// Builds a request from a request target (`/path?query`, or the
    /// absolute form `http://host/path?query`).
    public init(method: String, target: String, headers: HTTPHeaders = HTTPHeaders(), body: [UInt8] = [])
        throws(HTTPError)
    {
        // Scanned as bytes: every delimiter is ASCII, and walking Characters
        // was a fifth of a small answer's time.
        var target = Substring(target)
        if target.utf8.starts(with: "http://".utf8) || target.utf8.starts(with: "https://".utf8),
            let colon = target.utf8.firstIndex(of: UInt8(ascii: ":"))
        {
            // Absolute form (RFC 9112 §3.2.2): drop scheme and authority.
            let afterScheme = target[target.utf8.index(colon, offsetBy: 3)...]
            target = afterScheme.utf8.firstIndex(of: UInt8(ascii: "/")).map { afterScheme[$0...] } ?? "/"
        }
        guard target.utf8.first == UInt8(ascii: "/") else {
            throw HTTPError(status: 400, message: "request target must start with '/'")
        }
        if let fragment = target.utf8.firstIndex(of: UInt8(ascii: "#")) { target = target[..<fragment] }
        let queryStart = target.utf8.firstIndex(of: UInt8(ascii: "?"))
        self.method = method
        self.rawPath = String(queryStart.map { target[..<$0] } ?? target)
        self.rawQuery = queryStart.map { String(target[target.utf8.index(after: $0)...]) } ?? ""
        self.queryItems = Self.parseQuery(rawQuery)
        self.headers = headers
        self.body = body
    }

    /// The first value of query parameter `name`.
    public func query(_ name: String) -> String? {
        queryItems.first { $0.name == name }?.value
    }

    /// The path decoded (for logging and display; routing uses segments).
    public var path: String { PercentDecoding.decode(Substring(rawPath)) ?? rawPath }

    /// The path's segments, each percent-decoded; nil when a segment holds a
    /// malformed escape.
    public var pathSegments: [String]? {
        var segments: [String] = []
        for raw in Self.pieces(of: rawPath, separatedBy: UInt8(ascii: "/")) {
            guard let decoded = PercentDecoding.decode(raw) else { return nil }
            segments.append(decoded)
        }
        return segments
    }

    /// The non-empty pieces of `text` between `separator` bytes. Split on the
    /// bytes: `split` on a String walks grapheme clusters, which cost a
    /// tenth of a cached playlist's answer (the separators are ASCII, so
    /// every cut falls between Unicode scalars, where a String may be cut).
    static func pieces(of text: String, separatedBy separator: UInt8) -> [Substring] {
        var pieces: [Substring] = []
        let utf8 = text.utf8
        var start = utf8.startIndex
        var index = start
        while true {
            let atEnd = index == utf8.endIndex
            if atEnd || utf8[index] == separator {
                if start != index { pieces.append(text[start..<index]) }
                if atEnd { return pieces }
                start = utf8.index(after: index)
            }
            index = utf8.index(after: index)
        }
    }

    static func parseQuery(_ query: String) -> [QueryItem] {
        pieces(of: query, separatedBy: UInt8(ascii: "&")).map(queryItem)
    }

    private static func queryItem(_ pair: Substring) -> QueryItem {
        let equals = pair.utf8.firstIndex(of: UInt8(ascii: "="))
        let name = equals.map { pair[..<$0] } ?? pair
        let value = equals.map { pair[pair.utf8.index(after: $0)...] } ?? ""
        return QueryItem(
            name: PercentDecoding.decode(name, plusAsSpace: true) ?? String(name),
            value: PercentDecoding.decode(value, plusAsSpace: true) ?? String(value))
    }
}
