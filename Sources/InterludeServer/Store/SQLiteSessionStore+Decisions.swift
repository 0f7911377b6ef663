import Foundation

extension SQLiteSessionStore {
    public func decisionState(streamID: String, breakID: String) throws(StoreError) -> PodDecisionState {
        let row = try pool.with { pooled throws(StoreError) -> (Int64, String?)? in
            try pooled.run("SELECT claimed_at, body FROM decisions WHERE stream_id = ? AND break_id = ?") {
                statement throws(StoreError) -> (Int64, String?)? in
                statement.bind(1, streamID)
                statement.bind(2, breakID)
                guard try statement.step() else { return nil }
                return (statement.int64(0), statement.isNull(1) ? nil : statement.text(1))
            }
        }
        guard let (claimedAt, body) = row else { return .none }
        guard let body else { return .pending(claimedAt: Self.date(milliseconds: claimedAt)) }
        return .ready(try Self.decode(PodBreakDecision.self, body))
    }

    public func decisions(streamID: String) throws(StoreError) -> [PodBreakDecision] {
        let bodies = try pool.with { pooled throws(StoreError) -> [String] in
            try pooled.run("SELECT body FROM decisions WHERE stream_id = ? AND body IS NOT NULL ORDER BY rowid") {
                statement throws(StoreError) -> [String] in
                statement.bind(1, streamID)
                var bodies: [String] = []
                while try statement.step() { bodies.append(statement.text(0) ?? "") }
                return bodies
            }
        }
        var decisions: [PodBreakDecision] = []
        for body in bodies { decisions.append(try Self.decode(PodBreakDecision.self, body)) }
        return decisions
    }

    public func claimDecision(
        streamID: String, breakID: String, breakDigest: String, at now: Date, staleAfter: TimeInterval
    ) throws(StoreError) -> Bool {
        try pool.with { pooled throws(StoreError) -> Bool in
            try pooled.transaction { () throws(StoreError) -> Bool in
                let existing = try pooled.run(
                    "SELECT claimed_at, body IS NULL FROM decisions WHERE stream_id = ? AND break_id = ?"
                ) { statement throws(StoreError) -> (claimedAt: Int64, pending: Bool)? in
                    statement.bind(1, streamID)
                    statement.bind(2, breakID)
                    guard try statement.step() else { return nil }
                    return (statement.int64(0), statement.int64(1) != 0)
                }
                let nowMilliseconds = Self.milliseconds(now)
                guard let existing else {
                    try pooled.run(
                        "INSERT INTO decisions (stream_id, break_id, digest, claimed_at) VALUES (?, ?, ?, ?)"
                    ) { statement throws(StoreError) in
                        statement.bind(1, streamID)
                        statement.bind(2, breakID)
                        statement.bind(3, breakDigest)
                        statement.bind(4, nowMilliseconds)
                        _ = try statement.step()
                    }
                    return true
                }
                guard existing.pending,
                    existing.claimedAt < nowMilliseconds - Int64((staleAfter * 1000).rounded())
                else { return false }
                try pooled.run("UPDATE decisions SET claimed_at = ? WHERE stream_id = ? AND break_id = ?") {
                    statement throws(StoreError) in
                    statement.bind(1, nowMilliseconds)
                    statement.bind(2, streamID)
                    statement.bind(3, breakID)
                    _ = try statement.step()
                }
                return true
            }
        }
    }

    public func completeDecision(_ decision: PodBreakDecision, at now: Date) throws(StoreError) -> PodBreakDecision {
        try completeDecisions([decision], at: now)[0]
    }

    public func completeDecisions(_ decisions: [PodBreakDecision], at now: Date) throws(StoreError)
        -> [PodBreakDecision]
    {
        guard !decisions.isEmpty else { return [] }
        // Encoded before the write turn is taken: only SQLite work holds it.
        let prepared = decisions.map { decision in (decision, decision.storedJSON, Self.eventRows(of: decision)) }
        let written = try pool.with { pooled throws(StoreError) -> [String?] in
            try pooled.transaction { () throws(StoreError) -> [String?] in
                var written: [String?] = []
                written.reserveCapacity(prepared.count)
                for (decision, body, eventRows) in prepared {
                    written.append(
                        try writeDecision(pooled, decision, body: body, eventRows: eventRows, at: now))
                }
                return written
            }
        }
        var stored: [PodBreakDecision] = []
        stored.reserveCapacity(decisions.count)
        for (decision, text) in zip(decisions, written) {
            if let text { stored.append(try Self.decode(PodBreakDecision.self, text)) } else { stored.append(decision) }
        }
        return stored
    }

    private typealias EventRow = (event: PodAdEvent, beacons: String, count: Int)

    private static func eventRows(of decision: PodBreakDecision) -> [EventRow] {
        var rows: [EventRow] = []
        for ad in decision.ads {
            for event in ad.events {
                let urls = ad.beacons[event.type.rawValue] ?? []
                rows.append((event, urlList(urls), min(urls.count, maxBeaconsPerEvent)))
            }
        }
        return rows
    }

    /// Writes one decision inside a transaction; returns the text of the
    /// decision already written (another server finished first), which stays.
    private func writeDecision(
        _ pooled: PooledSQLite, _ decision: PodBreakDecision, body: String, eventRows: [EventRow], at now: Date
    ) throws(StoreError) -> String? {
        let written = try pooled.run("SELECT body FROM decisions WHERE stream_id = ? AND break_id = ?") {
            statement throws(StoreError) -> String? in
            statement.bind(1, decision.streamID)
            statement.bind(2, decision.breakID)
            guard try statement.step(), !statement.isNull(0) else { return nil }
            return statement.text(0)
        }
        if let written { return written }
        try pooled.run(
            """
            INSERT INTO decisions (stream_id, break_id, digest, claimed_at, body) VALUES (?, ?, ?, ?, ?)
            ON CONFLICT (stream_id, break_id) DO UPDATE SET body = excluded.body
            """
        ) { statement throws(StoreError) in
            statement.bind(1, decision.streamID)
            statement.bind(2, decision.breakID)
            statement.bind(3, decision.breakDigest)
            statement.bind(4, Self.milliseconds(now))
            statement.bind(5, body)
            _ = try statement.step()
        }
        for row in eventRows {
            try pooled.run(
                """
                INSERT OR IGNORE INTO events (id, stream_id, ad_offset, beacons, beacon_count)
                VALUES (?, ?, ?, ?, ?)
                """
            ) { statement throws(StoreError) in
                statement.bind(1, row.event.id)
                statement.bind(2, decision.streamID)
                statement.bind(3, Int64(row.event.offset))
                statement.bind(4, row.beacons)
                statement.bind(5, Int64(row.count))
                _ = try statement.step()
            }
        }
        try applyEarlyVerifications(pooled, decision: decision)
        return nil
    }

    /// Verifications that came while the decision was pending take effect now,
    /// at the time they arrived.
    private func applyEarlyVerifications(_ pooled: PooledSQLite, decision: PodBreakDecision) throws(StoreError) {
        let ids = Set(decision.events.map(\.id))
        let early = try pooled.run("SELECT event_id, received_at FROM early_verifications WHERE stream_id = ?") {
            statement throws(StoreError) -> [(String, Int64)] in
            statement.bind(1, decision.streamID)
            var rows: [(String, Int64)] = []
            while try statement.step() { rows.append((statement.text(0) ?? "", statement.int64(1))) }
            return rows
        }
        for (eventID, receivedAt) in early where ids.contains(eventID) {
            _ = try markVerified(
                pooled, eventID: eventID, streamID: decision.streamID, at: Self.date(milliseconds: receivedAt))
            try pooled.run("DELETE FROM early_verifications WHERE event_id = ?") { statement throws(StoreError) in
                statement.bind(1, eventID)
                _ = try statement.step()
            }
        }
    }
}
