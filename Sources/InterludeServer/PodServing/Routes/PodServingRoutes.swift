import Foundation

/// The pod-serving API's routes: registration, metadata, verification, the
/// stream report, VOD ad pods and the pod playlists and segments. Each
/// handler reads the request, asks ``PodServingService``, and writes JSON
/// (errors too) or media.
struct PodServingRoutes: Sendable {
    let service: PodServingService
    /// `http://host:port` of the server as this request reached it.
    let baseURLFor: @Sendable (HTTPRequest) -> String

    func register(in router: inout Router) {
        router.add("POST", "/ssai/pods/api/v1/network/:network/custom_asset/:asset/stream") {
            request, parameters throws(HTTPError) in
            let stream = try service.registerLive(
                networkCode: parameters["network"] ?? "", customAssetKey: parameters["asset"] ?? "", request: request)
            return .json(service.registrationResponse(stream, baseURL: baseURLFor(request)), status: 201)
        }
        router.add("POST", "/ondemand/pods/api/v1/network/:network/stream_registration") {
            request, parameters throws(HTTPError) in
            let stream = try service.registerVOD(networkCode: parameters["network"] ?? "", request: request)
            return .json(service.registrationResponse(stream, baseURL: baseURLFor(request)), status: 201)
        }
        router.add("GET", "/pods/v1/streams/:stream/metadata") { request, parameters throws(HTTPError) in
            try service.metadata(streamID: parameters["stream"] ?? "", baseURL: baseURLFor(request))
        }
        router.add("GET", "/pods/v1/streams/:stream/media/:event") { _, parameters throws(HTTPError) in
            try service.verify(streamID: parameters["stream"] ?? "", eventID: parameters["event"] ?? "")
        }
        router.add("GET", "/api/streams/:stream") { request, parameters throws(HTTPError) in
            .json(try service.report(streamID: parameters["stream"] ?? "", baseURL: baseURLFor(request)))
        }
        router.add("POST", "/ondemand/pods/api/v1/network/:network/streams/:stream/adpods") {
            request, parameters throws(HTTPError) in
            .json(
                try service.adPods(
                    networkCode: parameters["network"] ?? "", streamID: parameters["stream"] ?? "", request: request,
                    baseURL: baseURLFor(request)))
        }
        registerPlaylists(in: &router)
    }
}
