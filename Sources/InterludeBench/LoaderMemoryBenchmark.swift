import Foundation
import Interlude
import InterludeVAST

/// `interlude-bench loader-memory`: resident memory of 100 loaded 5-ad pods
/// (each `AdsLoadedData` kept alive), from realistic generated documents.
@MainActor
enum LoaderMemoryBenchmark {
    static func run() async -> Int32 {
        var settings = Settings()
        settings.beaconJournalDirectory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "interlude-bench-mem-\(getpid())")
        defer { try? FileManager.default.removeItem(at: settings.beaconJournalDirectory!) }
        let loader = AdsLoader(settings: settings, httpClient: ManagerBenchmark.NullCollector())
        // Different documents, so nothing is shared between pods.
        let documents = (0..<100).map { index -> String in
            var pod = VASTBenchmark.generatedPod(adCount: 5)
            for adIndex in pod.ads.indices { pod.ads[adIndex].id = "pod\(index)-ad\(adIndex)" }
            return VASTWriter().write(pod)
        }
        let averageBytes = documents.reduce(0) { $0 + $1.utf8.count } / documents.count
        _ = try? await loader.loadAds(with: AdsRequest(adsResponse: documents[0], adDisplayContainer: nil))
        releaseFreeHeapIfAvailable()
        let before = ManagerBenchmark.residentMiB()
        var kept: [AdsLoadedData] = []
        for document in documents {
            if let data = try? await loader.loadAds(with: AdsRequest(adsResponse: document, adDisplayContainer: nil)) {
                kept.append(data)
            }
        }
        let after = ManagerBenchmark.residentMiB()
        let perPod = (after - before) / Double(kept.count)
        print("interlude-bench loader-memory — \(kept.count) loaded 5-ad pods, documents of ~\(averageBytes) bytes")
        print(
            String(
                format: "  resident memory added: %.2f MiB = %.3f MiB per pod (target < 1 MiB per pod)", after - before,
                perPod))
        withExtendedLifetime(kept) {}
        return 0
    }

    private static func releaseFreeHeapIfAvailable() {
        #if os(Linux)
            _ = releaseFreeHeapMemory(0)
        #endif
    }
}
