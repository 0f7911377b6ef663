import Foundation

/// `/console` and the APIs only it uses (paths in the README, "Web console").
struct ConsoleRoutes: Sendable {
    let inspector: ConsoleInspector
    let sessions: ConsoleSessions
    let streams: ConsoleStreams
    /// `http://host:port` of the server as a request reached it.
    let baseURLFor: @Sendable (HTTPRequest) -> String

    func register(in router: inout Router) {
        router.add("GET", "/console") { request, _ throws(HTTPError) in
            try ConsoleGuard.checkHost(request)
            return try ConsoleAssets.response(name: "index.html", request: request)
        }
        router.add("GET", "/console/*file") { request, parameters throws(HTTPError) in
            try ConsoleGuard.checkHost(request)
            let name = parameters.rest.isEmpty ? "index.html" : parameters.rest.joined(separator: "/")
            return try ConsoleAssets.response(name: name, request: request)
        }
        router.add("POST", "/api/inspect") { request, _ throws(HTTPError) in
            try ConsoleGuard.checkAPI(request)
            return ConsoleAssets.secure(try inspector.respond(to: request))
        }
        router.add("GET", "/api/console/sessions") { request, _ throws(HTTPError) in
            try ConsoleGuard.checkAPI(request)
            return Self.live(.json(try sessions.list(limit: try Self.limit(request))))
        }
        router.add("GET", "/api/console/sessions/:session") { request, parameters throws(HTTPError) in
            try ConsoleGuard.checkAPI(request)
            return Self.live(.json(try sessions.report(session: parameters["session"] ?? "")))
        }
        router.add("GET", "/api/console/streams") { request, _ throws(HTTPError) in
            try ConsoleGuard.checkAPI(request)
            return Self.live(.json(try streams.list(limit: try Self.limit(request))))
        }
        router.add("GET", "/api/console/streams/:stream") { request, parameters throws(HTTPError) in
            try ConsoleGuard.checkAPI(request)
            return Self.live(
                .json(try streams.report(streamID: parameters["stream"] ?? "", baseURL: baseURLFor(request))))
        }
    }

    /// `?limit=` (1–500, default 50).
    static func limit(_ request: HTTPRequest) throws(HTTPError) -> Int {
        guard let text = request.query("limit") else { return 50 }
        guard let value = Int(text), (1...500).contains(value) else {
            throw .badRequest("limit must be a whole number from 1 to 500, got '\(text.prefix(20))'")
        }
        return value
    }

    /// An answer that changes from one poll to the next.
    static func live(_ response: HTTPResponse) -> HTTPResponse {
        var response = ConsoleAssets.secure(response)
        response.headers.set("Cache-Control", "no-store")
        return response
    }
}

extension ConsoleRoutes {
    /// The console of a server starting with `configuration`.
    init(
        _ configuration: AdServer.Configuration, store: BeaconStore, routes: ServerRoutes, pods: PodServingService,
        library: MediaLibrary, stitchStates: LiveStitchStateWriter
    ) throws(StoreError) {
        inspector = ConsoleInspector(options: configuration.console)
        sessions = ConsoleSessions(
            store: store, index: try BeaconSessionIndex(path: store.path), documents: routes.sessionDocuments,
            decisioner: routes.decisioner,
            isStream: { id in PodStream.isValidID(id) && (try? pods.stream(id, expiredStatus: nil)) != nil })
        streams = ConsoleStreams(pods: pods, beacons: store, library: library, stitchStates: stitchStates)
        baseURLFor = routes.baseURL(for:)
    }
}
