extension PodServingRoutes {
    /// The routes answered on the HTTP server's direct path: live pod
    /// segments, the ones that carry a viewer's ID3 packets. They answer at once.
    static let directPrefixes = ["/linear/pods/v1/seg/"]

    /// Live pod playlists and segments (Google's paths), VOD pod playlists and segments (ours).
    func registerPlaylists(in router: inout Router) {
        let live = "/linear/pods/v1/hls/network/:network/custom_asset/:asset/:kind"
        router.add("GET", "\(live)/:file") { request, parameters throws(HTTPError) in
            try service.livePodMultivariant(
                network: parameters["network"] ?? "", asset: parameters["asset"] ?? "", kind: parameters["kind"] ?? "",
                file: parameters["file"] ?? "", request: request)
        }
        router.add("GET", "\(live)/:id/profile/:file") { request, parameters throws(HTTPError) in
            try service.livePodMediaPlaylist(
                network: parameters["network"] ?? "", asset: parameters["asset"] ?? "", kind: parameters["kind"] ?? "",
                id: parameters["id"] ?? "", file: parameters["file"] ?? "", request: request)
        }
        router.add("GET", "/linear/pods/v1/seg/network/:network/custom_asset/:asset/:kind/:id/profile/:profile/:file") {
            request, parameters throws(HTTPError) in
            try service.livePodSegment(
                network: parameters["network"] ?? "", asset: parameters["asset"] ?? "", kind: parameters["kind"] ?? "",
                id: parameters["id"] ?? "", profile: parameters["profile"] ?? "", file: parameters["file"] ?? "",
                request: request)
        }
        let vod = "/ondemand/pods/api/v1/network/:network/streams/:stream/pods/:index/profile"
        router.add("GET", "\(vod)/:file") { _, parameters throws(HTTPError) in
            try service.vodPodPlaylist(
                network: parameters["network"] ?? "", streamID: parameters["stream"] ?? "",
                index: parameters["index"] ?? "", file: parameters["file"] ?? "")
        }
        router.add("GET", "\(vod)/:profile/:file") { _, parameters throws(HTTPError) in
            try service.vodPodSegment(
                network: parameters["network"] ?? "", streamID: parameters["stream"] ?? "",
                index: parameters["index"] ?? "", profile: parameters["profile"] ?? "", file: parameters["file"] ?? "")
        }
    }
}
