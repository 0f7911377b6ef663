import Foundation

/// `/vtp/…`: the VTP's routes (paths in the README). Each reads its path
/// and asks ``VTPService``.
struct VTPRoutes: Sendable {
    let vtp: VTPService
    /// `http://host:port` of the server as this request reached it.
    let baseURLFor: @Sendable (HTTPRequest) -> String

    func register(in router: inout Router) {
        router.add("GET", "/vtp/stream_id/:stream/video/:file") { request, parameters throws(HTTPError) in
            try vtp.vodMultivariant(
                streamID: parameters["stream"] ?? "", file: parameters["file"] ?? "", request: request)
        }
        router.add("GET", "/vtp/stream_id/:stream/video/:content/:file") { request, parameters throws(HTTPError) in
            try vtp.vodMediaPlaylist(
                streamID: parameters["stream"] ?? "", contentID: parameters["content"] ?? "",
                file: parameters["file"] ?? "", request: request, baseURL: baseURLFor(request))
        }
        router.add("GET", "/vtp/stream_id/:stream/live/:file") { request, parameters throws(HTTPError) in
            try vtp.liveMultivariant(
                streamID: parameters["stream"] ?? "", file: parameters["file"] ?? "", request: request)
        }
        router.add("GET", "/vtp/stream_id/:stream/live/:channel/:file") { request, parameters throws(HTTPError) in
            try vtp.liveMediaPlaylist(
                streamID: parameters["stream"] ?? "", channelID: parameters["channel"] ?? "",
                file: parameters["file"] ?? "", request: request)
        }
        router.add("GET", "/vtp/slate/:profile/:milliseconds/:file") { request, parameters throws(HTTPError) in
            let file = try VTPSlate.file(
                library: vtp.library, profile: parameters["profile"] ?? "",
                milliseconds: parameters["milliseconds"] ?? "", name: parameters["file"] ?? "")
            let path = vtp.library.fileURL(for: file).path
            guard let size = StaticFiles.regularFileSize(atPath: path) else {
                throw HTTPError(status: 503, message: "slate segment \(file.path) has not been made")
            }
            return HTTPResponse(
                status: 200,
                headers: HTTPHeaders([("Content-Type", "video/mp2t"), ("Cache-Control", "public, max-age=86400")]),
                body: .file(path: path, offset: 0, length: size))
        }
    }
}
