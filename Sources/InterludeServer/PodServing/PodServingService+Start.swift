import Foundation

extension PodServingService {
    /// Opens the session store (`<data-dir>/streams.sqlite` unless the
    /// options bring one) and makes the service and its beacon sender
    /// (started by ``startSending(baseURL:)`` once the port is bound).
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

    /// Starts server-side beaconing; beacons to this server go to `baseURL`.
    func startSending(baseURL: String) {
        guard let sender else { return }
        sender.baseURL.withLock { $0 = baseURL }
        sender.start()
    }
}
