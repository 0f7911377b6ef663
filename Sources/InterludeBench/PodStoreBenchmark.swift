import Foundation
import InterludeServer

/// `interlude-bench pod-store`: the session store without HTTP. Registers
/// streams, writes one decision each, then verifies every event once (on
/// `threads` threads, as the server's HTTP threads would) and again (each
/// already verified), against the floor of a committed write measured in
/// the same run: one-row `INSERT` transactions through the same store's
/// connection settings (`BEGIN IMMEDIATE`, WAL, synchronous NORMAL).
enum PodStoreBenchmark {
    static func run(streams count: Int, threads: Int) -> Int32 {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("pod-store-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        do {
            let store = try SQLiteSessionStore(path: directory.appendingPathComponent("streams.sqlite").path)
            defer { store.close() }
            let now = Date()
            let decisioner = PodDecisioner(catalog: .builtIn)
            var streams: [PodStream] = []
            let registered = measure {
                for _ in 0..<count {
                    let stream = PodStream(
                        id: UUID().uuidString.lowercased(), kind: .live, networkCode: "interlude",
                        customAssetKey: "interlude-live", targeting: ["ppid": "bench"], createdAt: now,
                        expiresAt: now.addingTimeInterval(3600))
                    try? store.insert(stream)
                    streams.append(stream)
                }
            }
            var events: [(event: String, stream: String, digest: String)] = []
            let decided = measure {
                for stream in streams {
                    let decision = decisioner.decide(
                        stream: stream, breakID: "pod_1", requestedDuration: 45_000, slate: .toRequestedDuration,
                        at: now)
                    guard let written = try? store.completeDecision(decision, at: now) else { continue }
                    events += written.events.map { ($0.id, stream.id, written.breakDigest) }
                }
            }
            let outcomes = Locked([PodVerificationOutcome: Int]())
            let verify: @Sendable (ArraySlice<(event: String, stream: String, digest: String)>) -> Void = { slice in
                for item in slice {
                    let outcome =
                        (try? store.verify(
                            eventID: item.event, streamID: item.stream, breakDigest: item.digest, at: now))
                        ?? .unknown
                    outcomes.withLock { $0[outcome, default: 0] += 1 }
                }
            }
            let slices = stride(from: 0, to: events.count, by: max(1, events.count / threads)).map {
                events[$0..<min(events.count, $0 + max(1, events.count / threads))]
            }
            let first = measure { concurrently(verify, slices) }
            let firstCounts = outcomes.withLock { counts -> [PodVerificationOutcome: Int] in
                defer { counts = [:] }
                return counts
            }
            let again = measure { concurrently(verify, slices) }
            let againCounts = outcomes.withLock { $0 }
            let floor = try insertFloor(
                path: directory.appendingPathComponent("floor.sqlite").path, count: events.count)
            print("interlude-bench pod-store — \(count) streams, \(events.count) events, \(threads) threads")
            print(String(format: "  registrations:          %8.0f /s", Double(count) / registered))
            print(String(format: "  decisions written:      %8.0f /s", Double(count) / decided))
            print(
                String(
                    format: "  first verifications:    %8.0f /s  (%d verified)", Double(events.count) / first,
                    firstCounts[.verified] ?? 0))
            print(
                String(
                    format: "  repeat verifications:   %8.0f /s  (%d already verified)", Double(events.count) / again,
                    againCounts[.alreadyVerified] ?? 0))
            print(String(format: "  floor: one-row commits: %8.0f /s", Double(events.count) / floor))
            return firstCounts[.verified] == events.count && againCounts[.alreadyVerified] == events.count ? 0 : 1
        } catch {
            FileHandle.standardError.write(Data("interlude-bench pod-store: \(error)\n".utf8))
            return 1
        }
    }

    /// Seconds `count` one-row INSERT transactions take on a store of the
    /// same settings (streams table of a fresh store).
    static func insertFloor(path: String, count: Int) throws -> Double {
        let store = try SQLiteSessionStore(path: path)
        defer { store.close() }
        let now = Date()
        return measure {
            for index in 0..<count {
                try? store.insert(
                    PodStream(
                        id: "floor-\(index)", kind: .vod, networkCode: "n", customAssetKey: nil, targeting: [:],
                        createdAt: now, expiresAt: now))
            }
        }
    }

    static func measure(_ body: () -> Void) -> Double {
        let start = DispatchTime.now().uptimeNanoseconds
        body()
        return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    }

    static func concurrently<Slice: Sendable>(_ body: @escaping @Sendable (Slice) -> Void, _ slices: [Slice]) {
        let group = DispatchGroup()
        for slice in slices {
            group.enter()
            Thread {
                body(slice)
                group.leave()
            }.start()
        }
        group.wait()
    }
}

/// A value guarded by a lock, for the benchmark's counters.
final class Locked<Value>: @unchecked Sendable {
    // @unchecked Sendable: `value` is only touched inside `withLock`, under `lock`.
    private let lock = NSLock()
    private var value: Value
    init(_ value: Value) { self.value = value }
    func withLock<T>(_ body: (inout Value) -> T) -> T {
        lock.lock()
        defer { lock.unlock() }
        return body(&value)
    }
}
