extension AdServer {
    /// Lines for people starting `interlude serve`: each network's
    /// registration URLs and, for each live stream and VOD content, the VTP
    /// manifest template an app's VTP handler fills with `[[STREAMID]]`.
    public var podServingGuide: [String] {
        let links = PodServingLinks(baseURL: baseURL)
        let catalog = configuration.catalog.podServing
        var lines: [String] = []
        for network in catalog.networks {
            var notes: [String] = []
            if network.apiKey != nil { notes.append("api-key required") }
            if network.requiresAuthToken { notes.append("auth-token required") }
            lines.append(
                "pod serving, network \(network.code)" + (notes.isEmpty ? "" : " (\(notes.joined(separator: ", ")))"))
            for stream in catalog.liveStreams where stream.network == nil || stream.network == network.code {
                lines.append(
                    "  live \(stream.customAssetKey): POST "
                        + links.liveRegistration(networkCode: network.code, customAssetKey: stream.customAssetKey))
                lines.append("    VTP template: " + links.vtpLiveTemplate(channel: stream.channel))
            }
            let contents = catalog.vodContent.filter { $0.network == nil || $0.network == network.code }
            if !contents.isEmpty {
                lines.append("  VOD: POST " + links.vodRegistration(networkCode: network.code))
                for content in contents {
                    lines.append(
                        "    VTP template (\(content.contentID)): " + links.vtpVODTemplate(contentID: content.contentID)
                    )
                }
            }
        }
        return lines
    }
}

extension AdServer {
    /// Waits until every queued server-side beacon has been delivered or
    /// abandoned, up to `timeout` seconds; true when none is left. For tests
    /// and benchmarks; a server with `sendsBeacons` off returns false unless
    /// the outbox is already empty.
    public func waitForServerSideBeacons(timeout: Double) -> Bool {
        guard let sender = pods.sender else {
            let next = Result { () throws(StoreError) in try pods.store.nextBeaconDue() }
            if case .success(nil) = next { return true }
            return false
        }
        return sender.waitUntilIdle(timeout: timeout)
    }
}
