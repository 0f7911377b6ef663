import Foundation
import InterludeHLS
import InterludeTestSupport
import Testing

@testable import InterludeServer

/// Live stitch states are written behind the answers: a state handed over
/// is read back at once (queued or being written), lands in the store in
/// batches, survives failed batches and shutdown, and a reload no longer
/// waits on the store's write lock.
@Suite struct LiveStitchStateWriterTests {
    private static func state(through sequence: UInt64) -> LiveStitchState {
        var state = LiveStitchState()
        state.settled.throughSequence = sequence
        state.settled.sequenceOffset = Int64(sequence) / 2
        return state
    }

    private static func update(_ stream: String, _ rendition: String, through sequence: UInt64) -> LiveStitchUpdate {
        LiveStitchUpdate(streamID: stream, rendition: rendition, state: state(through: sequence))
    }

    private func store() throws -> (SQLiteSessionStore, TemporaryDirectory) {
        let directory = TemporaryDirectory()
        return (try SQLiteSessionStore(path: directory.url.appendingPathComponent("streams.sqlite").path), directory)
    }

    /// Holds the writer's batches until opened, and counts those that reached it.
    private final class Gate: Sendable {
        private let condition = NSCondition()
        private let state = Locked((open: false, arrived: 0))

        func pass() {
            condition.lock()
            state.withLock { $0.arrived += 1 }
            condition.broadcast()
            while !state.withLock({ $0.open }) { condition.wait() }
            condition.unlock()
        }

        func waitForArrivals(_ count: Int) {
            condition.lock()
            while state.withLock({ $0.arrived }) < count { condition.wait() }
            condition.unlock()
        }

        var arrivals: Int { state.withLock { $0.arrived } }

        func open() {
            condition.lock()
            state.withLock { $0.open = true }
            condition.broadcast()
            condition.unlock()
        }
    }

    private static func gatedWriter(_ store: SQLiteSessionStore, gate: Gate, batchLimit: Int = 256)
        -> LiveStitchStateWriter
    {
        LiveStitchStateWriter(store: store, batchLimit: batchLimit) { updates throws(StoreError) in
            gate.pass()
            try store.mergeLiveStitchStates(updates)
        }
    }

    @Test func aStateHandedOverIsReadBackBeforeItsBatchCommitsAndIsStoredAfter() throws {
        let (store, directory) = try store()
        defer {
            store.close()
            directory.remove()
        }
        let gate = Gate()
        let writer = Self.gatedWriter(store, gate: gate)
        defer { writer.stop() }
        writer.submit(Self.update("s", "360p", through: 10))
        gate.waitForArrivals(1)
        // Being written: read back from the writer, not in the store yet.
        #expect(try writer.state(streamID: "s", rendition: "360p") == Self.state(through: 10))
        #expect(try store.liveStitchState(streamID: "s", rendition: "360p") == nil)
        // Queued behind that batch: merged over it.
        writer.submit(Self.update("s", "360p", through: 20))
        writer.submit(Self.update("s", "180p", through: 5))
        #expect(try writer.state(streamID: "s", rendition: "360p") == Self.state(through: 20))
        #expect(
            try writer.states(streamID: "s") == ["360p": Self.state(through: 20), "180p": Self.state(through: 5)])
        #expect(try writer.state(streamID: "other", rendition: "360p") == nil)
        gate.open()
        #expect(writer.flush())
        #expect(try store.liveStitchState(streamID: "s", rendition: "360p") == Self.state(through: 20))
        #expect(try store.liveStitchState(streamID: "s", rendition: "180p") == Self.state(through: 5))
        #expect(writer.queuedCount == 0)
    }

    @Test func aStoredStateNewerThanTheQueuedOneIsKept() throws {
        let (store, directory) = try store()
        defer {
            store.close()
            directory.remove()
        }
        // Another process folded further meanwhile: the merge keeps its state.
        try store.mergeLiveStitchState(Self.state(through: 30), streamID: "s", rendition: "360p")
        let gate = Gate()
        let writer = Self.gatedWriter(store, gate: gate)
        defer { writer.stop() }
        writer.submit(Self.update("s", "360p", through: 10))
        gate.waitForArrivals(1)
        #expect(try writer.state(streamID: "s", rendition: "360p") == Self.state(through: 30))
        gate.open()
        #expect(writer.flush())
        #expect(try store.liveStitchState(streamID: "s", rendition: "360p") == Self.state(through: 30))
    }

    @Test func aFailedBatchIsReportedAndTriedAgainUntilItIsStored() throws {
        let (store, directory) = try store()
        defer {
            store.close()
            directory.remove()
        }
        let attempts = Locked(0)
        let reported = Locked<[String]>([])
        let writer = LiveStitchStateWriter(
            store: store, retryDelay: 0.001,
            write: { updates throws(StoreError) in
                let attempt = attempts.withLock { attempts -> Int in
                    attempts += 1
                    return attempts
                }
                if attempt <= 2 { throw StoreError("disk I/O error (attempt \(attempt))") }
                try store.mergeLiveStitchStates(updates)
            },
            reportFailure: { error in reported.withLock { $0.append(error.message) } })
        defer { writer.stop() }
        writer.submit(Self.update("s", "360p", through: 10))
        var flushed = false
        for _ in 0..<1_000 where !flushed { flushed = writer.flush() }
        #expect(flushed)
        #expect(try store.liveStitchState(streamID: "s", rendition: "360p") == Self.state(through: 10))
        #expect(reported.withLock { $0 } == ["disk I/O error (attempt 1)", "disk I/O error (attempt 2)"])
        #expect(attempts.withLock { $0 } == 3)
    }

    /// States arriving while the store fails used to wake the writer at
    /// once, so a failing store was tried again at the rate of reloads (and
    /// a failure logged for each) instead of after the retry delay.
    @Test func aFailingStoreIsTriedAgainOnlyAfterTheDelayEvenWhileStatesArrive() throws {
        let (store, directory) = try store()
        defer {
            store.close()
            directory.remove()
        }
        let gate = Gate()
        gate.open()
        let writer = LiveStitchStateWriter(
            store: store, retryDelay: 3_600,
            write: { _ throws(StoreError) in
                gate.pass()
                throw StoreError("database or disk is full")
            })
        writer.submit(Self.update("s", "360p", through: 10))
        gate.waitForArrivals(1)
        for index in 0..<2_000 { writer.submit(Self.update("s\(index)", "360p", through: UInt64(index) + 1)) }
        let triedBeforeStopping = gate.arrivals
        // Stopping ends the wait: one last try of everything queued (2,001
        // renditions, 4 batches of at most 512), then it is dropped.
        writer.stop()
        #expect(triedBeforeStopping == 1)
        #expect(gate.arrivals == 1 + 4)
        #expect(writer.queuedCount == 0)
    }

    @Test func theRetryDelayDoublesAfterEachFailureInARowUpToItsLimit() {
        let delays = (1...8).map { LiveStitchStateWriter.retryDelay(afterFailures: $0, base: 0.2, limit: 5) }
        #expect(delays == [0.2, 0.4, 0.8, 1.6, 3.2, 5, 5, 5])
        #expect(LiveStitchStateWriter.retryDelay(afterFailures: 10_000, base: 0.2, limit: 5) == 5)
        #expect(LiveStitchStateWriter.retryDelay(afterFailures: 1, base: 0.2, limit: 0.1) == 0.1)
    }

    @Test func batchesHoldWholeStreamsUpToTheLimit() throws {
        let (store, directory) = try store()
        defer {
            store.close()
            directory.remove()
        }
        let gate = Gate()
        let batches = Locked<[[LiveStitchUpdate]]>([])
        let writer = LiveStitchStateWriter(store: store, batchLimit: 2) { updates throws(StoreError) in
            gate.pass()
            batches.withLock { $0.append(updates) }
            try store.mergeLiveStitchStates(updates)
        }
        defer { writer.stop() }
        writer.submit(Self.update("first", "360p", through: 1))
        gate.waitForArrivals(1)
        for index in 0..<5 { writer.submit(Self.update("s\(index)", "360p", through: UInt64(index) + 2)) }
        writer.submit(Self.update("s0", "180p", through: 2))
        #expect(writer.queuedCount == 6)
        gate.open()
        #expect(writer.flush())
        let written = batches.withLock { $0 }
        #expect(written.count == 4, "\(written.map(\.count))")
        // A stream's renditions travel together, so a batch passes the limit by at most one stream's others.
        #expect(written.allSatisfy { $0.count <= 3 })
        for batch in written {
            let streams = Set(batch.map(\.streamID))
            let inOneBatch = streams.allSatisfy { stream in
                written.filter { $0.contains { $0.streamID == stream } }.count == 1
            }
            #expect(inOneBatch)
        }
        for index in 0..<5 {
            #expect(
                try store.liveStitchState(streamID: "s\(index)", rendition: "360p")
                    == Self.state(through: UInt64(index) + 2))
        }
    }

    @Test func stopWritesWhatIsQueuedAndLaterUpdatesAreWrittenAtOnce() throws {
        let (store, directory) = try store()
        defer {
            store.close()
            directory.remove()
        }
        let gate = Gate()
        let writer = Self.gatedWriter(store, gate: gate)
        writer.submit(Self.update("s", "360p", through: 10))
        gate.waitForArrivals(1)
        writer.submit(Self.update("s", "360p", through: 20))
        gate.open()
        writer.stop()
        #expect(try store.liveStitchState(streamID: "s", rendition: "360p") == Self.state(through: 20))
        writer.submit(Self.update("s", "360p", through: 40))
        #expect(try store.liveStitchState(streamID: "s", rendition: "360p") == Self.state(through: 40))
        #expect(writer.flush())
    }

    /// Another process holding the store's write lock (a long transaction,
    /// a checkpoint) used to hold up every reload whose state changed: the
    /// reload waited out SQLite's busy timeout (5 s) and answered 503. Now the
    /// reload answers from what it stitched, and the state is written once
    /// the lock is free.
    @Test func aReloadIsAnsweredWhileAnotherProcessHoldsTheStoresWriteLock() async throws {
        let clock = PodTestClock()
        let (server, directory) = try VTPTest.start(clock: clock)
        defer {
            server.shutdown()
            directory.remove()
        }
        let id = try await VTPTest.registerLive(port: server.port, asset: "test-live")
        // A window holding a break's start (a break begun before the window stays content for a new viewer).
        var holdsBreak = false
        for _ in 0..<12 where !holdsBreak {
            let origin = try await VTPTest.get("/origin/live/test-live/360p.m3u8", port: server.port)
            #expect(origin.status == 200, "\(origin.text)")
            let laterSegments = origin.text.components(separatedBy: "#EXTINF").dropFirst(2)
            holdsBreak = laterSegments.contains { $0.contains("SCTE35-OUT") }
            if !holdsBreak { clock.advance(by: 4) }
        }
        try #require(holdsBreak)
        // The first rendition's reload decides the window's break (a write that must precede any answer
        // naming its pod); the second rendition's first reload then only has its stitch state to write.
        let first = try await VTPTest.get("/vtp/stream_id/\(id)/live/test-live/180p.m3u8", port: server.port)
        #expect(first.status == 200, "\(first.text)")
        #expect(first.text.contains("/ad_break_id/"), "the window holds no break: \(first.text)")
        let other = try SQLiteConnection(path: directory.url.appendingPathComponent("streams.sqlite").path)
        defer { other.close() }
        try other.execute("BEGIN IMMEDIATE")
        let reload = try await VTPTest.get("/vtp/stream_id/\(id)/live/test-live/360p.m3u8", port: server.port)
        try other.execute("COMMIT")
        #expect(reload.status == 200, "\(reload.text)")
        let playlist = try HLSParser().parseMedia(reload.body)
        #expect(playlist.segments.contains { $0.uri.contains("/ad_break_id/") }, "\(reload.text)")
        var flushed = false
        for _ in 0..<100 where !flushed { flushed = server.vtp.stitchStates.flush() }
        #expect(flushed)
        #expect(try server.vtp.store.liveStitchState(streamID: id, rendition: "360p") != nil)
    }

    /// The console's stream report read the stitch states from the store
    /// alone: while a reload's state waited for its batch (another process
    /// holding the write lock here), the report drew the break where its pod
    /// was decided instead of where the reload stitched it.
    @Test func theConsoleReportsAStateStillWaitingForItsBatch() async throws {
        let clock = PodTestClock()
        let (server, directory) = try VTPTest.start(clock: clock)
        defer {
            server.shutdown()
            directory.remove()
        }
        let channel = try #require(server.vtp.library.liveChannel("test-live"))
        // Registered between two breaks, so the next break's pod is decided ahead, before the break starts.
        clock.advance(by: channel.segmentDuration / channel.settings.speed * 2.5)
        let id = try await VTPTest.registerLive(port: server.port, asset: "test-live")
        let path = "/vtp/stream_id/\(id)/live/test-live/360p.m3u8"
        #expect(try await VTPTest.get(path, port: server.port).status == 200)
        await VTPDecideAheadTests.settle(server.vtp.decideAhead)
        // Reload each window until the next one brings a break's first segment (its pod decided ahead by then).
        var appears = false
        for _ in 0..<(2 * channel.breakPeriodSegments) where !appears {
            clock.advance(by: channel.segmentDuration / channel.settings.speed)
            let window = channel.window(at: clock.now)
            appears = window.breaks.contains { $0.firstSequence == window.segments.last?.sequence }
            if !appears {
                #expect(try await VTPTest.get(path, port: server.port).status == 200)
                await VTPDecideAheadTests.settle(server.vtp.decideAhead)
            }
        }
        try #require(appears)
        let other = try SQLiteConnection(path: directory.url.appendingPathComponent("streams.sqlite").path)
        defer { other.close() }
        try other.execute("BEGIN IMMEDIATE")
        let reload = try await VTPTest.get(path, port: server.port)
        let waiting = try ConsoleStreamRouteTests.report(id, port: server.port)
        try other.execute("COMMIT")
        #expect(reload.status == 200, "\(reload.text)")
        #expect(reload.text.contains("/ad_break_id/"), "the reload stitched no break: \(reload.text)")
        var flushed = false
        for _ in 0..<100 where !flushed { flushed = server.vtp.stitchStates.flush() }
        #expect(flushed)
        let stored = try ConsoleStreamRouteTests.report(id, port: server.port)
        let breakStarts = { (report: ConsoleStreamRouteTests.Report) in
            report.timeline.spans.filter { $0.kind == "break" }.map(\.start)
        }
        #expect(!breakStarts(stored).isEmpty)
        #expect(breakStarts(waiting) == breakStarts(stored))
    }
}
