import Foundation
import InterludeVAST

/// What a loader shares with the managers it creates.
struct LoaderServices: Sendable {
    var resolver: WrapperResolver
    var beaconQueue: BeaconQueue
    var logger: any AdLogger

    /// Sends the error pings a resolution owes, each with its `[ERRORCODE]`.
    func fire(_ pings: [ErrorPing]) async {
        guard !pings.isEmpty else { return }
        let beacons = pings.compactMap { ping in
            Beacon(
                template: ping.url, values: [.errorCode: .value(String(ping.code.rawValue))], event: "error",
                adID: "load", macros: resolver.macros)
        }
        beaconQueue.enqueue(beacons)
    }
}

/// Requests ads and hands back an ``AdsManager`` (through the delegate or
/// `async`). IMA's `IMAAdsLoader`.
///
/// ```swift
/// let loader = AdsLoader(settings: settings)
/// let data = try await loader.loadAds(with: AdsRequest(adTagURL: tag, adDisplayContainer: container))
/// data.adsManager?.initialize(with: renderingSettings)
/// ```
@MainActor
public final class AdsLoader {
    /// The settings given at creation.
    public let settings: Settings
    /// Hears about loads started with ``requestAds(with:)``.
    public weak var delegate: (any AdsLoaderDelegate)?
    /// Delivers every beacon of this loader's ads (journaled when a
    /// directory is available). Loaders that journal to the same directory
    /// share one queue, the first one's (its HTTP client and policy), so
    /// that one journal file has one writer.
    public let beaconQueue: BeaconQueue

    let services: LoaderServices
    private var managers: [WeakManager] = []

    /// A loader with `settings` (the defaults when nil, as IMA's
    /// `initWithSettings:` takes `nil`). `httpClient`, `clock` and `logger`
    /// are injected for tests and custom stacks; the defaults use
    /// `URLSession` and the system clock. IMA's `initWithSettings:`.
    public init(
        settings: Settings? = nil, httpClient: (any HTTPClient)? = nil, clock: any AdClock = SystemClock(),
        logger: any AdLogger = SilentLogger(), macros: VASTMacroFiller = VASTMacroFiller()
    ) {
        let settings = settings ?? Settings()
        self.settings = settings
        let logger = AdsLoader.logger(logger, for: settings)
        let http = httpClient ?? URLSessionHTTPClient(maxResponseSize: settings.maxResponseSize)
        let directory = AdsLoader.journalDirectory(for: settings)
        let queue: BeaconQueue
        if let directory, let shared = AdsLoader.queuesByJournal[directory.path]?.queue {
            // One journal file, one writer: a second loader on the same directory
            // would resend the first one's owed beacons and compact away its appends.
            queue = shared
        } else {
            let policy = BeaconQueue.Policy(settings: settings)
            let storage = directory.flatMap { AdsLoader.journalStorage(at: $0, logger: logger) }
            do {
                queue = try BeaconQueue(
                    http: http, clock: clock, storage: storage, policy: policy, logger: logger,
                    userAgent: settings.userAgent, now: macros.now)
            } catch {
                logger.log(.error, "beacons: journal unreadable (\(error)); continuing without crash safety")
                // Without storage the initializer cannot throw.
                queue = try! BeaconQueue(
                    http: http, clock: clock, policy: policy, logger: logger, userAgent: settings.userAgent,
                    now: macros.now)
            }
            if let directory { AdsLoader.queuesByJournal[directory.path] = WeakQueue(queue: queue) }
            Task { await queue.resumeOwedBeacons() }
        }
        beaconQueue = queue
        services = LoaderServices(
            resolver: WrapperResolver(http: http, clock: clock, settings: settings, logger: logger, macros: macros),
            beaconQueue: queue, logger: logger)
    }

    /// The app's logger; with `enableDebugMode` and none given, standard error.
    static func logger(_ given: any AdLogger, for settings: Settings) -> any AdLogger {
        settings.enableDebugMode && given is SilentLogger ? StandardErrorLogger() : given
    }

    /// The live queue of each journal directory in this process.
    private static var queuesByJournal: [String: WeakQueue] = [:]

    private static func journalDirectory(for settings: Settings) -> URL? {
        settings.beaconJournalDirectory
            ?? FileManager.default.urls(for: .cachesDirectory, in: .userDomainMask).first?
            .appendingPathComponent("Interlude/beacons", isDirectory: true)
    }

    private static func journalStorage(at directory: URL, logger: any AdLogger) -> (any BeaconJournalStorage)? {
        do {
            return try FileJournalStorage(directory: directory)
        } catch {
            logger.log(.warning, "beacons: no journal at \(directory.path) (\(error)); beacons are kept in memory only")
            return nil
        }
    }

    /// Starts loading; the result goes to ``delegate``.
    public func requestAds(with request: AdsRequest) {
        Task { @MainActor in
            do throws(AdError) {
                let data = try await self.loadAds(with: request)
                self.delegate?.adsLoader(self, adsLoadedWith: data)
            } catch {
                self.delegate?.adsLoader(
                    self, failedWith: AdLoadingErrorData(adError: error, userContext: request.userContext))
            }
        }
    }

    /// Loads the ads of `request`. Throws ``AdError`` (the same error the
    /// delegate would receive).
    public func loadAds(with request: AdsRequest) async throws(AdError) -> AdsLoadedData {
        let resolution: AdResolution
        // Wrappers of a plain VAST response are requested for a pre-roll, at the content's current time.
        let context = AdRequestContext(
            breakPosition: .preroll, contentPlayhead: request.contentPlayhead?.currentTime,
            contentURL: request.contentURL, companionSlots: CompanionSlotSize.sizes(of: request.adDisplayContainer))
        if let tag = request.adTagURL {
            resolution = await services.resolver.resolve(
                tagURL: tag, timeout: request.vastLoadTimeout, request: context)
        } else if let response = request.adsResponse {
            resolution = await services.resolver.resolve(response: Data(response.utf8), request: context)
        } else {
            throw AdError(
                type: .loadingFailed, code: .invalidArguments,
                message: "the request has neither a tag URL nor a response")
        }
        // Each await from the main actor costs a hop off it and back: only when there is something to send.
        if !resolution.errorPings.isEmpty { await services.fire(resolution.errorPings) }
        if let error = resolution.error { throw error }
        // Relative break tags resolve against where the VMAP came from, after any HTTP redirect.
        let vmapDocumentURL = resolution.hops.first.map { $0.redirectedTo ?? $0.url } ?? request.adTagURL
        let manager = AdsManager(
            resolvedAds: resolution.ads, vmap: resolution.vmap, vmapURL: vmapDocumentURL,
            request: request, services: services)
        managers.removeAll { $0.manager == nil }
        managers.append(WeakManager(manager: manager))
        return AdsLoadedData(adsManager: manager, userContext: request.userContext)
    }

    /// Tells the managers of this loader that the content finished, so a
    /// post-roll can play. IMA's `contentComplete`.
    public func contentComplete() {
        for entry in managers { entry.manager?.contentDidComplete() }
    }
}

private struct WeakManager {
    weak var manager: AdsManager?
}

private struct WeakQueue {
    weak var queue: BeaconQueue?
}
