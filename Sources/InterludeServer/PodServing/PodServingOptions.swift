import Foundation

/// Pod-serving settings that are not catalog content: where sessions are
/// stored and how server-side beacons go out. (Sessions expire by the
/// server's ``AdServer/Configuration/clock``.)
public struct PodServingOptions: Sendable {
    /// Where sessions live; nil: ``SQLiteSessionStore`` at `<data-dir>/streams.sqlite`.
    public var store: (any SessionStore)?
    /// How server-side beacons are sent; nil: those to this server are
    /// answered by its own routes in-process, others go by ``HTTPBeaconTransport``.
    public var beaconTransport: (any BeaconTransport)?
    /// Retries and leases of the beacon sender.
    public var beaconRetry: BeaconRetryPolicy
    /// False: verified events queue their beacons but this process sends
    /// none (another process on the same data directory, or a later start, will).
    public var sendsBeacons: Bool

    public init(
        store: (any SessionStore)? = nil, beaconTransport: (any BeaconTransport)? = nil,
        beaconRetry: BeaconRetryPolicy = BeaconRetryPolicy(), sendsBeacons: Bool = true
    ) {
        self.store = store
        self.beaconTransport = beaconTransport
        self.beaconRetry = beaconRetry
        self.sendsBeacons = sendsBeacons
    }
}

/// When a failed server-side beacon is tried again.
public struct BeaconRetryPolicy: Sendable, Hashable {
    /// Delay after the first failure (s). Default 1.
    public var initialDelay: Double
    /// Longest delay (s); each failure doubles it up to this. Default 300.
    public var maxDelay: Double
    /// Attempts before giving up on a beacon. Default 20.
    public var maxAttempts: Int
    /// How long a sender owns the beacons it took (s); a sender that died
    /// holding them loses them to another after this. Default 30.
    public var lease: Double
    /// Beacons in flight at once per process. Default 16.
    public var concurrency: Int

    public init(
        initialDelay: Double = 1, maxDelay: Double = 300, maxAttempts: Int = 20, lease: Double = 30,
        concurrency: Int = 16
    ) {
        self.initialDelay = initialDelay
        self.maxDelay = maxDelay
        self.maxAttempts = maxAttempts
        self.lease = lease
        self.concurrency = concurrency
    }

    /// Seconds to wait after the `attempt`-th failure (1-based).
    public func delay(afterAttempt attempt: Int) -> Double {
        min(maxDelay, initialDelay * pow(2, Double(max(0, attempt - 1))))
    }
}
