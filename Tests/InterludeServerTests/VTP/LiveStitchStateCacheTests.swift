import Foundation
import InterludeHLS
import InterludeTestSupport
import Testing

@testable import InterludeServer

/// The store keeps each rendition's last decoded stitch state beside the
/// stored text it came from: the same text is not decoded again, changed
/// text is, and the cache holds a bounded number of entries, forgetting the
/// least recently used.
@Suite struct LiveStitchStateCacheTests {
    private static func state(through sequence: UInt64) -> LiveStitchState {
        var state = LiveStitchState()
        state.settled.throughSequence = sequence
        state.settled.sequenceOffset = 3
        return state
    }

    private func store() throws -> (SQLiteSessionStore, String, TemporaryDirectory) {
        let directory = TemporaryDirectory()
        let path = directory.url.appendingPathComponent("streams.sqlite").path
        return (try SQLiteSessionStore(path: path), path, directory)
    }

    /// The row as stored, read straight from the database.
    private func storedText(_ store: SQLiteSessionStore, streamID: String, rendition: String) throws -> String? {
        try store.pool.with { pooled throws(StoreError) -> String? in
            try pooled.run("SELECT body FROM live_stitch_states WHERE stream_id = ? AND rendition = ?") {
                statement throws(StoreError) -> String? in
                statement.bind(1, streamID)
                statement.bind(2, rendition)
                return try statement.step() ? statement.text(0) : nil
            }
        }
    }

    private func overwrite(_ store: SQLiteSessionStore, streamID: String, rendition: String, body: String) throws {
        try store.pool.write { pooled throws(StoreError) in
            try pooled.run("UPDATE live_stitch_states SET body = ? WHERE stream_id = ? AND rendition = ?") {
                statement throws(StoreError) in
                statement.bind(1, body)
                statement.bind(2, streamID)
                statement.bind(3, rendition)
                _ = try statement.step()
            }
        }
    }

    @Test func theSameStoredTextIsAnsweredFromTheCacheWithoutDecoding() throws {
        let (store, _, directory) = try store()
        defer {
            store.close()
            directory.remove()
        }
        try store.mergeLiveStitchState(Self.state(through: 10), streamID: "s", rendition: "360p")
        let text = try #require(try storedText(store, streamID: "s", rendition: "360p"))
        // A marker state under the stored text: returned only if the read skips decoding.
        let marker = Self.state(through: 999)
        store.stitchStates.remember(marker, text: text, streamID: "s", rendition: "360p")
        #expect(try store.liveStitchState(streamID: "s", rendition: "360p") == marker)
        #expect(try store.liveStitchStates(streamID: "s") == ["360p": marker])
    }

    @Test func changedStoredTextIsDecodedAgain() throws {
        let (store, path, directory) = try store()
        defer {
            store.close()
            directory.remove()
        }
        try store.mergeLiveStitchState(Self.state(through: 10), streamID: "s", rendition: "360p")
        #expect(try store.liveStitchState(streamID: "s", rendition: "360p") == Self.state(through: 10))
        // Another process on the same file folds further: this store sees it on its next read.
        let other = try SQLiteSessionStore(path: path)
        defer { other.close() }
        let further = Self.state(through: 20)
        #expect(try other.mergeLiveStitchState(further, streamID: "s", rendition: "360p") == further)
        #expect(try store.liveStitchState(streamID: "s", rendition: "360p") == further)
        #expect(try store.liveStitchStates(streamID: "s") == ["360p": further])
    }

    @Test func aCorruptRowIsAnErrorNotTheCachedState() throws {
        let (store, _, directory) = try store()
        defer {
            store.close()
            directory.remove()
        }
        try store.mergeLiveStitchState(Self.state(through: 10), streamID: "s", rendition: "360p")
        _ = try store.liveStitchState(streamID: "s", rendition: "360p")
        try overwrite(store, streamID: "s", rendition: "360p", body: "{\"settled\": tru")
        #expect(throws: StoreError.self) { try store.liveStitchState(streamID: "s", rendition: "360p") }
    }

    @Test func aFullCacheForgetsTheLeastRecentlyUsedEntry() {
        var cache = LeastRecentlyUsed<String, Int>(limit: 3)
        cache.store(1, for: "a")
        cache.store(2, for: "b")
        cache.store(3, for: "c")
        #expect(cache.value(for: "a") == 1)  // now b is the least recently used
        cache.store(4, for: "d")
        #expect(cache.count == 3)
        #expect(cache.value(for: "b") == nil)
        #expect(cache.value(for: "a") == 1)
        #expect(cache.value(for: "c") == 3)
        #expect(cache.value(for: "d") == 4)
        cache.store(5, for: "c")  // replacing refreshes too: a is now the oldest
        cache.store(6, for: "e")
        #expect(cache.value(for: "a") == nil)
        #expect(cache.value(for: "c") == 5)
        #expect(cache.count == 3)
    }

    @Test func anEvictedStateIsDecodedFromTheStoreAgain() throws {
        let cache = StitchStateCache(limit: 2)
        cache.remember(Self.state(through: 1), text: "one", streamID: "s1", rendition: "360p")
        cache.remember(Self.state(through: 2), text: "two", streamID: "s2", rendition: "360p")
        cache.remember(Self.state(through: 3), text: "three", streamID: "s3", rendition: "360p")
        #expect(cache.count == 2)
        #expect(cache.state(streamID: "s1", rendition: "360p", text: "one") == nil)
        #expect(cache.state(streamID: "s2", rendition: "360p", text: "two") == Self.state(through: 2))
        #expect(cache.state(streamID: "s3", rendition: "360p", text: "three") == Self.state(through: 3))
        #expect(cache.state(streamID: "s3", rendition: "540p", text: "three") == nil)
        #expect(cache.state(streamID: "s3", rendition: "360p", text: "three!") == nil)
    }
}
