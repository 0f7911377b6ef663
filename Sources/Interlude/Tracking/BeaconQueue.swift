import Foundation

/// Delivers beacons. Every one is journaled before ``enqueue(_:)`` returns,
/// sent in order per ad and destination host, retried with capped
/// exponential backoff and jitter (a server's `Retry-After` is honoured), and
/// settled in the journal once delivered or dropped, so a crash or kill
/// between "due" and "sent" loses none: the next queue on the same journal
/// sends what is owed. A beacon still failing after ``Policy/maxAttempts``
/// attempts, or older than ``Policy/maxAge``, is dropped with a log line.
///
/// Order is kept per ad and host because that is the order a server can see:
/// a collector expects an ad's impression before its quartiles, but no server
/// sees another host's pings. So a dead tracking host delays only its own
/// pings, never the ad's others, and error pings to different hosts never
/// wait for each other.
public actor BeaconQueue {
    /// Counts since the queue started.
    public struct Statistics: Sendable, Hashable {
        public var delivered = 0
        public var retried = 0
        /// Too old, an invalid URL, out of attempts, or no room without a journal.
        public var dropped = 0
        /// Beacons still owed (in memory or journal).
        public var pending = 0
    }

    /// What became of a beacon.
    public enum Delivery: String, Sendable, Hashable {
        /// The server answered (any status below 500 other than 408/429).
        case delivered
        /// Dropped: too old, out of attempts, or an invalid URL.
        case dropped
    }

    /// Beacons to one host for one ad: sent one at a time, in order.
    struct Lane: Hashable {
        var adID: String
        var destination: String
    }

    let http: any HTTPClient
    let clock: any AdClock
    let policy: Policy
    let logger: any AdLogger
    let now: @Sendable () -> Date
    let jitter: @Sendable () -> Double
    let userAgent: String
    private let journal: BeaconJournal?
    private let inbox = BeaconInbox()

    private var lanes: [Lane: [Beacon]] = [:]
    private var workers: [Lane: Task<Void, Never>] = [:]
    private var inMemory: Set<String> = []
    private var spilled = false
    var stats = Statistics()
    private var idleWaiters: [CheckedContinuation<Void, Never>] = []
    private var observer: (@Sendable (Beacon, Delivery) -> Void)?

    /// Calls `observer` (on the queue) for every beacon delivered or dropped.
    public func setObserver(_ observer: (@Sendable (Beacon, Delivery) -> Void)?) {
        self.observer = observer
    }

    /// A queue; with `storage`, beacons survive crashes and restarts (call
    /// ``resumeOwedBeacons()`` to send what an earlier run left owed). The
    /// journal is not read here, so creating a queue on the main actor does no
    /// file reading: ``resumeOwedBeacons()`` reads it, on the queue. (Kept
    /// `throws` for source compatibility; nothing throws any more.)
    public init(
        http: any HTTPClient, clock: any AdClock = SystemClock(), storage: (any BeaconJournalStorage)? = nil,
        policy: Policy = Policy(), logger: any AdLogger = SilentLogger(), userAgent: String = Settings().userAgent,
        now: @escaping @Sendable () -> Date = { Date() },
        jitter: @escaping @Sendable () -> Double = { Double.random(in: 0...1) }
    ) throws {
        self.http = http
        self.clock = clock
        self.policy = policy
        self.logger = logger
        self.userAgent = userAgent
        self.now = now
        self.jitter = jitter
        journal = storage.map {
            BeaconJournal(storage: $0, compactAfter: policy.compactAfter, syncsToDisk: policy.syncsJournalToDisk)
        }
    }

    /// Reads the journal and sends whatever an earlier run still owes.
    public func resumeOwedBeacons() {
        drainInbox()
        guard let journal, !inbox.isClosed else { return }
        let owed: [Beacon]
        do {
            owed = try journal.loadOwed()
        } catch {
            logger.log(.error, "beacons: journal unreadable (\(error)); an earlier run's beacons are not resent")
            return
        }
        let earlier = owed.filter { !inMemory.contains($0.idempotencyKey) }
        guard !earlier.isEmpty else { return }
        logger.log(.info, "beacons: resending \(earlier.count) owed from the journal")
        schedule(earlier)
    }

    /// Makes `beacons` due: journaled before this returns, on the caller's
    /// thread (so an app killed right after the event loses none), then sent
    /// in the background in the order they were enqueued. Synchronous and
    /// callable from anywhere, the main actor included.
    public nonisolated func enqueue(_ beacons: [Beacon]) {
        guard !beacons.isEmpty, !inbox.isClosed else { return }
        if let journal {
            do {
                try journal.add(beacons)
            } catch {
                // Without a journal write the beacons are still sent; only crash safety is lost.
                logger.log(.error, "beacons: journal write failed (\(error)); sending without crash safety")
            }
        }
        if inbox.put(beacons) { Task { await self.drainInbox() } }
    }

    /// Counts so far.
    public var statistics: Statistics {
        drainInbox()
        var current = stats
        current.pending = journal?.owedCount ?? inMemory.count
        return current
    }

    /// Returns once nothing is left to send (or the queue is shut down).
    public func waitUntilIdle() async {
        drainInbox()
        if workers.isEmpty && !spilled { return }
        await withCheckedContinuation { idleWaiters.append($0) }
    }

    /// Stops sending; what is owed stays in the journal for the next run.
    public func shutDown() {
        inbox.close()
        for worker in workers.values { worker.cancel() }
        workers.removeAll()
        lanes.removeAll()
        inMemory.removeAll()
        resumeIdleWaiters()
    }

    // MARK: - Lanes

    /// Moves what ``enqueue(_:)`` left in the inbox into the lanes, in order.
    private func drainInbox() {
        let beacons = inbox.takeAll()
        guard !beacons.isEmpty, !inbox.isClosed else { return }
        schedule(beacons)
    }

    private func schedule(_ beacons: [Beacon]) {
        for beacon in beacons where !inMemory.contains(beacon.idempotencyKey) {
            guard inMemory.count < policy.maxInMemory else {
                if journal != nil {
                    spilled = true  // waits in the journal; reloaded as memory frees
                } else {
                    stats.dropped += 1
                    logger.log(
                        .error, "beacons: dropped \(beacon.event) for ad \(beacon.adID): queue full and no journal")
                }
                continue
            }
            inMemory.insert(beacon.idempotencyKey)
            let lane = Lane(adID: beacon.adID, destination: beacon.destination)
            lanes[lane, default: []].append(beacon)
            if workers[lane] == nil {
                workers[lane] = Task { await self.drainLane(lane) }
            }
        }
    }

    private func drainLane(_ lane: Lane) async {
        while !Task.isCancelled, let beacon = lanes[lane]?.first {
            let outcome = await deliver(beacon)
            guard outcome != .cancelled, !Task.isCancelled else { return }
            observer?(beacon, outcome == .delivered ? .delivered : .dropped)
            lanes[lane]?.removeFirst()
            inMemory.remove(beacon.idempotencyKey)
            do { try journal?.settle(beacon.idempotencyKey) } catch {
                logger.log(
                    .error, "beacons: journal settle failed (\(error)); the beacon may be sent again after a restart")
            }
        }
        guard !Task.isCancelled else { return }
        lanes[lane] = nil
        workers[lane] = nil
        if spilled, inMemory.count < policy.maxInMemory / 2 { reloadSpilled() }
        if workers.isEmpty && !spilled { resumeIdleWaiters() }
    }

    private func reloadSpilled() {
        guard let owed = journal?.owedBeacons else { return }
        let waiting = owed.filter { !inMemory.contains($0.idempotencyKey) }
        spilled = false
        schedule(waiting)
    }

    private func resumeIdleWaiters() {
        let waiters = idleWaiters
        idleWaiters.removeAll()
        for waiter in waiters { waiter.resume() }
    }
}

/// Beacons enqueued from outside the queue, waiting for the queue to take
/// them into its lanes: a FIFO, so that calls from one thread keep their
/// order whichever of their wake-ups the queue runs first. Every field is
/// touched under `lock`, so the unchecked conformance is sound.
private final class BeaconInbox: @unchecked Sendable {
    private let lock = NSLock()
    private var beacons: [Beacon] = []
    private var closed = false

    var isClosed: Bool { lock.withLock { closed } }

    /// Adds beacons; true when the inbox was empty (the caller wakes the queue).
    func put(_ new: [Beacon]) -> Bool {
        lock.withLock {
            guard !closed else { return false }
            let wasEmpty = beacons.isEmpty
            beacons.append(contentsOf: new)
            return wasEmpty
        }
    }

    func takeAll() -> [Beacon] {
        lock.withLock {
            defer { beacons = [] }
            return beacons
        }
    }

    func close() {
        lock.withLock {
            closed = true
            beacons = []
        }
    }
}
