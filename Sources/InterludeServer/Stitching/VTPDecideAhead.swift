import Foundation
import InterludeHLS

/// Decides a live break's pods for the channel's viewers when the break is
/// announced, on a background thread, a few to a store transaction, so the
/// reloads that meet the break only read. A channel made here announces
/// each break a window's length before its first segment appears (its
/// schedule is known), so its viewers' pods are decided over that time
/// instead of all at once when the break reaches them; an external origin's
/// break is announced when it first appears in the origin's window.
///
/// Without it, each viewer's first reload after a break appears decides
/// its pod and writes it (and its events) in a transaction of its own,
/// while the player waits. Real pod-serving stacks prefetch the same way
/// once a break is signalled. Only what the reload would do is done
/// earlier: the decisioner is deterministic, so the pod is the same
/// whoever decides it, and a reload that comes first decides for itself.
///
/// Breaks are seen when a channel's window is prepared: by a reload, or
/// by this thread, which looks at the window of every channel with viewers
/// once every ``pollInterval`` (a VTP watches each channel's origin, not
/// each viewer's), so a break is announced when it is due even when
/// no viewer reloads just then.
///
/// A viewer who begins watching while a break is still ahead is handed
/// over for it as soon as the thread is free (viewers joining together go
/// in one batch), and a break announced ahead is announced again when it
/// appears, for any viewer still not handed over: so viewers who join in
/// between are decided for before the break too, not all together when it
/// appears (10,000 viewers who had joined in the seconds before a break
/// used to stall every reload for 2–3 s there).
///
/// A viewer is a stream that reloaded one of the channel's renditions in
/// this process within ``activeFor`` of the break's announcement (a player
/// reloads every target duration; a stalled one is kept a while). Breaks
/// whose start has left the channel's window by the time their turn comes
/// are dropped, so a channel whose breaks come faster than they can be
/// decided falls back to deciding on reload rather than falling behind.
final class VTPDecideAhead: Sendable {
    /// Streams that reloaded longer ago than this are not decided for.
    static let activeFor: TimeInterval = 120
    /// Decisions per store transaction: enough to share a commit, few
    /// enough that a reload waiting for the write lock (to store its stitch
    /// state) waits for a few milliseconds, not for a long batch of a
    /// thread that runs at a lower priority than its own.
    static let batchSize = 16
    /// How often the windows of channels with viewers are looked at.
    static let pollInterval: TimeInterval = 1
    /// The thread's nice value on Linux: this is background work, the HTTP
    /// threads get the cores first.
    static let niceness: Int32 = 10

    /// One break to decide for the channel's viewers.
    struct Job: Sendable {
        var channel: String
        var request: LiveBreakRequest
        var announcedAt: Date
        /// Announced ahead of its appearance (decided again when it appears, for later viewers).
        var isAhead = false
        /// Only these viewers (a top-up for viewers who joined since the break was announced ahead).
        var only: Set<String>? = nil
    }

    /// A break announced ahead that has not appeared yet.
    private struct AheadBreak {
        var request: LiveBreakRequest
        /// The viewers handed over for it so far.
        var handed: Set<String> = []
    }

    private struct State {
        /// Per channel: stream ID → when it last reloaded.
        var viewers: [String: [String: Date]] = [:]
        /// Per channel: the origin sequence of its window's first segment, as last prepared.
        var windowStart: [String: UInt64] = [:]
        /// Per channel: the breaks already announced as appeared (break ID), newest last, bounded.
        var announced: [String: [String]] = [:]
        /// Per channel: the breaks announced ahead and not yet appeared, by break ID.
        var ahead: [String: [String: AheadBreak]] = [:]
        /// Per channel with breaks ahead: viewers first seen since the last top-up.
        var joined: [String: Set<String>] = [:]
        var jobs: [Job] = []
        /// A job is being decided.
        var busy = false
        var threadStarted = false
        var running = false
        var stopping = false
    }

    private let state = Locked(State())
    private let condition = NSCondition()
    private let decide: @Sendable (Job, [String]) -> Void
    private let poll: @Sendable ([String]) -> Void
    private let now: @Sendable () -> Date
    /// (Stream, break) pairs handed to `decide` so far (tests read it).
    private let decidedCount = Locked(0)

    /// `decide` gets one job and a batch of its viewers' stream IDs, `poll`
    /// the channels with viewers at `now` (to prepare their windows, which
    /// announces new breaks here), both on the background thread.
    init(
        now: @escaping @Sendable () -> Date = { Date() }, poll: @escaping @Sendable ([String]) -> Void = { _ in },
        decide: @escaping @Sendable (Job, [String]) -> Void
    ) {
        self.now = now
        self.poll = poll
        self.decide = decide
    }

    /// How many (stream, break) pairs were handed to `decide`.
    var decided: Int { decidedCount.withLock { $0 } }

    /// Nothing queued and nothing being decided.
    var isIdle: Bool { state.withLock { $0.jobs.isEmpty && $0.joined.isEmpty && !$0.busy } }

    /// Notes that `streamID` reloaded a rendition of `channel` at `now`.
    func noteReload(streamID: String, channel: String, at now: Date) {
        let joinedAhead = state.withLock { state -> Bool in
            let seen = state.viewers[channel, default: [:]].updateValue(now, forKey: streamID) != nil
            guard !seen, state.ahead[channel] != nil, !state.stopping else { return false }
            state.joined[channel, default: []].insert(streamID)
            return true
        }
        guard joinedAhead else { return }
        condition.lock()
        condition.signal()
        condition.unlock()
    }

    /// A newly prepared window of `channel` starting at origin sequence
    /// `windowStart`, with the breaks whose start it holds, and those of the
    /// channel's schedule still `upcoming` (not in the window yet): each
    /// break not announced before is queued, an upcoming one once ahead and
    /// once more when it appears.
    func windowPrepared(
        channel: String, windowStart: UInt64, breaks: [LiveBreakRequest], upcoming: [LiveBreakRequest] = [],
        at now: Date
    ) {
        let queued = state.withLock { state -> Bool in
            guard !state.stopping else { return false }
            let start = max(state.windowStart[channel] ?? 0, windowStart)
            state.windowStart[channel] = start
            var announced = state.announced[channel, default: []]
            var ahead = state.ahead[channel, default: [:]]
            var queued = false
            for request in breaks where !announced.contains(request.breakID) {
                announced.append(request.breakID)
                state.jobs.append(Job(channel: channel, request: request, announcedAt: now))
                queued = true
            }
            for request in upcoming where !announced.contains(request.breakID) && ahead[request.breakID] == nil {
                ahead[request.breakID] = AheadBreak(request: request)
                state.jobs.append(Job(channel: channel, request: request, announcedAt: now, isAhead: true))
                queued = true
            }
            if announced.count > 64 { announced.removeFirst(announced.count - 64) }
            state.announced[channel] = announced
            // Bounded: a break that never appeared (the schedule changed) is forgotten after 64 others.
            if ahead.count > 64 {
                for id in ahead.keys.sorted().prefix(ahead.count - 64) { ahead[id] = nil }
            }
            state.ahead[channel] = ahead.isEmpty ? nil : ahead
            if ahead.isEmpty { state.joined[channel] = nil }
            return queued
        }
        guard queued else { return }
        startThreadIfNeeded()
        condition.lock()
        condition.signal()
        condition.unlock()
    }

    /// Stops the thread after the batch in hand (the rest are left to reloads); waits for it.
    func stop() {
        condition.lock()
        state.withLock {
            $0.stopping = true
            $0.jobs = []
        }
        condition.broadcast()
        while state.withLock({ $0.running }) { condition.wait() }
        condition.unlock()
    }

    private func startThreadIfNeeded() {
        let start = state.withLock { state -> Bool in
            guard !state.threadStarted, !state.stopping else { return false }
            state.threadStarted = true
            state.running = true
            return true
        }
        guard start else { return }
        let thread = Thread { [self] in run() }
        thread.name = "interlude-decide-ahead"
        thread.start()
    }

    private enum Work {
        case decide(Job, [String])
        case poll([String])
        case stop
    }

    private func run() {
        BackgroundPriority.lowerCurrentThread(to: Self.niceness)
        defer {
            condition.lock()
            state.withLock { $0.running = false }
            condition.broadcast()
            condition.unlock()
        }
        var lastPoll = Date()
        while true {
            switch nextWork(pollAfter: lastPoll.addingTimeInterval(Self.pollInterval)) {
            case .stop: return
            case .poll(let channels):
                lastPoll = Date()
                poll(channels)
            case .decide(let job, let viewers):
                var start = viewers.startIndex
                while start < viewers.endIndex, isCurrent(job) {
                    let end = min(start + Self.batchSize, viewers.endIndex)
                    let batch = Array(viewers[start..<end])
                    decide(job, batch)
                    decidedCount.withLock { $0 += batch.count }
                    start = end
                }
            }
        }
    }

    /// The next job still in its channel's window, with the channel's
    /// viewers at its announcement; else, once `pollAfter` (real time)
    /// passes, the channels with viewers now; waits for either.
    private func nextWork(pollAfter: Date) -> Work {
        condition.lock()
        defer { condition.unlock() }
        while true {
            let work = state.withLock { state -> Work? in
                state.busy = false
                if state.stopping { return .stop }
                if !state.joined.isEmpty { Self.queueTopUps(&state, at: self.now()) }
                while !state.jobs.isEmpty {
                    let job = state.jobs.removeFirst()
                    guard Self.isCurrent(job, windowStart: state.windowStart[job.channel]) else { continue }
                    var viewers = Set(Self.pruned(&state, channel: job.channel, since: job.announcedAt).keys)
                    if let only = job.only { viewers.formIntersection(only) }
                    let breakID = job.request.breakID
                    if job.isAhead {
                        // Still waiting to appear: remember who was handed over.
                        guard let handed = state.ahead[job.channel]?[breakID]?.handed else { continue }
                        viewers.subtract(handed)
                        state.ahead[job.channel]?[breakID]?.handed.formUnion(viewers)
                    } else if let ahead = state.ahead[job.channel]?.removeValue(forKey: breakID) {
                        viewers.subtract(ahead.handed)
                        if state.ahead[job.channel]?.isEmpty == true {
                            state.ahead[job.channel] = nil
                            state.joined[job.channel] = nil
                        }
                    }
                    guard !viewers.isEmpty else { continue }
                    state.busy = true
                    return .decide(job, viewers.sorted())
                }
                guard Date() >= pollAfter else { return nil }
                let now = self.now()
                let channels = state.viewers.keys.sorted().filter {
                    !Self.pruned(&state, channel: $0, since: now).isEmpty
                }
                guard !channels.isEmpty else { return nil }
                state.busy = true
                return .poll(channels)
            }
            if let work { return work }
            if Date() >= pollAfter, state.withLock({ $0.viewers.isEmpty }) {
                // No viewers: nothing to look at until a reload announces a break.
                condition.wait()
            } else {
                _ = condition.wait(until: pollAfter)
            }
        }
    }

    /// Queues, for every viewer who joined a channel since its breaks were
    /// announced ahead, a job per such break limited to those viewers.
    private static func queueTopUps(_ state: inout State, at now: Date) {
        for (channel, viewers) in state.joined.sorted(by: { $0.key < $1.key }) {
            for (_, ahead) in (state.ahead[channel] ?? [:]).sorted(by: { $0.key < $1.key }) {
                state.jobs.append(
                    Job(channel: channel, request: ahead.request, announcedAt: now, isAhead: true, only: viewers))
            }
        }
        state.joined = [:]
    }

    /// The channel's viewers seen within ``activeFor`` before `instant`, the others forgotten.
    private static func pruned(_ state: inout State, channel: String, since instant: Date) -> [String: Date] {
        let since = instant.addingTimeInterval(-activeFor)
        let viewers = state.viewers[channel, default: [:]].filter { $0.value >= since }
        state.viewers[channel] = viewers.isEmpty ? nil : viewers
        return viewers
    }

    private func isCurrent(_ job: Job) -> Bool {
        state.withLock { state in
            !state.stopping && Self.isCurrent(job, windowStart: state.windowStart[job.channel])
        }
    }

    /// A break is worth deciding ahead while its start is in the channel's latest window.
    private static func isCurrent(_ job: Job, windowStart: UInt64?) -> Bool {
        job.request.originStartSequence >= (windowStart ?? 0)
    }

}
