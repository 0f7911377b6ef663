import Foundation

extension SQLiteSessionStore {
    public func verify(eventID: String, streamID: String, breakDigest: String, at now: Date) throws(StoreError)
        -> PodVerificationOutcome
    {
        try verifications.submit(
            PodVerification(eventID: eventID, streamID: streamID, breakDigest: breakDigest, at: now)
        ) { batch throws(StoreError) -> [PodVerificationOutcome] in try verify(batch) }
    }

    public func verify(_ batch: [PodVerification]) throws(StoreError) -> [PodVerificationOutcome] {
        guard !batch.isEmpty else { return [] }
        return try pool.with { pooled throws(StoreError) -> [PodVerificationOutcome] in
            try pooled.transaction { () throws(StoreError) -> [PodVerificationOutcome] in
                var outcomes: [PodVerificationOutcome] = []
                outcomes.reserveCapacity(batch.count)
                for request in batch { outcomes.append(try verifyOne(pooled, request)) }
                return outcomes
            }
        }
    }

    /// One verification inside the batch's transaction (in arrival order, so
    /// a duplicate later in the batch sees the first as verified).
    private func verifyOne(_ pooled: PooledSQLite, _ request: PodVerification) throws(StoreError)
        -> PodVerificationOutcome
    {
        if try markVerified(pooled, eventID: request.eventID, streamID: request.streamID, at: request.at) {
            return .verified
        }
        let known = try pooled.run("SELECT 1 FROM events WHERE id = ? AND stream_id = ?") {
            statement throws(StoreError) -> Bool in
            statement.bind(1, request.eventID)
            statement.bind(2, request.streamID)
            return try statement.step()
        }
        if known { return .alreadyVerified }
        let pending = try pooled.run("SELECT 1 FROM decisions WHERE stream_id = ? AND digest = ? AND body IS NULL") {
            statement throws(StoreError) -> Bool in
            statement.bind(1, request.streamID)
            statement.bind(2, request.breakDigest)
            return try statement.step()
        }
        guard pending else { return .unknown }
        let inserted = try pooled.run(
            "INSERT OR IGNORE INTO early_verifications (event_id, stream_id, received_at) VALUES (?, ?, ?)"
        ) { statement throws(StoreError) -> Bool in
            statement.bind(1, request.eventID)
            statement.bind(2, request.streamID)
            statement.bind(3, Self.milliseconds(request.at))
            _ = try statement.step()
            return pooled.connection.changes == 1
        }
        return inserted ? .accepted : .alreadyVerified
    }

    /// Sets `verified_at` if it was unset, which queues the event's beacons
    /// (an event with none is done at once). True when this call was the
    /// verification. Runs inside a transaction; one row, one page.
    func markVerified(
        _ pooled: PooledSQLite, eventID: String, streamID: String, at verifiedAt: Date
    ) throws(StoreError) -> Bool {
        try pooled.run(
            """
            UPDATE events SET verified_at = ?1, done_at = CASE WHEN beacon_count = 0 THEN ?1 END
            WHERE id = ?2 AND stream_id = ?3 AND verified_at IS NULL
            """
        ) { statement throws(StoreError) -> Bool in
            statement.bind(1, Self.milliseconds(verifiedAt))
            statement.bind(2, eventID)
            statement.bind(3, streamID)
            _ = try statement.step()
            return pooled.connection.changes == 1
        }
    }

    public func activity(streamID: String) throws(StoreError) -> PodStreamActivity {
        try pool.with { pooled throws(StoreError) -> PodStreamActivity in
            var activity = PodStreamActivity()
            try pooled.run(
                """
                SELECT id, verified_at, beacon_count, finished_mask, delivered_mask, attempts FROM events
                WHERE stream_id = ? AND verified_at IS NOT NULL
                """
            ) { statement throws(StoreError) in
                statement.bind(1, streamID)
                while try statement.step() {
                    let id = statement.text(0) ?? ""
                    activity.verifiedEvents[id] = Self.date(milliseconds: statement.int64(1))
                    let count = Int(statement.int64(2))
                    let finished = statement.int64(3)
                    let delivered = statement.int64(4)
                    activity.beaconsSent[id] = delivered.nonzeroBitCount
                    activity.beaconsAbandoned[id] = (finished & ~delivered).nonzeroBitCount
                    activity.beaconsPending[id] = count - finished.nonzeroBitCount
                    activity.failedAttempts += Int(statement.int64(5))
                }
            }
            return activity
        }
    }
}
