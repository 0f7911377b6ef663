import Foundation

/// Delivers beacons: every one is journaled before it is sent, sent in order
/// per ad, retried with capped exponential backoff and jitter, and settled in
/// the journal once delivered, so a crash or kill between "due" and "sent"
/// loses none (the next queue on the same journal sends what is owed).
/// Beacons older than ``Policy/maxAge`` are dropped with a log line.
public actor BeaconQueue {
    /// Delivery rules.
    public struct Policy: Sendable, Hashable {
        /// First retry delay in seconds. Default 1.
        public var initialRetryDelay: TimeInterval = 1
        /// Longest retry delay in seconds. Default 60.
        public var maxRetryDelay: TimeInterval = 60
        /// Beacons older than this are dropped, with a log line. Default 24 h.
        public var maxAge: TimeInterval = 24 * 3600
        /// Beacons held in memory at most; more wait in the journal. Default 10,000.
        public var maxInMemory: Int = 10_000
        /// Seconds allowed for one ping. Default 10.
        public var requestTimeout: TimeInterval = 10
        /// Settled records before the journal is compacted. Default 512.
        public var compactAfter: Int = 512

        public init() {}
    }

    /// Counts since the queue started.
    public struct Statistics: Sendable, Hashable {
        public var delivered = 0
        public var retried = 0
        public var dropped = 0
        /// Beacons still owed (in memory or journal).
        public var pending = 0
    }

    private let http: any HTTPClient
    private let clock: any AdClock
    private let policy: Policy
    private let logger: any AdLogger
    private let now: @Sendable () -> Date
    private let jitter: @Sendable () -> Double
    private let userAgent: String
    private var journal: BeaconJournal?

    private var lanes: [String: [Beacon]] = [:]
    private var workers: [String: Task<Void, Never>] = [:]
    private var inMemory: Set<String> = []
    private var spilled = false
    private var stats = Statistics()
    private var idleWaiters: [CheckedContinuation<Void, Never>] = []
    private var isShutDown = false
    private var observer: (@Sendable (Beacon, Delivery) -> Void)?

    /// What became of a beacon.
    public enum Delivery: String, Sendable, Hashable {
        /// The server answered (any status below 500 other than 408/429).
        case delivered
        /// Dropped: too old, or an invalid URL.
        case dropped
    }

    /// Calls `observer` (on the queue) for every beacon delivered or dropped.
    public func setObserver(_ observer: (@Sendable (Beacon, Delivery) -> Void)?) {
        self.observer = observer
    }

    /// A queue; with `storage`, beacons survive crashes and restarts (call
    /// ``resumeOwedBeacons()`` to send what an earlier run left owed).
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
        journal = try storage.map { try BeaconJournal(storage: $0, compactAfter: policy.compactAfter) }
    }

    /// Sends whatever the journal says an earlier run still owes.
    public func resumeOwedBeacons() {
        guard let owed = journal?.owedBeacons, !owed.isEmpty else { return }
        logger.log(.info, "beacons: resending \(owed.count) owed from the journal")
        schedule(owed)
    }

    /// Makes `beacons` due: journaled first, then sent.
    public func enqueue(_ beacons: [Beacon]) {
        guard !beacons.isEmpty, !isShutDown else { return }
        do {
            try journal?.add(beacons)
        } catch {
            // Without a journal write the beacons are still sent; only crash safety is lost.
            logger.log(.error, "beacons: journal write failed (\(error)); sending without crash safety")
        }
        schedule(beacons)
    }

    /// Counts so far.
    public var statistics: Statistics {
        var current = stats
        current.pending = journal?.owed.count ?? inMemory.count
        return current
    }

    /// Returns once nothing is left to send (or the queue is shut down).
    public func waitUntilIdle() async {
        if workers.isEmpty && !spilled { return }
        await withCheckedContinuation { idleWaiters.append($0) }
    }

    /// Stops sending; what is owed stays in the journal for the next run.
    public func shutDown() {
        isShutDown = true
        for worker in workers.values { worker.cancel() }
        workers.removeAll()
        lanes.removeAll()
        inMemory.removeAll()
        resumeIdleWaiters()
    }

    // MARK: - Lanes

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
            lanes[beacon.adID, default: []].append(beacon)
            if workers[beacon.adID] == nil {
                let adID = beacon.adID
                workers[adID] = Task { await self.drainLane(adID) }
            }
        }
    }

    private func drainLane(_ adID: String) async {
        while !Task.isCancelled, let beacon = lanes[adID]?.first {
            let outcome = await deliver(beacon)
            guard outcome != .cancelled, !Task.isCancelled else { return }
            observer?(beacon, outcome == .delivered ? .delivered : .dropped)
            lanes[adID]?.removeFirst()
            inMemory.remove(beacon.idempotencyKey)
            do { try journal?.settle(beacon.idempotencyKey) } catch {
                logger.log(
                    .error, "beacons: journal settle failed (\(error)); the beacon may be sent again after a restart")
            }
        }
        guard !Task.isCancelled else { return }
        lanes[adID] = nil
        workers[adID] = nil
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

    // MARK: - Delivery

    private enum Outcome { case delivered, dropped, cancelled }

    private func deliver(_ beacon: Beacon) async -> Outcome {
        var attempt = 0
        while true {
            if now().timeIntervalSince(beacon.createdAt) > policy.maxAge {
                stats.dropped += 1
                logger.log(
                    .warning,
                    "beacons: dropped \(beacon.event) for ad \(beacon.adID), older than \(Int(policy.maxAge)) s: \(beacon.url)"
                )
                return .dropped
            }
            guard let url = URL(string: beacon.url) else {
                stats.dropped += 1
                logger.log(
                    .warning, "beacons: dropped \(beacon.event) for ad \(beacon.adID): invalid URL \(beacon.url)")
                return .dropped
            }
            let request = HTTPRequest(
                url: url, headers: ["User-Agent": userAgent, "Idempotency-Key": beacon.idempotencyKey],
                timeout: policy.requestTimeout)
            do {
                let response = try await http.send(request, deadlineOn: clock)
                // Server errors and throttling are worth a retry; any other answer is final.
                if response.statusCode < 500, response.statusCode != 429, response.statusCode != 408 {
                    if response.statusCode >= 400 {
                        logger.log(
                            .warning,
                            "beacons: \(beacon.event) for ad \(beacon.adID) answered HTTP \(response.statusCode)")
                    }
                    stats.delivered += 1
                    return .delivered
                }
            } catch {
                if Task.isCancelled { return .cancelled }
            }
            attempt += 1
            stats.retried += 1
            let ceiling = min(policy.maxRetryDelay, policy.initialRetryDelay * pow(2, Double(attempt - 1)))
            let delay = ceiling * (0.5 + 0.5 * jitter())
            do { try await clock.sleep(for: delay) } catch { return .cancelled }
        }
    }
}
