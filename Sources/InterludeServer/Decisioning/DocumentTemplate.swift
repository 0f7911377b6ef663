/// A written document with its per-request parts — the server's base URL
/// and the session id — left as slots, so that a request costs a splice
/// instead of a decision and an XML write.
///
/// Decisioning is pure, so the document for given options differs between
/// requests only in those two values; rendering with sentinels and splicing
/// gives exactly the bytes a direct write would (tested).
public struct DocumentTemplate: Sendable, Hashable {
    enum Part: Sendable, Hashable {
        case text([UInt8])
        case baseURL
        case session
    }

    /// Stands in for the base URL while writing. Only unreserved URL
    /// characters, so percent-encoding leaves it intact.
    public static let baseURLSentinel = "http://interlude-base-8c1f.invalid"
    /// Stands in for the session id while writing.
    public static let sessionSentinel = "interlude-session-8c1f"

    let parts: [Part]

    /// Writes a document with sentinel links and cuts it at the sentinels.
    public init(writing write: (ServerLinks) throws(HTTPError) -> String) throws(HTTPError) {
        let text = try write(ServerLinks(baseURL: Self.baseURLSentinel, session: Self.sessionSentinel))
        var parts: [Part] = []
        var rest = Substring(text)
        while !rest.isEmpty {
            let base = rest.range(of: Self.baseURLSentinel)
            let session = rest.range(of: Self.sessionSentinel)
            let next: (Range<Substring.Index>, Part)?
            switch (base, session) {
            case (let b?, let s?): next = b.lowerBound <= s.lowerBound ? (b, .baseURL) : (s, .session)
            case (let b?, nil): next = (b, .baseURL)
            case (nil, let s?): next = (s, .session)
            case (nil, nil): next = nil
            }
            guard let (range, part) = next else {
                parts.append(.text(Array(rest.utf8)))
                break
            }
            if range.lowerBound > rest.startIndex { parts.append(.text(Array(rest[..<range.lowerBound].utf8))) }
            parts.append(part)
            rest = rest[range.upperBound...]
        }
        self.parts = parts
    }

    /// The document for one request. `session` must be URL-safe (the routes
    /// only accept letters, digits, `-`, `_` and `.`), since it is spliced
    /// in where the writer would have percent-encoded it.
    public func render(baseURL: String, session: String) -> [UInt8] {
        let base = Array(baseURL.utf8)
        let sessionBytes = Array(session.utf8)
        var output: [UInt8] = []
        output.reserveCapacity(
            parts.reduce(0) { total, part in
                if case .text(let bytes) = part { return total + bytes.count }
                return total + 48
            })
        for part in parts {
            switch part {
            case .text(let bytes): output.append(contentsOf: bytes)
            case .baseURL: output.append(contentsOf: base)
            case .session: output.append(contentsOf: sessionBytes)
            }
        }
        return output
    }
}

/// Templates by route and options, bounded so that odd queries cannot grow
/// it without limit.
final class TemplateCache: Sendable {
    struct Key: Hashable, Sendable {
        var route: String
        var options: AdRequestOptions
    }

    private let templates = Locked<[Key: DocumentTemplate]>([:])
    private let limit: Int

    init(limit: Int = 512) { self.limit = limit }

    func template(
        _ key: Key, writing write: (ServerLinks) throws(HTTPError) -> String
    ) throws(HTTPError) -> DocumentTemplate {
        if let cached = templates.withLock({ $0[key] }) { return cached }
        let template = try DocumentTemplate(writing: write)
        templates.withLock { cache in
            if cache.count >= limit { cache.removeAll(keepingCapacity: true) }
            cache[key] = template
        }
        return template
    }
}
