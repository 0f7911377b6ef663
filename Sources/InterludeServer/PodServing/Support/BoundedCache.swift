/// A thread-safe dictionary of at most `limit` entries: storing one more
/// forgets the entry read or stored least recently (`LeastRecentlyUsed`).
/// For values that never change once stored (streams, decisions), so a
/// forgotten entry is only a store read away, and memory stays bounded
/// however many streams come.
final class BoundedCache<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    private let entries: Locked<LeastRecentlyUsed<Key, Value>>
    /// The most entries held at once.
    let limit: Int

    init(limit: Int) {
        self.limit = max(1, limit)
        entries = Locked(LeastRecentlyUsed(limit: limit))
    }

    subscript(key: Key) -> Value? { entries.withLock { $0.value(for: key) } }

    func store(_ value: Value, for key: Key) {
        entries.withLock { $0.store(value, for: key) }
    }

    var count: Int { entries.withLock { $0.count } }
}
