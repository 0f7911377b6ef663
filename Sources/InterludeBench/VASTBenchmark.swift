import Foundation
import InterludeVAST

/// `interlude-bench vast [DIR]`: full model parse against a raw libxml2 SAX
/// scan of the same bytes, in the same run.
enum VASTBenchmark {
    struct Figures {
        var megabytesPerSecond: Double
        var documentsPerSecond: Double
    }

    static func run(directory: String?) -> Int32 {
        let root = directory ?? defaultCorpusDirectory()
        let corpus = loadDocuments(under: root)
        guard !corpus.isEmpty else {
            FileHandle.standardError.write(Data("no parseable *.xml under \(root)\n".utf8))
            return 1
        }
        print("interlude-bench vast — \(ProcessInfo.processInfo.processorCount) cores, \(Date())")
        report(name: "corpus (\(corpus.count) files, \(corpus.reduce(0) { $0 + $1.count }) bytes)", documents: corpus)
        let pod = Array(VASTWriter().write(generatedPod(adCount: 50)).utf8)
        report(name: "generated 50-ad pod (\(pod.count) bytes)", documents: [pod])
        return 0
    }

    static func report(name: String, documents: [[UInt8]]) {
        let model = measure(documents) { bytes in
            _ = try? VASTParser().parse(bytes: bytes)
        }
        let counter = LibXML2Scan.Counter()
        let sax = measure(documents) { bytes in
            _ = LibXML2Scan.scan(bytes, counter: counter)
        }
        print(name)
        print(
            String(
                format: "  model parse (InterludeVAST): %8.1f MB/s  %10.0f docs/s", model.megabytesPerSecond,
                model.documentsPerSecond))
        print(
            String(
                format: "  raw SAX scan (libxml2):      %8.1f MB/s  %10.0f docs/s", sax.megabytesPerSecond,
                sax.documentsPerSecond))
        print(
            String(
                format: "  ratio model/SAX: %.2fx (target >= 0.50x)", model.megabytesPerSecond / sax.megabytesPerSecond)
        )
    }

    /// Runs `body` over all documents repeatedly for about a second (after a
    /// warm-up) and reports throughput.
    static func measure(_ documents: [[UInt8]], _ body: ([UInt8]) -> Void) -> Figures {
        let totalBytes = documents.reduce(0) { $0 + $1.count }
        for document in documents { body(document) }
        var rounds = 0
        let start = DispatchTime.now().uptimeNanoseconds
        var elapsed: UInt64 = 0
        repeat {
            for document in documents { body(document) }
            rounds += 1
            elapsed = DispatchTime.now().uptimeNanoseconds - start
        } while elapsed < 1_500_000_000
        let seconds = Double(elapsed) / 1e9
        return Figures(
            megabytesPerSecond: Double(totalBytes * rounds) / seconds / 1_000_000,
            documentsPerSecond: Double(documents.count * rounds) / seconds)
    }

    static func defaultCorpusDirectory() -> String {
        let executable = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        // .build/<config>/interlude-bench → package root → ../shared/corpus
        var candidate = executable
        for _ in 0..<6 {
            candidate.deleteLastPathComponent()
            let corpus = candidate.deletingLastPathComponent().appendingPathComponent("shared/corpus")
            if FileManager.default.fileExists(atPath: corpus.path) { return corpus.path }
        }
        return "../shared/corpus"
    }

    /// Every `*.xml` under `root` that parses (malformed samples are skipped:
    /// their "throughput" would measure error paths).
    static func loadDocuments(under root: String) -> [[UInt8]] {
        guard let enumerator = FileManager.default.enumerator(atPath: root) else { return [] }
        var documents: [[UInt8]] = []
        while let path = enumerator.nextObject() as? String {
            guard path.hasSuffix(".xml"), let data = FileManager.default.contents(atPath: root + "/" + path) else {
                continue
            }
            let bytes = [UInt8](data)
            if (try? VASTParser().parse(bytes: bytes)) != nil { documents.append(bytes) }
        }
        return documents
    }

    /// A realistic pod: every ad with impressions, error URLs, a linear with
    /// three renditions, the full quartile set, clicks and a uiSettings extension.
    static func generatedPod(adCount: Int) -> VASTDocument {
        let base = "https://ads.example.test"
        let ads = (1...adCount).map { index -> Ad in
            let tracking = [
                "creativeView", "start", "firstQuartile", "midpoint", "thirdQuartile", "complete", "mute",
                "unmute", "pause", "resume", "skip",
            ].map {
                TrackingEvent(
                    event: TrackingEventType($0),
                    url: "\(base)/track/s/\(index)/\($0)?cb=[CACHEBUSTING]&ph=[ADPLAYHEAD]")
            }
            let renditions: [(width: Int, height: Int, bitrate: Int)] = [
                (640, 360, 800), (960, 540, 1500), (1280, 720, 3000),
            ]
            let files = renditions.map { width, height, bitrate in
                MediaFile(
                    url: "\(base)/media/ad\(index)_\(height)p.mp4", id: "m\(index)-\(height)", delivery: .progressive,
                    type: "video/mp4", width: width, height: height, codec: "avc1.64001f", bitrate: bitrate,
                    scalable: true, maintainAspectRatio: true)
            }
            let linear = Linear(
                duration: VASTTime(milliseconds: 15_000),
                skipOffset: index % 2 == 0 ? .time(VASTTime(milliseconds: 5000)) : nil,
                mediaFiles: files, trackingEvents: tracking,
                videoClicks: VideoClicks(
                    clickThrough: ClickURL(url: "\(base)/landing/\(index)"),
                    clickTracking: [ClickURL(url: "\(base)/track/s/\(index)/click?cb=[CACHEBUSTING]")]))
            let inLine = InLine(
                adSystem: AdSystem(name: "Interlude", version: "1.0"), adTitle: "Generated ad \(index)",
                adServingID: "serving-\(index)",
                impressions: [
                    Impression(id: "imp", url: "\(base)/track/s/\(index)/impression?cb=[CACHEBUSTING]&t=[TIMESTAMP]")
                ],
                advertiser: Advertiser(name: "Advertiser \(index)"),
                errors: ["\(base)/track/s/\(index)/error?code=[ERRORCODE]"],
                creatives: [
                    Creative(
                        id: "c\(index)", adID: "ad-\(index)",
                        universalAdIDs: [UniversalAdID(idRegistry: "ad-id.org", value: "UAID\(index)")],
                        kind: .linear(linear))
                ],
                extensions: [VASTExtension(type: "uiSettings", rawXML: "<UiHideable>1</UiHideable>")])
            return Ad(id: "ad\(index)", sequence: index, content: .inLine(inLine))
        }
        return VASTDocument(version: "4.2", ads: ads)
    }
}
