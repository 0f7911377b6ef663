import Foundation

/// Why the ad server could not start; the message names the problem.
public struct AdServerError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong, for people.
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}

/// The reference ad server: decisioning, media, beacon collector and fault
/// routes behind one ``HTTPServer``. Start it in-process for tests, or
/// through `interlude serve`.
///
/// Data directory layout: `media/` (generated and provided MP4s),
/// `content/` (title and live-source ladders), `conditioned/` (ads and
/// slate in every profile) and `beacons.sqlite` (with its WAL files).
public final class AdServer: Sendable {
    /// How to run the server.
    public struct Configuration: Sendable {
        /// Listen address. Default `127.0.0.1`.
        public var host: String
        /// Listen port; 0 picks an ephemeral one. Default 8080.
        public var port: UInt16
        /// Where media and the beacon database live.
        public var dataDirectory: URL
        /// Creatives and ad rules. Default ``Catalog/builtIn``.
        public var catalog: Catalog
        /// Generate missing media with ffmpeg before listening. Default true;
        /// tests that bring their own files turn it off.
        public var generatesMedia: Bool
        /// HTTP limits, threads and the logger.
        public var http: HTTPServer.Configuration
        /// Called before each creative MP4 is made (`index`, `total`, spec).
        public var mediaProgress: @Sendable (Int, Int, MediaSpec) -> Void
        /// Called as each ffmpeg job of the media build starts and ends
        /// (creative MP4s, ladders, conditioned ads, slate).
        public var buildProgress: @Sendable (MediaProgress) -> Void
        /// The wall clock live channels run on. Default ``ServerClock/system``.
        public var clock: ServerClock
        /// Pod-serving sessions and server-side beacons.
        public var podServing: PodServingOptions
        /// Fetches the external origins the catalog names (the VTP's
        /// content): timeout and size limit. Default ``OriginFetcher/init(client:timeout:maxSize:)``.
        public var originFetcher: OriginFetcher
        /// The web console at `/console`.
        public var console: ConsoleOptions

        public init(
            host: String = "127.0.0.1", port: UInt16 = 8080, dataDirectory: URL, catalog: Catalog = .builtIn,
            generatesMedia: Bool = true, http: HTTPServer.Configuration = HTTPServer.Configuration(),
            clock: ServerClock = .system,
            mediaProgress: @escaping @Sendable (Int, Int, MediaSpec) -> Void = { _, _, _ in },
            buildProgress: @escaping @Sendable (MediaProgress) -> Void = { _ in },
            podServing: PodServingOptions = PodServingOptions(), originFetcher: OriginFetcher = OriginFetcher(),
            console: ConsoleOptions = ConsoleOptions()
        ) {
            self.host = host
            self.port = port
            self.dataDirectory = dataDirectory
            self.catalog = catalog
            self.generatesMedia = generatesMedia
            self.http = http
            self.clock = clock
            self.mediaProgress = mediaProgress
            self.buildProgress = buildProgress
            self.podServing = podServing
            self.originFetcher = originFetcher
            self.console = console
        }
    }

    /// The HTTP layer.
    public let http: HTTPServer
    /// The beacon store.
    public let store: BeaconStore
    /// The configuration the server was started with.
    public let configuration: Configuration
    /// The stream media: ladder, titles, live channels, conditioned ads, slate.
    public let media: MediaLibrary
    /// Origin playlists of every channel and title: made here, or fetched from the external origin the catalog names.
    public let origin: ContentOrigin
    let pods: PodServingService
    let vtp: VTPService

    private init(
        http: HTTPServer, store: BeaconStore, configuration: Configuration, media: MediaLibrary,
        pods: PodServingService, vtp: VTPService
    ) {
        self.http = http
        self.store = store
        self.configuration = configuration
        self.media = media
        origin = vtp.origin
        self.pods = pods
        self.vtp = vtp
    }

    /// The pod-serving session store.
    public var sessionStore: any SessionStore { pods.store }

    /// The bound port.
    public var port: UInt16 { http.port }

    /// `http://host:port` of this server (IPv6 hosts bracketed).
    public var baseURL: String {
        // Bound to every interface, the server is reached (and linked) on loopback.
        let host =
            switch configuration.host {
            case "0.0.0.0": "127.0.0.1"
            case "::", "[::]": "::1"
            default: configuration.host
            }
        return "http://\(host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host):\(port)"
    }

    /// Validates the catalog, prepares the data directory and media, opens
    /// the store and starts listening.
    public static func start(_ configuration: Configuration) throws(AdServerError) -> AdServer {
        do {
            try configuration.catalog.validate()
        } catch {
            throw AdServerError("invalid catalog: \(error.message)")
        }
        let media = configuration.dataDirectory.appendingPathComponent("media")
        do {
            try FileManager.default.createDirectory(at: media, withIntermediateDirectories: true)
        } catch {
            throw AdServerError("cannot create data directory \(media.path): \(error.localizedDescription)")
        }
        let library = try MediaLibrary.prepare(configuration)
        let store: BeaconStore
        do {
            store = try BeaconStore(
                path: configuration.dataDirectory.appendingPathComponent("beacons.sqlite").path,
                logger: configuration.http.logger)
        } catch {
            throw AdServerError("cannot open the beacon store: \(error.message)")
        }
        let pods: PodServingService
        do {
            pods = try PodServingService.open(configuration, library: library)
        } catch {
            store.close()
            throw error
        }
        let routes = ServerRoutes(
            decisioner: AdDecisioner(catalog: configuration.catalog), store: store,
            mediaFiles: StaticFiles(root: media), library: library, clock: configuration.clock)
        var allRoutes = routes.makeRouter()
        PodServingRoutes(service: pods, baseURLFor: routes.baseURL(for:)).register(in: &allRoutes)
        let vtp = VTPService(
            pods: pods,
            origin: ContentOrigin(library: library, clock: configuration.clock, fetcher: configuration.originFetcher))
        VTPRoutes(vtp: vtp, baseURLFor: routes.baseURL(for:)).register(in: &allRoutes)
        do {
            try ConsoleRoutes(
                configuration, store: store, routes: routes, pods: pods, library: library,
                stitchStates: vtp.stitchStates
            )
            .register(in: &allRoutes)
        } catch {
            pods.shutdown()
            store.close()
            throw AdServerError("cannot open the console's session index: \(error.message)")
        }
        let router = allRoutes
        do {
            var httpConfiguration = configuration.http
            // Tagged ad segments are file bytes with a viewer's ID3 packets
            // between them: the direct path sends the file runs with sendfile.
            for prefix in PodServingRoutes.directPrefixes where !httpConfiguration.directPrefixes.contains(prefix) {
                httpConfiguration.directPrefixes.append(prefix)
            }
            let http = try HTTPServer.start(
                host: configuration.host, port: configuration.port, configuration: httpConfiguration
            ) { request in
                CrossOrigin.apply(to: request) { router.respond(to: $0) }
            }
            let server = AdServer(
                http: http, store: store, configuration: configuration, media: library, pods: pods, vtp: vtp)
            routes.fallbackHost.withLock { $0 = String(server.baseURL.dropFirst("http://".count)) }
            pods.startSending(baseURL: server.baseURL, router: router, options: configuration.podServing)
            return server
        } catch {
            pods.shutdown()
            store.close()
            throw AdServerError(error.message)
        }
    }

    /// Stops server-side beaconing (sends in flight finish, the rest wait in
    /// the outbox), stops taking requests, lets those in flight finish, then
    /// writes every pending beacon and closes the stores. Safe to call more than once.
    public func shutdown() {
        pods.sender?.stop()
        http.shutdown()
        vtp.shutdown()
        pods.shutdown()
        store.close()
    }

    // A server dropped without shutdown() still loses no beacons.
    deinit { shutdown() }
}
