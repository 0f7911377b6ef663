import Foundation
import InterludeHLS

extension SQLiteSessionStore {
    public func liveStitchState(streamID: String, rendition: String) throws(StoreError) -> LiveStitchState? {
        let body = try pool.with { pooled throws(StoreError) -> String? in
            try Self.readStitchState(pooled, streamID: streamID, rendition: rendition)
        }
        return try body.map { (text: String) throws(StoreError) -> LiveStitchState in
            try decodedStitchState(text, streamID: streamID, rendition: rendition)
        }
    }

    public func liveStitchStates(streamID: String) throws(StoreError) -> [String: LiveStitchState] {
        let rows = try pool.with { pooled throws(StoreError) -> [(String, String)] in
            try pooled.run("SELECT rendition, body FROM live_stitch_states WHERE stream_id = ?") {
                statement throws(StoreError) -> [(String, String)] in
                statement.bind(1, streamID)
                var rows: [(String, String)] = []
                while try statement.step() { rows.append((statement.text(0) ?? "", statement.text(1) ?? "")) }
                return rows
            }
        }
        var states: [String: LiveStitchState] = [:]
        for (rendition, body) in rows {
            states[rendition] = try decodedStitchState(body, streamID: streamID, rendition: rendition)
        }
        return states
    }

    @discardableResult
    public func mergeLiveStitchState(_ state: LiveStitchState, streamID: String, rendition: String)
        throws(StoreError) -> LiveStitchState
    {
        try pool.with { pooled throws(StoreError) -> LiveStitchState in
            try pooled.transaction { () throws(StoreError) -> LiveStitchState in
                try mergeStitchStateRow(pooled, state, streamID: streamID, rendition: rendition)
            }
        }
    }

    /// Every update merged in one transaction: one commit (and one change
    /// of the WAL that every other connection's next read notices) for the
    /// whole batch instead of one each.
    public func mergeLiveStitchStates(_ updates: [LiveStitchUpdate]) throws(StoreError) {
        guard !updates.isEmpty else { return }
        try pool.with { pooled throws(StoreError) in
            try pooled.transaction { () throws(StoreError) in
                for update in updates {
                    _ = try mergeStitchStateRow(
                        pooled, update.state, streamID: update.streamID, rendition: update.rendition)
                }
            }
        }
    }

    /// Merges `state` into the rendition's row inside the caller's
    /// transaction; writes nothing when that adds nothing.
    private func mergeStitchStateRow(
        _ pooled: PooledSQLite, _ state: LiveStitchState, streamID: String, rendition: String
    ) throws(StoreError) -> LiveStitchState {
        var merged = state
        if let stored = try Self.readStitchState(pooled, streamID: streamID, rendition: rendition) {
            let original = try decodedStitchState(stored, streamID: streamID, rendition: rendition)
            var current = original
            current.merge(state)
            // Nothing new: no write.
            if current == original { return current }
            merged = current
        }
        let body = Self.encodeStitchState(merged)
        try pooled.run(
            "INSERT OR REPLACE INTO live_stitch_states (stream_id, rendition, body) VALUES (?, ?, ?)"
        ) { statement throws(StoreError) in
            statement.bind(1, streamID)
            statement.bind(2, rendition)
            statement.bind(3, body)
            _ = try statement.step()
        }
        // Remembered before COMMIT: should the commit fail, the row keeps its old text, which
        // differs from this one, so the next read decodes that.
        stitchStates.remember(merged, text: body, streamID: streamID, rendition: rendition)
        return merged
    }

    /// The state `text` (the rendition's stored row) decodes to: from the
    /// cache when it holds this very text, else decoded and remembered.
    private func decodedStitchState(_ text: String, streamID: String, rendition: String)
        throws(StoreError) -> LiveStitchState
    {
        if let cached = stitchStates.state(streamID: streamID, rendition: rendition, text: text) { return cached }
        let state = try Self.decodeStitchState(text)
        stitchStates.remember(state, text: text, streamID: streamID, rendition: rendition)
        return state
    }

    private static func readStitchState(_ pooled: PooledSQLite, streamID: String, rendition: String)
        throws(StoreError) -> String?
    {
        try pooled.run("SELECT body FROM live_stitch_states WHERE stream_id = ? AND rendition = ?") {
            statement throws(StoreError) -> String? in
            statement.bind(1, streamID)
            statement.bind(2, rendition)
            return try statement.step() ? statement.text(0) : nil
        }
    }

    /// The state's line format (``LiveStitchState/text``): written and read
    /// by hand, a fraction of what JSON costs on every changed reload.
    static func encodeStitchState(_ state: LiveStitchState) -> String { state.text }

    /// Reads the line format, or the JSON that rows written before it hold
    /// (dates as seconds since the reference date, exact either way).
    static func decodeStitchState(_ text: String) throws(StoreError) -> LiveStitchState {
        if text.hasPrefix("{") {
            do {
                return try JSONDecoder().decode(LiveStitchState.self, from: Data(text.utf8))
            } catch {
                throw StoreError("stored live stitch state is unreadable: \(error)")
            }
        }
        do {
            return try LiveStitchState(text: text)
        } catch {
            throw StoreError("stored live stitch state is unreadable: \(error.message) (line \(error.line))")
        }
    }
}
