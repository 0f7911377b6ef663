/// When the beacon sender holds off for a burst of verifications: while
/// they keep coming (each within `gap` of the last), sending waits, but
/// for at most `limit` per burst — after that it sends alongside them
/// (at its lower priority) until a quiet `gap` ends the burst, so a
/// beacon is delayed by at most `limit` and a sustained load still
/// drains the outbox. On two cores the in-process beacons (rendering,
/// the collector's route and its write) took as much CPU as the
/// verifications they follow; the answers are what a client waits on.
/// Times are seconds on any monotonic clock.
struct BurstHold: Sendable, Hashable {
    /// The longest pause between verifications that still counts as one burst.
    var gap: Double
    /// The longest a burst holds sending.
    var limit: Double
    /// When the current burst began to hold sending; nil outside a burst.
    private(set) var burstStart: Double?

    init(gap: Double = 0.05, limit: Double = 2) {
        self.gap = gap
        self.limit = limit
    }

    /// Whether to hold sending at `now`, the last verification having come
    /// at `lastArrival` (nil: none yet).
    mutating func holds(at now: Double, lastArrival: Double?) -> Bool {
        guard let lastArrival, now - lastArrival < gap else {
            burstStart = nil
            return false
        }
        let start = burstStart ?? now
        burstStart = start
        return now - start < limit
    }
}
