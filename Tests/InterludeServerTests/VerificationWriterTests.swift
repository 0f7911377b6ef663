import Foundation
import Testing

@testable import InterludeServer

/// The verification writer: verifications queued while a batch is written
/// go into the next batch together, each caller gets its own outcome only
/// once its batch is written, and stopping writes what is queued.
@Suite struct VerificationWriterTests {
    /// A write function that records batches and holds the first one until released.
    private final class GatedWrites: @unchecked Sendable {
        // @unchecked Sendable: `batches` is only touched under `lock`; the
        // semaphores are thread-safe.
        private let lock = NSLock()
        private var recorded: [[String]] = []
        let firstEntered = DispatchSemaphore(value: 0)
        let releaseFirst = DispatchSemaphore(value: 0)

        var batches: [[String]] { lock.withLock { recorded } }

        func write(_ batch: [PodVerification]) -> [PodVerificationOutcome] {
            let isFirst = lock.withLock { () -> Bool in
                recorded.append(batch.map(\.eventID))
                return recorded.count == 1
            }
            if isFirst {
                firstEntered.signal()
                releaseFirst.wait()
            }
            return batch.map { $0.eventID.hasSuffix("-unknown") ? .unknown : .verified }
        }
    }

    /// Outcomes by event, and a count of completions to wait for.
    private final class Outcomes: @unchecked Sendable {
        // @unchecked Sendable: `byEvent` is only touched under `lock`.
        private let lock = NSLock()
        private var byEvent: [String: Result<PodVerificationOutcome, StoreError>] = [:]
        let completed = DispatchSemaphore(value: 0)

        subscript(event: String) -> Result<PodVerificationOutcome, StoreError>? { lock.withLock { byEvent[event] } }

        func record(_ event: String, _ result: Result<PodVerificationOutcome, StoreError>) {
            lock.withLock { byEvent[event] = result }
            completed.signal()
        }
    }

    private static func verification(_ event: String) -> PodVerification {
        PodVerification(eventID: event, streamID: "stream", breakDigest: "digest", at: Date(timeIntervalSince1970: 0))
    }

    @Test func verificationsQueuedDuringAWriteShareTheNextBatchAndEachGetsItsOutcome() throws {
        let writes = GatedWrites()
        let writer = VerificationWriter { batch in writes.write(batch) }
        defer { writer.stop() }
        let outcomes = Outcomes()
        writer.submit(Self.verification("e0")) { outcomes.record("e0", $0) }
        writes.firstEntered.wait()
        let queued = ["e1", "e2", "e3-unknown", "e4"]
        for event in queued { writer.submit(Self.verification(event)) { outcomes.record(event, $0) } }
        // Nothing is answered before its batch is written.
        #expect(outcomes["e0"] == nil)
        writes.releaseFirst.signal()
        for _ in 0...queued.count { outcomes.completed.wait() }
        #expect(writes.batches == [["e0"], queued])
        #expect(outcomes["e0"] == .success(.verified))
        #expect(outcomes["e1"] == .success(.verified))
        #expect(outcomes["e3-unknown"] == .success(.unknown))
        #expect(outcomes["e4"] == .success(.verified))
    }

    @Test func aBatchIsNeverLargerThanTheLimit() throws {
        let writes = GatedWrites()
        let writer = VerificationWriter(batchLimit: 2) { batch in writes.write(batch) }
        let outcomes = Outcomes()
        writer.submit(Self.verification("e0")) { outcomes.record("e0", $0) }
        writes.firstEntered.wait()
        for event in ["e1", "e2", "e3", "e4", "e5"] {
            writer.submit(Self.verification(event)) { outcomes.record(event, $0) }
        }
        writes.releaseFirst.signal()
        for _ in 0..<6 { outcomes.completed.wait() }
        writer.stop()
        #expect(writes.batches == [["e0"], ["e1", "e2"], ["e3", "e4"], ["e5"]])
    }

    @Test func aFailedBatchFailsEachOfItsVerifications() throws {
        let writer = VerificationWriter { _ throws(StoreError) in throw StoreError("disk full") }
        defer { writer.stop() }
        let outcomes = Outcomes()
        for event in ["e0", "e1"] { writer.submit(Self.verification(event)) { outcomes.record(event, $0) } }
        for _ in 0..<2 { outcomes.completed.wait() }
        #expect(outcomes["e0"] == .failure(StoreError("disk full")))
        #expect(outcomes["e1"] == .failure(StoreError("disk full")))
    }

    @Test func stopWritesWhatIsQueuedAndLaterVerificationsRunOnTheCaller() throws {
        let writes = GatedWrites()
        let writer = VerificationWriter { batch in writes.write(batch) }
        let outcomes = Outcomes()
        writer.submit(Self.verification("e0")) { outcomes.record("e0", $0) }
        writes.firstEntered.wait()
        writer.submit(Self.verification("e1")) { outcomes.record("e1", $0) }
        let stopped = DispatchSemaphore(value: 0)
        Thread {
            writer.stop()
            stopped.signal()
        }.start()
        writes.releaseFirst.signal()
        stopped.wait()
        // Both were written before stop() returned.
        #expect(outcomes["e0"] == .success(.verified))
        #expect(outcomes["e1"] == .success(.verified))
        writer.submit(Self.verification("e2")) { outcomes.record("e2", $0) }
        #expect(outcomes["e2"] == .success(.verified))
        #expect(writes.batches == [["e0"], ["e1"], ["e2"]])
    }
}
