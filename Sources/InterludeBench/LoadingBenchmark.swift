import Foundation
import Interlude
import InterludeServer
import InterludeVAST

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `interlude-bench loading`: against the reference server in-process on
/// loopback, (1) time from `loadAds` to loaded data for a 4-hop wrapper chain
/// against the sum of the same four fetches with plain `URLSession` in the
/// same run, and (2) time and resident-memory growth per 1,000 beacons
/// queued, journaled and delivered to the local collector.
@MainActor
enum LoadingBenchmark {
    /// Only the resolution work (bodies from memory), for profilers.
    static func runOffline(iterations: Int) async -> Int32 {
        let vast = VASTBenchmark.generatedPod(adCount: 1)
        let inline = Data(VASTWriter().write(vast).utf8)
        var bodies: [String: Data] = ["http://127.0.0.1:9/vast": inline]
        for depth in 1...3 {
            let target = depth == 1 ? "http://127.0.0.1:9/vast" : "http://127.0.0.1:9/wrapper/\(depth - 1)"
            let wrapper = VASTDocument(
                version: "4.2",
                ads: [
                    InterludeVAST.Ad(
                        id: "wrapper-\(depth)",
                        content: .wrapper(
                            Wrapper(
                                adSystem: AdSystem(name: "bench"), vastAdTagURI: target,
                                impressions: [
                                    Impression(url: "http://127.0.0.1:9/track/s/w\(depth)/impression?cb=[CACHEBUSTING]")
                                ],
                                errors: ["http://127.0.0.1:9/track/s/w\(depth)/error?code=[ERRORCODE]"])))
                ])
            bodies["http://127.0.0.1:9/wrapper/\(depth)"] = Data(VASTWriter().write(wrapper).utf8)
        }
        let resolver = AdTagResolver(httpClient: MemoryHTTP(bodies: bodies))
        let start = DispatchTime.now().uptimeNanoseconds
        for _ in 0..<iterations { _ = await resolver.resolve(tagURL: URL(string: "http://127.0.0.1:9/wrapper/3")!) }
        let perChain = Double(DispatchTime.now().uptimeNanoseconds - start) / Double(iterations) / 1e6
        print(String(format: "offline 4-hop resolution: %.3f ms per chain", perChain))
        return 0
    }

    static func run() async -> Int32 {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "interlude-bench-loading-\(getpid())")
        defer { try? FileManager.default.removeItem(at: directory) }
        let server: AdServer
        do {
            server = try AdServer.start(
                AdServer.Configuration(
                    host: "127.0.0.1", port: 0, dataDirectory: directory, generatesMedia: false,
                    http: HTTPServer.Configuration(threadCount: 2, logger: InterludeServer.SilentLogger())))
        } catch {
            print("interlude-bench loading: server did not start: \(error.message)")
            return 1
        }
        defer { server.shutdown() }
        print(
            "interlude-bench loading — \(ProcessInfo.processInfo.processorCount) cores, \(Date()), server \(server.baseURL)"
        )

        // (1) A 4-hop chain: /wrapper/3 → /wrapper/2 → /wrapper/1 → /vast.
        var settings = Settings()
        settings.beaconJournalDirectory = directory.appendingPathComponent("journal")
        let loader = AdsLoader(settings: settings)
        let hops = ["/wrapper/3", "/wrapper/2", "/wrapper/1", "/vast"].map { "\(server.baseURL)\($0)?session=bench" }
        let session = URLSession(configuration: .ephemeral)
        let rounds = 200
        for _ in 0..<10 {  // warm both paths
            _ = try? await loader.loadAds(with: AdsRequest(adTagURL: URL(string: hops[0])!, adDisplayContainer: nil))
            for hop in hops { _ = try? await session.data(from: URL(string: hop)!) }
        }
        var sdkTotal = 0.0
        var plainTotal = 0.0
        // Alternate which goes first in each round, so neither side always
        // pays for waking the server or gets the warmer caches.
        for round in 0..<rounds {
            let sdkFirst = round % 2 == 0
            for turn in 0..<2 {
                let start = DispatchTime.now().uptimeNanoseconds
                if (turn == 0) == sdkFirst {
                    _ = try? await loader.loadAds(
                        with: AdsRequest(adTagURL: URL(string: hops[0])!, adDisplayContainer: nil))
                    sdkTotal += Double(DispatchTime.now().uptimeNanoseconds - start)
                } else {
                    for hop in hops { _ = try? await session.data(from: URL(string: hop)!) }
                    plainTotal += Double(DispatchTime.now().uptimeNanoseconds - start)
                }
            }
        }
        let sdk = sdkTotal / Double(rounds) / 1e6
        let plain = plainTotal / Double(rounds) / 1e6
        print(String(format: "  4-hop wrapper chain, loadAds → loaded data: %.3f ms", sdk))
        print(String(format: "  the same 4 fetches with plain URLSession:    %.3f ms", plain))
        print(String(format: "  ratio: %.2fx (target <= 1.2x), %d rounds", sdk / plain, rounds))
        if CommandLine.arguments.contains("--breakdown") {
            let client = URLSessionHTTPClient()
            var clientTotal = 0.0
            var resolverTotal = 0.0
            let resolver = AdTagResolver(httpClient: client)
            for _ in 0..<rounds {
                let start = DispatchTime.now().uptimeNanoseconds
                for hop in hops { _ = try? await client.send(Interlude.HTTPRequest(url: URL(string: hop)!)) }
                let middle = DispatchTime.now().uptimeNanoseconds
                _ = await resolver.resolve(tagURL: URL(string: hops[0])!)
                let end = DispatchTime.now().uptimeNanoseconds
                clientTotal += Double(middle - start)
                resolverTotal += Double(end - middle)
            }
            print(
                String(
                    format: "  breakdown: 4 fetches with URLSessionHTTPClient %.3f ms; AdTagResolver %.3f ms",
                    clientTotal / Double(rounds) / 1e6, resolverTotal / Double(rounds) / 1e6))
            // The SDK's own work per chain: the same four bodies answered from memory.
            var bodies: [String: Data] = [:]
            for hop in hops { bodies[hop] = (try? await session.data(from: URL(string: hop)!))?.0 }
            let memory = MemoryHTTP(bodies: bodies)
            let offline = AdTagResolver(httpClient: memory)
            let start = DispatchTime.now().uptimeNanoseconds
            for _ in 0..<1000 { _ = await offline.resolve(tagURL: URL(string: hops[0])!) }
            let perChain = Double(DispatchTime.now().uptimeNanoseconds - start) / 1000 / 1e6
            print(String(format: "  breakdown: resolution work per chain without the network: %.3f ms", perChain))
        }

        // (2) 1,000 beacons to the collector, through the journal.
        let queue: BeaconQueue
        do {
            queue = try BeaconQueue(
                http: URLSessionHTTPClient(),
                storage: FileJournalStorage(directory: directory.appendingPathComponent("beacons")))
        } catch {
            print("interlude-bench loading: \(error)")
            return 1
        }
        for batch in 0..<3 {
            let beacons = (0..<1000).map { index in
                Beacon(
                    url: "\(server.baseURL)/track/beacon-bench-\(batch)/ad\(index % 10)/start?cb=\(index)",
                    event: "start",
                    adID: "ad\(index % 10)", createdAt: Date())
            }
            let residentBefore = ManagerBenchmark.residentMiB()
            let start = DispatchTime.now().uptimeNanoseconds
            await queue.enqueue(beacons)
            await queue.waitUntilIdle()
            let elapsed = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6
            let residentGrowth = ManagerBenchmark.residentMiB() - residentBefore
            try? server.store.flush()
            let stored = (try? server.store.beacons(session: "beacon-bench-\(batch)").count) ?? -1
            print(
                String(
                    format:
                        "  1,000 beacons queued, journaled and delivered: %.1f ms (%.0f beacons/s), resident %+.2f MiB, stored %d",
                    elapsed, 1000 / (elapsed / 1000), residentGrowth, stored))
        }
        return 0
    }
}

/// Answers from a table (the benchmark's "no network" reference).
struct MemoryHTTP: HTTPClient {
    let bodies: [String: Data]
    /// Answers at once, so no deadline race is needed (as for URLSessionHTTPClient).
    var enforcesTimeout: Bool { true }
    func send(_ request: Interlude.HTTPRequest) async throws -> Interlude.HTTPResponse {
        let absolute = request.url.absoluteString
        let key = absolute.split(separator: "?", maxSplits: 1).first.map(String.init) ?? absolute
        let body = bodies[key] ?? bodies.first { $0.key.hasPrefix(key) }?.value ?? Data()
        return Interlude.HTTPResponse(statusCode: 200, body: body, url: request.url)
    }
}
