import Foundation
import InterludeHLS

/// `/origin/…`: the origin of the content made here. Live playlists are
/// computed from the clock on every request; VOD playlists and segments
/// come from the library. Ids are looked up, never joined into paths, and
/// segment names are parsed to numbers, so no request reaches a file the
/// library does not list.
struct ContentRoutes: Sendable {
    let library: MediaLibrary
    let clock: ServerClock
    let files: StaticFiles

    init(library: MediaLibrary, clock: ServerClock) {
        self.library = library
        self.clock = clock
        files = StaticFiles(root: library.dataDirectory)
    }

    func register(in router: inout Router) {
        router.add("GET", "/origin/live/:channel") { _, parameters throws(HTTPError) in
            let channel = try liveChannel(parameters["channel"], suffix: ".m3u8")
            return Self.playlist(HLSWriter.bytes(channel.multivariantPlaylist), maxAge: 60)
        }
        router.add("GET", "/origin/live/:channel/:profile") { _, parameters throws(HTTPError) in
            let channel = try liveChannel(parameters["channel"], suffix: "")
            let profile = try Self.strip(parameters["profile"], suffix: ".m3u8", what: "profile playlist")
            let window = channel.window(at: clock.now)
            guard let playlist = channel.mediaPlaylist(profile: profile, window: window) else {
                throw .notFound("channel '\(channel.id)' has no profile '\(profile)'")
            }
            guard !window.segments.isEmpty else {
                throw HTTPError(
                    status: 503, message: "channel '\(channel.id)' has no complete segment yet",
                    headers: HTTPHeaders([("Retry-After", "\(Int(channel.segmentDuration.rounded(.up)))")]))
            }
            // Reloads come every target duration; half of it keeps caches from serving a stale window.
            return Self.playlist(HLSWriter.bytes(playlist), maxAge: Int(channel.segmentDuration / 2))
        }
        router.add("GET", "/origin/live/:channel/:profile/:segment") { request, parameters throws(HTTPError) in
            let channel = try liveChannel(parameters["channel"], suffix: "")
            let (profile, index) = try Self.segment(parameters)
            guard let segments = channel.source[profile] else {
                throw .notFound("channel '\(channel.id)' has no profile '\(profile)'")
            }
            return try serve(segments, index: index, request: request)
        }
        router.add("GET", "/origin/vod/:title") { _, parameters throws(HTTPError) in
            let title = try vodTitle(parameters["title"], suffix: ".m3u8")
            return Self.playlist(HLSWriter.bytes(title.multivariantPlaylist), maxAge: 3600)
        }
        router.add("GET", "/origin/vod/:title/:profile") { _, parameters throws(HTTPError) in
            let title = try vodTitle(parameters["title"], suffix: "")
            let profile = try Self.strip(parameters["profile"], suffix: ".m3u8", what: "profile playlist")
            guard let playlist = title.mediaPlaylist(profile: profile) else {
                throw .notFound("title '\(title.id)' has no profile '\(profile)'")
            }
            return Self.playlist(HLSWriter.bytes(playlist), maxAge: 3600)
        }
        router.add("GET", "/origin/vod/:title/:profile/:segment") { request, parameters throws(HTTPError) in
            let title = try vodTitle(parameters["title"], suffix: "")
            let (profile, index) = try Self.segment(parameters)
            guard let segments = title.renditions[profile] else {
                throw .notFound("title '\(title.id)' has no profile '\(profile)'")
            }
            return try serve(segments, index: index, request: request)
        }
    }

    private func liveChannel(_ parameter: String?, suffix: String) throws(HTTPError) -> LiveChannel {
        let id = try Self.strip(parameter, suffix: suffix, what: "channel")
        if let channel = library.liveChannel(id) { return channel }
        if let external = library.content.channel(id: id)?.origin {
            throw .notFound("channel '\(id)' is served by its external origin \(external)")
        }
        throw .notFound("no live channel '\(id)'")
    }

    private func vodTitle(_ parameter: String?, suffix: String) throws(HTTPError) -> VODTitle {
        let id = try Self.strip(parameter, suffix: suffix, what: "title")
        if let title = library.vodTitle(id) { return title }
        if let external = library.content.title(id: id)?.origin {
            throw .notFound("title '\(id)' is served by its external origin \(external)")
        }
        throw .notFound("no VOD title '\(id)'")
    }

    private func serve(_ segments: [SegmentFile], index: Int, request: HTTPRequest) throws(HTTPError) -> HTTPResponse {
        guard segments.indices.contains(index) else { throw .notFound("no segment \(SegmentNaming.name(index))") }
        let path = library.fileURL(for: segments[index]).path
        guard StaticFiles.regularFileSize(atPath: path) != nil else {
            throw .notFound("segment \(SegmentNaming.name(index)) has not been made (server started without media)")
        }
        var response = try files.response(path: path, rangeHeader: request.headers["Range"])
        response.headers.set("Content-Type", "video/mp2t")
        return response
    }

    /// `{profile}` and the segment number of `…/{profile}/{nnnnn}.ts`.
    private static func segment(_ parameters: RouteParameters) throws(HTTPError) -> (String, Int) {
        let profile = try strip(parameters["profile"], suffix: "", what: "profile")
        let name = parameters["segment"] ?? ""
        guard let index = SegmentNaming.index(name) else {
            throw .notFound("'\(name)' is not a segment name (00000.ts, 00001.ts, …)")
        }
        return (profile, index)
    }

    /// The id before `suffix`, which must be a safe id.
    private static func strip(_ parameter: String?, suffix: String, what: String) throws(HTTPError) -> String {
        let text = parameter ?? ""
        guard text.hasSuffix(suffix) else { throw .notFound("no \(what) '\(text)'") }
        let id = String(text.dropLast(suffix.count))
        guard Catalog.isSafeID(id) else {
            throw .badRequest("\(what) id must be 1–64 letters, digits, '-', '_' or '.', got '\(id)'")
        }
        return id
    }

    private static func playlist(_ bytes: [UInt8], maxAge: Int) -> HTTPResponse {
        HTTPResponse(
            status: 200,
            headers: HTTPHeaders([
                ("Content-Type", "application/vnd.apple.mpegurl"),
                ("Cache-Control", "public, max-age=\(max(1, maxAge))"),
            ]), body: .bytes(bytes))
    }
}
