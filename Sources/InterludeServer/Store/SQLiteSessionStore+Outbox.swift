import Foundation

/// The outbox is the events table itself: a verified event that is not
/// done has beacons to send. Verification writes one row; the sender leases
/// events, sends the beacons not finished yet, and records what each came
/// to, one event row per event.
extension SQLiteSessionStore {
    public func claimDueBeacons(owner: String, at now: Date, leaseFor: TimeInterval, limit: Int) throws(StoreError)
        -> [PodOutboxBeacon]
    {
        let rows = try pool.with { pooled throws(StoreError) -> [LeasedEvent] in
            try pooled.transaction { () throws(StoreError) -> [LeasedEvent] in
                try pooled.run(
                    """
                    UPDATE events SET lease_owner = ?1, lease_until = ?2
                    WHERE id IN (
                        SELECT id FROM events
                        WHERE verified_at IS NOT NULL AND done_at IS NULL AND next_attempt_at <= ?3
                        AND (lease_until IS NULL OR lease_until <= ?3)
                        ORDER BY next_attempt_at LIMIT ?4)
                    RETURNING id, stream_id, beacons, ad_offset, verified_at, finished_mask, attempts
                    """
                ) { statement throws(StoreError) -> [LeasedEvent] in
                    let nowMilliseconds = Self.milliseconds(now)
                    statement.bind(1, owner)
                    statement.bind(2, nowMilliseconds + Int64((leaseFor * 1000).rounded()))
                    statement.bind(3, nowMilliseconds)
                    statement.bind(4, Int64(limit))
                    var rows: [LeasedEvent] = []
                    while try statement.step() {
                        rows.append(
                            LeasedEvent(
                                eventID: statement.text(0) ?? "", streamID: statement.text(1) ?? "",
                                beacons: statement.text(2) ?? "", adPlayhead: Int(statement.int64(3)),
                                verifiedAt: Self.date(milliseconds: statement.int64(4)), finished: statement.int64(5),
                                attempts: Int(statement.int64(6))))
                    }
                    return rows
                }
            }
        }
        return rows.sorted { $0.eventID < $1.eventID }.flatMap { row in
            row.beacons.split(separator: "\n", omittingEmptySubsequences: false).enumerated().compactMap {
                index, url -> PodOutboxBeacon? in
                guard row.finished & (1 << Int64(index)) == 0 else { return nil }
                return PodOutboxBeacon(
                    streamID: row.streamID, eventID: row.eventID, index: index, url: String(url),
                    idempotencyKey: "\(row.eventID)-\(index)", eventTime: row.verifiedAt, adPlayhead: row.adPlayhead,
                    attempts: row.attempts)
            }
        }
    }

    public func recordBeaconResults(_ results: [PodBeaconResult], at now: Date) throws(StoreError) {
        guard !results.isEmpty else { return }
        let byEvent = Dictionary(grouping: results, by: \.eventID)
        try pool.with { pooled throws(StoreError) in
            try pooled.transaction { () throws(StoreError) in
                for (eventID, outcomes) in byEvent {
                    let current = try pooled.run(
                        "SELECT beacon_count, finished_mask, delivered_mask FROM events WHERE id = ?"
                    ) { statement throws(StoreError) -> (count: Int, finished: Int64, delivered: Int64)? in
                        statement.bind(1, eventID)
                        guard try statement.step() else { return nil }
                        return (Int(statement.int64(0)), statement.int64(1), statement.int64(2))
                    }
                    guard let (count, finishedBefore, deliveredBefore) = current else { continue }
                    var finished = finishedBefore
                    var delivered = deliveredBefore
                    var retryAfter: Double?
                    var lastError: String?
                    for result in outcomes {
                        let bit = Int64(1) << Int64(result.index)
                        switch result.outcome {
                        case .delivered:
                            finished |= bit
                            delivered |= bit
                        case .abandon(let reason):
                            finished |= bit
                            lastError = reason
                        case .retry(let delay, let reason):
                            retryAfter = min(retryAfter ?? delay, delay)
                            lastError = reason
                        }
                    }
                    let full: Int64 = count >= 63 ? Int64.max : (1 << Int64(count)) - 1
                    try pooled.run(
                        """
                        UPDATE events SET finished_mask = ?1, delivered_mask = ?2,
                        attempts = attempts + ?3, next_attempt_at = ?4, last_error = COALESCE(?5, last_error),
                        done_at = ?6, lease_owner = NULL, lease_until = NULL WHERE id = ?7
                        """
                    ) { statement throws(StoreError) in
                        statement.bind(1, finished)
                        statement.bind(2, delivered)
                        statement.bind(3, Int64(retryAfter == nil ? 0 : 1))
                        statement.bind(4, Self.milliseconds(now.addingTimeInterval(retryAfter ?? 0)))
                        statement.bind(5, lastError.map { String($0.prefix(500)) })
                        if finished & full == full {
                            statement.bind(6, Self.milliseconds(now))
                        } else {
                            statement.bind(6, nil)
                        }
                        statement.bind(7, eventID)
                        _ = try statement.step()
                    }
                }
            }
        }
    }

    public func releaseBeacons(owner: String) throws(StoreError) {
        try pool.write { pooled throws(StoreError) in
            try pooled.run(
                "UPDATE events SET lease_owner = NULL, lease_until = NULL WHERE lease_owner = ? AND done_at IS NULL"
            ) { statement throws(StoreError) in
                statement.bind(1, owner)
                _ = try statement.step()
            }
        }
    }

    public func nextBeaconDue() throws(StoreError) -> Date? {
        try pool.with { pooled throws(StoreError) -> Date? in
            try pooled.run(
                """
                SELECT MIN(MAX(next_attempt_at, COALESCE(lease_until, 0))) FROM events
                WHERE verified_at IS NOT NULL AND done_at IS NULL
                """
            ) { statement throws(StoreError) -> Date? in
                guard try statement.step(), !statement.isNull(0) else { return nil }
                return Self.date(milliseconds: statement.int64(0))
            }
        }
    }
}

/// An event leased to a sender, before it is split into its beacons.
private struct LeasedEvent {
    var eventID: String
    var streamID: String
    var beacons: String
    var adPlayhead: Int
    var verifiedAt: Date
    var finished: Int64
    var attempts: Int
}
