import Foundation

extension PodServingService {
    /// Opens the session store (`<data-dir>/streams.sqlite` unless the
    /// options bring one) and makes the service and its beacon sender
    /// (started by ``startSending(baseURL:router:options:)`` once the port is bound).
    static func open(_ configuration: AdServer.Configuration, library: MediaLibrary) throws(AdServerError)
        -> PodServingService
    {
        let options = configuration.podServing
        let store: any SessionStore
        if let given = options.store {
            store = given
        } else {
            let path = configuration.dataDirectory.appendingPathComponent("streams.sqlite").path
            do {
                store = try SQLiteSessionStore(path: path)
            } catch {
                throw AdServerError("cannot open the session store: \(error.message)")
            }
        }
        let sender =
            options.sendsBeacons
            ? BeaconSender(
                store: store, transport: options.beaconTransport ?? HTTPBeaconTransport(),
                policy: options.beaconRetry, logger: configuration.http.logger)
            : nil
        return PodServingService(
            catalog: configuration.catalog, store: store,
            media: LibraryPodMedia(library: library, catalog: configuration.catalog),
            now: { configuration.clock.now }, sender: sender)
    }

    /// Starts server-side beaconing; beacons to this server go to `baseURL`
    /// and, unless the options bring their own transport, are answered by
    /// `router` in-process.
    func startSending(baseURL: String, router: Router, options: PodServingOptions) {
        guard let sender else { return }
        let transport: (any BeaconTransport)? =
            options.beaconTransport == nil
            ? InProcessBeaconTransport(baseURL: baseURL, router: router, next: HTTPBeaconTransport()) : nil
        sender.start(baseURL: baseURL, transport: transport)
    }
}
