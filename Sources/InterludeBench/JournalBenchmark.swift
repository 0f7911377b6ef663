import Foundation
import Interlude

/// `interlude-bench journal [DIR]`: what the beacon journal costs the thread
/// that enqueues (the main actor, for the ads manager), with and without
/// `syncsJournalToDisk`, measured in alternating blocks of the same run so
/// the unsynced figure is the reference:
///
/// 1. one record appended to a `FileJournalStorage`, then the same with a
///    disk sync after it (`fsync`; `F_FULLFSYNC` on Apple platforms);
/// 2. `BeaconQueue.enqueue` of one beacon (journal, inbox, wake-up), with
///    the policy's sync off and on, against a collector that answers at once;
/// 3. `BeaconQueue.enqueue` of one beacon to an idle queue, 5 ms after it
///    went idle, as each verification of a stream played at 1× finds it: the
///    caller's thread CPU, wake-up included;
/// 4. one compaction (a journal of 100 owed beacons rewritten and renamed,
///    synced first with the setting on), which runs on the queue every
///    `compactAfter` settles; an enqueue that arrives meanwhile waits for it.
///
/// DIR must be on the disk whose cost is wanted (a tmpfs syncs for free);
/// the default is `.build/bench-journal` under the working directory.
@MainActor
enum JournalBenchmark {
    static func run(directory: String?) async -> Int32 {
        let root = URL(fileURLWithPath: directory ?? ".build/bench-journal", isDirectory: true)
            .appendingPathComponent("run-\(getpid())")
        defer { try? FileManager.default.removeItem(at: root) }
        let record =
            "+"
            + #"{"adID":"ad-1","createdAt":786000000,"event":"firstQuartile","idempotencyKey":"6F9619FF-8B86-D011-B42D-00CF4FC964FF","url":"http://127.0.0.1:8080/track/s/ad-1/firstQuartile?cb=12345678&t=2026-12-01T10%3A00%3A00.000Z&ph=00%3A00%3A07.500"}"#
        do {
            let storage = try FileJournalStorage(directory: root.appendingPathComponent("storage"))
            let rounds = 20
            let perBlock = 50
            var plain: [Double] = []
            var synced: [Double] = []
            for _ in 0..<rounds {
                for _ in 0..<perBlock { plain.append(try time { try storage.append(record) }) }
                for _ in 0..<perBlock {
                    synced.append(
                        try time {
                            try storage.append(record)
                            try storage.synchronize()
                        })
                }
            }
            print("interlude-bench journal — \(root.path), \(rounds * perBlock) appends each way, alternating blocks")
            print("  append one record (\(record.utf8.count + 1) bytes):      \(summary(plain))")
            print("  append one record + disk sync:  \(summary(synced))")

            var policyOff = BeaconQueue.Policy()
            policyOff.syncsJournalToDisk = false
            var policyOn = policyOff
            policyOn.syncsJournalToDisk = true
            let queueOff = try BeaconQueue(
                http: ManagerBenchmark.NullCollector(),
                storage: FileJournalStorage(directory: root.appendingPathComponent("off")), policy: policyOff)
            let queueOn = try BeaconQueue(
                http: ManagerBenchmark.NullCollector(),
                storage: FileJournalStorage(directory: root.appendingPathComponent("on")), policy: policyOn)
            var off: [Double] = []
            var on: [Double] = []
            for round in 0..<rounds {
                for index in 0..<perBlock {
                    let beacon = Beacon(
                        url: "http://127.0.0.1:9/track/s/ad-\(round)/e\(index)", event: "e", adID: "ad-\(round)",
                        createdAt: Date())
                    off.append(time { queueOff.enqueue([beacon]) })
                }
                await queueOff.waitUntilIdle()
                for index in 0..<perBlock {
                    let beacon = Beacon(
                        url: "http://127.0.0.1:9/track/s/ad-\(round)/e\(index)", event: "e", adID: "ad-\(round)",
                        createdAt: Date())
                    on.append(time { queueOn.enqueue([beacon]) })
                }
                await queueOn.waitUntilIdle()
            }
            print("  BeaconQueue.enqueue, sync off:  \(summary(off))   (the default)")
            print("  BeaconQueue.enqueue, sync on:   \(summary(on))")

            // As at 1× playback: each enqueue finds the queue idle (its threads
            // parked), so it pays the wake-up. The caller's thread CPU is the figure;
            // the queue without a journal gives the wake-up's share.
            let unjournaled = try BeaconQueue(http: ManagerBenchmark.NullCollector(), policy: policyOff)
            var idleCPU: [Double] = []
            var idleWall: [Double] = []
            var wakeCPU: [Double] = []
            for index in 0..<idleRounds {
                let beacon = Beacon(
                    url: "http://127.0.0.1:9/track/s/idle/e\(index)", event: "e", adID: "idle", createdAt: Date())
                let queue = index % 2 == 0 ? queueOff : unjournaled
                let cpuStart = StreamBenchmark.threadCPUSeconds()
                let wall = time { queue.enqueue([beacon]) }
                let cpu = (StreamBenchmark.threadCPUSeconds() - cpuStart) * 1e6
                if index % 2 == 0 {
                    idleWall.append(wall)
                    idleCPU.append(cpu)
                } else {
                    wakeCPU.append(cpu)
                }
                await queue.waitUntilIdle()
                try? await Task.sleep(nanoseconds: 5_000_000)
            }
            print("  BeaconQueue.enqueue to an idle queue (\(idleRounds / 2) each way, 5 ms apart)")
            print("    caller's thread CPU:  \(summary(idleCPU))")
            print("    wall clock:           \(summary(idleWall))")
            print("    no journal, caller's thread CPU (the wake-up): \(summary(wakeCPU))")

            let compacting = try FileJournalStorage(directory: root.appendingPathComponent("compact"))
            let owed = Array(repeating: record, count: 100)
            var unsynced: [Double] = []
            var syncedCompactions: [Double] = []
            for _ in 0..<20 {
                for _ in 0..<5 {
                    unsynced.append(try time { try compacting.replace(with: owed, synchronized: false) })
                }
                for _ in 0..<5 {
                    syncedCompactions.append(try time { try compacting.replace(with: owed, synchronized: true) })
                }
            }
            print("  compaction of 100 owed beacons (write, rename):       \(summary(unsynced))   (the default)")
            print("  compaction of 100 owed beacons (write, sync, rename): \(summary(syncedCompactions))")
            return 0
        } catch {
            print("interlude-bench journal: \(error)")
            return 1
        }
    }

    static let idleRounds = 400

    /// Microseconds `body` took.
    private static func time(_ body: () throws -> Void) rethrows -> Double {
        let start = DispatchTime.now().uptimeNanoseconds
        try body()
        return Double(DispatchTime.now().uptimeNanoseconds - start) / 1000
    }

    /// `mean 12.3 µs, median 10.1 µs, p99 40.2 µs`.
    private static func summary(_ samples: [Double]) -> String {
        let sorted = samples.sorted()
        let mean = samples.reduce(0, +) / Double(samples.count)
        func format(_ microseconds: Double) -> String {
            microseconds >= 1000
                ? String(format: "%.2f ms", microseconds / 1000) : String(format: "%.1f µs", microseconds)
        }
        return
            "mean \(format(mean)), median \(format(sorted[sorted.count / 2])), p99 \(format(sorted[sorted.count * 99 / 100]))"
    }
}
