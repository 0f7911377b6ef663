import Foundation

extension SQLiteSessionStore {
    public func claimDueBeacons(owner: String, at now: Date, leaseFor: TimeInterval, limit: Int) throws(StoreError)
        -> [PodOutboxBeacon]
    {
        try pool.with { pooled throws(StoreError) -> [PodOutboxBeacon] in
            try pooled.transaction { () throws(StoreError) -> [PodOutboxBeacon] in
                try pooled.run(
                    """
                    UPDATE outbox SET lease_owner = ?1, lease_until = ?2
                    WHERE id IN (
                        SELECT id FROM outbox
                        WHERE sent_at IS NULL AND next_attempt_at <= ?3 AND (lease_until IS NULL OR lease_until <= ?3)
                        ORDER BY next_attempt_at, id LIMIT ?4)
                    RETURNING id, stream_id, event_id, url, idempotency_key, event_time, ad_playhead, attempts
                    """
                ) { statement throws(StoreError) -> [PodOutboxBeacon] in
                    let nowMilliseconds = Self.milliseconds(now)
                    statement.bind(1, owner)
                    statement.bind(2, nowMilliseconds + Int64((leaseFor * 1000).rounded()))
                    statement.bind(3, nowMilliseconds)
                    statement.bind(4, Int64(limit))
                    var beacons: [PodOutboxBeacon] = []
                    while try statement.step() {
                        beacons.append(
                            PodOutboxBeacon(
                                id: statement.int64(0), streamID: statement.text(1) ?? "",
                                eventID: statement.text(2) ?? "", url: statement.text(3) ?? "",
                                idempotencyKey: statement.text(4) ?? "",
                                eventTime: Self.date(milliseconds: statement.int64(5)),
                                adPlayhead: Int(statement.int64(6)), attempts: Int(statement.int64(7))))
                    }
                    return beacons.sorted { $0.id < $1.id }
                }
            }
        }
    }

    public func markBeaconsSent(_ ids: [Int64], at now: Date) throws(StoreError) {
        guard !ids.isEmpty else { return }
        try pool.with { pooled throws(StoreError) in
            try pooled.transaction { () throws(StoreError) in
                for id in ids {
                    try pooled.run(
                        """
                        UPDATE outbox SET sent_at = ?, delivered = 1, attempts = attempts + 1, lease_owner = NULL,
                        lease_until = NULL WHERE id = ? AND sent_at IS NULL
                        """
                    ) { statement throws(StoreError) in
                        statement.bind(1, Self.milliseconds(now))
                        statement.bind(2, id)
                        _ = try statement.step()
                    }
                }
            }
        }
    }

    public func rescheduleBeacon(id: Int64, attempts: Int, nextAttemptAt: Date, error: String) throws(StoreError) {
        try pool.write { pooled throws(StoreError) in
            try pooled.run(
                """
                UPDATE outbox SET attempts = ?, next_attempt_at = ?, last_error = ?, lease_owner = NULL,
                lease_until = NULL WHERE id = ? AND sent_at IS NULL
                """
            ) { statement throws(StoreError) in
                statement.bind(1, Int64(attempts))
                statement.bind(2, Self.milliseconds(nextAttemptAt))
                statement.bind(3, String(error.prefix(500)))
                statement.bind(4, id)
                _ = try statement.step()
            }
        }
    }

    public func abandonBeacon(id: Int64, attempts: Int, error: String, at now: Date) throws(StoreError) {
        try pool.write { pooled throws(StoreError) in
            try pooled.run(
                """
                UPDATE outbox SET attempts = ?, sent_at = ?, last_error = ?, lease_owner = NULL, lease_until = NULL
                WHERE id = ? AND sent_at IS NULL
                """
            ) { statement throws(StoreError) in
                statement.bind(1, Int64(attempts))
                statement.bind(2, Self.milliseconds(now))
                statement.bind(3, String(error.prefix(500)))
                statement.bind(4, id)
                _ = try statement.step()
            }
        }
    }

    public func releaseBeacons(owner: String) throws(StoreError) {
        try pool.write { pooled throws(StoreError) in
            try pooled.run(
                "UPDATE outbox SET lease_owner = NULL, lease_until = NULL WHERE lease_owner = ? AND sent_at IS NULL"
            ) { statement throws(StoreError) in
                statement.bind(1, owner)
                _ = try statement.step()
            }
        }
    }

    public func nextBeaconDue() throws(StoreError) -> Date? {
        try pool.with { pooled throws(StoreError) -> Date? in
            try pooled.run(
                "SELECT MIN(MAX(next_attempt_at, COALESCE(lease_until, 0))) FROM outbox WHERE sent_at IS NULL"
            ) { statement throws(StoreError) -> Date? in
                guard try statement.step(), !statement.isNull(0) else { return nil }
                return Self.date(milliseconds: statement.int64(0))
            }
        }
    }
}
