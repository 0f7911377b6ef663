import Foundation

extension SQLiteSessionStore {
    public func verify(eventID: String, streamID: String, breakDigest: String, at now: Date) throws(StoreError)
        -> PodVerificationOutcome
    {
        try pool.with { pooled throws(StoreError) -> PodVerificationOutcome in
            try pooled.transaction { () throws(StoreError) -> PodVerificationOutcome in
                if try markVerified(pooled, eventID: eventID, streamID: streamID, at: now) {
                    return .verified
                }
                let known = try pooled.run("SELECT 1 FROM events WHERE id = ? AND stream_id = ?") {
                    statement throws(StoreError) -> Bool in
                    statement.bind(1, eventID)
                    statement.bind(2, streamID)
                    return try statement.step()
                }
                if known { return .alreadyVerified }
                let pending = try pooled.run(
                    "SELECT 1 FROM decisions WHERE stream_id = ? AND digest = ? AND body IS NULL"
                ) { statement throws(StoreError) -> Bool in
                    statement.bind(1, streamID)
                    statement.bind(2, breakDigest)
                    return try statement.step()
                }
                guard pending else { return .unknown }
                let inserted = try pooled.run(
                    "INSERT OR IGNORE INTO early_verifications (event_id, stream_id, received_at) VALUES (?, ?, ?)"
                ) { statement throws(StoreError) -> Bool in
                    statement.bind(1, eventID)
                    statement.bind(2, streamID)
                    statement.bind(3, Self.milliseconds(now))
                    _ = try statement.step()
                    return pooled.connection.changes == 1
                }
                return inserted ? .accepted : .alreadyVerified
            }
        }
    }

    /// Sets `verified_at` if it was unset and queues the event's beacons.
    /// True when this call was the verification. Runs inside a transaction.
    func markVerified(
        _ pooled: PooledSQLite, eventID: String, streamID: String, at verifiedAt: Date
    ) throws(StoreError) -> Bool {
        let row = try pooled.run(
            """
            UPDATE events SET verified_at = ? WHERE id = ? AND stream_id = ? AND verified_at IS NULL
            RETURNING beacons, ad_offset
            """
        ) { statement throws(StoreError) -> (beacons: String, offset: Int64)? in
            statement.bind(1, Self.milliseconds(verifiedAt))
            statement.bind(2, eventID)
            statement.bind(3, streamID)
            guard try statement.step() else { return nil }
            return (statement.text(0) ?? "", statement.int64(1))
        }
        guard let row else { return false }
        let urls = row.beacons.split(separator: "\n").map(String.init)
        for (index, url) in urls.enumerated() {
            try pooled.run(
                """
                INSERT OR IGNORE INTO outbox
                (stream_id, event_id, url, idempotency_key, event_time, ad_playhead, next_attempt_at)
                VALUES (?, ?, ?, ?, ?, ?, ?)
                """
            ) { statement throws(StoreError) in
                statement.bind(1, streamID)
                statement.bind(2, eventID)
                statement.bind(3, url)
                statement.bind(4, "\(eventID)-\(index)")
                statement.bind(5, Self.milliseconds(verifiedAt))
                statement.bind(6, row.offset)
                // Due at once, whatever clock verified it; retries are timed by the sender.
                statement.bind(7, Int64(0))
                _ = try statement.step()
            }
        }
        return true
    }

    public func activity(streamID: String) throws(StoreError) -> PodStreamActivity {
        try pool.with { pooled throws(StoreError) -> PodStreamActivity in
            var activity = PodStreamActivity()
            try pooled.run("SELECT id, verified_at FROM events WHERE stream_id = ? AND verified_at IS NOT NULL") {
                statement throws(StoreError) in
                statement.bind(1, streamID)
                while try statement.step() {
                    activity.verifiedEvents[statement.text(0) ?? ""] = Self.date(milliseconds: statement.int64(1))
                }
            }
            try pooled.run(
                """
                SELECT event_id, sent_at IS NOT NULL, delivered, COUNT(*), SUM(attempts) - SUM(delivered)
                FROM outbox WHERE stream_id = ? GROUP BY event_id, sent_at IS NOT NULL, delivered
                """
            ) { statement throws(StoreError) in
                statement.bind(1, streamID)
                while try statement.step() {
                    let eventID = statement.text(0) ?? ""
                    let count = Int(statement.int64(3))
                    switch (statement.int64(1) != 0, statement.int64(2) != 0) {
                    case (true, true): activity.beaconsSent[eventID, default: 0] += count
                    case (true, false): activity.beaconsAbandoned[eventID, default: 0] += count
                    case (false, _): activity.beaconsPending[eventID, default: 0] += count
                    }
                    activity.failedAttempts += Int(statement.int64(4))
                }
            }
            return activity
        }
    }
}
