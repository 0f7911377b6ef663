import Foundation
import InterludeHLS
import Testing

@testable import InterludeServer

/// Live breaks decided for the channel's viewers before the break reaches
/// them, so the viewers' reloads only read.
@Suite struct VTPDecideAheadTests {
    private typealias Test = VTPTest

    /// Waits (real time, bounded) until the decide-ahead thread has nothing left to do.
    static func settle(_ decideAhead: VTPDecideAhead) async {
        for _ in 0..<2_000 {
            if decideAhead.isIdle { return }
            try? await Task.sleep(nanoseconds: 5_000_000)
        }
    }

    /// A decide-ahead that records each (break, stream) pair handed over, as `break:stream`.
    private static func recordingDecideAhead() -> (VTPDecideAhead, Locked<[String]>) {
        let handed = Locked<[String]>([])
        let decideAhead = VTPDecideAhead { job, streams in
            handed.withLock { $0 += streams.map { "\(job.request.breakID):\($0)" } }
        }
        return (decideAhead, handed)
    }

    private static func breakIDs(_ server: AdServer, _ stream: String) throws -> [String] {
        try server.sessionStore.decisions(streamID: stream).map(\.breakID).sorted()
    }

    @Test func aViewersReloadFindsItsPodAlreadyDecidedAndAnIdleViewerIsLeftOut() async throws {
        let clock = PodTestClock()
        let (server, directory) = try Test.start(clock: clock)
        defer {
            server.shutdown()
            directory.remove()
        }
        let path = { (id: String) in "/vtp/stream_id/\(id)/live/test-live/360p.m3u8" }
        let leader = try await Test.registerLive(port: server.port, asset: "test-live")
        let follower = try await Test.registerLive(port: server.port, asset: "test-live")
        let idle = try await Test.registerLive(port: server.port, asset: "test-live")
        let started = clock.now
        for id in [leader, follower, idle] { #expect(try await Test.get(path(id), port: server.port).status == 200) }
        await Self.settle(server.vtp.decideAhead)
        var lastBreakAtIdlesTime = 0
        for _ in 0..<40 {
            clock.advance(by: 4)
            // The leader's reload meets each new window first; the follower's comes after.
            #expect(try await Test.get(path(leader), port: server.port).status == 200)
            await Self.settle(server.vtp.decideAhead)
            let before = try Self.breakIDs(server, follower)
            #expect(try await Test.get(path(follower), port: server.port).status == 200)
            let after = try Self.breakIDs(server, follower)
            #expect(after == before, "the follower's reload decided a pod itself: \(before) → \(after)")
            if clock.now.timeIntervalSince(started) <= VTPDecideAhead.activeFor {
                lastBreakAtIdlesTime = try Self.breakIDs(server, leader).count
            }
        }
        let leaders = try Self.breakIDs(server, leader)
        #expect(leaders.count >= 5, "\(leaders)")
        #expect(try Self.breakIDs(server, follower) == leaders)
        // The idle stream reloaded once: breaks that appeared within `activeFor` of it were
        // decided for it, later ones were not.
        let idles = try Self.breakIDs(server, idle)
        #expect(!idles.isEmpty && Set(idles).isSubset(of: Set(leaders)))
        #expect(idles.count <= lastBreakAtIdlesTime && idles.count < leaders.count, "\(idles) of \(leaders)")
        // What was decided ahead is what the reload would have decided (the decisioner is deterministic).
        let stream = try #require(try server.sessionStore.stream(id: follower))
        for ahead in try server.sessionStore.decisions(streamID: follower) {
            let again = server.pods.decisioner.decide(
                stream: stream, breakID: ahead.breakID, requestedDuration: ahead.requestedDuration,
                slate: .onlyWhenEmpty, at: ahead.decidedAt)
            #expect(again.ads.map(\.creativeID) == ahead.ads.map(\.creativeID))
            #expect(again.events.map(\.id) == ahead.events.map(\.id))
        }
    }

    /// A channel made here announces its breaks half a window ahead, so
    /// the reload that first meets a break finds every viewer's pod decided,
    /// rather than the break's first reloads deciding while players wait.
    @Test func aBreakIsDecidedForItsViewersBeforeItsFirstSegmentAppears() async throws {
        let clock = PodTestClock()
        let (server, directory) = try Test.start(clock: clock)
        defer {
            server.shutdown()
            directory.remove()
        }
        let channel = try #require(server.vtp.library.liveChannel("test-live"))
        let viewer = try await Test.registerLive(port: server.port, asset: "test-live")
        let path = "/vtp/stream_id/\(viewer)/live/test-live/360p.m3u8"
        #expect(try await Test.get(path, port: server.port).status == 200)
        await Self.settle(server.vtp.decideAhead)
        var met = 0
        for _ in 0..<(4 * channel.breakPeriodSegments) {
            clock.advance(by: channel.segmentDuration / channel.settings.speed)
            let window = channel.window(at: clock.now)
            let decided = Set(try Self.breakIDs(server, viewer))
            for appearing in window.breaks where appearing.firstSequence == window.segments.last?.sequence {
                let id = VTPBreakIdentity.podIdentifier(breakID: appearing.id).breakID
                #expect(
                    decided.contains(id), "\(appearing.id) appears with this reload, undecided (\(decided.sorted()))")
                met += 1
            }
            #expect(try await Test.get(path, port: server.port).status == 200)
            await Self.settle(server.vtp.decideAhead)
        }
        #expect(met >= 3)
    }

    @Test func aBreakWhoseStartLeftTheWindowIsNotDecidedAheadAndNoBreakIsAnnouncedTwice() async throws {
        let (decideAhead, handed) = Self.recordingDecideAhead()
        defer { decideAhead.stop() }
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        decideAhead.noteReload(streamID: "a", channel: "c", at: now)
        decideAhead.noteReload(streamID: "b", channel: "c", at: now)
        decideAhead.noteReload(streamID: "x", channel: "elsewhere", at: now)
        let gone = LiveBreakRequest(breakID: "gone", originStartSequence: 12)
        let here = LiveBreakRequest(breakID: "here", originStartSequence: 25)
        decideAhead.windowPrepared(channel: "c", windowStart: 20, breaks: [gone, here], at: now)
        await Self.settle(decideAhead)
        decideAhead.windowPrepared(channel: "c", windowStart: 21, breaks: [here], at: now)
        await Self.settle(decideAhead)
        #expect(handed.withLock { $0 } == ["here:a", "here:b"])
        #expect(decideAhead.decided == 2)
    }

    @Test func aBreakAnnouncedAheadIsHandedOverAgainWhenItAppearsForLaterViewersOnly() async throws {
        let (decideAhead, handed) = Self.recordingDecideAhead()
        defer { decideAhead.stop() }
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        decideAhead.noteReload(streamID: "a", channel: "c", at: now)
        let next = LiveBreakRequest(breakID: "next", originStartSequence: 30)
        decideAhead.windowPrepared(channel: "c", windowStart: 20, breaks: [], upcoming: [next], at: now)
        await Self.settle(decideAhead)
        decideAhead.windowPrepared(channel: "c", windowStart: 21, breaks: [], upcoming: [next], at: now)
        await Self.settle(decideAhead)
        #expect(handed.withLock { $0 } == ["next:a"])
        // `b` begins watching while the break is still ahead; `a` was handed over already.
        decideAhead.noteReload(streamID: "b", channel: "c", at: now)
        decideAhead.windowPrepared(channel: "c", windowStart: 25, breaks: [next], at: now)
        await Self.settle(decideAhead)
        decideAhead.windowPrepared(channel: "c", windowStart: 26, breaks: [next], at: now)
        await Self.settle(decideAhead)
        #expect(handed.withLock { $0 } == ["next:a", "next:b"])
        #expect(decideAhead.decided == 2)
    }

    /// A viewer who began watching between a break's announcement and its
    /// appearance used to be decided for only when the break appeared, on
    /// the reload that met it, with every other such viewer.
    @Test func aViewerWhoJoinsWhileABreakIsAheadIsHandedOverBeforeItAppears() async throws {
        let (decideAhead, handed) = Self.recordingDecideAhead()
        defer { decideAhead.stop() }
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        decideAhead.noteReload(streamID: "a", channel: "c", at: now)
        let next = LiveBreakRequest(breakID: "next", originStartSequence: 30)
        let later = LiveBreakRequest(breakID: "later", originStartSequence: 40)
        decideAhead.windowPrepared(channel: "c", windowStart: 20, breaks: [], upcoming: [next, later], at: now)
        await Self.settle(decideAhead)
        #expect(handed.withLock { $0 } == ["next:a", "later:a"])
        // `b` and `c` join while both breaks are ahead; `a` reloads again.
        decideAhead.noteReload(streamID: "b", channel: "c", at: now)
        decideAhead.noteReload(streamID: "c", channel: "c", at: now)
        decideAhead.noteReload(streamID: "a", channel: "c", at: now)
        await Self.settle(decideAhead)
        let joined = handed.withLock { Array($0.dropFirst(2)) }
        #expect(Set(joined) == ["later:b", "later:c", "next:b", "next:c"], "\(joined)")
        // A viewer of another channel is not handed over for this one's breaks.
        decideAhead.noteReload(streamID: "d", channel: "other", at: now)
        await Self.settle(decideAhead)
        // The break appears: nobody is left to hand over.
        decideAhead.windowPrepared(channel: "c", windowStart: 25, breaks: [next], upcoming: [later], at: now)
        await Self.settle(decideAhead)
        #expect(handed.withLock { $0.count } == 6)
        #expect(decideAhead.decided == 6)
    }

    @Test func stoppingWaitsForTheThreadAndLaterWindowsAreIgnored() async throws {
        let decideAhead = VTPDecideAhead { _, _ in }
        decideAhead.noteReload(streamID: "a", channel: "c", at: Date())
        decideAhead.windowPrepared(
            channel: "c", windowStart: 0, breaks: [LiveBreakRequest(breakID: "b", originStartSequence: 1)], at: Date())
        decideAhead.stop()
        decideAhead.windowPrepared(
            channel: "c", windowStart: 0, breaks: [LiveBreakRequest(breakID: "d", originStartSequence: 2)], at: Date())
        #expect(decideAhead.isIdle)
        decideAhead.stop()
    }
}
