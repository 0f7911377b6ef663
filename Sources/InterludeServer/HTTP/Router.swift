/// Values taken from the path by a route pattern.
public struct RouteParameters: Sendable, Hashable {
    /// `:name` segments, decoded.
    public var values: [String: String]
    /// The segments matched by a trailing `*name`, decoded, in order.
    public var rest: [String]

    public init(values: [String: String] = [:], rest: [String] = []) {
        self.values = values
        self.rest = rest
    }

    /// The value of `:name`, decoded.
    public subscript(name: String) -> String? { values[name] }
}

/// Maps method and path to a handler.
///
/// Patterns are `/`-separated: a literal segment, `:name` for one segment, or
/// a final `*name` for the remaining segments (possibly none). Segments are
/// percent-decoded one at a time, so `%2F` never splits a segment. A path
/// that matches with another method answers 405 with `Allow`; no match, 404.
/// `HEAD` uses the `GET` route (the HTTP layer drops the body).
public struct Router: Sendable {
    /// Answers one matched request; a thrown ``HTTPError`` becomes a JSON error.
    public typealias Handler = @Sendable (HTTPRequest, RouteParameters) throws(HTTPError) -> HTTPResponse

    private enum Segment: Sendable, Hashable {
        case literal(String)
        case parameter(String)
        case rest(String)
    }

    private struct Route: Sendable {
        var method: String
        var segments: [Segment]
        var handler: Handler
    }

    private var routes: [Route] = []

    public init() {}

    /// Adds a route for `method` (e.g. `GET`) and `pattern` (e.g. `/track/:session/:ad/:event`).
    public mutating func add(_ method: String, _ pattern: String, _ handler: @escaping Handler) {
        let segments: [Segment] = pattern.split(separator: "/").map { part in
            if part.hasPrefix(":") { return .parameter(String(part.dropFirst())) }
            if part.hasPrefix("*") { return .rest(String(part.dropFirst())) }
            return .literal(String(part))
        }
        routes.append(Route(method: method.uppercased(), segments: segments, handler: handler))
    }

    /// Finds the route and runs it; never throws — errors become JSON answers.
    public func respond(to request: HTTPRequest) -> HTTPResponse {
        guard let segments = request.pathSegments else {
            return HTTPError.badRequest("malformed percent-encoding in path").response
        }
        let method = request.method == "HEAD" ? "GET" : request.method
        var allowed: [String] = []
        for route in routes {
            guard let parameters = Self.match(route.segments, segments) else { continue }
            guard route.method == method else {
                allowed.append(route.method)
                continue
            }
            do {
                return try route.handler(request, parameters)
            } catch {
                return error.response
            }
        }
        if !allowed.isEmpty {
            let allow = (allowed.contains("GET") ? allowed + ["HEAD"] : allowed).joined(separator: ", ")
            return HTTPError(
                status: 405, message: "method \(request.method) not allowed on \(request.path)",
                headers: HTTPHeaders([("Allow", allow)])
            ).response
        }
        return HTTPError.notFound("no route for \(request.path)").response
    }

    private static func match(_ pattern: [Segment], _ path: [String]) -> RouteParameters? {
        // Most routes fail on a literal or the length: find that before
        // building the parameters' dictionary (each request tries the routes
        // in order, so the dictionaries of near misses were made per request).
        guard fits(pattern, path) else { return nil }
        var parameters = RouteParameters()
        for (index, segment) in pattern.enumerated() {
            switch segment {
            case .rest(let name):
                parameters.rest = Array(path[min(index, path.count)...])
                parameters.values[name] = parameters.rest.joined(separator: "/")
                return parameters
            case .literal(let literal):
                guard index < path.count, path[index] == literal else { return nil }
            case .parameter(let name):
                guard index < path.count else { return nil }
                parameters.values[name] = path[index]
            }
        }
        return pattern.count == path.count ? parameters : nil
    }

    /// Whether `path` has the pattern's literals and length, nothing built.
    private static func fits(_ pattern: [Segment], _ path: [String]) -> Bool {
        for (index, segment) in pattern.enumerated() {
            switch segment {
            case .rest: return true
            case .literal(let literal): guard index < path.count, path[index] == literal else { return false }
            case .parameter: guard index < path.count else { return false }
            }
        }
        return pattern.count == path.count
    }
}
