import Foundation

let arguments = Array(CommandLine.arguments.dropFirst())
let usage = """
    usage: interlude-bench vast [DIR]      VAST/VMAP parse throughput vs raw libxml2 SAX (DIR default ../shared/corpus)
           interlude-bench vast-memory     peak memory while parsing a generated 1 MiB document
           interlude-bench hls [DIR]       HLS parse/write/splice vs Python m3u8 (see BENCHMARKS.md)
           interlude-bench loading [--breakdown] [--beacon-batches N] [--beacon-server URL]
                                           4-hop wrapper chain vs URLSession; beacons to the collector
           interlude-bench loading-offline [N]   the chain's resolution work with bodies from memory
           interlude-bench loader-memory   resident memory of 100 loaded 5-ad pods
           interlude-bench manager         ads manager CPU per second of ad; memory over 1,000 ads
           interlude-bench stream [--vod-only] [--live-hours N]
                                           stream manager CPU per stream hour (VOD, live); memory over N (24) h of live
           interlude-bench conditioning [--catalog default|test]
                                           stream media build vs plain ffmpeg; cached second start
           interlude-bench ts [FILE]       MPEG-TS: ID3 injection per request and demuxing vs memcpy and ffprobe
           interlude-bench display [--hours H] [--factor F] [--loopback-hours H]
                                           HLSStreamDisplay CPU per live hour, memory over H hours at F×,
                                           ID3 reader vs ffprobe (needs ffmpeg)
           interlude-bench journal [DIR]   beacon journal cost per enqueue with and without disk sync
           interlude-bench vtp             the VTP's live reload: stitch, state load and store (SQLite)
           interlude-bench pod-store [N] [T]  pod-serving session store: registrations, decisions, verifications
                                           (N streams, default 2000, on T threads, default 2)
    """

switch arguments.first {
case "vast":
    exit(VASTBenchmark.run(directory: arguments.dropFirst().first))
case "hls":
    do {
        try runHLSBench(arguments: Array(arguments.dropFirst()))
        exit(0)
    } catch {
        FileHandle.standardError.write(Data("interlude-bench hls: \(error)\n".utf8))
        exit(1)
    }
case "ts":
    do {
        try TSBench.run(arguments: Array(arguments.dropFirst()))
        exit(0)
    } catch {
        FileHandle.standardError.write(Data("interlude-bench ts: \(error)\n".utf8))
        exit(1)
    }
case "vtp":
    do {
        try VTPBench.run()
        exit(0)
    } catch {
        FileHandle.standardError.write(Data("interlude-bench vtp: \(error)\n".utf8))
        exit(1)
    }
case "loading-offline":
    exit(await LoadingBenchmark.runOffline(iterations: Int(arguments.dropFirst().first ?? "") ?? 2000))
case "loading":
    exit(await LoadingBenchmark.run())
case "loader-memory":
    exit(await LoaderMemoryBenchmark.run())
case "manager":
    exit(await ManagerBenchmark.run())
case "stream":
    let options = Array(arguments.dropFirst())
    let hours = options.firstIndex(of: "--live-hours").flatMap {
        options.indices.contains($0 + 1) ? Int(options[$0 + 1]) : nil
    }
    exit(await StreamBenchmark.run(vodOnly: options.contains("--vod-only"), liveHours: max(2, hours ?? 24)))
case "conditioning":
    exit(ConditioningBenchmark.run(arguments: Array(arguments.dropFirst())))
case "display":
    exit(await StreamDisplayBenchmark.run(arguments: Array(arguments.dropFirst())))
case "journal":
    exit(await JournalBenchmark.run(directory: arguments.dropFirst().first))
case "pod-store":
    let rest = Array(arguments.dropFirst())
    exit(PodStoreBenchmark.run(streams: Int(rest.first ?? "") ?? 2000, threads: Int(rest.dropFirst().first ?? "") ?? 2))
case "vast-memory":
    exit(VASTMemoryBenchmark.run(childFile: arguments.dropFirst().first))
default:
    FileHandle.standardError.write(Data((usage + "\n").utf8))
    exit(2)
}
