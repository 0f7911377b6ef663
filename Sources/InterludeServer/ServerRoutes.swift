import Foundation
import InterludeVAST

/// The ad server's routes. Each handler parses the request, asks the pure
/// decisioner for a document, and writes it.
struct ServerRoutes: Sendable {
    let decisioner: AdDecisioner
    let store: BeaconStore
    let mediaFiles: StaticFiles
    let library: MediaLibrary
    let clock: ServerClock
    /// `host:port` for links when a request has no usable `Host` header
    /// (HTTP/1.0); set once the port is bound.
    let fallbackHost = Locked("127.0.0.1")
    let templates = TemplateCache()
    /// What each session was served, for the console.
    let sessionDocuments = SessionDocuments()

    func makeRouter() -> Router {
        var router = Router()
        router.add("GET", "/") { _, _ in .json(Self.index) }
        router.add("GET", "/health") { _, _ in .json(["status": "ok"]) }
        router.add("GET", "/catalog") { _, _ in .json(decisioner.catalog) }
        router.add("GET", "/vast") { request, _ throws(HTTPError) in
            let options = try AdRequestOptions(query: request.query)
            return try document(request, key: .init(route: "vast", options: options)) { links throws(HTTPError) in
                VASTWriter().write(try decisioner.vast(options, links: links))
            }
        }
        router.add("GET", "/vmap") { request, _ throws(HTTPError) in
            let options = try AdRequestOptions(query: request.query)
            return try document(request, key: .init(route: "vmap", options: options)) { links throws(HTTPError) in
                VASTWriter().write(try decisioner.vmap(options, links: links))
            }
        }
        router.add("GET", "/wrapper/:depth") { request, parameters throws(HTTPError) in
            guard let depth = parameters["depth"].flatMap({ Int($0) }) else {
                throw .badRequest("wrapper depth must be a whole number, got '\(parameters["depth"] ?? "")'")
            }
            let options = try AdRequestOptions(query: request.query)
            return try document(request, key: .init(route: "wrapper/\(depth)", options: options)) {
                links throws(HTTPError) in
                VASTWriter().write(try decisioner.wrapperChain(depth: depth, options: options, links: links))
            }
        }
        for method in ["GET", "POST"] {
            router.add(method, "/track/:session/:ad/:event") { request, parameters throws(HTTPError) in
                try track(request, parameters)
            }
        }
        router.add("GET", "/api/sessions/:session/beacons") { _, parameters throws(HTTPError) in
            let session = parameters["session"] ?? ""
            guard Catalog.isSafeID(session) else { throw .badRequest("session id '\(session)' is not valid") }
            do throws(StoreError) {
                return .json(SessionReport(session: session, beacons: try store.beacons(session: session)))
            } catch {
                throw HTTPError(status: 503, message: error.message)
            }
        }
        router.add("GET", "/api/stats") { _, _ throws(HTTPError) in
            do throws(StoreError) {
                return .json(["beacons": try store.count()])
            } catch {
                throw HTTPError(status: 503, message: error.message)
            }
        }
        router.add("GET", "/media/*file") { request, parameters throws(HTTPError) in
            let path = try mediaFiles.resolve(parameters.rest)
            return try mediaFiles.response(path: path, rangeHeader: request.headers["Range"])
        }
        FaultRoutes(decisioner: decisioner, linksFor: links(for:)).register(in: &router)
        ContentRoutes(library: library, clock: clock).register(in: &router)
        return router
    }

    /// A VAST/VMAP answer from the template for `key`, spliced with this
    /// request's base URL and session.
    private func document(
        _ request: HTTPRequest, key: TemplateCache.Key, write: (ServerLinks) throws(HTTPError) -> String
    ) throws(HTTPError) -> HTTPResponse {
        let links = try links(for: request)
        let template = try templates.template(key, writing: write)
        sessionDocuments.record(
            session: links.session, route: key.route, options: key.options, baseURL: links.baseURL, at: Date())
        return HTTPResponse(
            status: 200, headers: HTTPHeaders([("Content-Type", "application/xml; charset=utf-8")]),
            body: .bytes(template.render(baseURL: links.baseURL, session: links.session)))
    }

    /// Links back to this server, for the session of the request (generated
    /// when the request names none).
    func links(for request: HTTPRequest) throws(HTTPError) -> ServerLinks {
        let session = request.query("session") ?? Self.newSessionID()
        guard Catalog.isSafeID(session) else {
            throw .badRequest("session must be 1–64 letters, digits, '-', '_' or '.'")
        }
        return ServerLinks(baseURL: baseURL(for: request), session: session)
    }

    /// `http://host:port` as the request reached the server (its `Host`
    /// header when usable, else the bound address).
    func baseURL(for request: HTTPRequest) -> String {
        var host = fallbackHost.withLock { $0 }
        if let header = request.headers["Host"], !header.isEmpty, header.utf8.count <= 255,
            header.utf8.allSatisfy({ Self.hostBytes.contains($0) })
        {
            host = header
        }
        return "http://\(host)"
    }

    private static let hostBytes = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.-:[]".utf8)

    static func newSessionID() -> String {
        let hex = String(UInt64.random(in: .min ... .max), radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }

    private func track(_ request: HTTPRequest, _ parameters: RouteParameters) throws(HTTPError) -> HTTPResponse {
        let session = parameters["session"] ?? ""
        let ad = parameters["ad"] ?? ""
        let event = parameters["event"] ?? ""
        guard Catalog.isSafeID(session), Catalog.isSafeID(ad), Catalog.isSafeID(event) else {
            throw .badRequest("session, ad and event must be 1–64 letters, digits, '-', '_' or '.'")
        }
        var macros: [String: String] = [:]
        for (parameter, macro) in ServerLinks.macroParameters {
            // A value still reading `[MACRO]` was not filled by the player.
            if let value = request.query(parameter), !(value.hasPrefix("[") && value.hasSuffix("]")) {
                macros[macro] = value
            }
        }
        // The SDK sends the key as an `Idempotency-Key` header (third-party
        // URLs are not changed); `idk` in the query serves players that cannot set headers.
        let key = (request.headers["Idempotency-Key"] ?? request.query("idk"))
            .flatMap { $0.isEmpty ? nil : String($0.prefix(128)) }
        let stored = store.record(
            IncomingBeacon(
                session: session, ad: ad, event: event, receivedAt: Date(), macros: macros,
                rawQuery: request.rawQuery, idempotencyKey: key))
        // Back-pressure: a collector that cannot keep up says so, and players retry (the SDK honours Retry-After).
        guard stored else {
            throw HTTPError(
                status: 503, message: "the beacon collector is busy writing; retry later",
                headers: HTTPHeaders([("Retry-After", "1")]))
        }
        return .noContent
    }

    private struct SessionReport: Encodable {
        var session: String
        var beacons: [Beacon]
    }

    private static let index: [String: [String]] = [
        "endpoints": [
            "GET /vast?pod=&skippable=&hideable=&ads=&version=&session=",
            "GET /vmap?embed=&version=&session=",
            "GET /wrapper/{depth}?session=",
            "GET /track/{session}/{ad}/{event}?…",
            "GET /api/sessions/{id}/beacons",
            "GET /api/stats",
            "GET /media/{file}",
            "GET /catalog",
            "GET /health",
            "GET /faults/…",
            "GET /origin/live/{channel}.m3u8, /origin/live/{channel}/{profile}.m3u8, …/{profile}/{n}.ts",
            "GET /origin/vod/{title}.m3u8, /origin/vod/{title}/{profile}.m3u8, …/{profile}/{n}.ts",
            "POST /ssai/pods/api/v1/network/{network_code}/custom_asset/{custom_asset_key}/stream",
            "POST /ondemand/pods/api/v1/network/{network_code}/stream_registration",
            "GET /linear/pods/v1/hls/network/{nc}/custom_asset/{cak}/pod/{n}.m3u8?stream_id=&pd=",
            "POST /ondemand/pods/api/v1/network/{nc}/streams/{stream_id}/adpods",
            "GET /pods/v1/streams/{stream_id}/metadata, /pods/v1/streams/{stream_id}/media/{event_id}",
            "GET /api/streams/{stream_id}",
            "GET /vtp/stream_id/{stream_id}/video/{content_id}.m3u8, …/video/{content_id}/{profile}.m3u8?mode=&markers=",
            "GET /vtp/stream_id/{stream_id}/live/{channel}.m3u8, …/live/{channel}/{profile}.m3u8?mode=&markers=",
        ]
    ]
}
