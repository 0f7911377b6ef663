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
        let tag = URL(string: hops[0])!
        let breakdown = CommandLine.arguments.contains("--breakdown")
        // The paths timed, each a closure run once per round. With
        // `--breakdown` the client and the resolver alone join the same
        // rounds, so every figure shares the machine's state of the moment.
        let client = URLSessionHTTPClient()
        // Plain URLSession looks every request up in its URLCache (on Linux a
        // directory scan per request); the SDK's client has no cache, since ad
        // responses are cache-busted and must not be stored. This third
        // reference shows how much of the gap that difference is.
        let uncachedConfiguration = URLSessionConfiguration.ephemeral
        uncachedConfiguration.urlCache = nil
        let uncached = URLSession(configuration: uncachedConfiguration)
        let resolver = AdTagResolver(httpClient: URLSessionHTTPClient())
        var paths: [(name: String, run: @MainActor () async -> Void)] = [
            ("sdk", { _ = try? await loader.loadAds(with: AdsRequest(adTagURL: tag, adDisplayContainer: nil)) }),
            ("plain", { for hop in hops { _ = try? await session.data(from: URL(string: hop)!) } }),
        ]
        if breakdown {
            paths.append(
                (
                    "client",
                    { for hop in hops { _ = try? await client.send(Interlude.HTTPRequest(url: URL(string: hop)!)) } }
                ))
            paths.append(("resolver", { _ = await resolver.resolve(tagURL: tag) }))
            paths.append(("uncached", { for hop in hops { _ = try? await uncached.data(from: URL(string: hop)!) } }))
        }
        let rounds = 200
        for _ in 0..<10 { for path in paths { await path.run() } }  // warm every path
        var totals = [Double](repeating: 0, count: paths.count)
        // Rotate which path goes first in each round, so none always pays
        // for waking the server or always gets the warmest caches.
        for round in 0..<rounds {
            for turn in 0..<paths.count {
                let index = (round + turn) % paths.count
                let start = DispatchTime.now().uptimeNanoseconds
                await paths[index].run()
                totals[index] += Double(DispatchTime.now().uptimeNanoseconds - start)
            }
        }
        let means = totals.map { $0 / Double(rounds) / 1e6 }
        let sdk = means[0]
        let plain = means[1]
        print(String(format: "  4-hop wrapper chain, loadAds → loaded data: %.3f ms", sdk))
        print(String(format: "  the same 4 fetches with plain URLSession:    %.3f ms", plain))
        print(String(format: "  ratio: %.2fx (target <= 1.2x), %d rounds", sdk / plain, rounds))
        if breakdown {
            print(
                String(
                    format:
                        "  breakdown: 4 fetches with URLSessionHTTPClient %.3f ms (%.2fx); AdTagResolver %.3f ms (%.2fx)",
                    means[2], means[2] / plain, means[3], means[3] / plain))
            print(
                String(
                    format: "  breakdown: plain URLSession without a URLCache %.3f ms; loadAds against it %.2fx",
                    means[4], sdk / means[4]))
            // The SDK's own work per chain: the same four bodies answered from memory.
            var bodies: [String: Data] = [:]
            for hop in hops { bodies[hop] = (try? await session.data(from: URL(string: hop)!))?.0 }
            let memory = MemoryHTTP(bodies: bodies)
            let offline = AdTagResolver(httpClient: memory)
            var start = DispatchTime.now().uptimeNanoseconds
            for _ in 0..<1000 { _ = await offline.resolve(tagURL: tag) }
            let perChain = Double(DispatchTime.now().uptimeNanoseconds - start) / 1000 / 1e6
            let offlineLoader = AdsLoader(settings: settings, httpClient: memory)
            start = DispatchTime.now().uptimeNanoseconds
            for _ in 0..<1000 {
                _ = try? await offlineLoader.loadAds(with: AdsRequest(adTagURL: tag, adDisplayContainer: nil))
            }
            let perLoad = Double(DispatchTime.now().uptimeNanoseconds - start) / 1000 / 1e6
            print(
                String(
                    format: "  breakdown: without the network, resolution %.3f ms per chain; loadAds %.3f ms",
                    perChain, perLoad))
        }

        // (2) The queue and journal alone: a collector double that answers at
        // once and does not enforce its own timeout, so every send also runs
        // the SDK's deadline race on the system clock.
        do {
            let alone = try BeaconQueue(
                http: ManagerBenchmark.NullCollector(),
                storage: FileJournalStorage(directory: directory.appendingPathComponent("alone")))
            var residentAfterWarmUp = 0.0
            for batch in 0..<40 {
                let beacons = (0..<1000).map { index in
                    Beacon(
                        url: "http://127.0.0.1:9/track/alone-\(batch)/ad\(index % 10)/start?cb=\(index)",
                        event: "start", adID: "ad\(index % 10)", createdAt: Date())
                }
                alone.enqueue(beacons)
                await alone.waitUntilIdle()
                if batch == 3 { residentAfterWarmUp = ManagerBenchmark.residentMiB() }
            }
            let growth = ManagerBenchmark.residentMiB() - residentAfterWarmUp
            print(
                String(
                    format:
                        "  queue and journal alone (in-memory collector), beacons 4,000 to 40,000: resident %+.2f MiB (%.0f bytes per beacon)",
                    growth, growth * 1_048_576 / 36_000))
        } catch {
            print("interlude-bench loading: \(error)")
            return 1
        }

        // (3) 1,000 beacons to the collector, through the journal.
        let queue: BeaconQueue
        do {
            queue = try BeaconQueue(
                http: URLSessionHTTPClient(),
                storage: FileJournalStorage(directory: directory.appendingPathComponent("beacons")))
        } catch {
            print("interlude-bench loading: \(error)")
            return 1
        }
        // `--beacon-batches N` (default 10); `--beacon-server URL` sends the
        // beacons to a collector in another process, so the resident figure
        // is the SDK's alone (the in-process server's SQLite cache is not in it).
        let batches = option("--beacon-batches").flatMap { Int($0) } ?? 10
        let collector = option("--beacon-server") ?? server.baseURL
        var residentAfter: [Double] = []
        for batch in 0..<batches {
            let beacons = (0..<1000).map { index in
                Beacon(
                    url: "\(collector)/track/beacon-bench-\(batch)/ad\(index % 10)/start?cb=\(index)",
                    event: "start", adID: "ad\(index % 10)", createdAt: Date())
            }
            let residentBefore = ManagerBenchmark.residentMiB()
            let start = DispatchTime.now().uptimeNanoseconds
            queue.enqueue(beacons)
            await queue.waitUntilIdle()
            let elapsed = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6
            residentAfter.append(ManagerBenchmark.residentMiB())
            try? server.store.flush()
            let stored = (try? server.store.beacons(session: "beacon-bench-\(batch)").count) ?? -1
            print(
                String(
                    format:
                        "  1,000 beacons queued, journaled and delivered: %.1f ms (%.0f beacons/s), resident %+.2f MiB, stored %@",
                    elapsed, 1000 / (elapsed / 1000), residentAfter[batch] - residentBefore,
                    collector == server.baseURL ? String(stored) : "elsewhere"))
        }
        if batches > 3 {
            // The first batches grow URLSession's pool and malloc's arenas; after
            // them the figure that matters is the slope.
            let growth = residentAfter[batches - 1] - residentAfter[2]
            let count = (batches - 3) * 1000
            print(
                String(
                    format: "  resident growth from beacon 3,000 to %d,000: %.2f MiB (%.0f bytes per beacon)",
                    batches, growth, growth * 1_048_576 / Double(count)))
            // The reference: the same number of bare requests, same lanes, same
            // collector, through a plain URLSession (no queue, no journal).
            let reference = await plainRequestGrowth(collector: collector, count: count)
            print(
                String(
                    format: "  reference, %d plain URLSession requests after 3,000: %.2f MiB (%.0f bytes per request)",
                    count, reference, reference * 1_048_576 / Double(count)))
        }

        return 0
    }
}

/// Resident growth over `count` GET requests sent with a plain URLSession
/// in ten concurrent lanes, after 3,000 to warm it up.
@MainActor
private func plainRequestGrowth(collector: String, count: Int) async -> Double {
    let configuration = URLSessionConfiguration.ephemeral
    configuration.urlCache = nil
    let session = URLSession(configuration: configuration)
    func send(_ total: Int, tag: String) async {
        await withTaskGroup(of: Void.self) { group in
            for lane in 0..<10 {
                group.addTask {
                    for index in stride(from: lane, to: total, by: 10) {
                        let url = URL(string: "\(collector)/track/plain-\(tag)/ad\(lane)/start?cb=\(index)")!
                        _ = try? await session.data(from: url)
                    }
                }
            }
        }
    }
    await send(3000, tag: "warm")
    let before = ManagerBenchmark.residentMiB()
    await send(count, tag: "measured")
    return ManagerBenchmark.residentMiB() - before
}

/// The value after `name` on the command line, if any.
private func option(_ name: String) -> String? {
    guard let index = CommandLine.arguments.firstIndex(of: name) else { return nil }
    return CommandLine.arguments.dropFirst(index + 1).first
}

/// Answers from a table (the benchmark's "no network" reference).
struct MemoryHTTP: HTTPClient {
    let bodies: [String: Data]
    /// Answers at once, so no deadline race is needed (as for URLSessionHTTPClient).
    var enforcesTimeout: Bool { true }
    func send(_ request: Interlude.HTTPRequest) async throws -> Interlude.HTTPResponse {
        let absolute = request.url.absoluteString
        if let body = bodies[absolute] { return Interlude.HTTPResponse(statusCode: 200, body: body, url: request.url) }
        let key = absolute.firstIndex(of: "?").map { String(absolute[..<$0]) } ?? absolute
        let body = bodies[key] ?? bodies.first { $0.key.hasPrefix(key) }?.value ?? Data()
        return Interlude.HTTPResponse(statusCode: 200, body: body, url: request.url)
    }
}
