import Foundation
import InterludeVAST

#if canImport(Glibc)
    import Glibc
#endif

/// Sends the outbox's server-side beacons in the background: leases due
/// ones, sends them a few at a time, records each as delivered, retried
/// with backoff, or abandoned. The outbox is in the store, so beacons
/// survive a restart; leases keep two processes from sending one beacon at
/// once, and the `Idempotency-Key` makes a resend after a lost answer count once.
final class BeaconSender: Sendable {
    typealias Outcome = PodBeaconOutcome

    private struct State {
        var started = false
        var stopping = false
        var running = false
        var woken = false
    }

    let store: any SessionStore
    /// Set by ``start(baseURL:transport:)``.
    private let transport: Locked<any BeaconTransport>
    let policy: BeaconRetryPolicy
    let logger: any ServerLogger
    /// This process's lease owner name.
    let owner = "sender-\(UUID().uuidString.lowercased())"
    /// The base URL beacons to this server go to (set once the port is bound).
    let baseURL = Locked("http://127.0.0.1")
    private let state = Locked(State())
    /// When `wake()` was last called (seconds of uptime), for ``BurstHold``.
    private let lastWake = Locked<Double?>(nil)
    /// Holds sending during a burst of verifications.
    let burstHold: BurstHold
    /// Wakes the loop (new beacons, stop) and tells `stop()` the loop ended.
    private let condition = NSCondition()
    private let sends = DispatchQueue(label: "interlude.beacons.send", attributes: .concurrent)

    init(
        store: any SessionStore, transport: any BeaconTransport, policy: BeaconRetryPolicy, logger: any ServerLogger,
        burstHold: BurstHold = BurstHold()
    ) {
        self.burstHold = burstHold
        self.store = store
        self.transport = Locked(transport)
        self.policy = policy
        self.logger = logger
    }

    /// Starts the loop on its own thread (blocking sends never occupy Swift
    /// concurrency's few threads); beacons to this server go to `baseURL`,
    /// through `transport` when given.
    func start(baseURL: String, transport: (any BeaconTransport)? = nil) {
        self.baseURL.withLock { $0 = baseURL }
        if let transport { self.transport.withLock { $0 = transport } }
        let starts = state.withLock { state -> Bool in
            guard !state.started, !state.stopping else { return false }
            state.started = true
            state.running = true
            return true
        }
        guard starts else { return }
        let thread = Thread { [self] in run() }
        thread.name = "interlude.beacons"
        thread.start()
    }

    /// New beacons are queued: look now instead of at the next poll. Only
    /// the first call since the loop last paused signals it (a verification
    /// burst calls this thousands of times a second; one wake-up is enough).
    func wake() {
        let now = Self.uptime
        lastWake.withLock { $0 = now }
        let first = state.withLock { state -> Bool in
            defer { state.woken = true }
            return !state.woken
        }
        guard first else { return }
        condition.lock()
        condition.broadcast()
        condition.unlock()
    }

    /// Stops taking beacons, lets sends in flight finish, and gives back the
    /// leases of beacons taken but not sent.
    func stop() {
        condition.lock()
        state.withLock { $0.stopping = true }
        condition.broadcast()
        while state.withLock({ $0.running && $0.started }) { condition.wait() }
        condition.unlock()
        try? store.releaseBeacons(owner: owner)
    }

    private var isStopping: Bool { state.withLock { $0.stopping } }

    private static var uptime: Double { Double(DispatchTime.now().uptimeNanoseconds) / 1e9 }

    /// Waits while `hold` says a burst of verifications holds sending.
    private func waitOutBurst(_ hold: inout BurstHold) {
        while !isStopping, hold.holds(at: Self.uptime, lastArrival: lastWake.withLock({ $0 })) {
            rest(upTo: hold.gap)
        }
    }

    /// Sleeps `seconds` or until stopped; unlike `pause`, new beacons do not
    /// end it (mid-burst they come with every verification).
    private func rest(upTo seconds: Double) {
        condition.lock()
        let deadline = Date().addingTimeInterval(seconds)
        while !isStopping, condition.wait(until: deadline) {}
        condition.unlock()
    }

    /// Sleeps until woken, stopped, or `seconds` pass.
    private func pause(upTo seconds: Double) {
        condition.lock()
        let deadline = Date().addingTimeInterval(seconds)
        while !state.withLock({ $0.woken || $0.stopping }), condition.wait(until: deadline) {}
        state.withLock { $0.woken = false }
        condition.unlock()
    }

    /// Streams expired this long ago, with nothing left to send, are deleted.
    static let purgeAfter: TimeInterval = 24 * 3600

    /// The sender's nice value on Linux (a thread's own there): beacons are
    /// background work, so the HTTP threads answering verifications get the
    /// cores first, and the outbox drains as soon as they leave time.
    static let niceness: Int32 = 10

    private func run() {
        BackgroundPriority.lowerCurrentThread(to: Self.niceness)
        var lastPurge = Date.distantPast
        var hold = burstHold
        defer {
            condition.lock()
            state.withLock { $0.running = false }
            condition.broadcast()
            condition.unlock()
        }
        while !isStopping {
            if Date().timeIntervalSince(lastPurge) > 60 {
                lastPurge = Date()
                do {
                    let purged = try store.purge(expiredBefore: Date().addingTimeInterval(-Self.purgeAfter))
                    if purged > 0 { logger.message(.info, "sessions: \(purged) long-expired streams purged") }
                } catch {
                    logger.message(.warning, "session purge: \(error.message)")
                }
            }
            waitOutBurst(&hold)
            let batch: [PodOutboxBeacon]
            do {
                batch = try store.claimDueBeacons(
                    owner: owner, at: Date(), leaseFor: policy.lease, limit: max(1, policy.concurrency) * 4)
            } catch {
                logger.message(.warning, "beacon outbox: \(error.message)")
                pause(upTo: 1)
                continue
            }
            if batch.isEmpty {
                let next = (try? store.nextBeaconDue()) ?? nil
                pause(upTo: next.map { min(1, max(0.005, $0.timeIntervalSinceNow)) } ?? 1)
                continue
            }
            send(batch)
            // Tell `waitUntilIdle` to look again.
            condition.lock()
            condition.broadcast()
            condition.unlock()
        }
    }

    /// Waits until the outbox holds nothing left to send, up to `timeout`
    /// seconds; true when it is empty of unsent beacons.
    func waitUntilIdle(timeout: Double) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        condition.lock()
        defer { condition.unlock() }
        while true {
            if case .success(nil) = Result(catching: { () throws(StoreError) in try store.nextBeaconDue() }) {
                return true
            }
            guard Date() < deadline else { return false }
            // Woken after each batch; the short bound covers beacons waiting out a backoff.
            _ = condition.wait(until: min(deadline, Date().addingTimeInterval(0.05)))
        }
    }

    /// Sends `batch`: beacons the transport answers in-process one after
    /// another on this (low-priority) thread, the others `concurrency` at a
    /// time on the send queue meanwhile (they wait on the network).
    private func send(_ batch: [PodOutboxBeacon]) {
        let base = baseURL.withLock { $0 }
        let transport = transport.withLock { $0 }
        let outcomes = Locked<[(PodOutboxBeacon, Outcome)]>([])
        let group = DispatchGroup()
        let slots = DispatchSemaphore(value: max(1, policy.concurrency))
        var local: [(PodOutboxBeacon, String)] = []
        for beacon in batch {
            let url = Self.render(beacon, baseURL: base)
            if transport.answersInProcess(url: url) {
                local.append((beacon, url))
                continue
            }
            slots.wait()
            group.enter()
            sends.async { [self] in
                let outcome = attempt(beacon, url: url, transport: transport)
                outcomes.withLock { $0.append((beacon, outcome)) }
                slots.signal()
                group.leave()
            }
        }
        for (beacon, url) in local {
            let outcome = attempt(beacon, url: url, transport: transport)
            outcomes.withLock { $0.append((beacon, outcome)) }
        }
        group.wait()
        for (beacon, outcome) in outcomes.withLock({ $0 }) {
            if case .abandon(let reason) = outcome {
                logger.message(.warning, "beacon \(beacon.idempotencyKey) abandoned: \(reason)")
            }
        }
        do {
            try store.recordBeaconResults(
                outcomes.withLock { $0 }.map {
                    PodBeaconResult(eventID: $0.0.eventID, index: $0.0.index, outcome: $0.1)
                }, at: Date())
        } catch {
            // Leases run out and the beacons go again; the collector keeps one of each.
            logger.message(.warning, "beacon outbox: \(error.message)")
        }
    }

    private func attempt(_ beacon: PodOutboxBeacon, url: String, transport: any BeaconTransport) -> Outcome {
        guard url.hasPrefix("http://") || url.hasPrefix("https://") else {
            return .abandon(reason: "not an http(s) URL: \(url.prefix(200))")
        }
        do {
            let status = try transport.send(url: url, idempotencyKey: beacon.idempotencyKey)
            return Self.outcome(status: status, attempts: beacon.attempts + 1, policy: policy)
        } catch {
            return Self.outcome(failure: error.message, attempts: beacon.attempts + 1, policy: policy)
        }
    }

    /// The URL to send: this server's base URL in place of the sentinel, the
    /// macros a server can know filled (`[TIMESTAMP]` is when the event was
    /// verified, `[ADPLAYHEAD]` where in the ad it sits), and brackets of
    /// macros nobody can fill percent-encoded, as a URL needs. Byte-level:
    /// Foundation's string search dominated the sender's time.
    static func render(_ beacon: PodOutboxBeacon, baseURL: String) -> String {
        let based = beacon.url.replacingSentinel(DocumentTemplate.baseURLSentinel, with: baseURL)
        let filled = VASTMacroFiller(now: { beacon.eventTime }).fill(
            based,
            with: [
                .timestamp: .value(PodTimeFormat.iso8601(beacon.eventTime)),
                .adPlayhead: .value(VASTTime(milliseconds: beacon.adPlayhead).formatted), .serverSide: .value("1"),
                .assetURI: .unknown,
            ])
        var encoded: [UInt8] = []
        encoded.reserveCapacity(filled.utf8.count + 8)
        for byte in filled.utf8 {
            switch byte {
            case UInt8(ascii: "["): encoded += Array("%5B".utf8)
            case UInt8(ascii: "]"): encoded += Array("%5D".utf8)
            default: encoded.append(byte)
            }
        }
        return String(decoding: encoded, as: UTF8.self)
    }

    /// 2xx and 3xx deliver; 408, 429 and 5xx are tried again; other 4xx
    /// never will succeed.
    static func outcome(status: Int, attempts: Int, policy: BeaconRetryPolicy) -> Outcome {
        switch status {
        case 200..<400: return .delivered
        case 408, 429, 500..<600:
            return outcome(failure: "HTTP \(status)", attempts: attempts, policy: policy)
        default: return .abandon(reason: "HTTP \(status)")
        }
    }

    /// A failure that may pass: retried with backoff until the last attempt.
    static func outcome(failure: String, attempts: Int, policy: BeaconRetryPolicy) -> Outcome {
        guard attempts < policy.maxAttempts else { return .abandon(reason: "\(failure) after \(attempts) attempts") }
        return .retry(after: policy.delay(afterAttempt: attempts), reason: failure)
    }
}
